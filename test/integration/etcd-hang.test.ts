// etcd hangs (SIGSTOP: its sockets stay open and nothing answers, as with a frozen disk, a
// partition or a stalled leader): once the server's health probe knows, every request that needs
// etcd is answered 503 with Retry-After within moments; a write already out at etcd is answered 504 at its
// deadline, with no Retry-After, and its work stops; when etcd answers again the next request
// goes through.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, untilEveryThread, type TestServer } from './framework/apiserver.js';
import { pollUntil } from './framework/authentication.js';
import { describeHang, measureHang } from './framework/etcd-hang-load.js';

describe('etcd hang', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t?.stop());

  const path = '/api/v1/namespaces/default/configmaps';
  const timed = async <T>(f: () => Promise<T>): Promise<[T, number]> => {
    const start = performance.now();
    const v = await f();
    return [v, performance.now() - start];
  };

  test('503 with Retry-After within moments once the probe knows; a write out at etcd 504 at its deadline, its work stopped; writes again at once after', async () => {
    const c = t.client;
    assert.equal((await c.post(path, { metadata: { name: 'kept' }, data: { v: '1' } })).status, 201);
    const logsAtFreeze = t.logs.length;
    t.etcd.freeze();
    let thawed = false;
    try {
      // Out at etcd before the server knows: held to its deadline (here the request's own 4 s).
      const inFlight = timed(() => c.post(`${path}?timeout=4s`, { metadata: { name: 'in-flight' } }));
      // Each thread of the server probes etcd on its own connection.
      const [, knownAfter] = await timed(() => untilEveryThread(t, () => c.get('/readyz?verbose'), (r) => r.status === 500, '/readyz failing'));
      console.log(`every thread's probe knew etcd hung within ${knownAfter.toFixed(0)} ms of the freeze`);
      // Every request that needs etcd: 503, Retry-After, within moments (generous bound for a loaded machine).
      for (const [what, send] of [
        ['get', () => c.get(`${path}/kept`)],
        ['list', () => c.get(path)],
        ['create', () => c.post(path, { metadata: { name: 'refused' } })],
        ['update', () => c.put(`${path}/kept`, { metadata: { name: 'kept' }, data: { v: '2' } })],
        ['delete', () => c.delete(`${path}/kept`)],
      ] as const) {
        const [r, ms] = await timed(send);
        console.log(`${what} while etcd hangs: ${r.status} in ${ms.toFixed(0)} ms`);
        assert.equal(r.status, 503, `${what}: ${r.text}`);
        assert.equal(r.headers['retry-after'], '1', what);
        assert.equal(r.body.reason, 'ServiceUnavailable', what);
        assert.ok(ms < 5000, `${what} answered in ${ms} ms`);
      }
      const [r, ms] = await inFlight;
      assert.equal(r.status, 504, r.text);
      assert.equal(r.body.reason, 'Timeout');
      assert.equal(r.body.message, 'Timeout: request did not complete within requested timeout - context deadline exceeded');
      assert.equal(r.headers['retry-after'], undefined, 'its outcome is unknown: nothing invites a blind retry');
      assert.ok(ms >= 3900 && ms < 10_000, `answered at its deadline, after ${ms} ms`);
      // The handler stopped: its etcd call was given up as the 504 went out, nothing else was
      // written to the response, and the access log has the status sent.
      const cancelled = (l: string) => l.includes('post-timeout activity') && l.includes('configmaps') && l.includes('result="cancelled"');
      const logged504 = (l: string) => l.includes('request failed with a server error') && l.includes('verb="CREATE"') && l.includes('status=504');
      await pollUntil(async () => t.logs, (ls) => ls.some(cancelled) && ls.some(logged504), 'the late work to end and the access log to record the 504');
      // Nothing was logged as a late success: no 201 since the freeze (the only create that could
      // have had one is the one answered 504), and no write to the finished response.
      const late = t.logs.slice(logsAtFreeze).filter((l) => /Cannot set headers|status=201/.test(l));
      assert.deepEqual(late, []);
      t.etcd.thaw();
      thawed = true;
      const thawedAt = performance.now();
      // Writes go through as soon as the probe has its answer: tried every 10 ms from the thaw.
      let refused = 0;
      const created = await pollUntil(async () => {
        const r = await c.post(path, { metadata: { name: `after-thaw-${refused}` } });
        if (r.status !== 201) refused++;
        return r;
      }, (r) => r.status !== 503, 'a write to go through after the thaw', 5000);
      const writeMs = performance.now() - thawedAt;
      const [ready, readyMs] = await timed(() => c.get('/readyz'));
      console.log(`after the thaw: first create ${created.status} ${writeMs.toFixed(0)} ms after it (${refused} refused before, while the probe's answer was on its way), /readyz ${ready.status}`);
      assert.equal(created.status, 201, created.text);
      assert.ok(writeMs < 2000, `${writeMs} ms`);
      assert.equal(ready.status, 200, ready.text);
      assert.ok(readyMs < 5000, `${readyMs} ms`);
      // Nothing opens the gate again: every request from here goes through.
      for (let i = 0; i < 20; i++) assert.equal((await c.post(path, { metadata: { name: `then-${i}` } })).status, 201);
      assert.equal((await c.get(`${path}/kept`)).body.data.v, '1', 'the refused update changed nothing');
    } finally {
      if (!thawed) t.etcd.thaw();
    }
  });

  test('a 10 s hang under load: figures of what clients saw', async () => {
    const f = await measureHang(t, 10_000);
    console.log(describeHang(f));
    assert.ok(f.detectedMs < 6000, `the server knew after ${f.detectedMs} ms`);
    // Bounds a loaded machine keeps (the figures printed above are what to read): each fresh
    // client's request is a new TLS connection, 16 writers start again at the thaw.
    assert.ok(f.longestWaitKnownMs.create < 5000 && f.longestWaitKnownMs.read < 5000, JSON.stringify(f.longestWaitKnownMs));
    assert.ok(f.resumeToWriteMs < 3000, `first write ${f.resumeToWriteMs} ms after the thaw`);
    assert.ok(f.resumeToReadyMs < 5000, `/readyz 200 ${f.resumeToReadyMs} ms after the thaw`);
    assert.equal(f.errorsAfterResume, 0, 'no 5xx for requests sent after the thaw');
  });
});
