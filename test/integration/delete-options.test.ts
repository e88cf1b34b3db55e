// DeleteOptions in every media type a write accepts, on delete and deletecollection, decoded as
// upstream's handler decodes them, helm's own bytes among them (helm deletes its release Secret
// through client-go's typed client, with a protobuf DeleteOptions body). The real `helm uninstall`
// and reinstall of the same name, with helm 3 and 4, are in clients-helm.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { encodeEnvelope } from '../../pkg/runtime/protobuf/envelope.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { assertStatus } from './framework/assertions.js';

const UPSTREAM_PROTOBUF = 'application/vnd.kubernetes.protobuf';
const OUR_PROTOBUF = 'application/vnd.orch.protobuf';

/** The body helm 3.17 and 4.1 send to delete their release Secret (captured from both): DeleteOptions in `v1`, no field set. */
const helmDeleteOptions = Buffer.from('6b3873000a130a027631120d44656c6574654f7074696f6e7312001a002200', 'hex');

/** Protobuf DeleteOptions fields as client-go's generated marshallers write them. */
const stringField = (n: number, s: string) => Buffer.concat([Buffer.from([(n << 3) | 2, Buffer.byteLength(s)]), Buffer.from(s)]);
const messageField = (n: number, m: Buffer) => Buffer.concat([Buffer.from([(n << 3) | 2, m.length]), m]);

/** A typed client's DeleteOptions in protobuf: client-go names its own group/version in the envelope. */
function protobufOptions(apiVersion: string, fields: { dryRun?: boolean; uid?: string; propagationPolicy?: string }): Buffer {
  const raw = Buffer.concat([
    fields.uid ? messageField(2, stringField(1, fields.uid)) : Buffer.alloc(0),
    fields.propagationPolicy ? stringField(4, fields.propagationPolicy) : Buffer.alloc(0),
    fields.dryRun ? stringField(5, 'All') : Buffer.alloc(0),
  ]);
  return encodeEnvelope({ apiVersion, kind: 'DeleteOptions' }, raw);
}

interface MediaCase {
  name: string;
  contentType: string;
  body(fields: { dryRun?: boolean; uid?: string; propagationPolicy?: string }): Buffer;
}

const asJSON = (f: { dryRun?: boolean; uid?: string; propagationPolicy?: string }) => ({
  ...(f.dryRun ? { dryRun: ['All'] } : {}),
  ...(f.uid ? { preconditions: { uid: f.uid } } : {}),
  ...(f.propagationPolicy ? { propagationPolicy: f.propagationPolicy } : {}),
});

const mediaCases: MediaCase[] = [
  { name: 'JSON', contentType: 'application/json', body: (f) => Buffer.from(JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'meta.orch.io/v1', ...asJSON(f) })) },
  {
    name: 'YAML', contentType: 'application/yaml',
    body: (f) => Buffer.from(['kind: DeleteOptions', 'apiVersion: v1', ...Object.entries(asJSON(f)).map(([k, v]) => `${k}: ${JSON.stringify(v)}`)].join('\n')),
  },
  { name: 'upstream protobuf', contentType: UPSTREAM_PROTOBUF, body: (f) => protobufOptions('v1', f) },
  { name: 'our protobuf', contentType: OUR_PROTOBUF, body: (f) => protobufOptions('meta.orch.io/v1', f) },
];

describe('DeleteOptions bodies', () => {
  let t: TestServer;
  const ns = '/api/v1/namespaces/default';
  const cms = `${ns}/configmaps`;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t?.stop());

  for (const m of mediaCases) {
    test(`delete with a ${m.name} body: preconditions, dryRun and propagationPolicy are honoured`, async () => {
      const c = t.client;
      const name = `one-${m.contentType.replace(/\W+/g, '-')}`;
      const created = await c.post(cms, { metadata: { name, finalizers: ['example.com/hold'] } });
      assert.equal(created.status, 201, created.text);
      const del = (fields: Parameters<MediaCase['body']>[0]) => c.request('DELETE', `${cms}/${name}`, { raw: m.body(fields), contentType: m.contentType });
      const wrongUID = await del({ uid: 'not-its-uid' });
      assertStatus(wrongUID, 409, 'Conflict', 'a precondition on another uid');
      const dry = await del({ dryRun: true, uid: created.body.metadata.uid });
      assert.equal(dry.status, 200, dry.text);
      assert.ok(dry.body.metadata.deletionTimestamp, 'the dry run answers the object as it would be');
      assert.equal((await c.get(`${cms}/${name}`)).body.metadata.deletionTimestamp, undefined, 'a dry run changes nothing');
      const foreground = await del({ propagationPolicy: 'Foreground' });
      assert.equal(foreground.status, 200, foreground.text);
      assert.deepEqual(foreground.body.metadata.finalizers, ['example.com/hold', 'foregroundDeletion'], 'the policy reached the store');
      const released = await c.patch(`${cms}/${name}`, { metadata: { finalizers: null } });
      assert.equal(released.status, 200, released.text);
      assert.equal((await c.get(`${cms}/${name}`)).status, 404);
    });

    test(`deletecollection with a ${m.name} body`, async () => {
      const c = t.client;
      const batch = m.contentType.replace(/\W+/g, '-');
      for (const n of ['a', 'b']) assert.equal((await c.post(cms, { metadata: { name: `dc-${batch}-${n}`, labels: { batch } } })).status, 201);
      const path = `${cms}?labelSelector=batch%3D${batch}`;
      const dry = await c.request('DELETE', path, { raw: m.body({ dryRun: true }), contentType: m.contentType });
      assert.equal(dry.status, 200, dry.text);
      assert.equal(dry.body.items.length, 2);
      assert.equal((await c.get(path)).body.items.length, 2, 'a dry run deletes nothing');
      const done = await c.request('DELETE', path, { raw: m.body({}), contentType: m.contentType });
      assert.equal(done.status, 200, done.text);
      assert.deepEqual(done.body.items.map((i: { metadata: { name: string } }) => i.metadata.name).sort(), [`dc-${batch}-a`, `dc-${batch}-b`]);
      assert.equal((await c.get(path)).body.items.length, 0);
    });
  }

  test('helm\'s own protobuf bytes delete its release Secret, under either protobuf type', async () => {
    const c = t.client;
    for (const [name, contentType] of [['sh.helm.release.v1.demo.v1', UPSTREAM_PROTOBUF], ['sh.helm.release.v1.demo.v2', OUR_PROTOBUF]] as const) {
      assert.equal((await c.post(`${ns}/secrets`, { metadata: { name }, type: 'helm.sh/release.v1', data: {} })).status, 201);
      const del = await c.request('DELETE', `${ns}/secrets/${name}`, { raw: helmDeleteOptions, contentType });
      assert.equal(del.status, 200, del.text);
      assert.equal(del.body.status, 'Success');
      assert.equal((await c.get(`${ns}/secrets/${name}`)).status, 404);
    }
  });

  test('a typed client\'s protobuf options name its own group, and are taken from any group', async () => {
    const c = t.client;
    const deploy = await c.post('/apis/apps/v1/namespaces/default/deployments', {
      metadata: { name: 'pb-del' },
      spec: { selector: { matchLabels: { app: 'x' } }, template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'x', image: 'x' }] } } },
    });
    assert.equal(deploy.status, 201, deploy.text);
    const path = '/apis/apps/v1/namespaces/default/deployments/pb-del';
    const wrong = await c.request('DELETE', path, { raw: protobufOptions('apps/v1', { uid: 'nope' }), contentType: UPSTREAM_PROTOBUF });
    assertStatus(wrong, 409, 'Conflict');
    const foreign = await c.request('DELETE', path, { raw: protobufOptions('example.com/v7', { dryRun: true }), contentType: UPSTREAM_PROTOBUF });
    assert.equal(foreign.status, 200, foreign.text);
    assert.equal((await c.get(path)).status, 200, 'the dry run from a foreign group was honoured');
    const ok = await c.request('DELETE', path, { raw: protobufOptions('apps/v1', { uid: deploy.body.metadata.uid }), contentType: UPSTREAM_PROTOBUF });
    assert.equal(ok.status, 200, ok.text);
  });

  test('bodies of another kind, malformed bodies and unknown media types are refused and change nothing', async () => {
    const c = t.client;
    assert.equal((await c.post(cms, { metadata: { name: 'kept' } })).status, 201);
    const path = `${cms}/kept`;
    const cases: [string, string | Buffer, string, number, string, RegExp][] = [
      ['a Pod', '{"apiVersion":"v1","kind":"Pod"}', 'application/json', 400, 'BadRequest', /^no kind "Pod" is registered for version "v1"/],
      ['ListOptions', '{"apiVersion":"meta.k8s.io/v1","kind":"ListOptions"}', 'application/json', 400, 'BadRequest', /^converting \(v1\.ListOptions\) to \(v1\.DeleteOptions\): unknown conversion$/],
      ['a protobuf Secret', encodeEnvelope({ apiVersion: 'v1', kind: 'Secret' }, Buffer.alloc(0)), UPSTREAM_PROTOBUF, 400, 'BadRequest', /^no kind "Secret" is registered/],
      ['JSON sent as protobuf', '{}', UPSTREAM_PROTOBUF, 400, 'BadRequest', /^provided data does not appear to be a protobuf message, expected prefix \[107 56 115 0\]$/],
      ['truncated protobuf', helmDeleteOptions.subarray(0, 10), UPSTREAM_PROTOBUF, 400, 'BadRequest', /malformed protobuf/],
      ['a field of the wrong type', '{"gracePeriodSeconds":"soon"}', 'application/json', 400, 'BadRequest', /gracePeriodSeconds/],
      ['both orphanDependents and a policy', '{"orphanDependents":true,"propagationPolicy":"Orphan"}', 'application/json', 422, 'Invalid',
        /^DeleteOptions\.meta\.orch\.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set$/],
      ['text', 'please', 'text/plain', 415, 'UnsupportedMediaType',
        /^the body of the request was in an unknown format - accepted media types include: application\/json, application\/yaml, application\/vnd\.orch\.protobuf, application\/vnd\.kubernetes\.protobuf$/],
    ];
    for (const [what, raw, contentType, code, reason, message] of cases) {
      const r = await c.request('DELETE', path, { raw, contentType });
      assertStatus(r, code, reason, what);
      assert.match(r.body.message, message, what);
      const dc = await c.request('DELETE', `${cms}?labelSelector=none`, { raw, contentType });
      assertStatus(dc, code, reason, `deletecollection: ${what}`);
    }
    assert.equal((await c.get(path)).status, 200, 'nothing was deleted');
    const unknownFields = await c.request('DELETE', path, { raw: '{"dryRun":["All"],"notAnOption":true}', contentType: 'application/json' });
    assert.equal(unknownFields.status, 200, `unknown fields are ignored: ${unknownFields.text}`);
    assert.equal((await c.get(path)).status, 200);
  });

  test('the query\'s options count only without a body, as upstream reads them', async () => {
    const c = t.client;
    const obj = await c.post(cms, { metadata: { name: 'by-query' } });
    const wrongUID = await c.delete(`${cms}/by-query?uid=not-its-uid`);
    assertStatus(wrongUID, 409, 'Conflict', 'uid in the query is a precondition');
    const badPolicy = await c.delete(`${cms}/by-query?propagationPolicy=`);
    assertStatus(badPolicy, 422, 'Invalid');
    assert.equal(badPolicy.body.message, 'DeleteOptions.meta.orch.io "" is invalid: propagationPolicy: Unsupported value: "": supported values: "Foreground", "Background", "Orphan", "nil"');
    const dry = await c.delete(`${cms}/by-query?dryRun=All&uid=${obj.body.metadata.uid}`);
    assert.equal(dry.status, 200, dry.text);
    assert.equal((await c.get(`${cms}/by-query`)).status, 200, 'dryRun in the query is honoured without a body');
    // With a body, upstream decodes the body alone: the query's dryRun does not count.
    const real = await c.request('DELETE', `${cms}/by-query?dryRun=All`, { raw: '{}', contentType: 'application/json' });
    assert.equal(real.status, 200, real.text);
    assert.equal((await c.get(`${cms}/by-query`)).status, 404, 'the body\'s options (none) were used');
  });
});
