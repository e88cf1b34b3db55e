// The watch hub (pkg/storage/watch-hub.ts) on a real etcd: the watches of one resource share one
// etcd watch, and each still sees exactly the changes of its own keys after its revision, in order,
// once; watches from older revisions, progress, failures and release behave as direct ones do.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Etcd3 } from 'etcd3';
import { isStorageError } from '../../pkg/storage/errors.js';
import type { StorageWatch, StorageWatchEvent, StoredObject, WatchHandlers } from '../../pkg/storage/interface.js';
import { WatchHub, type WatchHubOptions } from '../../pkg/storage/watch-hub.js';
import { etcdStorage, startEtcd, type TestEtcd } from './framework/etcd.js';

/** What one watch received. */
class Recorder {
  readonly events: StorageWatchEvent[] = [];
  readonly progress: number[] = [];
  readonly errors: Error[] = [];
  readonly handlers: WatchHandlers = {
    event: (e) => this.events.push(e),
    progress: (r) => this.progress.push(r),
    error: (err) => this.errors.push(err),
  };

  /** Waits until `cond` holds (polling), failing with `what` after `ms`. */
  async until(cond: () => boolean, what: string, ms = 10_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!cond()) {
      if (Date.now() > deadline) assert.fail(`${what}: timed out with ${this.events.length} events, ${this.errors.length} errors`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}

const fmt = (e: StorageWatchEvent) => `${e.type} ${e.key} @${e.revision}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What a direct etcd watch of `key` from `after` delivers, taken from a reference watch of the whole resource. */
function expected(reference: StorageWatchEvent[], key: string, recursive: boolean, after: number): string[] {
  return reference.filter((e) => e.revision > after && (recursive ? e.key.startsWith(key) : e.key === key)).map(fmt);
}

function assertIncreasing(events: StorageWatchEvent[], what: string): void {
  for (let i = 1; i < events.length; i++) {
    assert.ok(events[i]!.revision > events[i - 1]!.revision, `${what}: event ${i} comes after event ${i - 1}`);
  }
}

describe('watch hub', () => {
  let etcd: TestEtcd;
  before(async () => {
    etcd = await startEtcd();
  });
  after(async () => etcd?.stop());

  const etcdWatchers = async () => {
    const text = await (await fetch(`${etcd.endpoint}/metrics`)).text();
    return Number(/^etcd_debugging_mvcc_watcher_total (\d+)/m.exec(text)?.[1]);
  };
  const settle = async (want: number, ms = 10_000) => {
    const deadline = Date.now() + ms;
    let now = await etcdWatchers();
    while (now !== want && Date.now() < deadline) {
      await sleep(50);
      now = await etcdWatchers();
    }
    return now;
  };

  /** A storage on the test etcd and a hub around it; `done` stops every watch and closes both. */
  const open = (opts: WatchHubOptions = {}) => {
    const inner = etcdStorage(etcd.endpoint);
    const hub = new WatchHub(inner, opts);
    const watches: StorageWatch[] = [];
    const watch = async (storage: 'hub' | 'inner', key: string, recursive: boolean, afterRevision: number, r = new Recorder()) => {
      const w = await (storage === 'hub' ? hub : inner).watch(key, { afterRevision, recursive }, r.handlers);
      watches.push(w);
      return { r, w };
    };
    const obj = (key: string, i: number): StoredObject => {
      const parts = key.split('/');
      return { metadata: { name: parts[parts.length - 1]!, namespace: parts[parts.length - 2]! }, data: { i: String(i) } };
    };
    const create = async (key: string, i = 0) => Number((await inner.create(key, obj(key, i))).metadata.resourceVersion);
    const update = async (key: string, i: number) =>
      Number((await inner.guaranteedUpdate(key, async (cur) => ({ ...cur!, data: { i: String(i) } }))).metadata.resourceVersion);
    const remove = async (key: string) => {
      await inner.delete(key);
      return inner.currentRevision(); // sequential writers only: the delete's revision
    };
    const done = async () => {
      await Promise.all(watches.map((w) => w.stop()));
      await hub.close();
    };
    return { inner, hub, watch, create, update, remove, done };
  };

  test('two watches on different namespaces share one etcd watch and see only their own namespace', async () => {
    const s = open();
    try {
      const base = await etcdWatchers();
      const rev0 = await s.inner.currentRevision();
      const a = await s.watch('hub', '/t1/configmaps/a/', true, rev0);
      const b = await s.watch('hub', '/t1/configmaps/b/', true, rev0);
      assert.equal(await etcdWatchers(), base + 1, 'one etcd watch for both');
      assert.deepEqual(s.hub.stats(), { feeds: 1, shared: 2, catchingUp: 0, direct: 0 });
      const ref = await s.watch('inner', '/t1/configmaps/', true, rev0);

      let last = 0;
      for (let i = 0; i < 6; i++) {
        for (const ns of ['a', 'b', 'ab']) last = await s.create(`/t1/configmaps/${ns}/o-${i}`, i);
        last = await s.update(`/t1/configmaps/a/o-${i}`, 10 + i);
        if (i % 2) last = await s.remove(`/t1/configmaps/b/o-${i}`);
      }
      await ref.r.until(() => ref.r.events.length === 6 * 4 + 3, 'reference');
      for (const [ns, w, n] of [['a', a, 12], ['b', b, 9]] as const) {
        const want = expected(ref.r.events, `/t1/configmaps/${ns}/`, true, rev0);
        assert.equal(want.length, n);
        await w.r.until(() => w.r.events.length >= n, ns);
        await sleep(200);
        assert.deepEqual(w.r.events.map(fmt), want, `namespace ${ns}: its own events, in order, once`);
        assert.deepEqual(w.r.errors, []);
      }
      assert.deepEqual(new Set(a.r.events.map((e) => e.type)), new Set(['ADDED', 'MODIFIED']));
      assert.deepEqual(new Set(b.r.events.map((e) => e.type)), new Set(['ADDED', 'DELETED']));
      const modified = a.r.events.find((e) => e.type === 'MODIFIED')!;
      assert.deepEqual(modified.object.data, { i: '10' });
      assert.deepEqual(modified.prevObject?.data, { i: '0' }, 'previous state of a change');
      const deleted = b.r.events.find((e) => e.type === 'DELETED')!;
      assert.equal(deleted.object.metadata.name, 'o-1', 'a deletion carries the last state');

      // etcd's progress notifications (every second in tests) reach every watch, past the last write.
      for (const [ns, w] of [['a', a], ['b', b]] as const) {
        await w.r.until(() => w.r.progress.some((p) => p >= last), `progress of ${ns}`, 5000);
      }
    } finally {
      await s.done();
    }
  });

  test('a watch of one key does not see keys it is a prefix of', async () => {
    const s = open();
    try {
      const rev0 = await s.inner.currentRevision();
      const key = '/t2/configmaps/ns/name';
      const one = await s.watch('hub', key, false, rev0);
      const ns = await s.watch('hub', '/t2/configmaps/ns/', true, rev0);
      const ref = await s.watch('inner', '/t2/configmaps/', true, rev0);
      await s.create(key);
      await s.create(`${key}-2`);
      await s.create(`${key}2`);
      await s.create('/t2/configmaps/ns/nam');
      await s.update(`${key}-2`, 1);
      await s.update(key, 1);
      await s.remove(`${key}-2`);
      await s.remove(key);
      await s.create(key, 2);
      await ref.r.until(() => ref.r.events.length === 9, 'reference');
      await one.r.until(() => one.r.events.length >= 4, 'one key');
      await ns.r.until(() => ns.r.events.length >= 9, 'namespace');
      await sleep(200);
      assert.deepEqual(one.r.events.map(fmt), expected(ref.r.events, key, false, rev0));
      assert.deepEqual(one.r.events.map((e) => e.type), ['ADDED', 'MODIFIED', 'DELETED', 'ADDED']);
      assert.ok(one.r.events.every((e) => e.key === key), 'nothing of name-2, name2 or nam');
      assert.deepEqual(ns.r.events.map(fmt), expected(ref.r.events, '/t2/configmaps/ns/', true, rev0));
      assert.deepEqual(s.hub.stats(), { feeds: 1, shared: 2, catchingUp: 0, direct: 0 });
    } finally {
      await s.done();
    }
  });

  test('a watch from before what the hub holds reads history on its own, then joins the shared watch', async () => {
    const s = open({ ringCapacity: 5 });
    try {
      const prefix = '/t3/configmaps/ns/';
      const revs: number[] = [];
      for (let i = 0; i < 5; i++) revs.push(await s.create(`${prefix}h-${i}`, i));
      const base = await etcdWatchers();
      const live = await s.watch('hub', prefix, true, revs[4]!); // starts the shared watch here
      assert.deepEqual(s.hub.stats(), { feeds: 1, shared: 1, catchingUp: 0, direct: 0 });

      // Older than the shared watch's start: history comes from its own etcd watch.
      const old = await s.watch('hub', prefix, true, revs[0]!);
      await old.r.until(() => old.r.events.length >= 4, 'history');
      assert.deepEqual(old.r.events.map((e) => e.revision), revs.slice(1));
      await old.r.until(() => s.hub.stats().catchingUp === 0, 'moved onto the shared watch');
      assert.equal(await settle(base + 1), base + 1, 'its own etcd watch is gone');

      // Past the ring: 20 writes through a ring of 5.
      const more: number[] = [];
      for (let i = 0; i < 20; i++) more.push(await s.update(`${prefix}h-${i % 5}`, 100 + i));
      await live.r.until(() => live.r.events.length === 20, 'live');
      const evicted = await s.watch('hub', prefix, true, more[2]!);
      const held = await s.watch('hub', prefix, true, more[16]!);
      await evicted.r.until(() => evicted.r.events.length >= 17, 'evicted');
      await held.r.until(() => held.r.events.length >= 3, 'held');
      assert.deepEqual(evicted.r.events.map((e) => e.revision), more.slice(3), 'from its revision on, though the ring dropped those events');
      assert.deepEqual(held.r.events.map((e) => e.revision), more.slice(17), 'replayed from the ring');
      await evicted.r.until(() => s.hub.stats().catchingUp === 0, 'moved onto the shared watch');

      const last = await s.create(`${prefix}h-last`);
      for (const [what, w, n] of [['live', live, 21], ['old', old, 25], ['evicted', evicted, 18], ['held', held, 4]] as const) {
        await w.r.until(() => w.r.events.length >= n, what);
        await sleep(100);
        assert.equal(w.r.events.length, n, `${what}: no duplicates`);
        assert.equal(w.r.events[n - 1]!.revision, last, what);
        assertIncreasing(w.r.events, what);
      }
      assert.deepEqual(s.hub.stats(), { feeds: 1, shared: 4, catchingUp: 0, direct: 0 });
      assert.equal(await etcdWatchers(), base + 1);

      // History compacted away: that watch fails with Expired; the shared watch goes on.
      await s.inner.compact(last);
      const gone = await s.watch('hub', prefix, true, revs[0]!);
      await gone.r.until(() => gone.r.errors.length > 0, 'compacted');
      assert.ok(isStorageError(gone.r.errors[0], 'Expired'), String(gone.r.errors[0]));
      assert.deepEqual(gone.r.events, []);
      const after = await s.create(`${prefix}after-compaction`);
      await live.r.until(() => live.r.events.at(-1)?.revision === after, 'the shared watch after a compacted one');
      assert.deepEqual(live.r.errors, []);
    } finally {
      await s.done();
    }
  });

  test('1,000 writes reach 50 watches in order, each once, including watches that join midway', async () => {
    const s = open();
    try {
      const prefix = '/t4/configmaps/';
      const namespaces = ['n0', 'n1', 'n2', 'n3', 'n4'];
      const keys = namespaces.flatMap((ns) => Array.from({ length: 20 }, (_, k) => `${prefix}${ns}/k${k}`));
      const seedRev = await s.create(`${prefix}n0/seed`);
      await s.create(`${prefix}n1/seed`);
      const rev0 = await s.inner.currentRevision();
      const base = await etcdWatchers();
      const ref = await s.watch('inner', prefix, true, seedRev - 1);

      type Spec = { key: string; recursive: boolean; after: number; w?: { r: Recorder; w: StorageWatch } };
      const specs: Spec[] = [];
      for (let i = 0; i < 10; i++) specs.push({ key: prefix, recursive: true, after: rev0 });
      for (let i = 0; i < 25; i++) specs.push({ key: `${prefix}${namespaces[i % 5]}/`, recursive: true, after: rev0 });
      for (let i = 0; i < 10; i++) specs.push({ key: keys[i * 7]!, recursive: false, after: rev0 });
      for (const sp of specs) sp.w = await s.watch('hub', sp.key, sp.recursive, sp.after);
      assert.equal(await etcdWatchers(), base + 2, 'the reference watch and one shared watch for 45 watches');

      // Eight writers, each owning its keys; a fixed pseudo-random sequence of creates, updates and deletes.
      let seed = 42;
      const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
      const exists = new Set<string>();
      const plan = Array.from({ length: 8 }, () => [] as (() => Promise<number>)[]);
      for (let i = 0; i < 1000; i++) {
        const k = Math.floor(rand() * keys.length);
        const key = keys[k]!;
        const writer = plan[k % 8]!;
        if (!exists.has(key)) {
          exists.add(key);
          writer.push(() => s.create(key, i));
        } else if (rand() < 0.75) {
          writer.push(() => s.update(key, i));
        } else {
          exists.delete(key);
          writer.push(async () => (await s.inner.delete(key), 0));
        }
      }
      let written = 0;
      let midway: number | undefined;
      const joined: Promise<void>[] = [];
      await Promise.all(plan.map(async (ops) => {
        for (const op of ops) {
          const rev = await op();
          if (++written === 500) {
            midway = rev || (await s.inner.currentRevision());
            // Five join while the writes go on: from the middle (held by the hub), from before the
            // hub started (catching up on their own), and from now.
            const late: Spec[] = [
              { key: prefix, recursive: true, after: midway },
              { key: `${prefix}n2/`, recursive: true, after: midway },
              { key: `${prefix}n3/`, recursive: true, after: seedRev },
              { key: `${prefix}n0/seed`, recursive: false, after: seedRev - 1 },
              { key: prefix, recursive: true, after: await s.inner.currentRevision() },
            ];
            specs.push(...late);
            joined.push(...late.map(async (sp) => void (sp.w = await s.watch('hub', sp.key, sp.recursive, sp.after))));
          }
        }
      }));
      await Promise.all(joined);
      assert.ok(midway);
      await ref.r.until(() => ref.r.events.length === 1002, 'reference', 20_000);
      for (const [i, sp] of specs.entries()) {
        const want = expected(ref.r.events, sp.key, sp.recursive, sp.after);
        const r = sp.w!.r;
        await r.until(() => r.events.length >= want.length, `watch ${i}`, 20_000);
      }
      await sleep(300);
      for (const [i, sp] of specs.entries()) {
        const want = expected(ref.r.events, sp.key, sp.recursive, sp.after);
        const got = sp.w!.r.events;
        assert.ok(want.length > 0, `watch ${i} expects events`);
        assert.deepEqual(got.map(fmt), want, `watch ${i} (${sp.key} from ${sp.after}): every change once, in order`);
        assertIncreasing(got, `watch ${i}`);
        assert.deepEqual(sp.w!.r.errors, []);
      }
      // A catching-up watch with no further event of its own moves over at etcd's next progress report.
      await ref.r.until(() => s.hub.stats().catchingUp === 0, 'every watch on the shared one');
      assert.deepEqual(s.hub.stats(), { feeds: 1, shared: 50, catchingUp: 0, direct: 0 });
      assert.equal(await settle(base + 2), base + 2, 'the watches that caught up gave their own etcd watches back');
    } finally {
      await s.done();
    }
  });

  test('the shared etcd watch is released with the last watch of its resource', async () => {
    const s = open();
    try {
      const base = await etcdWatchers();
      const rev0 = await s.inner.currentRevision();
      const a = await Promise.all(Array.from({ length: 5 }, (_, i) => s.hub.watch(`/t5/a/ns${i}/`, { afterRevision: rev0, recursive: true }, new Recorder().handlers)));
      const b = await Promise.all(Array.from({ length: 5 }, () => s.hub.watch('/t5/b/', { afterRevision: rev0, recursive: true }, new Recorder().handlers)));
      assert.equal(await etcdWatchers(), base + 2, 'one per resource');
      assert.equal(s.hub.stats().feeds, 2);
      for (const w of a.slice(1)) await w.stop();
      assert.equal(await etcdWatchers(), base + 2, 'held while one watch of the resource is open');
      await a[0]!.stop();
      assert.equal(await settle(base + 1), base + 1, 'released with the last');
      assert.deepEqual(s.hub.stats(), { feeds: 1, shared: 5, catchingUp: 0, direct: 0 });
      await a[0]!.stop(); // stopping twice changes nothing
      assert.deepEqual(s.hub.stats(), { feeds: 1, shared: 5, catchingUp: 0, direct: 0 });

      // A watch of the released resource starts a fresh shared watch.
      const again = await s.watch('hub', '/t5/a/', true, await s.inner.currentRevision());
      const rev = await s.create('/t5/a/ns0/x');
      await again.r.until(() => again.r.events.length === 1, 'fresh shared watch');
      assert.equal(again.r.events[0]!.revision, rev);

      // A watch whose handler throws ends with that error and lets go; the others go on.
      const thrower = new Recorder();
      const throwing = await s.hub.watch('/t5/b/', { afterRevision: rev, recursive: true }, { ...thrower.handlers, event: () => { throw new Error('sink broke'); } });
      const ok = await s.watch('hub', '/t5/b/', true, rev);
      const r2 = await s.create('/t5/b/ns/y');
      await thrower.until(() => thrower.errors.length === 1, 'the throwing watch ends');
      assert.equal(thrower.errors[0]!.message, 'sink broke');
      await ok.r.until(() => ok.r.events.length === 1, 'the other watch');
      assert.equal(ok.r.events[0]!.revision, r2);
      assert.equal(s.hub.stats().shared, 7, 'five, the fresh one, and the other; not the one that threw');
      await throwing.stop();

      for (const w of b) await w.stop();
      await again.w.stop();
      await ok.w.stop();
      assert.equal(await settle(base), base, 'every etcd watch released');
      assert.deepEqual(s.hub.stats(), { feeds: 0, shared: 0, catchingUp: 0, direct: 0 });
    } finally {
      await s.done();
    }
  });

  test('a quiet watch of a busy resource still hears of progress', async () => {
    const s = open({ progressIntervalMs: 200 });
    try {
      const rev0 = await s.inner.currentRevision();
      const quiet = await s.watch('hub', '/t6/configmaps/quiet/', true, rev0);
      const busy = await s.watch('hub', '/t6/configmaps/busy/', true, rev0);
      // A write every 100 ms: etcd skips its progress notifications to the shared watch, which always has events.
      const revs: number[] = [];
      const deadline = Date.now() + 2500;
      for (let i = 0; Date.now() < deadline; i++) {
        revs.push(await s.create(`/t6/configmaps/busy/b-${i}`));
        await sleep(100);
      }
      await busy.r.until(() => busy.r.events.length === revs.length, 'busy');
      assert.deepEqual(quiet.r.events, []);
      const seen = Math.max(0, ...quiet.r.progress);
      assert.ok(seen >= revs[10]!, `the quiet watch was told of progress past the busy writes (${seen} >= ${revs[10]})`);
      for (let i = 1; i < quiet.r.progress.length; i++) assert.ok(quiet.r.progress[i]! >= quiet.r.progress[i - 1]!, 'progress never goes back');
    } finally {
      await s.done();
    }
  });

  test('an undecodable object fails the watches that cover it, and only those', async () => {
    const s = open();
    const raw = new Etcd3({ hosts: etcd.endpoint });
    try {
      const rev0 = await s.inner.currentRevision();
      const good = await s.watch('hub', '/t7/configmaps/good/', true, rev0);
      const bad = await s.watch('hub', '/t7/configmaps/bad/', true, rev0);
      const all = await s.watch('hub', '/t7/configmaps/', true, rev0);
      const first = await s.create('/t7/configmaps/good/g-0');
      await raw.put('/registry/t7/configmaps/bad/x').value('{not json');
      for (const [what, w] of [['bad', bad], ['all', all]] as const) {
        await w.r.until(() => w.r.errors.length === 1, what);
        assert.ok(isStorageError(w.r.errors[0], 'InvalidObject'), `${what}: ${String(w.r.errors[0])}`);
      }
      const second = await s.create('/t7/configmaps/good/g-1');
      await good.r.until(() => good.r.events.length === 2, 'good');
      assert.deepEqual(good.r.events.map((e) => e.revision), [first, second], 'the other namespace goes on, missing nothing');
      assert.deepEqual(good.r.errors, []);
      await good.r.until(() => s.hub.stats().catchingUp === 0 && s.hub.stats().shared === 1, 'back on a shared watch');
      const third = await s.create('/t7/configmaps/good/g-2');
      await good.r.until(() => good.r.events.length === 3, 'good, shared again');
      assert.equal(good.r.events[2]!.revision, third);
      assert.deepEqual(all.r.events.map((e) => e.revision), [first]);
    } finally {
      raw.close();
      await s.done();
    }
  });
});
