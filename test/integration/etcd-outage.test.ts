// An etcd outage: requests fail with a retriable Status (never a hang or a crash), health says
// etcd is down, and everything recovers by itself when etcd returns.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from './framework/apiserver.js';

describe('etcd outage', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t?.stop());

  test('requests fail cleanly while etcd is down and succeed again after it returns', async () => {
    const c = t.client;
    assert.equal((await c.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'before' } })).status, 201);
    const w = await c.watch('/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=0');
    assert.equal((await w.next())?.type, 'ADDED');
    await t.etcd.pause();
    try {
      const r = await c.get('/api/v1/namespaces/default/configmaps/before');
      assert.ok(r.status === 503 || r.status === 504, r.text);
      assert.equal(r.body.kind, 'Status');
      const ready = await c.get('/readyz?verbose');
      assert.equal(ready.status, 500);
      assert.match(ready.text, /\[-\]etcd failed/);
      assert.equal((await c.get('/readyz?exclude=etcd')).status, 200);
      const live = await c.get('/livez?verbose');
      assert.equal(live.status, 500, 'livez reports the etcd check failing too');
      assert.match(live.text, /\[-\]etcd failed/);
      assert.equal((await c.get('/livez/etcd')).status, 500);
    } finally {
      await t.etcd.resume();
    }
    const deadline = Date.now() + 20_000;
    let ok = false;
    while (!ok && Date.now() < deadline) {
      ok = (await c.get('/readyz')).status === 200 && (await c.get('/livez')).status === 200 && (await c.get('/api/v1/namespaces/default/configmaps/before')).status === 200;
      if (!ok) await new Promise((r) => setTimeout(r, 250));
    }
    assert.ok(ok, 'the server recovered');
    assert.equal((await c.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'after' } })).status, 201);
    const ev = await w.next(10_000);
    assert.equal(ev?.type, 'ADDED', 'the open watch resumed after the outage');
    assert.equal(ev?.object.metadata.name, 'after');
    w.close();
  });
});
