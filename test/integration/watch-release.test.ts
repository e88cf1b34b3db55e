// A client that disconnects releases every resource its watch held: etcd's own watcher gauge
// returns to where it was.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from './framework/apiserver.js';

describe('watch resources', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t?.stop());

  const etcdWatchers = async () => {
    const text = await (await fetch(`${t.etcd.endpoint}/metrics`)).text();
    return Number(/^etcd_debugging_mvcc_watcher_total (\d+)/m.exec(text)?.[1]);
  };

  test('closing watches from the client side releases their etcd watchers', async () => {
    const base = await etcdWatchers();
    const streams = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      t.client.watch(`/api/v1/namespaces/default/configmaps?watch=true${i % 2 ? '&labelSelector=a%3Db' : ''}`)));
    assert.ok((await etcdWatchers()) >= base + 20, 'each open watch holds an etcd watcher');
    for (const s of streams) s.close();
    const deadline = Date.now() + 10_000;
    let now = await etcdWatchers();
    while (now > base && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      now = await etcdWatchers();
    }
    assert.equal(now, base, 'every etcd watcher was released');
  });

  test('a watch that times out releases its etcd watcher too', async () => {
    const base = await etcdWatchers();
    const s = await t.client.watch('/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=1');
    assert.equal(await s.next(5000), undefined, 'ends at its timeout');
    const deadline = Date.now() + 5000;
    while ((await etcdWatchers()) > base && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.equal(await etcdWatchers(), base);
  });
});
