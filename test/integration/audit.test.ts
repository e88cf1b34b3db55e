// The audit log through the real server: --audit-policy-file and --audit-log-path, read back as
// JSON lines of audit.<domain>/v1 Events: levels per resource, omitted stages, the real and the
// impersonated user, a watch's ResponseStarted, authorization's annotations and those of a real
// mutating webhook (spec 6.2), the Audit-ID header, rotation by size, and a log that cannot be
// written (a full disk).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { apiDomain } from '../../api/domain.js';
import { defaultAuditOptions } from '../../cmd/apiserver/app/audit-options.js';
import { defaultAuthenticationOptions } from '../../cmd/apiserver/app/authentication-options.js';
import { defaultAuthorizationOptions } from '../../pkg/authorization/modes.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { assertStatus } from './framework/assertions.js';
import type { Client } from './framework/client.js';
import { allowed, createConfiguration, denied, patching, startAdmissionWebhookServer, type AdmissionWebhookServer } from './framework/admission-webhook.js';

type Event = Record<string, any>;

async function eventually<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Every event in the log and its rotated backups, oldest file first. */
function readEvents(dir: string): Event[] {
  const files = readdirSync(dir).filter((n) => n.startsWith('audit')).sort((a, b) => (a === 'audit.log' ? 1 : b === 'audit.log' ? -1 : a.localeCompare(b)));
  return files.flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Event));
}

const domain = apiDomain('orch.io');
const mutationKey = `${domain.group('mutation.webhook.admission')}/round_0_index_0`;
const patchKey = `${domain.group('patch.webhook.admission')}/round_0_index_0`;

const labelPatch = [{ op: 'add', path: '/metadata/labels', value: { labelled: 'yes' } }];

const policy = `apiVersion: audit.orch.io/v1
kind: Policy
rules:
- level: None
  nonResourceURLs: ["/healthz*", "/readyz*", "/livez*"]
- level: Metadata
  namespaces: [annot-meta]
- level: Request
  namespaces: [annot-req]
- level: None
  resources:
  - group: ""
    resources: [events]
- level: RequestResponse
  resources:
  - group: ""
    resources: [configmaps]
- level: Request
  resources:
  - group: ""
    resources: [secrets]
  omitStages: [RequestReceived]
- level: Metadata
  resources:
  - group: ""
    resources: [serviceaccounts, namespaces]
`;

describe('audit log', () => {
  let t: TestServer;
  let dir: string;
  let admin: Client;
  let jane: Client;
  let hooks: AdmissionWebhookServer;
  const events = () => readEvents(dir);
  /** The events of the request with this audit ID, once its last stage is written. */
  const eventsOf = (auditID: string, last = 'ResponseComplete') => eventually(`the events of ${auditID}`, () => {
    const evs = events().filter((e) => e.auditID === auditID);
    return evs.some((e) => e.stage === last) ? evs : undefined;
  });

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'orch-audit-'));
    hooks = await startAdmissionWebhookServer();
    writeFileSync(join(dir, 'tokens.csv'), 'admin-token,admin,1,"system:masters"\njane-token,jane,2,"devs"\n');
    writeFileSync(join(dir, 'policy.yaml'), policy);
    t = await startTestServer({
      authentication: { ...defaultAuthenticationOptions(), tokenAuthFile: join(dir, 'tokens.csv') },
      authorization: { ...defaultAuthorizationOptions(), modes: ['RBAC'] },
      audit: { ...defaultAuditOptions(), policyFile: join(dir, 'policy.yaml'), logPath: join(dir, 'audit.log'), logMaxSize: 1, logMaxBackups: 2 },
    });
    admin = t.client.withToken('admin-token');
    jane = t.client.withToken('jane-token');
    await eventually('the bootstrap policy', async () => (await t.client.get('/readyz')).status === 200);
    for (const ns of ['annot-meta', 'annot-req']) assert.equal((await admin.post('/api/v1/namespaces', { metadata: { name: ns, labels: { annotated: 'yes' } } })).status, 201);
    // A real mutating webhook labels the configmaps of those namespaces; a second one refuses refuse-*.
    const hook = (name: string) => ({
      name: `${name}.hooks.test`, clientConfig: { url: `${hooks.url}/${name}`, caBundle: hooks.caBundle },
      rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
      namespaceSelector: { matchLabels: { annotated: 'yes' } }, sideEffects: 'None', admissionReviewVersions: ['v1'],
    });
    hooks.on('/label', patching(labelPatch));
    hooks.on('/refuse', (review, req, res, respond) => (review.request.name?.startsWith('refuse-') ? denied({ code: 403, reason: 'Forbidden', message: 'refused by the test webhook' }) : allowed)(review, req, res, respond));
    await createConfiguration(admin, 'orch.io', 'mutating', 'audit-annotations', [hook('label'), hook('refuse')]);
    await eventually('the webhooks in effect', async () => (await admin.post('/api/v1/namespaces/annot-meta/configmaps?dryRun=All', { metadata: { name: 'probe' } })).body?.metadata?.labels?.labelled === 'yes');
  });
  after(async () => {
    await t?.stop();
    await hooks?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('each answer carries an Audit-Id, the event\'s auditID; a client\'s own Audit-ID is kept', async () => {
    const r = await admin.get('/api/v1/namespaces/default/configmaps');
    assert.equal(r.status, 200);
    const id = r.headers['audit-id'] as string;
    assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const evs = await eventsOf(id);
    assert.deepEqual(evs.map((e) => e.stage), ['RequestReceived', 'ResponseComplete']);
    const mine = await admin.get('/api/v1/namespaces/default/configmaps', { headers: { 'Audit-ID': 'my-own-id-1' } });
    assert.equal(mine.headers['audit-id'], 'my-own-id-1');
    await eventsOf('my-own-id-1');
    const unaudited = await t.client.get('/healthz');
    assert.ok(unaudited.headers['audit-id'], 'sent whether or not the request is audited');
  });

  test('levels: RequestResponse records both objects, Request only the request\'s, Metadata neither, None nothing', async () => {
    const cm = await admin.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'levels' }, data: { k: 'v' } });
    assert.equal(cm.status, 201, cm.text);
    const [received, complete] = await eventsOf(cm.headers['audit-id'] as string);
    assert.equal(received!.stage, 'RequestReceived');
    assert.equal(received!.requestObject, undefined, 'written before the body is read, as upstream');
    assert.equal(received!.responseObject, undefined);
    assert.equal(received!.responseStatus, undefined);
    assert.equal(received!.stageTimestamp, received!.requestReceivedTimestamp);
    assert.equal(complete!.kind, 'Event');
    assert.equal(complete!.apiVersion, 'audit.orch.io/v1');
    assert.equal(complete!.level, 'RequestResponse');
    assert.equal(complete!.verb, 'create');
    assert.equal(complete!.requestURI, '/api/v1/namespaces/default/configmaps');
    assert.deepEqual(complete!.user, { username: 'admin', uid: '1', groups: ['system:masters', 'system:authenticated'] });
    assert.deepEqual(complete!.sourceIPs, ['127.0.0.1']);
    assert.deepEqual(complete!.objectRef, { resource: 'configmaps', namespace: 'default', name: 'levels', apiVersion: 'v1' });
    assert.deepEqual(complete!.responseStatus, { metadata: {}, code: 201 });
    assert.deepEqual(complete!.requestObject.data, { k: 'v' });
    assert.equal(complete!.responseObject.metadata.uid, cm.body.metadata.uid);
    assert.match(complete!.requestReceivedTimestamp, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    assert.match(complete!.stageTimestamp, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    assert.ok(complete!.stageTimestamp >= complete!.requestReceivedTimestamp);
    assert.deepEqual(Object.keys(complete!), ['kind', 'apiVersion', 'level', 'auditID', 'stage', 'requestURI', 'verb', 'user', 'sourceIPs', 'objectRef', 'responseStatus',
      'requestObject', 'responseObject', 'requestReceivedTimestamp', 'stageTimestamp', 'annotations'], 'upstream\'s field order (no user agent sent)');

    const secret = await admin.post('/api/v1/namespaces/default/secrets', { metadata: { name: 'levels' }, stringData: { k: 'v' } });
    assert.equal(secret.status, 201, secret.text);
    const [s] = await eventsOf(secret.headers['audit-id'] as string);
    assert.equal(s!.level, 'Request');
    // stringData is folded into data on decoding, as upstream's conversion does.
    assert.deepEqual(s!.requestObject.data, { k: Buffer.from('v').toString('base64') }, JSON.stringify(s!.requestObject));
    assert.equal(s!.responseObject, undefined);

    const sa = await admin.get('/api/v1/namespaces/kube-system/serviceaccounts', { headers: { 'User-Agent': 'audit-test/1.0' } });
    const [m] = (await eventsOf(sa.headers['audit-id'] as string)).filter((e) => e.stage === 'ResponseComplete');
    assert.equal(m!.level, 'Metadata');
    assert.equal(m!.verb, 'list');
    assert.equal(m!.userAgent, 'audit-test/1.0');
    assert.equal(m!.requestObject, undefined);
    assert.equal(m!.responseObject, undefined);
    assert.deepEqual(m!.objectRef, { resource: 'serviceaccounts', namespace: 'kube-system', apiVersion: 'v1' });

    const none = await admin.get('/api/v1/namespaces/default/events');
    const pods = await admin.get('/api/v1/namespaces/default/pods');
    await eventually('a later event', async () => events().some((e) => e.auditID === cm.headers['audit-id']));
    // A request audited after these proves they would have been written by now.
    const marker = await admin.get('/api/v1/namespaces/default/configmaps/levels');
    await eventsOf(marker.headers['audit-id'] as string);
    const ids = new Set(events().map((e) => e.auditID));
    assert.ok(!ids.has(none.headers['audit-id']), 'events are at None');
    assert.ok(!ids.has(pods.headers['audit-id']), 'no rule matches pods: None');
  });

  test('omitStages leaves out the stages a rule names', async () => {
    const r = await admin.get('/api/v1/namespaces/default/secrets/levels');
    assert.equal(r.status, 200);
    const evs = await eventsOf(r.headers['audit-id'] as string);
    assert.deepEqual(evs.map((e) => e.stage), ['ResponseComplete']);
  });

  test('an impersonated request records the real user and the impersonated one', async () => {
    const r = await admin.get('/api/v1/namespaces/default/configmaps/levels', { headers: { 'Impersonate-User': 'kim', 'Impersonate-Group': 'qa' } });
    assertStatus(r, 403, 'Forbidden');
    const [, complete] = await eventsOf(r.headers['audit-id'] as string);
    assert.equal(complete!.user.username, 'admin');
    assert.deepEqual(complete!.impersonatedUser, { username: 'kim', groups: ['qa', 'system:authenticated'] });
    assert.equal(complete!.annotations[`${domain.group('authorization')}/decision`], 'forbid', 'authorization judged kim');
  });

  test('a forbidden request carries the decision and reason annotations, its Status in responseStatus and responseObject', async () => {
    const r = await jane.get('/api/v1/namespaces/default/configmaps');
    assertStatus(r, 403, 'Forbidden');
    const [received, complete] = await eventsOf(r.headers['audit-id'] as string);
    assert.equal(received!.annotations, undefined, 'authorization runs after RequestReceived');
    assert.equal(complete!.annotations[`${domain.group('authorization')}/decision`], 'forbid');
    assert.equal(typeof complete!.annotations[`${domain.group('authorization')}/reason`], 'string');
    assert.deepEqual(complete!.responseStatus, { metadata: {}, status: 'Failure', message: r.body.message, reason: 'Forbidden', details: { kind: 'configmaps' }, code: 403 });
    assert.equal(complete!.responseObject.kind, 'Status');
    const ok = await admin.get('/api/v1/namespaces/default/configmaps');
    const [, allowed] = await eventsOf(ok.headers['audit-id'] as string);
    assert.equal(allowed!.annotations[`${domain.group('authorization')}/decision`], 'allow');
    assert.ok(`${domain.group('authorization')}/reason` in allowed!.annotations);
  });

  test('a refused credential is audited once, at ResponseStarted, without a user', async () => {
    const r = await t.client.withToken('wrong-token').get('/api/v1/namespaces/default/configmaps');
    assertStatus(r, 401, 'Unauthorized');
    const evs = await eventsOf(r.headers['audit-id'] as string, 'ResponseStarted');
    assert.deepEqual(evs.map((e) => e.stage), ['ResponseStarted']);
    assert.deepEqual(evs[0]!.user, {});
    assert.equal(evs[0]!.responseStatus.code, 401);
  });

  test('a watch is written at ResponseStarted when its answer starts, and at ResponseComplete when it ends', async () => {
    const w = await admin.watch('/api/v1/namespaces/default/serviceaccounts?watch=true');
    assert.equal(w.status, 200);
    const id = w.headers['audit-id'] as string;
    const started = await eventsOf(id, 'ResponseStarted');
    assert.deepEqual(started.map((e) => e.stage), ['RequestReceived', 'ResponseStarted']);
    assert.equal(started[1]!.verb, 'watch');
    assert.deepEqual(started[1]!.responseStatus, { metadata: {}, code: 200 });
    w.close();
    const all = await eventsOf(id);
    assert.deepEqual(all.map((e) => e.stage), ['RequestReceived', 'ResponseStarted', 'ResponseComplete']);
  });

  test('admission annotations: the mutation one from Metadata, the patch one from Request; on refusal too', async () => {
    const meta = await admin.post('/api/v1/namespaces/annot-meta/configmaps', { metadata: { name: 'a' } });
    assert.equal(meta.status, 201, meta.text);
    const [, m] = await eventsOf(meta.headers['audit-id'] as string);
    assert.equal(m!.level, 'Metadata');
    assert.deepEqual(JSON.parse(m!.annotations[mutationKey]), { configuration: 'audit-annotations', webhook: 'label.hooks.test', mutated: true });
    assert.ok(!(patchKey in m!.annotations), 'the patch is recorded only from level Request');

    const req = await admin.post('/api/v1/namespaces/annot-req/configmaps', { metadata: { name: 'a' } });
    assert.equal(req.status, 201, req.text);
    const [, q] = await eventsOf(req.headers['audit-id'] as string);
    assert.equal(q!.level, 'Request');
    assert.ok(mutationKey in q!.annotations);
    assert.deepEqual(JSON.parse(q!.annotations[patchKey]), { configuration: 'audit-annotations', webhook: 'label.hooks.test', patchType: 'JSONPatch', patch: labelPatch });

    const refused = await admin.post('/api/v1/namespaces/annot-req/configmaps', { metadata: { name: 'refuse-me' } });
    assertStatus(refused, 403, 'Forbidden');
    const [, f] = await eventsOf(refused.headers['audit-id'] as string);
    assert.equal(f!.responseStatus.code, 403);
    assert.ok(mutationKey in f!.annotations && patchKey in f!.annotations, 'recorded before the refusal');
  });

  test('the log rotates at --audit-log-maxsize, keeping --audit-log-maxbackup backups of whole lines', async () => {
    const big = 'x'.repeat(150 * 1024);
    // Each create's ResponseComplete carries the body twice (request and response objects): ~300 KiB.
    for (let i = 0; i < 12; i++) {
      const r = await admin.post('/api/v1/namespaces/default/configmaps', { metadata: { name: `big-${i}` }, data: { big } });
      assert.equal(r.status, 201, r.text);
    }
    const last = await admin.get('/api/v1/namespaces/default/configmaps/big-11');
    await eventsOf(last.headers['audit-id'] as string);
    const files = readdirSync(dir).filter((n) => n.startsWith('audit'));
    const backups = files.filter((n) => n !== 'audit.log');
    assert.equal(backups.length, 2, files.join(', '));
    for (const b of backups) assert.match(b, /^audit-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}\.log$/);
    for (const f of files) {
      assert.ok(statSync(join(dir, f)).size <= 1024 * 1024, `${f} within 1 MiB`);
      const text = readFileSync(join(dir, f), 'utf8');
      assert.ok(text === '' || text.endsWith('\n'), `${f} ends with a whole line`);
      for (const l of text.split('\n').filter(Boolean)) JSON.parse(l);
    }
    assert.ok(!events().some((e) => e.objectRef?.name === 'levels' && e.verb === 'create'), 'the oldest events went with the removed backups');
  });
});

describe('audit log that cannot be written', () => {
  let t: TestServer;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'orch-audit-full-'));
    writeFileSync(join(dir, 'policy.yaml'), 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: None\n  nonResourceURLs: [/metrics]\n- level: RequestResponse\n');
    // /dev/full refuses every write with ENOSPC: a full disk.
    t = await startTestServer({ audit: { ...defaultAuditOptions(), policyFile: join(dir, 'policy.yaml'), logPath: '/dev/full' } });
  });
  after(async () => {
    await t?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('requests are served; the failures are logged and counted in apiserver_audit_error_total', async () => {
    const r = await t.client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'still-served' } });
    assert.equal(r.status, 201, r.text);
    assert.equal((await t.client.get('/api/v1/namespaces/default/configmaps/still-served')).status, 200);
    await eventually('the error in the server log', () => t.logs.some((l) => l.includes("Error in audit plugin 'log' affecting 1 audit events")));
    const metrics = await t.client.get('/metrics');
    const errors = /^apiserver_audit_error_total\{plugin="log"\} (\d+)/m.exec(metrics.text);
    assert.ok(errors && Number(errors[1]) >= 4, metrics.text.split('\n').filter((l) => l.startsWith('apiserver_audit')).join('\n'));
    const total = /^apiserver_audit_event_total (\d+)/m.exec(metrics.text);
    assert.ok(total && Number(total[1]) >= 4);
    assert.match(metrics.text, /^apiserver_audit_level_total\{level="RequestResponse"\} \d+/m);
  });

  test('with --audit-log-mode=blocking-strict a request whose event cannot be written is refused', async () => {
    t.options.audit = { ...t.options.audit, logMode: 'blocking-strict' };
    await t.restart();
    const r = await t.client.get('/api/v1/namespaces/default/configmaps');
    assertStatus(r, 500, 'InternalError');
    assert.equal(r.body.message, 'Internal error occurred: failed to store audit event');
    const metrics = await t.client.get('/metrics');
    assert.match(metrics.text, /^apiserver_audit_requests_rejected_total [1-9]/m);
  });
});

describe('audit flags of the binary', () => {
  const main = resolve(fileURLToPath(import.meta.url), '../../../cmd/apiserver/main.js');
  // Validation runs before etcd is dialled: nothing needs to listen there.
  const run = (...args: string[]) => spawnSync(process.execPath, [main, '--etcd-servers', 'http://127.0.0.1:1', ...args], { encoding: 'utf8', timeout: 20_000 });
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'orch-audit-flags-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('a bad policy file stops the binary at start, naming the file and the problem', () => {
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, 'apiVersion: audit.orch.io/v1\nkind: Policy\nrules:\n- level: Loud\n');
    const r = run('--audit-policy-file', file, '--audit-log-path', join(dir, 'audit.log'));
    assert.equal(r.status, 1, r.stderr);
    assert.ok(r.stderr.includes(`Error: loading audit policy file: rules[0].level: Unsupported value: "Loud": supported values: "None", "Metadata", "Request", "RequestResponse": from file ${file}`), r.stderr);
    const missing = run('--audit-policy-file', join(dir, 'missing.yaml'));
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /Error: loading audit policy file: failed to read file path ".*missing\.yaml"/);
  });

  test('bad --audit-log-* values are refused with kube-apiserver\'s messages', () => {
    const r = run('--audit-log-path', join(dir, 'audit.log'), '--audit-log-mode', 'sometimes', '--audit-log-format', 'xml', '--audit-log-maxage', '-1',
      '--audit-log-maxbackup', '-2', '--audit-log-maxsize', '-3', '--audit-log-version', 'audit.k8s.io/v1');
    assert.equal(r.status, 1);
    for (const msg of [
      'invalid audit log mode sometimes, allowed modes are "batch,blocking,blocking-strict"',
      'invalid audit log format xml, allowed formats are "legacy,json"',
      "--audit-log-maxage -1 can't be a negative number",
      "--audit-log-maxbackup -2 can't be a negative number",
      "--audit-log-maxsize -3 can't be a negative number",
      'invalid group version, allowed versions are ["audit.orch.io/v1"]',
    ]) assert.ok(r.stderr.includes(`Error: ${msg}`), `${msg}\n${r.stderr}`);
    const help = spawnSync(process.execPath, [main, '--help'], { encoding: 'utf8' });
    for (const flag of ['--audit-policy-file', '--audit-log-path', '--audit-log-maxage', '--audit-log-maxbackup', '--audit-log-maxsize', '--audit-log-format', '--audit-log-mode', '--audit-log-version', '--audit-log-compress']) {
      assert.ok(help.stdout.includes(flag), flag);
    }
  });
});
