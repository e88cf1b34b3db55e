// An etcd outage, etcd killed (a crash) or frozen (a hang: SIGSTOP, its sockets open and nothing
// answering): requests fail with a Status (never a hang or a crash), retriable when they never
// reached etcd and not when a write was out at it, health says etcd is down, and everything
// recovers by itself when etcd returns.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, untilEveryThread, type TestServer } from './framework/apiserver.js';
import { pollUntil } from './framework/authentication.js';

describe('etcd outage', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t?.stop());

  const outages = {
    crash: { start: () => t.etcd.pause(), end: () => t.etcd.resume() },
    hang: { start: async () => t.etcd.freeze(), end: async () => t.etcd.thaw() },
  };
  for (const [outage, { start, end }] of Object.entries(outages)) test(`requests fail cleanly while etcd is down (${outage}) and succeed again after it returns`, async () => {
    const c = t.client;
    const before = `before-${outage}`;
    const after = `after-${outage}`;
    assert.equal((await c.post('/api/v1/namespaces/default/configmaps', { metadata: { name: before } })).status, 201);
    const w = await c.watch(`/api/v1/namespaces/default/configmaps?watch=true&fieldSelector=metadata.name%3D${after}`);
    await start();
    try {
      const r = await c.get(`/api/v1/namespaces/default/configmaps/${before}`);
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
      await end();
    }
    const deadline = Date.now() + 20_000;
    let ok = false;
    while (!ok && Date.now() < deadline) {
      ok = (await c.get('/readyz')).status === 200 && (await c.get('/livez')).status === 200 && (await c.get(`/api/v1/namespaces/default/configmaps/${before}`)).status === 200;
      if (!ok) await new Promise((r) => setTimeout(r, 250));
    }
    assert.ok(ok, 'the server recovered');
    assert.equal((await c.post('/api/v1/namespaces/default/configmaps', { metadata: { name: after } })).status, 201);
    const ev = await w.next(10_000);
    assert.equal(ev?.type, 'ADDED', 'the open watch resumed after the outage');
    assert.equal(ev?.object.metadata.name, after);
    w.close();
  });

  test('a write out at etcd when it goes away is 500 without Retry-After; a request that never reached it, 503 with one', async () => {
    const c = t.client;
    const path = '/api/v1/namespaces/default/configmaps';
    const made = await c.post(path, { metadata: { name: 'updated' }, data: { v: '1' } });
    assert.equal(made.status, 201);
    // An update reads etcd first on a thread whose watch cache lacks the object yet (as upstream's
    // GuaranteedUpdate does), and that read would wait on the frozen etcd with the write never sent.
    // So every thread's cache holds it before the freeze (a get at resourceVersion=0 answers from
    // the serving thread's cache as it is).
    await untilEveryThread(t, () => c.get(`${path}/updated?resourceVersion=0`), (r) => r.status === 200, 'the object in its watch cache');
    // Big enough that the bytes etcd holds unread can only be these writes once they are sent.
    const payload = 'x'.repeat(8 * 1024);
    const before = t.etcd.unreadBytes();
    t.etcd.freeze();
    let died = false;
    try {
      const create = c.post(path, { metadata: { name: 'in-flight' }, data: { payload } });
      const update = c.put(`${path}/updated`, { metadata: { name: 'updated' }, data: { v: '2', payload } });
      await pollUntil(async () => t.etcd.unreadBytes() - before, (n) => n >= 2 * payload.length, 'both writes sent to etcd');
      await t.etcd.pause();
      died = true;
      for (const [what, r] of [['create', await create], ['update', await update]] as const) {
        assert.equal(r.status, 500, `${what}: ${r.text}`);
        assert.equal(r.headers['retry-after'], undefined, `${what}: no Retry-After invites a blind retry`);
        assert.equal(r.body.kind, 'Status');
        assert.equal(r.body.reason, undefined, `${what}: as kube-apiserver answers an etcd client error, no reason`);
        assert.match(r.body.message, /^etcd: /, what);
      }
      // etcd is gone: these never reach it, and say when to come back.
      for (const r of [await c.post(path, { metadata: { name: 'never-sent' } }), await c.get(`${path}/updated`)]) {
        assert.equal(r.status, 503, r.text);
        assert.equal(r.headers['retry-after'], '1');
        assert.equal(r.body.reason, 'ServiceUnavailable');
        assert.equal(r.body.details?.retryAfterSeconds, 1);
      }
    } finally {
      if (!died) await t.etcd.pause();
      await t.etcd.resume();
    }
    // etcd was frozen before it read them, so neither write happened: their outcome was unknown, not failed.
    const got = await pollUntil(() => c.get(`${path}/updated`), (r) => r.status === 200, 'etcd back', 20_000);
    assert.equal(got.body.data.v, '1');
    assert.equal((await c.get(`${path}/in-flight`)).status, 404);
  });
});
