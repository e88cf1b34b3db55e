import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StorageWatchEvent, StoredObject } from '../interface.js';
import { CacheStore, compareKeys } from './cache-store.js';
import { freshAt, answerWhenFresh } from './freshness.js';

const obj = (key: string, revision: number, labels?: Record<string, string>): StoredObject => ({
  metadata: { name: key.split('/').pop()!, resourceVersion: String(revision), ...(labels ? { labels } : {}) },
});
const put = (key: string, revision: number, type: 'ADDED' | 'MODIFIED' = 'ADDED', labels?: Record<string, string>): StorageWatchEvent => ({
  type, key, object: obj(key, revision, labels), revision,
});
const del = (key: string, revision: number): StorageWatchEvent => ({ type: 'DELETED', key, object: obj(key, revision), revision });
const names = (items: StoredObject[]) => items.map((o) => o.metadata.name);

test('keys compare as etcd compares their UTF-8 bytes', () => {
  const keys = ['/a/b', '/a/a', '/a/\u{1F600}', '/a/\uFF21', '/a/a-1', '/a/a/x', '/a/é', '/a/A'];
  const bytes = [...keys].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
  assert.deepEqual([...keys].sort(compareKeys), bytes);
  assert.equal(compareKeys('/x', '/x'), 0);
});

test('lists in key order whatever order objects were added in, and keeps that order through changes', () => {
  const store = new CacheStore(10, [['/core/configmaps/ns/c', obj('c', 3)], ['/core/configmaps/ns/a', obj('a', 2)]]);
  store.apply(put('/core/configmaps/ns/b', 11));
  store.apply(put('/core/configmaps/ns/aa', 12));
  store.apply(put('/core/configmaps/ns/0', 13));
  assert.deepEqual(names(store.list('/core/configmaps/')), ['0', 'a', 'aa', 'b', 'c']);
  store.apply(put('/core/configmaps/ns/a', 14, 'MODIFIED'));
  store.apply(del('/core/configmaps/ns/aa', 15));
  store.apply(del('/core/configmaps/ns/never', 16)); // unknown keys are no matter
  assert.deepEqual(names(store.list('/core/configmaps/')), ['0', 'a', 'b', 'c']);
  assert.equal(store.get('/core/configmaps/ns/a')!.metadata.resourceVersion, '14');
  assert.equal(store.get('/core/configmaps/ns/aa'), undefined);
  assert.equal(store.revision, 16);
  assert.equal(store.size, 4);
});

test('a namespace is its own run of keys: neighbours with a longer name are not in it', () => {
  const store = new CacheStore(1);
  let rev = 1;
  for (const ns of ['ns', 'ns-2', 'nt', 'n']) for (const name of ['x', 'y']) store.apply(put(`/core/pods/${ns}/${name}`, ++rev));
  store.apply(put('/core/podsx/ns/z', ++rev)); // another resource whose name starts alike
  assert.deepEqual(store.list('/core/pods/ns/').map((o) => o.metadata.name), ['x', 'y']);
  assert.equal(store.count('/core/pods/ns/'), 2);
  assert.equal(store.count('/core/pods/'), 8);
  assert.equal(store.count('/core/pods/none/'), 0);
  assert.deepEqual(store.list('/core/pods/none/'), []);
  assert.equal(store.count('/core/pods/ns/x'), 1, 'a key is the prefix of itself');
});

test('the predicate filters, in key order', () => {
  const store = new CacheStore(1);
  store.apply(put('/core/configmaps/ns/b', 2, 'ADDED', { app: 'web' }));
  store.apply(put('/core/configmaps/ns/a', 3, 'ADDED', { app: 'db' }));
  store.apply(put('/core/configmaps/ns/c', 4, 'ADDED', { app: 'web' }));
  assert.deepEqual(names(store.list('/core/configmaps/ns/', (o) => o.metadata.labels?.app === 'web')), ['b', 'c']);
});

test('progress raises the revision without changing the state', () => {
  const store = new CacheStore(5);
  store.progress(9);
  assert.equal(store.revision, 9);
  store.progress(7);
  assert.equal(store.revision, 9, 'never backwards');
});

test('the freshness check: current when past etcd, or past its newest change with as many keys', () => {
  const store = new CacheStore(10, [['/p/a', obj('a', 4)], ['/p/b', obj('b', 8)]]);
  // etcd moved on through other resources only: same newest change and count.
  assert.equal(freshAt(store, '/p/', { revision: 50, newestModRevision: 8, count: 2 }), 50);
  // A create the cache has not seen: the newest change is beyond it.
  assert.equal(freshAt(store, '/p/', { revision: 50, newestModRevision: 12, count: 3 }), undefined);
  // A delete the cache has not seen: the newest change is old, but the count differs.
  assert.equal(freshAt(store, '/p/', { revision: 50, newestModRevision: 8, count: 1 }), undefined);
  // A create then delete of another key the cache has not seen: no difference in state, so fine.
  assert.equal(freshAt(store, '/p/', { revision: 50, newestModRevision: 8, count: 2 }), 50);
  // The cache is at or past etcd's revision: its own revision.
  store.progress(60);
  assert.equal(freshAt(store, '/p/', { revision: 50, newestModRevision: 99, count: 9 }), 60);
  // An empty prefix.
  assert.equal(freshAt(new CacheStore(3), '/q/', { revision: 9, newestModRevision: 0, count: 0 }), 9);
});

test('a read waiting for freshness is answered on exactly the state that confirmed it, or not at all', async () => {
  const store = new CacheStore(10, [['/p/a', obj('a', 4)]]);
  // etcd at 20: /p/a was deleted at 14, /p/b created at 15, /p/c created at 16 and deleted at 18.
  const probe = { revision: 20, newestModRevision: 15, count: 1 };
  const answer = answerWhenFresh(store, '/p/', probe, 5_000, (revision) => ({ revision, at: store.revision, items: names(store.list('/p/')) }));
  store.apply(del('/p/a', 14));
  store.apply(put('/p/b', 15));
  store.apply(put('/p/c', 16)); // the same turn: no answer between these
  await new Promise((r) => setImmediate(r));
  store.apply(del('/p/c', 18));
  assert.deepEqual(await answer, { revision: 20, at: 18, items: ['b'] });
  const late = await answerWhenFresh(new CacheStore(1), '/p/', { revision: 5, newestModRevision: 4, count: 1 }, 20, () => 'read');
  assert.equal(late, undefined, 'never confirmed: left to etcd');
});

test('a field index finds the objects with a value, in key order, following changes', () => {
  const node = (o: StoredObject) => (o as { spec?: { nodeName?: string } }).spec?.nodeName ?? '';
  const pod = (key: string, revision: number, nodeName?: string, type: 'ADDED' | 'MODIFIED' = 'ADDED'): StorageWatchEvent => ({
    type, key, revision, object: { metadata: { name: key.split('/').pop()!, resourceVersion: String(revision) }, ...(nodeName ? { spec: { nodeName } } : {}) } as StoredObject,
  });
  const store = new CacheStore(1, [['/core/pods/b/p', pod('/core/pods/b/p', 1, 'n1').object]], new Map([['spec.nodeName', node]]));
  store.apply(pod('/core/pods/a/q', 2, 'n1'));
  store.apply(pod('/core/pods/a/r', 3));
  store.apply(pod('/core/pods/a/s', 4, 'n2'));
  assert.ok(store.hasIndex('spec.nodeName') && !store.hasIndex('spec.other'));
  assert.deepEqual(names(store.listIndexed('/core/pods/', 'spec.nodeName', 'n1')), ['q', 'p']);
  assert.deepEqual(names(store.listIndexed('/core/pods/', 'spec.nodeName', '')), ['r'], 'unscheduled pods');
  assert.deepEqual(names(store.listIndexed('/core/pods/b/', 'spec.nodeName', 'n1')), ['p'], 'within a namespace');
  store.apply(pod('/core/pods/a/r', 5, 'n1', 'MODIFIED')); // scheduled
  store.apply(pod('/core/pods/a/q', 6, 'n2', 'MODIFIED')); // moved (as a test)
  store.apply(del('/core/pods/b/p', 7));
  assert.deepEqual(names(store.listIndexed('/core/pods/', 'spec.nodeName', 'n1')), ['r']);
  assert.deepEqual(names(store.listIndexed('/core/pods/', 'spec.nodeName', 'n2')), ['q', 's']);
  assert.deepEqual(store.listIndexed('/core/pods/', 'spec.nodeName', ''), []);
  assert.deepEqual(names(store.listIndexed('/core/pods/', 'spec.nodeName', 'n2', (o) => o.metadata.name === 's')), ['s'], 'the predicate still decides');
});

test('a chunk from a start key: in key order, with the key to continue after and how many keys are left', () => {
  const store = new CacheStore(1);
  let rev = 1;
  for (const name of ['a', 'b', 'c', 'd', 'e']) store.apply(put(`/core/configmaps/ns/${name}`, ++rev));
  store.apply(put('/core/configmaps/nt/f', ++rev));
  const first = store.page('/core/configmaps/ns/', 2);
  assert.deepEqual(names(first.items), ['a', 'b']);
  assert.equal(first.continueKey, '/core/configmaps/ns/b\x00');
  assert.equal(first.remaining, 3);
  const next = store.page('/core/configmaps/ns/', 2, undefined, first.continueKey);
  assert.deepEqual([names(next.items), next.continueKey, next.remaining], [['c', 'd'], '/core/configmaps/ns/d\x00', 1]);
  const last = store.page('/core/configmaps/ns/', 2, undefined, next.continueKey);
  assert.deepEqual([names(last.items), last.continueKey], [['e'], undefined], 'the neighbouring namespace is not in the chunk');
  assert.deepEqual(store.page('/core/configmaps/ns/', 2, undefined, '/core/configmaps/ns/z').items, [], 'a start past the prefix');
  assert.deepEqual(names(store.page('/core/configmaps/ns/', 9, undefined, '/core/configmaps/').items), ['a', 'b', 'c', 'd', 'e'], 'a start before the prefix');
});

test('the state of a prefix is the state at an older revision while nothing under it changed since', () => {
  const store = new CacheStore(10, [['/core/configmaps/ns/a', obj('a', 4)]]);
  store.apply(put('/core/configmaps/ns/b', 12));
  store.apply(put('/core/configmaps/other/x', 15));
  store.apply(put('/core/configmaps/ns-2/y', 16));
  store.progress(20);
  assert.ok(store.isStateAt('/core/configmaps/ns/', 12), 'changed at 12 and not since');
  assert.ok(store.isStateAt('/core/configmaps/ns/', 20));
  assert.ok(!store.isStateAt('/core/configmaps/ns/', 11), 'b was created after 11');
  assert.ok(!store.isStateAt('/core/configmaps/', 15), 'the resource changed at 16');
  assert.ok(store.isStateAt('/core/configmaps/', 16));
  assert.ok(!store.isStateAt('/core/configmaps/ns/', 9), 'before the initial list: not known');
  assert.ok(!store.isStateAt('/core/configmaps/ns/', 21), 'not reached yet');
  assert.ok(!store.isStateAt('/core/configmaps/ns/b', 11), 'a key inside a directory that changed');
  store.apply(del('/core/configmaps/ns/gone', 22)); // a key the store never had: no change
  assert.ok(store.isStateAt('/core/configmaps/ns/', 12));
  store.apply(del('/core/configmaps/ns/a', 23));
  assert.ok(!store.isStateAt('/core/configmaps/ns/', 22), 'a deletion is a change');
  assert.ok(store.isStateAt('/core/configmaps/other/', 15));
});

test('a revision etcd vouched for, beyond the store, holds until the prefix changes', () => {
  const store = new CacheStore(10, [['/core/configmaps/ns/a', obj('a', 4)]]);
  assert.ok(!store.isStateAt('/core/configmaps/ns/', 30));
  store.vouch('/core/configmaps/ns/', 30);
  assert.ok(store.isStateAt('/core/configmaps/ns/', 30));
  assert.ok(!store.isStateAt('/core/configmaps/ns/', 29), 'only the revision vouched for');
  assert.ok(!store.isStateAt('/core/configmaps/', 30), 'only the prefix vouched for');
  store.apply(put('/core/configmaps/other/x', 31));
  assert.ok(store.isStateAt('/core/configmaps/ns/', 30), 'a change elsewhere is no matter');
  store.apply(put('/core/configmaps/ns/b', 32));
  assert.ok(!store.isStateAt('/core/configmaps/ns/', 30));
});
