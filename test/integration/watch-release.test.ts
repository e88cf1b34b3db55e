// Watches of one resource share one etcd watcher (ARCHITECTURE section 3), and a client that
// disconnects releases every resource its watch held: etcd's own watcher gauge returns to where it
// was once the last watch of a resource is gone. With the watch cache on, the cache of a resource
// holds that resource's etcd watcher for as long as the server runs (as upstream's cacher does), so
// only what is not the cache's is released.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from './framework/apiserver.js';

describe('watch resources', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({}, { inProcess: true }); // it counts the etcd watchers of one server process
  });
  after(async () => t?.stop());
  /** etcd watchers the watch cache keeps per resource once that resource was used (0 without the cache). */
  const cached = () => (t.options.watchCache ? 1 : 0);

  const etcdWatchers = async () => {
    const text = await (await fetch(`${t.etcd.endpoint}/metrics`)).text();
    return Number(/^etcd_debugging_mvcc_watcher_total (\d+)/m.exec(text)?.[1]);
  };
  /** Polls the gauge until it reads `want` (or the deadline passes) and returns the last reading. */
  const settle = async (want: number, ms = 10_000) => {
    const deadline = Date.now() + ms;
    let now = await etcdWatchers();
    while (now !== want && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      now = await etcdWatchers();
    }
    return now;
  };

  /**
   * The gauge once the server's own watches (its authentication caches) have settled: a cache's
   * watch starts on an etcd watcher of its own and moves onto the shared one after catching up.
   */
  const steady = async () => {
    let last = await etcdWatchers();
    for (let same = 0, tries = 0; same < 15 && tries < 200; tries++) {
      await new Promise((r) => setTimeout(r, 100));
      const now = await etcdWatchers();
      same = now === last ? same + 1 : 0;
      last = now;
    }
    return last;
  };

  test('watches of a resource share one etcd watcher, held until the last of them closes', async () => {
    const base = await steady();
    const streams = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      t.client.watch(`/api/v1/namespaces/default/configmaps?watch=true${i % 2 ? '&labelSelector=a%3Db' : ''}`)));
    streams.push(await t.client.watch('/api/v1/namespaces/orch-system/configmaps?watch=true'));
    streams.push(await t.client.watch('/api/v1/namespaces/default/configmaps/one?watch=true'));
    streams.push(await t.client.watch('/api/v1/configmaps?watch=true'));
    for (const s of streams) assert.equal(s.status, 200);
    assert.equal(await etcdWatchers(), base + 1, '23 watches of configmaps (namespaces, selectors, one object, all) hold one etcd watcher');
    // Controller revisions: a resource none of the server's own caches (authentication, authorization, admission) watches.
    const revisions = await t.client.watch('/apis/apps/v1/namespaces/default/controllerrevisions?watch=true');
    assert.equal(await etcdWatchers(), base + 2, 'another resource has its own');

    // Every open watch is served by it.
    const created = await t.client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'one', labels: { a: 'b' } } });
    assert.equal(created.status, 201, created.text);
    for (const [i, s] of streams.entries()) {
      if (i === 20) continue; // orch-system
      let e = await s.next(5000);
      // The all-namespaces watch first lists what exists: what the server publishes (cluster-info in
      // orch-public, extension-apiserver-authentication in orch-system).
      while (i === 22 && e?.type === 'ADDED' && e.object.metadata.name !== 'one') e = await s.next(5000);
      assert.equal(e?.type, 'ADDED', `watch ${i}`);
      assert.equal(e!.object.metadata.name, 'one');
    }

    assert.equal((await t.client.delete('/api/v1/namespaces/default/configmaps/one')).status, 200);
    revisions.close();
    assert.equal(await settle(base + 1 + cached()), base + 1 + cached(), 'closing the only controllerrevisions watch releases its etcd watcher (unless cached)');
    for (const s of streams.slice(1)) s.close();
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(await etcdWatchers(), base + 1 + cached(), 'the shared etcd watcher stays while one watch is open');
    streams[0]!.close();
    assert.equal(await settle(base + 2 * cached()), base + 2 * cached(), 'every etcd watcher was released, but for those of the caches');
  });

  test('a watch that times out releases its etcd watcher too', async () => {
    const base = await etcdWatchers();
    const s = await t.client.watch('/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=1');
    assert.equal(await s.next(5000), undefined, 'ends at its timeout');
    assert.equal(await settle(base, 5000), base);
  });

  test('a watch from an older resourceVersion catches up on its own etcd watcher, then moves onto the shared one', async () => {
    const cms = '/api/v1/namespaces/default/configmaps';
    const first = await t.client.post(cms, { metadata: { name: 'old-1' } });
    assert.equal(first.status, 201, first.text);
    const from = first.body.metadata.resourceVersion;
    const second = await t.client.post(cms, { metadata: { name: 'old-2' } });
    assert.equal(second.status, 201, second.text);
    // A read starts the configmaps cache (when on), whose etcd watcher is then part of the base.
    assert.equal((await t.client.get(`${cms}?resourceVersion=0`)).status, 200);
    const base = await steady();
    const live = await t.client.watch(`${cms}?watch=true&resourceVersion=${second.body.metadata.resourceVersion}`);
    assert.equal(await settle(base + 1 - cached()), base + 1 - cached());
    const behind = await t.client.watch(`${cms}?watch=true&resourceVersion=${from}`);
    const replayed = await behind.next(5000);
    assert.equal(replayed?.type, 'ADDED');
    assert.equal(replayed!.object.metadata.name, 'old-2', 'history after its version');
    // Once it has delivered what happened before the shared watch began (or etcd reports its
    // progress, every second in tests), the older watch moves onto the shared one.
    assert.equal(await settle(base + 1 - cached()), base + 1 - cached(), 'one etcd watcher again once the older watch caught up');
    const third = await t.client.post(cms, { metadata: { name: 'old-3' } });
    assert.equal(third.status, 201, third.text);
    for (const s of [live, behind]) {
      const e = await s.next(5000);
      assert.equal(e?.object.metadata.name, 'old-3');
      assert.equal(await s.next(300), undefined, 'once');
    }
    live.close();
    behind.close();
    assert.equal(await settle(base), base, 'released');
  });
});
