// An update starts from the watch cache's object, as upstream's GuaranteedUpdate does: no read of
// etcd before the compare-and-swap. A cached object may be stale, so whatever fails on it (the swap,
// a precondition, the update function) is tried again from etcd's current object, and an update
// that would change nothing is confirmed on etcd's object before it is called a no-op.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Cacher } from '../../pkg/storage/cacher/cacher.js';
import { Etcd3Storage } from '../../pkg/storage/etcd3/store.js';
import { isStorageError } from '../../pkg/storage/errors.js';
import type { StoredObject } from '../../pkg/storage/interface.js';
import { etcdStorage, etcdKVCalls, startEtcd, type TestEtcd } from './framework/etcd.js';

const cm = (name: string, value: string, uid = `uid-${name}`): StoredObject => ({
  apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'cu', uid }, data: { value },
});
const key = (name: string) => `/core/configmaps/cu/${name}`;
const valueOf = (o: StoredObject | null) => (o?.data as Record<string, string> | undefined)?.value;

describe('updates from the cached object', () => {
  let etcd: TestEtcd;
  let storage: Etcd3Storage;
  before(async () => {
    etcd = await startEtcd();
    storage = etcdStorage(etcd.endpoint);
  });
  after(async () => {
    await storage?.close();
    await etcd?.stop();
  });

  const kvCalls = () => etcdKVCalls(etcd.endpoint);

  test('through the watch cache, an update is one etcd call: the swap', async () => {
    const inner = etcdStorage(etcd.endpoint);
    const cacher = new Cacher(inner, { cacheSize: (p) => (p === '/core/configmaps/' ? 100 : 0) });
    try {
      const created = await cacher.create(key('warm'), cm('warm', '0'));
      await cacher.list('/core/configmaps/cu/', { consistency: 'notOlderThan', minRevision: 0 });
      const deadline = Date.now() + 10_000;
      while ((cacher.cachedRevision(key('warm')) ?? 0) < Number(created.metadata.resourceVersion)) {
        assert.ok(Date.now() < deadline, 'the cache catches up');
        await new Promise((r) => setTimeout(r, 10));
      }
      const before = await kvCalls();
      let last = created;
      for (let i = 1; i <= 20; i++) {
        // Each update waits for the cache to hold the previous one, so each starts from a current object.
        while ((cacher.cachedRevision(key('warm')) ?? 0) < Number(last.metadata.resourceVersion)) await new Promise((r) => setTimeout(r, 5));
        const seen: (string | undefined)[] = [];
        last = await cacher.guaranteedUpdate(key('warm'), async (cur) => {
          seen.push(valueOf(cur));
          return { ...cur!, data: { value: String(i) } };
        });
        assert.deepEqual(seen, [String(i - 1)], 'one attempt, from the current object');
        assert.equal(valueOf(last), String(i));
      }
      const calls = await kvCalls();
      assert.equal(calls.Txn - before.Txn, 20, 'one swap per update');
      assert.equal(calls.Range - before.Range, 0, 'no read before the swaps');
      assert.equal(valueOf(await storage.get(key('warm'))), '20');
    } finally {
      await cacher.close();
    }
  });

  test('a stale cached object costs a second attempt, from etcd\'s object', async () => {
    const old = await storage.create(key('stale'), cm('stale', 'a'));
    const current = await storage.guaranteedUpdate(key('stale'), async (cur) => ({ ...cur!, data: { value: 'b' } }));
    const seen: (string | undefined)[] = [];
    const updated = await storage.guaranteedUpdate(key('stale'), async (cur) => {
      seen.push(valueOf(cur));
      return { ...cur!, data: { value: `${valueOf(cur)}+c` } };
    }, { cachedExisting: old });
    assert.deepEqual(seen, ['a', 'b'], 'tried from the cached object, then from etcd\'s');
    assert.equal(valueOf(updated), 'b+c', 'the write is based on the current object');
    assert.ok(Number(updated.metadata.resourceVersion) > Number(current.metadata.resourceVersion));
  });

  test('what fails on a stale cached object is asked again of etcd\'s: an update function\'s conflict, a precondition', async () => {
    const old = await storage.create(key('cond'), cm('cond', 'a', 'uid-1'));
    await storage.delete(key('cond'));
    const now = await storage.create(key('cond'), cm('cond', 'b', 'uid-2'));
    // As the registry does: the client's resourceVersion must be the object's.
    const updated = await storage.guaranteedUpdate(key('cond'), async (cur) => {
      if (cur!.metadata.resourceVersion !== now.metadata.resourceVersion) throw new Error('conflict');
      return { ...cur!, data: { value: 'c' } };
    }, { cachedExisting: old, preconditions: { uid: 'uid-2' } });
    assert.equal(valueOf(updated), 'c');
    // On etcd's object the same failure is the answer.
    await assert.rejects(storage.guaranteedUpdate(key('cond'), async (cur) => cur, { cachedExisting: old, preconditions: { uid: 'uid-1' } }),
      (e: unknown) => isStorageError(e, 'ResourceVersionConflicts'));
  });

  test('a cached object whose key is gone gives KeyNotFound; a no-op is confirmed on etcd and writes nothing', async () => {
    const gone = await storage.create(key('gone'), cm('gone', 'a'));
    await storage.delete(key('gone'));
    await assert.rejects(storage.guaranteedUpdate(key('gone'), async (cur) => ({ ...cur!, data: { value: 'x' } }), { cachedExisting: gone }),
      (e: unknown) => isStorageError(e, 'KeyNotFound'));

    const same = await storage.create(key('same'), cm('same', 'a'));
    const before = await kvCalls();
    const unchanged = await storage.guaranteedUpdate(key('same'), async (cur) => cur, { cachedExisting: same });
    const calls = await kvCalls();
    assert.equal(unchanged.metadata.resourceVersion, same.metadata.resourceVersion, 'no new revision');
    assert.equal(calls.Txn - before.Txn, 0, 'no write');
    assert.equal(calls.Range - before.Range, 1, 'one read of etcd\'s object to confirm');
  });
});
