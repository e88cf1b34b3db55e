// dryRun=All runs every stage but the storage write; the answer is what the real call returns.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { assertStatus } from './framework/assertions.js';
import { fixtures } from './fixtures.js';

const cms = '/api/v1/namespaces/default/configmaps';

describe('dry run', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t?.stop());

  /** The store's revision: any write moves it. */
  const revision = async () => (await t.client.get(cms)).body.metadata.resourceVersion as string;

  test('create, update, patch, delete and deletecollection write nothing', async () => {
    const c = t.client;
    const sts = fixtures.find((f) => f.kind === 'StatefulSet')!;
    const start = await revision();
    const created = await c.post('/apis/apps/v1/namespaces/default/statefulsets?dryRun=All', sts.make('dry'));
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.spec.replicas, 1, 'defaults applied');
    assert.ok(created.body.metadata.uid && created.body.metadata.creationTimestamp);
    assert.equal(created.body.metadata.generation, 1);
    assert.equal((await c.get('/apis/apps/v1/namespaces/default/statefulsets/dry')).status, 404);
    const invalid = sts.make('dry-bad') as any;
    delete invalid.spec.selector;
    assert.equal((await c.post('/apis/apps/v1/namespaces/default/statefulsets?dryRun=All', invalid)).status, 422, 'validation runs');
    assert.equal((await c.post('/api/v1/namespaces/ghost/configmaps?dryRun=All', { metadata: { name: 'x' } })).status, 404, 'namespace checks run');
    assert.equal(await revision(), start);

    const real = await c.post(cms, { metadata: { name: 'real', finalizers: ['example.com/hold'] }, data: { a: '1' } });
    const afterCreate = await revision();
    const upd = await c.put(`${cms}/real?dryRun=All`, { ...real.body, data: { a: '2' } });
    assert.equal(upd.status, 200, upd.text);
    assert.equal(upd.body.data.a, '2');
    const stale = await c.put(`${cms}/real?dryRun=All`, { ...real.body, metadata: { ...real.body.metadata, resourceVersion: '1' } });
    assert.equal(stale.status, 409, 'conflicts are detected');
    const patched = await c.patch(`${cms}/real?dryRun=All`, { data: { b: '3' } });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(patched.body.data, { a: '1', b: '3' });
    const del = await c.delete(`${cms}/real?dryRun=All`);
    assert.equal(del.status, 200, 'with a finalizer the real delete would be pending');
    assert.ok(del.body.metadata.deletionTimestamp);
    const dc = await c.delete(`${cms}?dryRun=All`);
    assert.equal(dc.status, 200, dc.text);
    const now = await c.get(`${cms}/real`);
    assert.deepEqual(now.body, real.body, 'the stored object is untouched');
    assert.equal(await revision(), afterCreate);
    await c.patch(`${cms}/real`, { metadata: { finalizers: null } });
  });

  test('dryRun values other than All are refused on every write verb', async () => {
    const c = t.client;
    await c.post(cms, { metadata: { name: 'dv' } });
    for (const [method, path, body] of [
      ['POST', `${cms}?dryRun=Yes`, { metadata: { name: 'x' } }],
      ['PUT', `${cms}/dv?dryRun=true`, { metadata: { name: 'dv' } }],
    ] as const) {
      const r = await c.request(method, path, { body });
      assert.equal(r.status, 400, `${method} ${path}: ${r.text}`);
    }
    const p = await c.request('PATCH', `${cms}/dv?dryRun=x`, { body: {}, contentType: 'application/merge-patch+json' });
    assert.equal(p.status, 400, p.text);
    // A delete's dryRun is part of its DeleteOptions, from the query or the body: upstream's
    // ValidateDeleteOptions refuses other values as Invalid.
    for (const [path, body] of [[`${cms}/dv?dryRun=all`, undefined], [`${cms}?dryRun=Some`, undefined], [`${cms}/dv`, { dryRun: ['Nope'] }]] as const) {
      const r = await c.request('DELETE', path, body === undefined ? {} : { body });
      assertStatus(r, 422, 'Invalid');
      assert.match(r.body.message, /^DeleteOptions\.meta\.orch\.io "" is invalid: dryRun: Unsupported value: \[\]string\{"(all|Some|Nope)"\}: supported values: "All"$/);
    }
    const okBody = await c.request('DELETE', `${cms}/dv`, { body: { dryRun: ['All'] } });
    assert.equal(okBody.status, 200);
    assert.equal((await c.get(`${cms}/dv`)).status, 200, 'dryRun in DeleteOptions is honoured');
  });
});
