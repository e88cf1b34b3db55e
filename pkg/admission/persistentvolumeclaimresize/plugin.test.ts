import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builtinPlugins } from '../builtin.js';
import type { AdmissionObject, ValidationInterface } from '../interfaces.js';
import { podAttrs } from '../testing/attrs.js';
import { staticDeps } from '../testing/deps.js';
import { refusal } from '../testing/refusal.js';
import { persistentVolumeClaimResizeFactory } from './plugin.js';

const p = persistentVolumeClaimResizeFactory(undefined, staticDeps({
  'storage.orch.io/storageclasses': [
    { metadata: { name: 'elastic' }, provisioner: 'p', allowVolumeExpansion: true },
    { metadata: { name: 'fixed' }, provisioner: 'p', allowVolumeExpansion: false },
    { metadata: { name: 'unsaid' }, provisioner: 'p' },
  ],
})) as ValidationInterface;
const claim = (storage: string, cls: string | undefined, phase = 'Bound', annotations?: Record<string, string>): AdmissionObject => ({
  metadata: { name: 'data', ...(annotations ? { annotations } : {}) },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } }, ...(cls !== undefined ? { storageClassName: cls } : {}) },
  status: { phase },
});
const update = (next: AdmissionObject, old: AdmissionObject, over: { subresource?: string } = {}) => podAttrs({
  kind: { group: '', version: 'v1', kind: 'PersistentVolumeClaim' },
  resource: { group: '', version: 'v1', resource: 'persistentvolumeclaims' },
  operation: 'UPDATE', name: 'data', object: next, oldObject: old, subresource: over.subresource ?? '',
});
const notResizable = 'persistentvolumeclaims "data" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize';

test('registered and on by default; validates updates only', () => {
  assert.ok(builtinPlugins().has('PersistentVolumeClaimResize'));
  assert.deepEqual((['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as const).map((o) => p.handles(o)), [false, true, false, false]);
});

test('growing a bound claim needs a class that allows expansion', async () => {
  await p.validate(update(claim('2Gi', 'elastic'), claim('1Gi', 'elastic')));
  for (const cls of ['fixed', 'unsaid', 'missing', '', undefined]) {
    const e = await refusal(() => p.validate(update(claim('2Gi', cls), claim('1Gi', cls))));
    assert.equal(e.code, 403);
    assert.equal(e.message, notResizable, String(cls));
  }
  // A class that changes with the update is never the one that provisioned the volume.
  const moved = await refusal(() => p.validate(update(claim('2Gi', 'elastic'), claim('1Gi', 'fixed'))));
  assert.equal(moved.message, notResizable);
});

test('the beta class annotation names the class when present', async () => {
  const ann = { 'volume.beta.orch.io/storage-class': 'elastic' };
  await p.validate(update(claim('2Gi', 'fixed', 'Bound', ann), claim('1Gi', 'fixed', 'Bound', ann)));
  const fixed = { 'volume.beta.orch.io/storage-class': 'fixed' };
  const e = await refusal(() => p.validate(update(claim('2Gi', 'elastic', 'Bound', fixed), claim('1Gi', 'elastic', 'Bound', fixed))));
  assert.equal(e.message, notResizable);
});

test('only a bound claim may grow; keeping or shrinking the size, and sub-resources, pass here', async () => {
  const e = await refusal(() => p.validate(update(claim('2Gi', 'elastic', 'Pending'), claim('1Gi', 'elastic', 'Pending'))));
  assert.equal(e.message, 'persistentvolumeclaims "data" is forbidden: Only bound persistent volume claims can be expanded');
  await p.validate(update(claim('1024Mi', 'fixed'), claim('1Gi', 'fixed')));
  await p.validate(update(claim('500Mi', 'fixed'), claim('1Gi', 'fixed')));
  await p.validate(update(claim('2Gi', 'fixed'), claim('1Gi', 'fixed'), { subresource: 'status' }));
});
