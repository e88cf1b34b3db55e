// The in-process informer the server's own layers read from: it lists, follows the watch, resumes
// after an etcd outage.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { allGroupVersions } from '../../api/index.js';
import { defaultApiDomain } from '../../api/domain.js';
import { ObjectCache, type CacheEventType } from '../../pkg/registry/generic/object-cache.js';
import { Store } from '../../pkg/registry/generic/store.js';
import { newStrategy } from '../../pkg/registry/generic/strategy.js';
import { kindValidations } from '../../pkg/registry/validations.js';
import { Scheme } from '../../pkg/runtime/scheme.js';
import { SchemaValidator } from '../../pkg/runtime/schema-validator.js';
import { Etcd3Storage } from '../../pkg/storage/etcd3/store.js';
import { jsonStorageCodec } from '../../pkg/storage/json-codec.js';
import { WatchHub } from '../../pkg/storage/watch-hub.js';
import { startEtcd, type TestEtcd } from './framework/etcd.js';

async function eventually(what: string, check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('ObjectCache', () => {
  let etcd: TestEtcd;
  let etcdStorage: Etcd3Storage;
  let store: Store;
  before(async () => {
    etcd = await startEtcd();
    etcdStorage = new Etcd3Storage({ servers: [etcd.endpoint], prefix: '/registry', codec: jsonStorageCodec });
    const info = new Scheme(allGroupVersions).resource('', 'v1', 'configmaps')!;
    const strategy = newStrategy(info, kindValidations(defaultApiDomain)('', 'ConfigMap'), new SchemaValidator());
    store = new Store({ info, storage: new WatchHub(etcdStorage), strategy });
  });
  after(async () => {
    await etcdStorage?.close();
    await etcd?.stop();
  });

  test('lists, then follows creates, updates and deletes, telling each change', async () => {
    await store.create('a', { metadata: { name: 'one' }, data: { v: '1' } });
    const events: string[] = [];
    const cache = new ObjectCache(store, { onChange: (type: CacheEventType, obj) => events.push(`${type} ${obj.metadata.namespace}/${obj.metadata.name}`) });
    await cache.start();
    assert.equal(cache.get('a', 'one')?.data && (cache.get('a', 'one')!.data as Record<string, string>).v, '1');
    assert.deepEqual(events, ['ADDED a/one']);
    await store.create('b', { metadata: { name: 'two' } });
    await store.update('a', 'one', async (cur) => ({ ...cur!, data: { v: '2' } }));
    await store.delete('b', 'two');
    await eventually('three changes', () => events.length === 4);
    assert.deepEqual(events, ['ADDED a/one', 'ADDED b/two', 'MODIFIED a/one', 'DELETED b/two']);
    assert.equal((cache.get('a', 'one')!.data as Record<string, string>).v, '2');
    assert.equal(cache.get('b', 'two'), undefined);
    assert.deepEqual(cache.list('a').map((o) => o.metadata.name), ['one']);
    await cache.stop();
  });

  test('a listener subscribed late is told of what the cache holds, then of every change', async () => {
    await store.create('d', { metadata: { name: 'before' } });
    const cache = new ObjectCache(store);
    await cache.start();
    const events: string[] = [];
    cache.subscribe((type, obj, old) => events.push(`${type} ${obj.metadata.namespace}/${obj.metadata.name}${old ? ' (had old)' : ''}`));
    assert.ok(events.includes('ADDED d/before'), events.join());
    const held = events.length;
    await store.update('d', 'before', async (cur) => ({ ...cur!, data: { v: '1' } }));
    await store.delete('d', 'before');
    await eventually('the update and the delete', () => events.length === held + 2);
    assert.deepEqual(events.slice(held), ['MODIFIED d/before (had old)', 'DELETED d/before (had old)']);
    await cache.stop();
  });

  test('an etcd outage: the cache catches up on what changed meanwhile', async () => {
    const cache = new ObjectCache(store, { retryMs: 100 });
    await cache.start();
    await etcd.pause();
    await etcd.resume();
    await store.create('c', { metadata: { name: 'after-outage' } });
    await eventually('the object created after the outage', () => cache.get('c', 'after-outage') !== undefined);
    await cache.stop();
  });
});
