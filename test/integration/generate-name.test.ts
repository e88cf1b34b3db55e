// generateName: prefix plus five random characters, retried on a collision. The collision is made
// deterministic by giving a store on the real etcd a scripted sequence of suffixes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { allGroupVersions } from '../../api/index.js';
import { Store } from '../../pkg/registry/generic/store.js';
import { newStrategy } from '../../pkg/registry/generic/strategy.js';
import { defaultApiDomain } from '../../api/domain.js';
import { kindValidations } from '../../pkg/registry/validations.js';
import { Scheme } from '../../pkg/runtime/scheme.js';
import { SchemaValidator } from '../../pkg/runtime/schema-validator.js';
import { Etcd3Storage } from '../../pkg/storage/etcd3/store.js';
import { etcdStorage, startEtcd, type TestEtcd } from './framework/etcd.js';

describe('generateName', () => {
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

  function store(suffixes: string[]): Store {
    const info = new Scheme(allGroupVersions).resource('', 'v1', 'configmaps')!;
    const strategy = newStrategy(info, kindValidations(defaultApiDomain)('', 'ConfigMap'), new SchemaValidator());
    return new Store({ info, storage, strategy, nameSuffix: () => suffixes.shift() ?? 'zzzzz' });
  }

  test('a generated name that is taken is generated again', async () => {
    const first = await store(['aaaaa']).create('default', { metadata: { generateName: 'web-' } });
    assert.equal(first.metadata.name, 'web-aaaaa');
    const second = await store(['aaaaa', 'aaaaa', 'bbbbb']).create('default', { metadata: { generateName: 'web-' } });
    assert.equal(second.metadata.name, 'web-bbbbb');
  });

  test('a client-chosen name that is taken is AlreadyExists, never renamed', async () => {
    await store([]).create('default', { metadata: { name: 'fixed' } });
    await assert.rejects(store(['ccccc']).create('default', { metadata: { name: 'fixed', generateName: 'x-' } }), (e: { code?: number }) => e.code === 409);
  });

  test('the retries are bounded: a name space that stays taken is AlreadyExists', async () => {
    await store(['ddddd']).create('default', { metadata: { generateName: 'busy-' } });
    await assert.rejects(store(Array(20).fill('ddddd')).create('default', { metadata: { generateName: 'busy-' } }), (e: { code?: number }) => e.code === 409);
  });
});
