// The watch cache (pkg/storage/cacher) as a Storage on a real etcd: it starts on first use, answers
// from memory once ready, and when its watch ends (history compacted while it was away, say) it
// lists afresh and resumes, reads going to etcd meanwhile. The watch failure is injected on top of
// the real etcd watch: etcd only cancels a watch for compaction when it lags, which a test cannot
// arrange reliably.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Cacher } from '../../pkg/storage/cacher/cacher.js';
import { Etcd3Storage } from '../../pkg/storage/etcd3/store.js';
import { StorageError } from '../../pkg/storage/errors.js';
import type { StorageWatch, WatchHandlers, WatchOptions } from '../../pkg/storage/interface.js';
import { jsonStorageCodec } from '../../pkg/storage/json-codec.js';
import { startEtcd, type TestEtcd } from './framework/etcd.js';

/** etcd storage whose watches can be told to fail as etcd fails them after a compaction. */
class BreakableEtcd extends Etcd3Storage {
  private readonly live = new Set<WatchHandlers>();
  override async watch(key: string, opts: WatchOptions, handlers: WatchHandlers): Promise<StorageWatch> {
    let ended = false;
    const wrapped: WatchHandlers = {
      event: (e) => !ended && handlers.event(e),
      progress: (r) => !ended && handlers.progress(r),
      error: (err) => {
        if (ended) return;
        ended = true;
        this.live.delete(wrapped);
        handlers.error(err);
      },
    };
    const w = await super.watch(key, opts, wrapped);
    this.live.add(wrapped);
    return { stop: async () => { ended = true; this.live.delete(wrapped); await w.stop(); } };
  }

  /** Ends every open watch with Expired. */
  expireWatches(): void {
    for (const h of [...this.live]) h.error(new StorageError('Expired', '', 'The resourceVersion for the provided list is too old.'));
  }
}

const until = async (cond: () => boolean, what: string, ms = 10_000) => {
  const deadline = Date.now() + ms;
  while (!cond()) {
    assert.ok(Date.now() < deadline, what);
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('watch cache storage', () => {
  let etcd: TestEtcd;
  before(async () => {
    etcd = await startEtcd();
  });
  after(async () => etcd?.stop());

  test('starts on first use, relists after its watch expired, and answers as etcd does throughout', async () => {
    const inner = new BreakableEtcd({ servers: [etcd.endpoint], prefix: '/registry', codec: jsonStorageCodec });
    const failures: string[] = [];
    const cacher = new Cacher(inner, { cacheSize: (p) => (p === '/core/configmaps/' ? 100 : 0), events: { failed: (p) => failures.push(p) } });
    const key = (ns: string, n: string) => `/core/configmaps/${ns}/${n}`;
    const obj = (n: string) => ({ metadata: { name: n }, data: { v: n } });
    try {
      for (const n of ['b', 'a']) await cacher.create(key('x', n), obj(n));
      await cacher.create(key('y', 'c'), obj('c'));
      const names = async (prefix: string, opts = {}) => (await cacher.list(prefix, opts)).items.map((o) => o.metadata.name);
      assert.equal(cacher.cachedRevision('/core/configmaps/'), undefined, 'not started before its first use');
      assert.deepEqual(await names('/core/configmaps/x/', { consistency: 'notOlderThan', minRevision: 0 }), ['a', 'b'], 'the first read is answered by etcd');
      await until(() => cacher.cachedRevision('/core/configmaps/') !== undefined, 'the cache starts');
      assert.equal(cacher.cachedRevision('/core/secrets/'), undefined, 'a size of 0 keeps a resource out');

      const d = await cacher.create(key('x', 'd'), obj('d'));
      await until(() => cacher.cachedRevision('/core/configmaps/')! >= Number(d.metadata.resourceVersion), 'the cache follows writes');
      const fromMemory = await cacher.list('/core/configmaps/x/', { consistency: 'notOlderThan', minRevision: 0 });
      assert.ok(Object.isFrozen(fromMemory.items[0]), 'answered from memory (shared, frozen objects)');
      assert.deepEqual(fromMemory.items.map((o) => o.metadata.name), ['a', 'b', 'd']);
      assert.equal((await cacher.get(key('x', 'd'), { consistency: 'notOlderThan', minRevision: 0 })).metadata.resourceVersion, d.metadata.resourceVersion);

      // The watch ends as after a compaction; writes go on meanwhile.
      inner.expireWatches();
      assert.equal(cacher.cachedRevision('/core/configmaps/'), undefined, 'not ready while it relists');
      await cacher.delete(key('x', 'a'));
      const e = await cacher.create(key('x', 'e'), obj('e'));
      assert.deepEqual(await names('/core/configmaps/x/'), ['b', 'd', 'e'], 'reads are right while it relists');
      await until(() => (cacher.cachedRevision('/core/configmaps/') ?? 0) >= Number(e.metadata.resourceVersion), 'the cache is back after a fresh list');
      assert.deepEqual(failures, ['/core/configmaps/']);
      assert.deepEqual(await names('/core/configmaps/x/', { consistency: 'notOlderThan', minRevision: 0 }), ['b', 'd', 'e'], 'the relisted cache has what happened meanwhile');
      assert.deepEqual(await names('/core/configmaps/'), ['b', 'd', 'e', 'c'], 'a consistent list of every namespace');
      const f = await cacher.create(key('y', 'f'), obj('f'));
      await until(() => cacher.cachedRevision('/core/configmaps/')! >= Number(f.metadata.resourceVersion), 'and follows writes again');
      assert.deepEqual(await names('/core/configmaps/y/', { consistency: 'notOlderThan', minRevision: Number(f.metadata.resourceVersion) }), ['c', 'f']);
    } finally {
      await cacher.close();
    }
  });
});
