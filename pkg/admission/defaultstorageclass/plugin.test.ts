import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiDomain } from '../../../api/domain.js';
import { AttributesRecord } from '../attributes.js';
import { builtinPlugins } from '../builtin.js';
import type { AdmissionObject, MutationInterface, Operation } from '../interfaces.js';
import { staticDeps } from '../testing/deps.js';
import { defaultStorageClassFactory } from './plugin.js';

const user = { name: 'jane', groups: [], extra: {} };
function attrs(object: AdmissionObject, init: { resource?: string; group?: string; subresource?: string; dryRun?: boolean } = {}) {
  return new AttributesRecord({
    kind: { group: '', version: 'v1', kind: 'PersistentVolumeClaim' },
    resource: { group: init.group ?? '', version: 'v1', resource: init.resource ?? 'persistentvolumeclaims' },
    subresource: init.subresource ?? '', name: 'claim', namespace: 'team', operation: 'CREATE', object, dryRun: init.dryRun ?? false, userInfo: user,
  });
}
const sc = (name: string, created: string, annotations: Record<string, string> = {}): AdmissionObject =>
  ({ apiVersion: 'storage.orch.io/v1', kind: 'StorageClass', metadata: { name, creationTimestamp: created, annotations }, provisioner: 'p' });
const isDefault = { 'storageclass.orch.io/is-default-class': 'true' };
const betaDefault = { 'storageclass.beta.orch.io/is-default-class': 'true' };
const claim = (spec: Record<string, unknown> = {}, annotations?: Record<string, string>): AdmissionObject =>
  ({ metadata: { name: 'claim', ...(annotations ? { annotations } : {}) }, spec: { accessModes: ['ReadWriteOnce'], ...spec } });
const className = (o: AdmissionObject) => (o['spec'] as { storageClassName?: string | null }).storageClassName;
function make(classes: AdmissionObject[], domain = 'orch.io') {
  const d = apiDomain(domain);
  return defaultStorageClassFactory(undefined, staticDeps({ [`${d.group('storage')}/storageclasses`]: classes }, d)) as MutationInterface;
}

test('registered; handles creates only', () => {
  assert.ok(builtinPlugins().has('DefaultStorageClass'));
  const p = make([]);
  assert.equal(p.name, 'DefaultStorageClass');
  assert.deepEqual((['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as Operation[]).map((o) => p.handles(o)), [true, false, false, false]);
});

test('a claim without a class gets the default one, dry run included', async () => {
  const classes = [sc('slow', '2024-01-01T00:00:00Z'), sc('fast', '2024-01-01T00:00:00Z', isDefault)];
  for (const dryRun of [false, true]) {
    const c = claim();
    await make(classes).admit(attrs(c, { dryRun }));
    assert.equal(className(c), 'fast');
  }
  const noSpec: AdmissionObject = { metadata: { name: 'claim' } };
  await make(classes).admit(attrs(noSpec));
  assert.equal(className(noSpec), 'fast');
  // A null class is no class.
  const nulled = claim({ storageClassName: null });
  await make(classes).admit(attrs(nulled));
  assert.equal(className(nulled), 'fast');
});

test('the beta annotation marks a default too; only the value "true" counts', async () => {
  const c = claim();
  await make([sc('beta', '2024-01-01T00:00:00Z', betaDefault)]).admit(attrs(c));
  assert.equal(className(c), 'beta');
  const c2 = claim();
  await make([sc('no', '2024-01-01T00:00:00Z', { 'storageclass.orch.io/is-default-class': 'True' }), sc('yes', '2020-01-01T00:00:00Z', isDefault)]).admit(attrs(c2));
  assert.equal(className(c2), 'yes');
});

test('without a default class the claim keeps no class', async () => {
  const c = claim();
  await make([sc('slow', '2024-01-01T00:00:00Z')]).admit(attrs(c));
  assert.equal(className(c), undefined);
  assert.ok(!('storageClassName' in (c['spec'] as object)));
});

test('a claim that names a class, even the empty one, or carries the beta class annotation is left alone', async () => {
  const classes = [sc('fast', '2024-01-01T00:00:00Z', isDefault)];
  const named = claim({ storageClassName: 'gold' });
  await make(classes).admit(attrs(named));
  assert.equal(className(named), 'gold');
  const empty = claim({ storageClassName: '' });
  await make(classes).admit(attrs(empty));
  assert.equal(className(empty), '');
  const beta = claim({}, { 'volume.beta.orch.io/storage-class': '' });
  await make(classes).admit(attrs(beta));
  assert.equal(className(beta), undefined);
});

test('of several defaults the newest wins, then the first by name', async () => {
  const classes = [
    sc('old', '2023-01-01T00:00:00Z', isDefault),
    sc('b-new', '2024-06-01T00:00:00Z', isDefault),
    sc('a-new', '2024-06-01T00:00:00Z', betaDefault),
    sc('newest-not-default', '2025-01-01T00:00:00Z'),
  ];
  const c = claim();
  await make(classes).admit(attrs(c));
  assert.equal(className(c), 'a-new');
  const c2 = claim();
  await make([sc('z', '2024-06-01T00:00:01Z', isDefault), ...classes]).admit(attrs(c2));
  assert.equal(className(c2), 'z');
});

test('annotation keys follow the domain', async () => {
  const d = apiDomain('k8s.io');
  const classes = [sc('std', '2024-01-01T00:00:00Z', { 'storageclass.kubernetes.io/is-default-class': 'true' }), sc('orch', '2025-01-01T00:00:00Z', isDefault)];
  const c = claim();
  await make(classes, d.name).admit(attrs(c));
  assert.equal(className(c), 'std');
});

test('sub-resources and other resources are left alone', async () => {
  const classes = [sc('fast', '2024-01-01T00:00:00Z', isDefault)];
  for (const init of [{ subresource: 'status' }, { resource: 'persistentvolumes' }, { group: 'example.io' }]) {
    const c = claim();
    await make(classes).admit(attrs(c, init));
    assert.equal(className(c), undefined, JSON.stringify(init));
  }
});

test('the defaultStorageClassFactory refuses a server without a StorageClass cache', () => {
  const base = staticDeps();
  assert.throws(() => defaultStorageClassFactory(undefined, { domain: base.domain, lister: () => undefined }), /missing lister/);
});
