// Server-side apply and managedFields through the real server (spec 2.4, 4.9): every write
// records its manager; apply merges, conflicts with upstream's 409 and causes, forces, shares,
// removes what it stops applying (back to the default where the kind has one), creates with the
// create permission only, resets managedFields with [{}], takes over kubectl's client-side record,
// hands a field over, and owns status apart from the main resource.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { defaultAuthenticationOptions } from '../../cmd/apiserver/app/authentication-options.js';
import { defaultAuthorizationOptions } from '../../pkg/authorization/modes.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import type { Client, Response } from './framework/client.js';

const APPLY = 'application/apply-patch+yaml';
const MERGE = 'application/merge-patch+json';
const ns = 'default';
const cms = `/api/v1/namespaces/${ns}/configmaps`;
const deps = `/apis/apps/v1/namespaces/${ns}/deployments`;
const RBAC = '/apis/rbac.authorization.orch.io/v1';

interface Entry {
  manager?: string;
  operation: string;
  apiVersion: string;
  time: string;
  fieldsType: string;
  fieldsV1: Record<string, unknown>;
  subresource?: string;
}

function applyTo(c: Client, path: string, manager: string | undefined, config: unknown, query = ''): Promise<Response> {
  const q = [manager === undefined ? '' : `fieldManager=${encodeURIComponent(manager)}`, query].filter(Boolean).join('&');
  return c.request('PATCH', `${path}${q ? `?${q}` : ''}`, { raw: typeof config === 'string' ? config : JSON.stringify(config), contentType: APPLY });
}

const configMap = (name: string, data: Record<string, string>, extra: Record<string, unknown> = {}) =>
  ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...extra }, data });

/** manager (with operation and sub-resource) -> fieldsV1, for comparing ownership. */
function owners(obj: { metadata: { managedFields?: Entry[] } }): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const e of obj.metadata.managedFields ?? []) out[`${e.manager ?? ''}/${e.operation}${e.subresource ? `/${e.subresource}` : ''}`] = e.fieldsV1;
  return out;
}

function assertStatus(r: Response, code: number, reason: string, message?: string): void {
  assert.equal(r.status, code, r.text);
  assert.equal(r.body.kind, 'Status', r.text);
  assert.equal(r.body.reason, reason, r.text);
  if (message !== undefined) assert.equal(r.body.message, message);
}

describe('server-side apply', () => {
  let t: TestServer;
  let dir: string;
  let admin: Client;
  let patcher: Client;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'orch-ssa-'));
    writeFileSync(join(dir, 'tokens.csv'), 'admin-token,admin,1,"system:masters"\npatch-token,patcher,2,"patchers"\n');
    t = await startTestServer({
      authentication: { ...defaultAuthenticationOptions(), tokenAuthFile: join(dir, 'tokens.csv') },
      authorization: { ...defaultAuthorizationOptions(), modes: ['RBAC'] },
    });
    admin = t.client.withToken('admin-token');
    patcher = t.client.withToken('patch-token');
    const deadline = Date.now() + 20_000;
    while ((await t.client.get('/readyz')).status !== 200) {
      if (Date.now() > deadline) assert.fail('the server never became ready');
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  after(async () => {
    await t?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('every write records its manager: fieldManager, else the User-Agent up to its first slash (2.4, 4.9.6)', async () => {
    const created = await admin.request('POST', `${cms}?fieldManager=creator`, { body: { metadata: { name: 'rec', labels: { a: '1' } }, data: { k: 'v' } } });
    assert.equal(created.status, 201, created.text);
    const [entry] = created.body.metadata.managedFields as Entry[];
    assert.deepEqual({ ...entry, time: undefined }, {
      manager: 'creator', operation: 'Update', apiVersion: 'v1', time: undefined, fieldsType: 'FieldsV1',
      fieldsV1: { 'f:data': { '.': {}, 'f:k': {} }, 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } } },
    });
    assert.match(entry!.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const put = await admin.request('PUT', `${cms}/rec`, {
      body: { metadata: { name: 'rec', labels: { a: '1' } }, data: { k: 'v', k2: 'w' } }, headers: { 'User-Agent': 'my-tool/1.2 (linux/amd64)' },
    });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(owners(put.body), {
      'creator/Update': { 'f:data': { '.': {}, 'f:k': {} }, 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } } },
      'my-tool/Update': { 'f:data': { 'f:k2': {} } },
    });
    // A merge patch taking k from the creator; the creator keeps what is left.
    const patched = await admin.request('PATCH', `${cms}/rec?fieldManager=patcher`, { body: { data: { k: 'changed' } }, contentType: MERGE });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(owners(patched.body)['patcher/Update'], { 'f:data': { 'f:k': {} } });
    assert.deepEqual(owners(patched.body)['creator/Update'], { 'f:data': {}, 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } } });
    // A write that changes nothing leaves managedFields as they were.
    const same = await admin.request('PATCH', `${cms}/rec?fieldManager=nobody`, { body: { data: { k: 'changed' } }, contentType: MERGE });
    assert.deepEqual(same.body.metadata.managedFields, patched.body.metadata.managedFields);
    // An entry that no longer owns anything goes.
    const removed = await admin.request('PATCH', `${cms}/rec?fieldManager=remover`, { body: { data: { k2: null } }, contentType: MERGE });
    assert.equal(owners(removed.body)['my-tool/Update'], undefined);
    assert.equal(owners(removed.body)['remover/Update'], undefined, 'removing a field owns nothing');
    // Malformed managedFields sent by a client are refused, not stored.
    const bad = await admin.request('PUT', `${cms}/rec`, {
      body: { metadata: { name: 'rec', managedFields: [{ manager: 'x', operation: 'Destroy', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: {} }] }, data: {} },
    });
    assertStatus(bad, 400, 'BadRequest', 'metadata.managedFields: operation must be `Apply` or `Update`');
  });

  test('apply: a conflict is 409 with one cause per field; force takes the fields; equal values share (4.9.2-4.9.4)', async () => {
    assert.equal((await admin.request('POST', `${cms}?fieldManager=ctl`, { body: { metadata: { name: 'own' }, data: { a: '1', b: '1' } } })).status, 201);
    const conflict = await applyTo(admin, `${cms}/own`, 'applier', configMap('own', { a: '2', b: '2' }));
    assertStatus(conflict, 409, 'Conflict', 'Apply failed with 2 conflicts: conflicts with "ctl" using v1:\n- .data.a\n- .data.b');
    assert.deepEqual(conflict.body.details.causes, [
      { reason: 'FieldManagerConflict', message: 'conflict with "ctl" using v1', field: '.data.a' },
      { reason: 'FieldManagerConflict', message: 'conflict with "ctl" using v1', field: '.data.b' },
    ]);
    const one = await applyTo(admin, `${cms}/own`, 'applier', configMap('own', { a: '2' }));
    assertStatus(one, 409, 'Conflict', 'Apply failed with 1 conflict: conflict with "ctl" using v1: .data.a');
    // Same value: shared ownership, no conflict.
    const shared = await applyTo(admin, `${cms}/own`, 'applier', configMap('own', { a: '1' }));
    assert.equal(shared.status, 200, shared.text);
    assert.deepEqual(owners(shared.body)['applier/Apply'], { 'f:data': { 'f:a': {} } });
    assert.deepEqual(owners(shared.body)['ctl/Update'], { 'f:data': { '.': {}, 'f:a': {}, 'f:b': {} } });
    // A third applier changing a shared field conflicts with both.
    const third = await applyTo(admin, `${cms}/own`, 'third', configMap('own', { a: '3' }));
    assertStatus(third, 409, 'Conflict');
    assert.deepEqual(third.body.details.causes.map((c: { message: string }) => c.message).sort(), ['conflict with "applier"', 'conflict with "ctl" using v1']);
    // Force: the value changes and the field leaves the others.
    const forced = await applyTo(admin, `${cms}/own`, 'third', configMap('own', { a: '3' }), 'force=true');
    assert.equal(forced.status, 200, forced.text);
    assert.equal(forced.body.data.a, '3');
    assert.deepEqual(owners(forced.body), {
      'third/Apply': { 'f:data': { 'f:a': {} } },
      'ctl/Update': { 'f:data': { '.': {}, 'f:b': {} } },
    });
    // Updates never conflict: they take the field.
    const update = await admin.request('PATCH', `${cms}/own?fieldManager=ctl`, { body: { data: { a: '4' } }, contentType: MERGE });
    assert.equal(update.status, 200, update.text);
    assert.equal(owners(update.body)['third/Apply'], undefined);
  });

  test('apply creates a missing object (201), needs create as well as patch, and answers 200 after (4.9.9)', async () => {
    const grant = async (verbs: string[]) => {
      const role = { apiVersion: 'rbac.authorization.orch.io/v1', kind: 'Role', metadata: { name: 'cm-writer', namespace: ns }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs }] };
      assert.ok([200, 201].includes((await applyTo(admin, `${RBAC}/namespaces/${ns}/roles/cm-writer`, 'test', role, 'force=true')).status));
    };
    await grant(['get', 'patch']);
    const binding = {
      apiVersion: 'rbac.authorization.orch.io/v1', kind: 'RoleBinding', metadata: { name: 'cm-writer', namespace: ns },
      roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'Role', name: 'cm-writer' }, subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.orch.io', name: 'patchers' }],
    };
    assert.equal((await applyTo(admin, `${RBAC}/namespaces/${ns}/rolebindings/cm-writer`, 'test', binding)).status, 201);
    const poll = async (want: number) => {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const r = await applyTo(patcher, `${cms}/by-apply`, 'p', configMap('by-apply', { a: '1' }));
        if (r.status === want || Date.now() > deadline) return r;
        await new Promise((res) => setTimeout(res, 100));
      }
    };
    const refused = await poll(403);
    assertStatus(refused, 403, 'Forbidden');
    assert.match(refused.body.message, /^configmaps "by-apply" is forbidden: /);
    assert.equal((await admin.get(`${cms}/by-apply`)).status, 404);
    await grant(['get', 'patch', 'create']);
    const created = await poll(201);
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(owners(created.body), { 'p/Apply': { 'f:data': { 'f:a': {} } } });
    const again = await applyTo(patcher, `${cms}/by-apply`, 'p', configMap('by-apply', { a: '2' }));
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.data.a, '2');
    // Updating an existing object needs patch only.
    await grant(['get', 'patch']);
    const deadline = Date.now() + 20_000;
    let r: Response;
    do {
      r = await applyTo(patcher, `${cms}/by-apply`, 'p', configMap('by-apply', { a: '3' }));
    } while (r.status !== 200 && Date.now() < deadline);
    assert.equal(r.status, 200, r.text);
  });

  test('fields dropped from the applied configuration go, unless another manager owns them; defaults come back (4.9.5)', async () => {
    assert.equal((await applyTo(admin, `${cms}/rm`, 'a', configMap('rm', { x: '1', y: '1', z: '1' }))).status, 201);
    assert.equal((await applyTo(admin, `${cms}/rm`, 'b', configMap('rm', { z: '1' }))).status, 200);
    const r = await applyTo(admin, `${cms}/rm`, 'a', configMap('rm', { x: '1' }));
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.data, { x: '1', z: '1' }, 'y is removed; z stays, b still applies it');
    // Nothing applied at all: the data map is gone, not null.
    await applyTo(admin, `${cms}/rm`, 'b', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'rm' } });
    const empty = await applyTo(admin, `${cms}/rm`, 'a', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'rm' } });
    assert.equal(empty.status, 200, empty.text);
    assert.equal(empty.body.data, undefined, empty.text);
    assert.equal(empty.body.metadata.managedFields, undefined);
    // A Deployment field with a default returns to it.
    const dep = (extra: Record<string, unknown>) => ({
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' },
      spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } }, ...extra },
    });
    const first = await applyTo(admin, `${deps}/web`, 'kubectl', dep({ revisionHistoryLimit: 3, replicas: 2 }));
    assert.equal(first.status, 201, first.text);
    assert.equal(first.body.spec.revisionHistoryLimit, 3);
    const second = await applyTo(admin, `${deps}/web`, 'kubectl', dep({ replicas: 2 }));
    assert.equal(second.status, 200, second.text);
    assert.equal(second.body.spec.revisionHistoryLimit, 10, 'reset to the default');
    assert.equal(second.body.spec.template.spec.containers[0].imagePullPolicy, 'Always', 'defaults are filled after the merge');
  });

  test('[{}] clears managedFields through any non-apply write; [] does not (4.9.10)', async () => {
    await applyTo(admin, `${cms}/reset`, 'a', configMap('reset', { x: '1' }));
    await admin.request('PATCH', `${cms}/reset?fieldManager=u`, { body: { data: { y: '1' } }, contentType: MERGE });
    const kept = await admin.request('PATCH', `${cms}/reset?fieldManager=u`, { body: { metadata: { managedFields: [] } }, contentType: MERGE });
    assert.equal(kept.body.metadata.managedFields.length, 2, kept.text);
    const cleared = await admin.request('PATCH', `${cms}/reset?fieldManager=u`, { body: { metadata: { managedFields: [{}] } }, contentType: MERGE });
    assert.equal(cleared.status, 200, cleared.text);
    assert.equal(cleared.body.metadata.managedFields, undefined, cleared.text);
    // Reset with a change: the requester owns only what it changed.
    const combined = await admin.request('PATCH', `${cms}/reset?fieldManager=u`, { body: { metadata: { managedFields: [{}] }, data: { z: '1' } }, contentType: MERGE });
    assert.deepEqual(owners(combined.body), { 'u/Update': { 'f:data': { 'f:z': {} } } });
    // Through PUT as well.
    const cur = (await admin.get(`${cms}/reset`)).body;
    const put = await admin.request('PUT', `${cms}/reset?fieldManager=u`, { body: { ...cur, metadata: { ...cur.metadata, managedFields: [{}] } } });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.body.metadata.managedFields, undefined);
  });

  test('kubectl server-side takes over its client-side record and keeps the annotation current; another manager conflicts (4.9.11)', async () => {
    const key = 'kubectl.kubernetes.io/last-applied-configuration';
    const clientSide = configMap('mig', { a: '1', b: '1' });
    const body = { ...clientSide, metadata: { name: 'mig', annotations: { [key]: JSON.stringify(clientSide) } } };
    assert.equal((await admin.request('POST', `${cms}?fieldManager=kubectl-client-side-apply`, { body })).status, 201);
    const other = await applyTo(admin, `${cms}/mig`, 'someone', configMap('mig', { a: '2' }));
    assertStatus(other, 409, 'Conflict', 'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .data.a');
    const r = await applyTo(admin, `${cms}/mig`, 'kubectl', configMap('mig', { a: '2', b: '1' }));
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.data.a, '2');
    assert.deepEqual(owners(r.body)['kubectl/Apply'], { 'f:data': { 'f:a': {}, 'f:b': {} } });
    assert.deepEqual(JSON.parse(r.body.metadata.annotations[key]), configMap('mig', { a: '2', b: '1' }), 'downgrade stays possible');
    // A field the client-side record does not hold still conflicts.
    await admin.request('PATCH', `${cms}/mig?fieldManager=editor`, { body: { data: { c: '1' } }, contentType: MERGE });
    const c = await applyTo(admin, `${cms}/mig`, 'kubectl', configMap('mig', { a: '2', b: '1', c: '2' }));
    assertStatus(c, 409, 'Conflict', 'Apply failed with 1 conflict: conflict with "editor" using v1: .data.c');
  });

  test('handing a field over: a temporary manager shares it, then the controller takes it and the temporary entry goes (4.9.12)', async () => {
    const dep = (replicas?: number) => ({
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'hand' },
      spec: { ...(replicas === undefined ? {} : { replicas }), selector: { matchLabels: { app: 'hand' } }, template: { metadata: { labels: { app: 'hand' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    });
    assert.equal((await applyTo(admin, `${deps}/hand`, 'kubectl', dep(3))).status, 201);
    const temp = await applyTo(admin, `${deps}/hand`, 'handover-to-hpa', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'hand' }, spec: { replicas: 3 } });
    assert.equal(temp.status, 200, temp.text);
    const dropped = await applyTo(admin, `${deps}/hand`, 'kubectl', dep());
    assert.equal(dropped.status, 200, dropped.text);
    assert.equal(dropped.body.spec.replicas, 3, 'still owned by the temporary manager');
    assert.equal((owners(dropped.body)['kubectl/Apply'] as { 'f:spec': Record<string, unknown> })['f:spec']['f:replicas'], undefined);
    const hpa = await admin.request('PUT', `${deps}/hand/scale?fieldManager=hpa`, {
      body: { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'hand', namespace: ns }, spec: { replicas: 5 } },
    });
    assert.equal(hpa.status, 200, hpa.text);
    const now = (await admin.get(`${deps}/hand`)).body;
    assert.equal(now.spec.replicas, 5);
    assert.equal(owners(now)['handover-to-hpa/Apply'], undefined, 'the temporary manager owns nothing and is gone');
    assert.deepEqual(owners(now)['hpa/Update/scale'], { 'f:spec': { 'f:replicas': {} } });
    // kubectl applying replicas now conflicts with the scaler.
    const back = await applyTo(admin, `${deps}/hand`, 'kubectl', dep(2));
    assertStatus(back, 409, 'Conflict', 'Apply failed with 1 conflict: conflict with "hpa" with subresource "scale" using apps/v1: .spec.replicas');
  });

  test('status is owned apart from the main resource (the subresource of the entry)', async () => {
    const dep = {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'st' },
      spec: { replicas: 1, selector: { matchLabels: { app: 'st' } }, template: { metadata: { labels: { app: 'st' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    };
    assert.equal((await applyTo(admin, `${deps}/st`, 'kubectl', dep)).status, 201);
    const st = await applyTo(admin, `${deps}/st/status`, 'ctrl', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'st' }, status: { replicas: 1, observedGeneration: 1 }, spec: { replicas: 9 } });
    assert.equal(st.status, 200, st.text);
    assert.equal(st.body.spec.replicas, 1, 'status writes leave spec alone');
    assert.equal(st.body.status.replicas, 1);
    assert.deepEqual(owners(st.body)['ctrl/Apply/status'], { 'f:status': { 'f:observedGeneration': {}, 'f:replicas': {} } });
    // The main resource neither owns nor conflicts on status.
    const main = await applyTo(admin, `${deps}/st`, 'kubectl', { ...dep, status: { replicas: 7 } });
    assert.equal(main.status, 200, main.text);
    assert.equal(main.body.status.replicas, 1);
    const upd = await admin.request('PUT', `${deps}/st/status?fieldManager=other`, { body: { ...main.body, status: { ...main.body.status, replicas: 2 } } });
    assert.equal(upd.status, 200, upd.text);
    assert.deepEqual(owners(upd.body)['other/Update/status'], { 'f:status': { 'f:replicas': {} } });
    assert.deepEqual(owners(upd.body)['ctrl/Apply/status'], { 'f:status': { 'f:observedGeneration': {} } });
  });

  test('apply on /scale owns spec.replicas under its own entry', async () => {
    const dep = (replicas: number) => ({
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'sc' },
      spec: { replicas, selector: { matchLabels: { app: 'sc' } }, template: { metadata: { labels: { app: 'sc' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    });
    assert.equal((await applyTo(admin, `${deps}/sc`, 'kubectl', dep(1))).status, 201);
    const scale = (replicas: number) => ({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'sc' }, spec: { replicas } });
    assertStatus(await applyTo(admin, `${deps}/sc/scale`, 'autoscaler', scale(4)), 409, 'Conflict', 'Apply failed with 1 conflict: conflict with "kubectl": .spec.replicas');
    const forced = await applyTo(admin, `${deps}/sc/scale`, 'autoscaler', scale(4), 'force=true');
    assert.equal(forced.status, 200, forced.text);
    assert.equal(forced.body.kind, 'Scale');
    assert.equal(forced.body.spec.replicas, 4);
    const now = (await admin.get(`${deps}/sc`)).body;
    assert.equal(now.spec.replicas, 4);
    assert.deepEqual(owners(now)['autoscaler/Apply/scale'], { 'f:spec': { 'f:replicas': {} } });
    assertStatus(await applyTo(admin, `${deps}/sc`, 'kubectl', dep(1)), 409, 'Conflict', 'Apply failed with 1 conflict: conflict with "autoscaler" with subresource "scale": .spec.replicas');
  });

  test('the 400s, 409s and 422s of apply, with upstream messages', async () => {
    await applyTo(admin, `${cms}/errs`, 'a', configMap('errs', { x: '1' }));
    assertStatus(await applyTo(admin, `${cms}/errs`, undefined, configMap('errs', { x: '1' })), 422, 'Invalid',
      'PatchOptions.meta.orch.io "" is invalid: fieldManager: Required value: is required for apply patch');
    assertStatus(await admin.request('PATCH', `${cms}/errs?force=true&fieldManager=a`, { body: { data: { x: '2' } }, contentType: MERGE }), 422, 'Invalid',
      'PatchOptions.meta.orch.io "" is invalid: force: Forbidden: may not be specified for non-apply patch');
    assertStatus(await applyTo(admin, `${cms}/errs`, 'a', { ...configMap('errs', {}), metadata: { name: 'errs', managedFields: [{ manager: 'a', operation: 'Apply' }] } }),
      400, 'BadRequest', 'metadata.managedFields must be nil');
    assertStatus(await applyTo(admin, `${cms}/errs`, 'a', { ...configMap('errs', {}), apiVersion: 'v2' }), 400, 'BadRequest',
      'Incorrect version specified in apply patch. Specified patch version: v2, expected: v1');
    assertStatus(await applyTo(admin, `${cms}/errs`, 'a', configMap('other', { x: '1' })), 400, 'BadRequest',
      'the name of the object (other) does not match the name on the URL (errs)');
    assertStatus(await applyTo(admin, `${cms}/errs`, 'a', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: errs}\ndata: [1'), 400, 'BadRequest');
    assertStatus(await applyTo(admin, `${cms}/errs`, 'a', '- 1\n- 2\n'), 400, 'BadRequest');
    // fieldValidation: Strict refuses unknown and duplicate fields; Warn warns; Ignore drops.
    const unknown = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: errs\nbogus: 1\ndata:\n  x: "1"\n';
    assertStatus(await applyTo(admin, `${cms}/errs`, 'a', unknown, 'fieldValidation=Strict'), 400, 'BadRequest', 'strict decoding error: unknown field "bogus"');
    const dup = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: errs\ndata:\n  x: "1"\n  x: "2"\n';
    const strictDup = await applyTo(admin, `${cms}/errs`, 'a', dup, 'fieldValidation=Strict');
    assertStatus(strictDup, 400, 'BadRequest');
    assert.match(strictDup.body.message, /already set in map/);
    const warned = await applyTo(admin, `${cms}/errs`, 'a', unknown, 'fieldValidation=Warn');
    assert.equal(warned.status, 200, warned.text);
    assert.match(String(warned.headers.warning), /unknown field \\"bogus\\"/);
    assert.equal((await applyTo(admin, `${cms}/errs`, 'a', unknown, 'fieldValidation=Ignore')).status, 200);
    // A stale resourceVersion in the configuration is the usual 409.
    const stale = await applyTo(admin, `${cms}/errs`, 'a', { ...configMap('errs', { x: '1' }), metadata: { name: 'errs', resourceVersion: '1' } });
    assertStatus(stale, 409, 'Conflict');
    // Invalid objects are 422 as for every write.
    assertStatus(await applyTo(admin, `${cms}/errs`, 'a', { ...configMap('errs', { x: '1' }), metadata: { name: 'errs', labels: { 'bad key!': 'x' } } }), 422, 'Invalid');
    // JSON is YAML: a JSON body works too.
    assert.equal((await applyTo(admin, `${cms}/errs`, 'a', JSON.stringify(configMap('errs', { x: '9' })))).status, 200);
  });

  test('dryRun runs the whole apply and stores nothing', async () => {
    const r = await applyTo(admin, `${cms}/dry`, 'a', configMap('dry', { x: '1' }), 'dryRun=All');
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.metadata.managedFields[0].manager, 'a');
    assert.equal((await admin.get(`${cms}/dry`)).status, 404);
    await applyTo(admin, `${cms}/dry`, 'a', configMap('dry', { x: '1' }));
    const d = await applyTo(admin, `${cms}/dry`, 'b', configMap('dry', { x: '2' }), 'dryRun=All&force=true');
    assert.equal(d.status, 200, d.text);
    assert.equal(d.body.data.x, '2');
    assert.equal((await admin.get(`${cms}/dry`)).body.data.x, '1');
  });

  test('managedFields travel in protobuf', async () => {
    await applyTo(admin, `${cms}/pb`, 'pb-manager', configMap('pb', { x: '1' }));
    const r = await admin.request('GET', `${cms}/pb`, { headers: { Accept: 'application/vnd.orch.protobuf' } });
    assert.equal(r.status, 200);
    assert.ok(r.text.includes('pb-manager'), 'the manager is in the protobuf body');
    assert.ok(r.text.includes('{"f:data":{"f:x":{}}}'), 'fieldsV1 is the raw JSON');
  });
});
