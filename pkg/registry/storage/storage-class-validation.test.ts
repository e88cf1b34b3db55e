import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StorageClass } from '../../../api/storage/v1/storage-class.js';
import { createErrors, defaulted, summary, updateErrors, type KindUnderTest } from '../testing/kind-check.js';
import { storageClassValidation } from './storage-class-validation.js';

const kind: KindUnderTest<StorageClass> = { schema: StorageClass, validation: storageClassValidation };
const sc = (fields: Record<string, unknown> = {}) => ({ apiVersion: 'storage.orch.io/v1', kind: 'StorageClass', metadata: { name: 'fast' }, provisioner: 'csi.example.com', ...fields });
const zone = (...values: string[]) => ({ key: 'topology.orch.io/zone', values });

test('reclaimPolicy and volumeBindingMode get their defaults', () => {
  const d = defaulted(kind, sc());
  assert.equal(d.reclaimPolicy, 'Delete');
  assert.equal(d.volumeBindingMode, 'Immediate');
  assert.equal(d.allowVolumeExpansion, undefined);
  assert.deepEqual(createErrors(kind, sc({
    parameters: { type: 'ssd' }, reclaimPolicy: 'Retain', mountOptions: ['ro'], allowVolumeExpansion: true, volumeBindingMode: 'WaitForFirstConsumer',
    allowedTopologies: [{ matchLabelExpressions: [zone('a', 'b')] }],
  })), []);
});

test('the provisioner is a non-empty qualified name', () => {
  assert.deepEqual(summary(createErrors(kind, sc({ provisioner: '' }))), ['FieldValueRequired provisioner']);
  assert.deepEqual(summary(createErrors(kind, sc({ provisioner: 'bad provisioner' }))), ['FieldValueInvalid provisioner']);
  assert.deepEqual(createErrors(kind, sc({ provisioner: 'Example.com/EBS' })), []);
});

test('parameters: at most 512, keys not empty', () => {
  const many = Object.fromEntries(Array.from({ length: 513 }, (_, i) => [`k${i}`, 'v']));
  assert.deepEqual(summary(createErrors(kind, sc({ parameters: many }))), ['FieldValueTooLong parameters']);
  assert.deepEqual(summary(createErrors(kind, sc({ parameters: { '': 'v' } }))), ['FieldValueInvalid parameters']);
});

test('Recycle is not a reclaim policy for classes; binding modes are known ones', () => {
  const errs = createErrors(kind, sc({ reclaimPolicy: 'Recycle' }));
  assert.deepEqual(summary(errs), ['FieldValueNotSupported reclaimPolicy']);
  assert.match(errs[0]!.detail ?? '', /"Delete", "Retain"/);
  assert.deepEqual(summary(createErrors(kind, sc({ reclaimPolicy: 'Keep' }))), ['FieldValueNotSupported reclaimPolicy']);
  assert.deepEqual(summary(createErrors(kind, sc({ volumeBindingMode: 'Later' }))), ['FieldValueNotSupported volumeBindingMode']);
});

test('allowed topologies: label keys, values present and distinct, keys and terms unique', () => {
  const at = (...terms: unknown[]) => createErrors(kind, sc({ allowedTopologies: terms }));
  assert.deepEqual(summary(at({ matchLabelExpressions: [zone()] })), ['FieldValueRequired allowedTopologies[0].matchLabelExpressions[0].values']);
  assert.deepEqual(summary(at({ matchLabelExpressions: [zone('a', 'a')] })), ['FieldValueDuplicate allowedTopologies[0].matchLabelExpressions[0].values[1]']);
  assert.deepEqual(summary(at({ matchLabelExpressions: [{ key: 'bad key', values: ['a'] }] })), ['FieldValueInvalid allowedTopologies[0].matchLabelExpressions[0].key']);
  assert.deepEqual(summary(at({ matchLabelExpressions: [zone('a'), zone('b')] })), ['FieldValueDuplicate allowedTopologies[0].matchLabelExpressions[1].key']);
  assert.deepEqual(summary(at({ matchLabelExpressions: [zone('a', 'b')] }, { matchLabelExpressions: [zone('b', 'a')] })),
    ['FieldValueDuplicate allowedTopologies[1].matchLabelExpressions']);
  assert.deepEqual(at({ matchLabelExpressions: [zone('a')] }, { matchLabelExpressions: [zone('b')] }), []);
});

test('provisioner, parameters, reclaimPolicy and volumeBindingMode are fixed; the rest may change', () => {
  const old = sc({ parameters: { type: 'ssd' } });
  assert.deepEqual(updateErrors(kind, sc({ parameters: { type: 'ssd' }, allowVolumeExpansion: true, mountOptions: ['ro'] }), old), []);
  const errs = updateErrors(kind, sc({ provisioner: 'other.example.com', parameters: { type: 'hdd' }, reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer' }), old);
  assert.deepEqual(summary(errs), ['FieldValueForbidden parameters', 'FieldValueForbidden provisioner', 'FieldValueForbidden reclaimPolicy', 'FieldValueInvalid volumeBindingMode']);
  assert.deepEqual(errs.slice(0, 3).map((e) => e.detail), ['updates to parameters are forbidden.', 'updates to provisioner are forbidden.', 'updates to reclaimPolicy are forbidden.']);
});
