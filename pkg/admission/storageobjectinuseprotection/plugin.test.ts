import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiDomain } from '../../../api/domain.js';
import { AttributesRecord } from '../attributes.js';
import { builtinPlugins } from '../builtin.js';
import type { AdmissionObject, MutationInterface, Operation } from '../interfaces.js';
import { staticDeps } from '../testing/deps.js';
import { storageObjectInUseProtectionFactory } from './plugin.js';

const user = { name: 'jane', groups: [], extra: {} };
function attrs(resource: string, object: AdmissionObject, init: { group?: string; subresource?: string; dryRun?: boolean; op?: Operation } = {}) {
  return new AttributesRecord({
    kind: { group: init.group ?? '', version: 'v1', kind: 'X' },
    resource: { group: init.group ?? '', version: 'v1', resource },
    subresource: init.subresource ?? '', name: 'x', namespace: resource === 'persistentvolumeclaims' ? 'team' : '',
    operation: init.op ?? 'CREATE', object, dryRun: init.dryRun ?? false, userInfo: user,
  });
}
const obj = (finalizers?: string[]): AdmissionObject => ({ metadata: { name: 'x', ...(finalizers ? { finalizers } : {}) }, spec: {} });
const finalizers = (o: AdmissionObject) => (o['metadata'] as { finalizers?: string[] }).finalizers;
const make = (domain = 'orch.io') => storageObjectInUseProtectionFactory(undefined, staticDeps({}, apiDomain(domain))) as MutationInterface;

test('registered; handles creates only', () => {
  assert.ok(builtinPlugins().has('StorageObjectInUseProtection'));
  const p = make();
  assert.equal(p.name, 'StorageObjectInUseProtection');
  assert.deepEqual((['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as Operation[]).map((o) => p.handles(o)), [true, false, false, false]);
});

test('new claims and volumes get their protection finalizer after their own, dry run included', async () => {
  for (const dryRun of [false, true]) {
    const c = obj();
    await make().admit(attrs('persistentvolumeclaims', c, { dryRun }));
    assert.deepEqual(finalizers(c), ['orch.io/pvc-protection']);
    const v = obj(['example.com/keep']);
    await make().admit(attrs('persistentvolumes', v, { dryRun }));
    assert.deepEqual(finalizers(v), ['example.com/keep', 'orch.io/pv-protection']);
  }
  const noMeta: AdmissionObject = {};
  await make().admit(attrs('persistentvolumeclaims', noMeta));
  assert.deepEqual(finalizers(noMeta), ['orch.io/pvc-protection']);
});

test('a finalizer already there is not added twice', async () => {
  const c = obj(['orch.io/pvc-protection']);
  await make().admit(attrs('persistentvolumeclaims', c));
  assert.deepEqual(finalizers(c), ['orch.io/pvc-protection']);
  // The other kind's finalizer does not count.
  const v = obj(['orch.io/pvc-protection']);
  await make().admit(attrs('persistentvolumes', v));
  assert.deepEqual(finalizers(v), ['orch.io/pvc-protection', 'orch.io/pv-protection']);
});

test('finalizers follow the domain', async () => {
  const c = obj();
  await make('k8s.io').admit(attrs('persistentvolumeclaims', c));
  assert.deepEqual(finalizers(c), ['kubernetes.io/pvc-protection']);
  const v = obj();
  await make('example.com').admit(attrs('persistentvolumes', v));
  assert.deepEqual(finalizers(v), ['example.com/pv-protection']);
});

test('sub-resources and other resources are left alone', async () => {
  const cases: [string, Parameters<typeof attrs>[2]][] = [
    ['persistentvolumeclaims', { subresource: 'status' }],
    ['persistentvolumes', { subresource: 'status' }],
    ['pods', {}],
    ['persistentvolumeclaims', { group: 'example.io' }],
    ['toString', {}],
  ];
  for (const [resource, init] of cases) {
    const o = obj();
    await make().admit(attrs(resource, o, init));
    assert.equal(finalizers(o), undefined, `${resource} ${JSON.stringify(init)}`);
  }
});
