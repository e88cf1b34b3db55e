// The three patch types on every kind and sub-resource: JSON patch (RFC 6902), merge patch (RFC
// 7386) and strategic merge patch driven by the schema's markers; failures are 4xx, never 500.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { assertStatus } from './framework/assertions.js';
import { collectionPath, fixtures, itemPath } from './fixtures.js';

const cms = '/api/v1/namespaces/default/configmaps';
const JSON_PATCH = 'application/json-patch+json';
const MERGE = 'application/merge-patch+json';
const SMP = 'application/strategic-merge-patch+json';

describe('patch', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t?.stop());

  test('JSON patch: add, remove, replace, move, copy and test', async () => {
    const c = t.client;
    await c.post(cms, { metadata: { name: 'jp' }, data: { a: '1', b: '2' } });
    const r = await c.patch(`${cms}/jp`, [
      { op: 'test', path: '/data/a', value: '1' },
      { op: 'add', path: '/data/c', value: '3' },
      { op: 'remove', path: '/data/b' },
      { op: 'replace', path: '/data/a', value: 'one' },
      { op: 'copy', from: '/data/a', path: '/data/d' },
      { op: 'move', from: '/data/c', path: '/data/e' },
      { op: 'add', path: '/metadata/labels', value: { 'app.orch.io/x': 'y' } },
      { op: 'add', path: '/metadata/labels/app.orch.io~1z', value: 'z' },
    ], JSON_PATCH);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.metadata.labels, { 'app.orch.io/x': 'y', 'app.orch.io/z': 'z' }, '~1 in a path is /');
    assert.deepEqual(r.body.data, { a: 'one', d: 'one', e: '3' });
    const failedTest = await c.patch(`${cms}/jp`, [{ op: 'test', path: '/data/a', value: 'nope' }, { op: 'remove', path: '/data/a' }], JSON_PATCH);
    assert.equal(failedTest.status, 422, failedTest.text);
    assert.equal(failedTest.body.kind, 'Status');
    const missing = await c.patch(`${cms}/jp`, [{ op: 'remove', path: '/data/zzz' }], JSON_PATCH);
    assert.equal(missing.status, 422, missing.text);
    for (const bad of [{ op: 'add' }, [{ op: 'frobnicate', path: '/data/a' }], [{ op: 'add', path: 'no-slash', value: 1 }], [{ op: 'add', path: '/data/x' }]]) {
      const r2 = await c.patch(`${cms}/jp`, bad, JSON_PATCH);
      assert.equal(r2.status, 400, `${JSON.stringify(bad)}: ${r2.text}`);
    }
    const proto = await c.patch(`${cms}/jp`, [{ op: 'add', path: '/__proto__/polluted', value: 'yes' }], JSON_PATCH);
    assert.ok(proto.status >= 400 && proto.status < 500, proto.text);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    const after = await c.get(`${cms}/jp`);
    assert.deepEqual(after.body.data, { a: 'one', d: 'one', e: '3' }, 'failed patches change nothing');
  });

  test('a patch that makes the object invalid is 422; one that renames it is 400; a result of wrong types is 422', async () => {
    const c = t.client;
    await c.post(cms, { metadata: { name: 'inv' } });
    const bad = await c.patch(`${cms}/inv`, { metadata: { labels: { 'bad key!': 'x' } } }, MERGE);
    assert.equal(bad.status, 422, bad.text);
    const renamed = await c.patch(`${cms}/inv`, { metadata: { name: 'other' } }, MERGE);
    assert.equal(renamed.status, 400, renamed.text);
    const typed = await c.patch(`${cms}/inv`, { data: { k: 5 } }, MERGE);
    assertStatus(typed, 422, 'Invalid');
    assert.equal(typed.body.details.causes[0].field, 'patch');
    const notObject = await c.patch(`${cms}/inv`, [1, 2], MERGE);
    assert.equal(notObject.status, 400, notObject.text);
    const malformed = await c.request('PATCH', `${cms}/inv`, { raw: '{"data":', contentType: MERGE });
    assert.equal(malformed.status, 400, malformed.text);
  });

  test('merge patch: null deletes, objects merge, lists are replaced; unknown fields warn or fail under Strict', async () => {
    const c = t.client;
    await c.post(cms, { metadata: { name: 'mp', labels: { a: '1', b: '2' } }, data: { x: '1' } });
    const r = await c.patch(`${cms}/mp`, { metadata: { labels: { a: null, c: '3' } } }, MERGE);
    assert.deepEqual(r.body.metadata.labels, { b: '2', c: '3' });
    const unknown = await c.patch(`${cms}/mp`, { spec: { nope: 1 } }, MERGE);
    assert.equal(unknown.status, 200, unknown.text);
    assert.match(String(unknown.headers.warning), /unknown field \\"spec\\"/);
    const before = await c.get(`${cms}/mp`);
    const strict = await c.request('PATCH', `${cms}/mp?fieldValidation=Strict`, { body: { data: { y: '2' }, spec: { nope: 1 } }, contentType: MERGE });
    // Upstream: the patched object does not decode strictly, a 422 on `patch`.
    assertStatus(strict, 422, 'Invalid');
    assert.match(strict.body.message, /strict decoding error: unknown field "spec"/);
    assert.deepEqual((await c.get(`${cms}/mp`)).body, before.body, 'a rejected patch writes nothing');
    const dup = await c.request('PATCH', `${cms}/mp`, { raw: '{"data":{"z":"1","z":"2"}}', contentType: MERGE });
    assert.equal(dup.status, 200, dup.text);
    assert.match(String(dup.headers.warning), /duplicate field \\"data.z\\"/);
  });

  test('a patched object that does not decode is 422 Invalid on `patch`, as upstream: 1.5 in an integer field', async () => {
    const c = t.client;
    const deploy = fixtures.find((f) => f.kind === 'Deployment')!;
    assert.equal((await c.post(collectionPath(deploy), deploy.make('half'))).status, 201);
    const path = itemPath(deploy, 'half');
    const before = (await c.get(path)).body;
    const detail = 'json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32';
    for (const [type, body] of [[MERGE, { spec: { replicas: 1.5 } }], [JSON_PATCH, [{ op: 'replace', path: '/spec/replicas', value: 1.5 }]]] as const) {
      const r = await c.patch(path, body, type);
      assertStatus(r, 422, 'Invalid', type);
      // The cause shows the patched object, as upstream shows it.
      const cause = r.body.details.causes[0];
      assert.deepEqual(Object.keys(r.body.details).sort(), ['causes'], 'no group, kind or name');
      assert.equal(cause.reason, 'FieldValueInvalid');
      assert.equal(cause.field, 'patch');
      const shown = /^Invalid value: "(.*)": (json: .*)$/s.exec(cause.message);
      assert.ok(shown, cause.message);
      assert.equal(shown[2], detail);
      assert.equal(JSON.parse(JSON.parse(`"${shown[1]}"`)).spec.replicas, 1.5);
      assert.equal(r.body.message, ` "" is invalid: patch: ${cause.message}`);
    }
    const smp = await c.patch(path, { spec: { replicas: 1.5 } }, SMP);
    assertStatus(smp, 422, 'Invalid');
    assert.equal(smp.body.details.causes[0].field, 'patch');
    assert.match(smp.body.details.causes[0].message, /^Invalid value: "map\[spec:map\[replicas:1\.5\]\]": /, 'the patch as Go prints its map');
    assert.deepEqual((await c.get(path)).body, before, 'nothing was written');
  });

  test('a patch that removes or changes apiVersion or kind is answered as upstream answers it', async () => {
    const c = t.client;
    await c.post(cms, { metadata: { name: 'tm' }, data: { a: '1' } });
    const before = (await c.get(`${cms}/tm`)).body;
    // Without an apiVersion upstream decodes the JSON into its internal type, which takes none of
    // the wire's fields: the name is lost, the fields are unknown.
    for (const [type, body] of [[MERGE, { apiVersion: null }], [JSON_PATCH, [{ op: 'remove', path: '/apiVersion' }]]] as const) {
      const r = await c.patch(`${cms}/tm`, body, type);
      assertStatus(r, 400, 'BadRequest', type);
      assert.equal(r.body.message, 'the name of the object (tm based on URL) was undeterminable: name must be provided');
      assert.match(String(r.headers.warning), /unknown field \\"data\\".*unknown field \\"metadata\\"/);
    }
    const strict = await c.request('PATCH', `${cms}/tm?fieldValidation=Strict`, { body: { apiVersion: null }, contentType: MERGE });
    assertStatus(strict, 422, 'Invalid');
    assert.match(strict.body.details.causes[0].message, /": strict decoding error: unknown field "data", unknown field "metadata"$/);
    const refused: [unknown, string][] = [
      [{ apiVersion: 'v2' }, 'no kind "ConfigMap" is registered for version "v2"'],
      [{ apiVersion: 'apps/v1' }, 'no kind "ConfigMap" is registered for version "apps/v1"'],
      [{ kind: 'Secret' }, 'converting (v1.Secret) to (core.ConfigMap): unknown conversion'],
      [{ kind: 'Widget' }, 'no kind "Widget" is registered for version "v1"'],
      [{ apiVersion: null, kind: 'Secret' }, 'no kind "Secret" is registered for the internal version of group ""'],
      [{ kind: 7 }, "couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string"],
    ];
    for (const [body, why] of refused) {
      const r = await c.patch(`${cms}/tm`, body, MERGE);
      assertStatus(r, 422, 'Invalid', JSON.stringify(body));
      assert.equal(r.body.details.causes[0].field, 'patch');
      assert.ok(r.body.details.causes[0].message.endsWith(`": ${why}`), r.body.details.causes[0].message);
    }
    assert.deepEqual((await c.get(`${cms}/tm`)).body, before, 'nothing was written');
    // The kind defaults to the resource's; a strategic merge patch patches a typed object, whose
    // apiVersion and kind a patch cannot change.
    const noKind = await c.patch(`${cms}/tm`, { kind: null, data: { b: '2' } }, MERGE);
    assert.equal(noKind.status, 200, noKind.text);
    assert.equal(noKind.body.kind, 'ConfigMap');
    const smp = await c.patch(`${cms}/tm`, { apiVersion: 'v2', kind: 'Secret', data: { c: '3' } }, SMP);
    assert.equal(smp.status, 200, smp.text);
    assert.equal(smp.body.apiVersion, 'v1');
    assert.equal(smp.body.kind, 'ConfigMap');
    assert.deepEqual((await c.get(`${cms}/tm`)).body.data, { a: '1', b: '2', c: '3' });
  });

  test('strategic merge patch merges containers by name and honours $patch directives', async () => {
    const c = t.client;
    const sts = fixtures.find((f) => f.kind === 'StatefulSet')!;
    await c.post(collectionPath(sts), sts.make('smp'));
    const r = await c.patch(itemPath(sts, 'smp'), {
      spec: {
        template: {
          spec: {
            containers: [
              { name: 'web', image: 'registry.example/nginx:1.26', env: [{ name: 'MODE', value: 'prod' }] },
              { name: 'sidecar', image: 'registry.example/proxy:1' },
            ],
          },
        },
      },
    }, SMP);
    assert.equal(r.status, 200, r.text);
    const containers = r.body.spec.template.spec.containers;
    assert.deepEqual(containers.map((x: any) => x.name), ['web', 'sidecar']);
    assert.equal(containers[0].image, 'registry.example/nginx:1.26');
    assert.deepEqual(containers[0].ports.map((p: any) => p.containerPort), [80], 'fields the patch does not name are kept');
    assert.equal(containers[0].volumeMounts[0].name, 'data');
    assert.equal(r.body.metadata.generation, 2);
    const del = await c.patch(itemPath(sts, 'smp'), { spec: { template: { spec: { containers: [{ name: 'sidecar', $patch: 'delete' }] } } } }, SMP);
    assert.equal(del.status, 200, del.text);
    assert.deepEqual(del.body.spec.template.spec.containers.map((x: any) => x.name), ['web']);
    const fin = await c.patch(itemPath(sts, 'smp'), { metadata: { finalizers: ['example.com/a'] } }, SMP);
    const fin2 = await c.patch(itemPath(sts, 'smp'), { metadata: { finalizers: ['example.com/b'] } }, SMP);
    // A merged primitive list keeps both; as upstream, items new to the server come first.
    assert.deepEqual(fin2.body.metadata.finalizers, ['example.com/b', 'example.com/a']);
    const ordered = await c.patch(itemPath(sts, 'smp'), { metadata: { '$setElementOrder/finalizers': ['example.com/a', 'example.com/b'], finalizers: ['example.com/a', 'example.com/b'] } }, SMP);
    assert.deepEqual(ordered.body.metadata.finalizers, ['example.com/a', 'example.com/b'], '$setElementOrder decides');
    assert.equal(fin.status, 200);
    const dropped = await c.patch(itemPath(sts, 'smp'), { metadata: { '$deleteFromPrimitiveList/finalizers': ['example.com/a', 'example.com/b'] } }, SMP);
    assert.equal(dropped.status, 200, dropped.text);
    assert.equal(dropped.body.metadata.finalizers, undefined);
    const bad = await c.patch(itemPath(sts, 'smp'), { spec: { template: { spec: { containers: [{ image: 'no-name' }] } } } }, SMP);
    assert.equal(bad.status, 400, bad.text);
    const badDirective = await c.patch(itemPath(sts, 'smp'), { spec: { $patch: 'explode' } }, SMP);
    assert.equal(badDirective.status, 400, badDirective.text);
  });

  test('every kind and status sub-resource takes all three patch types', async () => {
    const c = t.client;
    for (const f of fixtures) {
      const name = `${f.resource.slice(0, 8)}-pt`;
      const created = await c.post(collectionPath(f), f.make(name));
      assert.equal(created.status, 201, created.text);
      const j = await c.patch(itemPath(f, name), [{ op: 'add', path: '/metadata/annotations', value: { via: 'json' } }], JSON_PATCH);
      assert.equal(j.status, 200, `${f.kind} json: ${j.text}`);
      const m = await c.patch(itemPath(f, name), { metadata: { annotations: { via: 'merge' } } }, MERGE);
      assert.equal(m.body.metadata.annotations.via, 'merge', f.kind);
      const s = await c.patch(itemPath(f, name), { metadata: { annotations: { via: 'smp' } } }, SMP);
      assert.equal(s.body.metadata.annotations.via, 'smp', f.kind);
      if (f.status) {
        const st = await c.patch(`${itemPath(f, name)}/status`, { status: f.status }, SMP);
        assert.equal(st.status, 200, `${f.kind} status smp: ${st.text}`);
        assert.deepEqual(st.body.status, f.status);
        const stj = await c.patch(`${itemPath(f, name)}/status`, [{ op: 'replace', path: '/status', value: f.status }], JSON_PATCH);
        assert.equal(stj.status, 200, `${f.kind} status json: ${stj.text}`);
      }
    }
  });

  test('server-side apply is served (server-side-apply.test covers it): a configuration without apiVersion is 400', async () => {
    const r = await t.client.request('PATCH', `${cms}/jp?fieldManager=me`, { raw: 'data: {a: b}', contentType: 'application/apply-patch+yaml' });
    assert.equal(r.status, 400, r.text);
    assert.equal(r.body.message, 'Incorrect version specified in apply patch. Specified patch version: , expected: v1');
  });
});
