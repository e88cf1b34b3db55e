// Single-key reads of the etcd3 storage travel together: the reads asked in one turn of the event
// loop go to etcd as one read-only transaction (at most 128 at a time). Each caller still gets its
// own key's object or KeyNotFound, and every read sees the writes that finished before it was asked.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Etcd3Storage } from '../../pkg/storage/etcd3/store.js';
import { isStorageError } from '../../pkg/storage/errors.js';
import type { StoredObject } from '../../pkg/storage/interface.js';
import { etcdStorage, etcdKVCalls, startEtcd, type TestEtcd } from './framework/etcd.js';

const object = (name: string, value: string): StoredObject => ({
  apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'reads' }, data: { value },
});

describe('etcd3 storage reads', () => {
  let etcd: TestEtcd;
  let a: Etcd3Storage;
  let b: Etcd3Storage;
  before(async () => {
    etcd = await startEtcd();
    a = etcdStorage(etcd.endpoint);
    b = etcdStorage(etcd.endpoint);
  });
  after(async () => {
    await a?.close();
    await b?.close();
    await etcd?.stop();
  });

  const kvCalls = async () => {
    const n = await etcdKVCalls(etcd.endpoint);
    return n.Range + n.Txn;
  };

  test('reads asked together come back each with its own object, in a few transactions', async () => {
    const rvs = new Map<string, string>();
    for (let i = 0; i < 300; i++) {
      const created = await a.create(`/configmaps/reads/cm-${i}`, object(`cm-${i}`, `v${i}`));
      rvs.set(`cm-${i}`, created.metadata.resourceVersion!);
    }
    const before = await kvCalls();
    const names = [...Array.from({ length: 300 }, (_, i) => `cm-${i}`), ...Array.from({ length: 20 }, (_, i) => `missing-${i}`)];
    const results = await Promise.allSettled(names.map((n) => b.get(`/configmaps/reads/${n}`)));
    const calls = (await kvCalls()) - before;
    results.forEach((r, i) => {
      const name = names[i]!;
      if (name.startsWith('missing-')) {
        assert.equal(r.status, 'rejected', `${name} does not exist`);
        assert.ok(isStorageError((r as PromiseRejectedResult).reason, 'KeyNotFound'), `${name}: KeyNotFound`);
        return;
      }
      assert.equal(r.status, 'fulfilled', `${name} is read`);
      const obj = (r as PromiseFulfilledResult<StoredObject>).value;
      assert.equal(obj.metadata.name, name);
      assert.deepEqual(obj.data, { value: `v${name.slice(3)}` });
      assert.equal(obj.metadata.resourceVersion, rvs.get(name));
    });
    // 320 reads of one turn: the first goes alone at once, the rest as transactions of at most 128
    // (the metrics scrape itself is no KV call).
    assert.ok(calls <= 4, `320 reads asked together took ${calls} etcd calls`);
  });

  test('a read sees every write that finished before it was asked, through another client', async () => {
    await a.create('/configmaps/reads/linear', object('linear', '0'));
    for (let i = 1; i <= 30; i++) {
      const written = await a.guaranteedUpdate('/configmaps/reads/linear', async (cur) => ({ ...cur!, data: { value: String(i) } }));
      // Reads of other keys share the transaction; the one of this key still sees this write.
      const [read] = await Promise.all([b.get('/configmaps/reads/linear'), b.get('/configmaps/reads/cm-1'), b.get('/configmaps/reads/cm-2')]);
      assert.equal(read.data && (read.data as Record<string, string>).value, String(i));
      assert.equal(read.metadata.resourceVersion, written.metadata.resourceVersion);
    }
  });

  test('when etcd does not answer, every read of the batch fails as unreachable', async () => {
    const c = etcdStorage('http://127.0.0.1:1');
    try {
      const results = await Promise.allSettled([c.get('/configmaps/reads/x'), c.get('/configmaps/reads/y')]);
      for (const r of results) {
        assert.equal(r.status, 'rejected');
        assert.ok(isStorageError((r as PromiseRejectedResult).reason, 'Unreachable'), String((r as PromiseRejectedResult).reason));
      }
    } finally {
      await c.close();
    }
  });
});
