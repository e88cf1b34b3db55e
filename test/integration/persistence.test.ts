// Everything lives in etcd: a restarted API server serves exactly what was written before.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { collectionPath, fixtures, itemPath } from './fixtures.js';

describe('persistence across restarts', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t?.stop());

  test('objects of every kind survive an API server restart unchanged', async () => {
    const before = new Map<string, unknown>();
    for (const f of fixtures) {
      const r = await t.client.post(collectionPath(f), f.make(`${f.resource.slice(0, 8)}-kept`));
      assert.equal(r.status, 201, r.text);
      before.set(f.kind, r.body);
    }
    await t.restart();
    for (const f of fixtures) {
      const r = await t.client.get(itemPath(f, `${f.resource.slice(0, 8)}-kept`));
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body, before.get(f.kind));
    }
  });

  test('objects are stored under /registry/<group>/<resource>/<namespace>/<name> as JSON', async () => {
    const r = await t.client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'in-etcd' }, data: { k: 'v' } });
    assert.equal(r.status, 201);
    const key = Buffer.from('/registry/core/configmaps/default/in-etcd').toString('base64');
    const res = await fetch(`${t.etcd.endpoint}/v3/kv/range`, { method: 'POST', body: JSON.stringify({ key }) });
    const body = (await res.json()) as { kvs: { value: string; mod_revision: string }[] };
    assert.equal(body.kvs.length, 1);
    const stored = JSON.parse(Buffer.from(body.kvs[0]!.value, 'base64').toString('utf8'));
    assert.equal(stored.data.k, 'v');
    assert.equal(stored.metadata.resourceVersion, undefined, 'resourceVersion is not stored; it is the key\'s mod_revision');
    assert.equal(body.kvs[0]!.mod_revision, r.body.metadata.resourceVersion);
  });
});
