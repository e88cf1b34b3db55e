// Watch as a client sees it (spec 2.5, 4.5, 4.6, 6.1): ordered, gap-free and duplicate-free from
// the requested resourceVersion, synthetic ADDED events only without an exact version, BOOKMARK
// events on request, timeoutSeconds, one-object watches, and resuming after a dropped connection.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import type { Client, WatchEvent, WatchStream } from './framework/client.js';

interface Expected {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  name: string;
  /** Unknown for deletes, whose answer is a Status. */
  rv?: string;
  /** data.i of the object the event carries. */
  i?: string;
}

const rvOf = (e: WatchEvent) => Number(e.object.metadata.resourceVersion);

function assertStrictlyIncreasing(events: WatchEvent[], what: string): void {
  for (let k = 1; k < events.length; k++) {
    assert.ok(rvOf(events[k]!) > rvOf(events[k - 1]!), `${what}: event ${k} (${rvOf(events[k]!)}) comes after event ${k - 1} (${rvOf(events[k - 1]!)})`);
  }
}

function assertEvents(events: WatchEvent[], expected: Expected[], what: string): void {
  assert.deepEqual(events.map((e) => `${e.type} ${e.object.metadata.name}`), expected.map((e) => `${e.type} ${e.name}`), what);
  events.forEach((e, k) => {
    const x = expected[k]!;
    assert.equal(e.object.kind, 'ConfigMap', `${what}: event ${k} carries the kind`);
    assert.equal(e.object.apiVersion, 'v1', `${what}: event ${k} carries the apiVersion`);
    if (x.rv !== undefined) assert.equal(e.object.metadata.resourceVersion, x.rv, `${what}: event ${k} (${x.type} ${x.name}) has the write's resourceVersion`);
    if (x.i !== undefined) assert.equal(e.object.data?.i, x.i, `${what}: event ${k} (${x.type} ${x.name}) carries the written content`);
  });
  assertStrictlyIncreasing(events, what);
}

describe('watch', () => {
  let t: TestServer;
  let c: Client;
  const open: WatchStream[] = [];

  const watch = async (path: string): Promise<WatchStream> => {
    const w = await c.watch(path);
    open.push(w);
    assert.equal(w.status, 200, `watch ${path}`);
    assert.match(String(w.headers['content-type']), /^application\/json/);
    return w;
  };
  const listRV = async (ns: string): Promise<string> => {
    const r = await c.get(`/api/v1/namespaces/${ns}/configmaps`);
    assert.equal(r.status, 200, r.text);
    return r.body.metadata.resourceVersion;
  };
  const create = async (ns: string, name: string, i: string, labels: Record<string, string> = {}): Promise<Expected> => {
    const r = await c.post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name, labels }, data: { i } });
    assert.equal(r.status, 201, r.text);
    return { type: 'ADDED', name, rv: r.body.metadata.resourceVersion, i };
  };
  const modify = async (ns: string, name: string, i: string): Promise<Expected> => {
    const r = await c.patch(`/api/v1/namespaces/${ns}/configmaps/${name}`, { data: { i } });
    assert.equal(r.status, 200, r.text);
    return { type: 'MODIFIED', name, rv: r.body.metadata.resourceVersion, i };
  };
  /** `last` is data.i of the deleted object: a DELETED event carries the object's last state. */
  const remove = async (ns: string, name: string, last: string): Promise<Expected> => {
    const r = await c.delete(`/api/v1/namespaces/${ns}/configmaps/${name}`);
    assert.equal(r.status, 200, r.text);
    return { type: 'DELETED', name, i: last };
  };
  /** Asserts nothing more arrives for a while (no duplicates, no strays). */
  const assertQuiet = async (w: WatchStream, what: string, ms = 600) => {
    const e = await w.next(ms);
    assert.equal(e, undefined, `${what}: no further event, got ${JSON.stringify(e)}`);
  };

  before(async () => {
    t = await startTestServer();
    c = t.client;
    for (const ns of ['w-order', 'w-init', 'w-book', 'w-time', 'w-one', 'w-resume', 'w-status']) {
      const r = await c.post('/api/v1/namespaces', { metadata: { name: ns } });
      assert.equal(r.status, 201, r.text);
    }
  });
  after(async () => {
    for (const w of open) w.close();
    await t?.stop();
  });

  test('from a list resourceVersion on: every write once, in order, with strictly increasing resourceVersions', async () => {
    const ns = 'w-order';
    const w = await watch(`/api/v1/namespaces/${ns}/configmaps?watch=true&resourceVersion=${await listRV(ns)}`);
    const expected: Expected[] = [];
    const updates = new Map<string, number>();
    const lastI = new Map<string, string>();
    for (let i = 0; i < 50; i++) {
      const name = `o-${i % 7}`;
      const n = updates.get(name);
      if (n === undefined) {
        expected.push(await create(ns, name, String(i)));
        updates.set(name, 0);
        lastI.set(name, String(i));
      } else if (n < 2) {
        expected.push(await modify(ns, name, String(i)));
        updates.set(name, n + 1);
        lastI.set(name, String(i));
      } else {
        expected.push(await remove(ns, name, lastI.get(name)!));
        updates.delete(name);
      }
    }
    assert.deepEqual(new Set(expected.map((e) => e.type)), new Set(['ADDED', 'MODIFIED', 'DELETED']));
    const events = await w.take(50, 15_000);
    assertEvents(events, expected, '50 sequential writes');
    await assertQuiet(w, '50 sequential writes');

    // Concurrent writes arrive in resourceVersion order, each once.
    const concurrent = await Promise.all(Array.from({ length: 20 }, (_, k) => create(ns, `p-${k}`, `p${k}`)));
    concurrent.sort((a, b) => Number(a.rv) - Number(b.rv));
    assertEvents(await w.take(20, 15_000), concurrent, '20 concurrent creates');
    await assertQuiet(w, '20 concurrent creates');
  });

  test('resourceVersion unset and 0 begin with synthetic ADDED events for existing objects; a non-zero one does not', async () => {
    const ns = 'w-init';
    const base = `/api/v1/namespaces/${ns}/configmaps`;
    await create(ns, 'i-a', 'a0');
    const b = await create(ns, 'i-b', 'b');
    // History that synthetic events must not replay: a modification and a created-and-deleted object.
    const a = await modify(ns, 'i-a', 'a');
    await create(ns, 'i-gone', 'g');
    await remove(ns, 'i-gone', 'g');
    const noted = await listRV(ns);
    const cc = await create(ns, 'i-c', 'c');
    const current = await listRV(ns);

    const unset = await watch(`${base}?watch=true`);
    const zero = await watch(`${base}?watch=true&resourceVersion=0`);
    const fromNoted = await watch(`${base}?watch=true&resourceVersion=${noted}`);
    const fromCurrent = await watch(`${base}?watch=true&resourceVersion=${current}`);
    for (const [what, w] of [['unset', unset], ['0', zero]] as const) {
      const initial = await w.take(3);
      assert.deepEqual(initial.map((e) => e.type), ['ADDED', 'ADDED', 'ADDED'], `rv ${what}: synthetic ADDED events`);
      assert.deepEqual(initial.map((e) => `${e.object.metadata.name}@${e.object.metadata.resourceVersion}:${e.object.data.i}`).sort(),
        [a, b, cc].map((x) => `${x.name}@${x.rv}:${x.i}`), `rv ${what}: one per existing object, in its current state`);
      for (const e of initial) {
        assert.equal(e.object.kind, 'ConfigMap');
        assert.equal(e.object.apiVersion, 'v1');
      }
    }
    // From the noted version: only what happened after it, as it happened.
    assertEvents(await fromNoted.take(1), [cc], 'rv non-zero: history after it, no synthetic events');

    const d = await create(ns, 'i-d', 'd');
    await Promise.all(([['unset', unset], ['0', zero], ['noted', fromNoted], ['current', fromCurrent]] as const).map(async ([what, w]) => {
      assertEvents(await w.take(1), [d], `rv ${what}: the next write`);
      await assertQuiet(w, `rv ${what}`, 400);
    }));
  });

  /** Reads events until a BOOKMARK; returns it and the events before it. */
  const untilBookmark = async (w: WatchStream, what: string): Promise<{ before: WatchEvent[]; bookmark: WatchEvent }> => {
    const before: WatchEvent[] = [];
    const deadline = Date.now() + 5_000;
    for (;;) {
      const e = await w.next(Math.max(1, deadline - Date.now()));
      assert.ok(e, `${what}: a BOOKMARK arrives (etcd reports progress every second); got only ${JSON.stringify(before.map((x) => x.type))}`);
      if (e.type === 'BOOKMARK') return { before, bookmark: e };
      before.push(e);
    }
  };
  const assertBookmarkShape = (bookmark: WatchEvent, kind: string, apiVersion: string) => {
    assert.deepEqual(Object.keys(bookmark).sort(), ['object', 'type']);
    assert.deepEqual(Object.keys(bookmark.object).sort(), ['apiVersion', 'kind', 'metadata'], `${kind}: ${JSON.stringify(bookmark.object)}`);
    assert.equal(bookmark.object.kind, kind);
    assert.equal(bookmark.object.apiVersion, apiVersion);
    assert.deepEqual(Object.keys(bookmark.object.metadata), ['resourceVersion'], `${kind}: ${JSON.stringify(bookmark.object)}`);
    assert.match(bookmark.object.metadata.resourceVersion, /^\d+$/);
  };

  test('allowWatchBookmarks=true: BOOKMARK events carry only kind, apiVersion and metadata.resourceVersion and follow writes elsewhere', async () => {
    const ns = 'w-book';
    const base = `/api/v1/namespaces/${ns}/configmaps`;
    const rv = await listRV(ns);
    const withBookmarks = await watch(`${base}?watch=true&resourceVersion=${rv}&allowWatchBookmarks=true`);
    const without = await watch(`${base}?watch=true&resourceVersion=${rv}`);
    const namespaces = await watch(`/api/v1/namespaces?watch=true&resourceVersion=${rv}&allowWatchBookmarks=1&labelSelector=nobody-has-this`);
    const first = await create(ns, 'b-1', '1');
    // A write the configmap watches do not see moves etcd's revision past their last event.
    const secret = await c.post(`/api/v1/namespaces/${ns}/secrets`, { metadata: { name: 'elsewhere' }, stringData: { k: 'v' } });
    assert.equal(secret.status, 201, secret.text);
    const elsewhere = Number(secret.body.metadata.resourceVersion);

    const [cms, nss] = await Promise.all([untilBookmark(withBookmarks, 'configmaps'), untilBookmark(namespaces, 'namespaces')]);
    assertEvents(cms.before, [first], 'events before the bookmark');
    assert.deepEqual(nss.before, [], 'the namespace watch matches nothing');
    assertBookmarkShape(cms.bookmark, 'ConfigMap', 'v1');
    assertBookmarkShape(nss.bookmark, 'Namespace', 'v1');
    for (const { bookmark } of [cms, nss]) {
      assert.ok(rvOf(bookmark) >= elsewhere, `a bookmark reports progress past writes to other resources (${rvOf(bookmark)} >= ${elsewhere})`);
    }

    // Everything up to the bookmark was sent: the next write has a higher version.
    const second = await create(ns, 'b-2', '2');
    let next = await withBookmarks.next();
    const bookmarks = [cms.bookmark];
    while (next?.type === 'BOOKMARK') {
      bookmarks.push(next);
      next = await withBookmarks.next();
    }
    assertEvents(next ? [next] : [], [second], 'the write after the bookmark');
    for (const bm of bookmarks) assert.ok(rvOf(next!) > rvOf(bm), 'a write after a bookmark has a higher resourceVersion than the bookmark');
    for (let k = 1; k < bookmarks.length; k++) assert.ok(rvOf(bookmarks[k]!) >= rvOf(bookmarks[k - 1]!), 'bookmarks never go back');

    // Without allowWatchBookmarks: the same writes and no BOOKMARK, though it was open over the same
    // progress intervals that brought the bookmarks above.
    const plain = await without.take(3, 1_000);
    assertEvents(plain, [first, second], 'without allowWatchBookmarks');
  });

  test('allowWatchBookmarks=true: a watch whose last event is the newest write still gets bookmarks', async () => {
    const ns = 'w-book';
    const base = `/api/v1/namespaces/${ns}/configmaps`;
    const rv = await listRV(ns);
    const w = await watch(`${base}?watch=true&resourceVersion=${rv}&allowWatchBookmarks=true`);
    const only = await create(ns, 'b-quiet', 'q');
    // Nothing else is written: etcd's progress notifications report the revision of that event.
    const { before, bookmark } = await untilBookmark(w, 'quiet watch');
    assertEvents(before, [only], 'the one write');
    assertBookmarkShape(bookmark, 'ConfigMap', 'v1');
    assert.ok(rvOf(bookmark) >= Number(only.rv), 'the bookmark is not behind the last event');
  });

  test('timeoutSeconds=2 ends the stream cleanly after about two seconds', async () => {
    const ns = 'w-time';
    const base = `/api/v1/namespaces/${ns}/configmaps`;
    const existing = await create(ns, 'to-0', '0');
    const started = Date.now();
    const w = await watch(`${base}?watch=true&resourceVersion=${await listRV(ns)}&timeoutSeconds=2`);
    // With synthetic events first, too.
    const w2 = await watch(`${base}?watch=true&timeoutSeconds=1&fieldSelector=metadata.name%3Dto-0`);
    const created = await create(ns, 'to-1', '1');
    const drain = async (s: WatchStream) => {
      const events: WatchEvent[] = [];
      for (;;) {
        const e = await s.next(15_000);
        if (!e) return events;
        events.push(e);
      }
    };
    const [events, initial] = await Promise.all([drain(w), drain(w2)]);
    assert.ok(w.ended() && w2.ended(), 'the server ended the streams');
    assert.ok(Date.now() - started < 12_000, `ended within a generous bound (${Date.now() - started} ms)`);
    assertEvents(events, [created], 'events before the timeout; no ERROR event');
    assertEvents(initial, [existing], 'the synthetic event before the timeout; no ERROR event');
  });

  test('a watch on one object, by item path or by metadata.name, sees that object only', async () => {
    const ns = 'w-one';
    const base = `/api/v1/namespaces/${ns}/configmaps`;
    const x = await create(ns, 'x', '0');
    await create(ns, 'y', '0');
    await create(ns, 'x-2', '0'); // shares the name as a prefix
    const rv = await listRV(ns);

    const byItem = await watch(`${base}/x?watch=true`);
    const byItemZero = await watch(`${base}/x?watch=1&resourceVersion=0`);
    const byField = await watch(`${base}?watch=true&fieldSelector=metadata.name%3Dx`);
    const byItemRV = await watch(`${base}/x?watch=true&resourceVersion=${rv}`);
    const byFieldRV = await watch(`${base}?watch=true&fieldSelector=metadata.name%3Dx&resourceVersion=${rv}`);
    const acrossNamespaces = await watch(`/api/v1/configmaps?watch=true&fieldSelector=metadata.name%3Dx,metadata.namespace%3D${ns}&resourceVersion=${rv}`);
    const notYet = await watch(`${base}/later?watch=true`);
    for (const [what, w] of [['item', byItem], ['item rv=0', byItemZero], ['field', byField]] as const) {
      assertEvents(await w.take(1), [x], `${what}: the synthetic ADDED of x alone`);
    }

    await modify(ns, 'y', '1');
    await modify(ns, 'x-2', '1');
    await create(ns, 'x-3', '0');
    await create(ns, 'xx', '0');
    const mx = await modify(ns, 'x', '1');
    await remove(ns, 'y', '1');
    const dx = await remove(ns, 'x', '1');
    await remove(ns, 'x-2', '1');
    const later = await create(ns, 'later', '0');
    await Promise.all(([['item', byItem], ['item rv=0', byItemZero], ['field', byField], ['item from rv', byItemRV], ['field from rv', byFieldRV], ['all namespaces', acrossNamespaces]] as const).map(async ([what, w]) => {
      assertEvents(await w.take(2), [mx, dx], `${what}: the changes of x`);
      await assertQuiet(w, what, 400);
    }));
    assertEvents(await notYet.take(1), [later], 'an item watch on an object created later');

    // The same through the item path of a cluster-scoped kind.
    const nsWatch = await watch(`/api/v1/namespaces/${ns}?watch=true`);
    const initial = await nsWatch.next();
    assert.equal(initial?.type, 'ADDED');
    assert.equal(initial!.object.kind, 'Namespace');
    assert.equal(initial!.object.metadata.name, ns);
    assert.equal((await c.patch('/api/v1/namespaces/w-time', { metadata: { labels: { other: 'yes' } } })).status, 200);
    const own = await c.patch(`/api/v1/namespaces/${ns}`, { metadata: { labels: { mine: 'yes' } } });
    assert.equal(own.status, 200, own.text);
    const changed = await nsWatch.next();
    assert.equal(changed?.type, 'MODIFIED');
    assert.equal(changed!.object.metadata.name, ns);
    assert.equal(changed!.object.metadata.resourceVersion, own.body.metadata.resourceVersion);
    await assertQuiet(nsWatch, 'namespace item watch', 300);
  });

  test('a watch that drops and resumes from its last resourceVersion misses nothing and repeats nothing', async () => {
    const ns = 'w-resume';
    const base = `/api/v1/namespaces/${ns}/configmaps`;
    const start = await listRV(ns);
    const w1 = await watch(`${base}?watch=true&resourceVersion=${start}`);
    const firstPart = [
      await create(ns, 'r-0', '0'),
      await create(ns, 'r-1', '1'),
      await create(ns, 'r-2', '2'),
      await modify(ns, 'r-0', '3'),
      await remove(ns, 'r-1', '1'),
    ];
    const received = await w1.take(5);
    assertEvents(received, firstPart, 'before the drop');
    w1.close();

    const missed = [
      await create(ns, 'r-3', '4'),
      await create(ns, 'r-4', '5'),
      await modify(ns, 'r-2', '6'),
      await modify(ns, 'r-3', '7'),
      await remove(ns, 'r-0', '3'),
      await create(ns, 'r-1', '8'),
      await modify(ns, 'r-4', '9'),
    ];
    const last = received[received.length - 1]!.object.metadata.resourceVersion;
    const w2 = await watch(`${base}?watch=true&resourceVersion=${last}`);
    assertEvents(await w2.take(7), missed, 'resumed from the last received resourceVersion');
    await assertQuiet(w2, 'resumed');

    // Resuming from an earlier event replays exactly what followed it.
    const mid = received[2]!.object.metadata.resourceVersion;
    const w3 = await watch(`${base}?watch=true&resourceVersion=${mid}`);
    assertEvents(await w3.take(9), [...firstPart.slice(3), ...missed], 'resumed from an earlier event');
    await assertQuiet(w3, 'resumed from an earlier event');
    w2.close();
    w3.close();
  });

  test('status writes of a namespaced kind and changes of a cluster-scoped kind are MODIFIED events', async () => {
    const ns = 'w-status';
    const rqBase = `/api/v1/namespaces/${ns}/resourcequotas`;
    const rv = await listRV(ns);
    const rqWatch = await watch(`${rqBase}?watch=true&resourceVersion=${rv}`);
    const nsWatch = await watch(`/api/v1/namespaces?watch=true&resourceVersion=${rv}&labelSelector=watch-test`);
    const rq = await c.post(rqBase, { metadata: { name: 'q' }, spec: { hard: { pods: '5' } } });
    assert.equal(rq.status, 201, rq.text);
    const st = await c.put(`${rqBase}/q/status`, { ...rq.body, status: { hard: { pods: '5' }, used: { pods: '2' } } });
    assert.equal(st.status, 200, st.text);
    const events = await rqWatch.take(2);
    assert.deepEqual(events.map((e) => e.type), ['ADDED', 'MODIFIED']);
    assert.equal(events[0]!.object.kind, 'ResourceQuota');
    assert.equal(events[1]!.object.status.used.pods, '2');
    assert.equal(events[1]!.object.metadata.resourceVersion, st.body.metadata.resourceVersion);

    const created = await c.post('/api/v1/namespaces', { metadata: { name: 'w-cluster', labels: { 'watch-test': 'a' } } });
    assert.equal(created.status, 201, created.text);
    const relabelled = await c.patch('/api/v1/namespaces/w-cluster', { metadata: { labels: { 'watch-test': 'b' } } });
    assert.equal(relabelled.status, 200, relabelled.text);
    const nsEvents = await nsWatch.take(2);
    assert.deepEqual(nsEvents.map((e) => `${e.type} ${e.object.kind} ${e.object.metadata.name} ${e.object.metadata.resourceVersion}`),
      [`ADDED Namespace w-cluster ${created.body.metadata.resourceVersion}`, `MODIFIED Namespace w-cluster ${relabelled.body.metadata.resourceVersion}`]);
    await assertQuiet(nsWatch, 'namespaces with the label');
  });

  test('a malformed watch request is a 400 Status, not a stream', async () => {
    for (const q of ['resourceVersion=abc', 'labelSelector=a%20in%20(b', 'fieldSelector=spec.nope%3Dx', 'timeoutSeconds=soon']) {
      const r = await c.get(`/api/v1/namespaces/w-one/configmaps?watch=true&${q}`);
      assert.equal(r.status, 400, `${q}: ${r.text}`);
      assert.equal(r.body.kind, 'Status', q);
      assert.equal(r.body.reason, 'BadRequest', q);
    }
    // Upstream's query conversion makes any boolean but 0 and false true: this is a watch with bookmarks.
    const w = await c.watch('/api/v1/namespaces/w-one/configmaps?watch=true&allowWatchBookmarks=maybe&timeoutSeconds=5');
    assert.equal(w.status, 200);
    w.close();
  });
});
