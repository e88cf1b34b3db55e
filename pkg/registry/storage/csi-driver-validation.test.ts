import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CSIDriver, defaultCSIDriver } from '../../../api/storage/v1/csi-driver.js';
import { createErrors, defaulted, has, summary, updateErrors, type KindUnderTest } from '../testing/kind-check.js';
import { csiDriverValidation } from './csi-driver-validation.js';

const kind: KindUnderTest<CSIDriver> = { schema: CSIDriver, validation: csiDriverValidation, defaulter: defaultCSIDriver };
const driver = (spec: Record<string, unknown> = {}) => ({ apiVersion: 'storage.orch.io/v1', kind: 'CSIDriver', metadata: { name: 'csi.example.com' }, spec });

test('a driver gets its defaults', () => {
  const d = defaulted(kind, driver());
  assert.deepEqual(d.spec, {
    attachRequired: true, podInfoOnMount: false, volumeLifecycleModes: ['Persistent'], storageCapacity: false,
    fsGroupPolicy: 'ReadWriteOnceWithFSType', requiresRepublish: false, seLinuxMount: false,
  });
  assert.deepEqual(defaulted(kind, driver({ volumeLifecycleModes: ['Ephemeral'] })).spec.volumeLifecycleModes, ['Ephemeral']);
  assert.deepEqual(createErrors(kind, driver({ tokenRequests: [{ audience: 'vault' }, { audience: '', expirationSeconds: 3600 }] })), []);
});

test('spec is required', () => {
  assert.ok(has(createErrors(kind, { apiVersion: 'storage.orch.io/v1', kind: 'CSIDriver', metadata: { name: 'x' } }), 'FieldValueRequired', 'spec'));
});

test('driver names are DNS subdomains of at most 63 characters', () => {
  assert.deepEqual(csiDriverValidation.name('csi.example.com', false), []);
  assert.deepEqual(csiDriverValidation.name(`${'a'.repeat(63)}`, false), []);
  assert.deepEqual(csiDriverValidation.name(`${'a'.repeat(30)}.${'b'.repeat(33)}`, false), ['must be no more than 63 characters']);
  assert.ok(csiDriverValidation.name('-csi', false).length > 0);
  assert.ok(csiDriverValidation.name('csi_driver', false).length > 0);
  assert.ok(csiDriverValidation.name('csi.', false).length > 0);
});

test('fsGroupPolicy and volumeLifecycleModes take known values', () => {
  assert.deepEqual(summary(createErrors(kind, driver({ fsGroupPolicy: 'Sometimes' }))), ['FieldValueNotSupported spec.fsGroupPolicy']);
  assert.deepEqual(summary(createErrors(kind, driver({ volumeLifecycleModes: ['Persistent', 'Forever'] }))), ['FieldValueNotSupported spec.volumeLifecycleModes[1]']);
  assert.deepEqual(createErrors(kind, driver({ fsGroupPolicy: 'None', volumeLifecycleModes: ['Persistent', 'Ephemeral'] })), []);
});

test('token audiences are distinct, with at most one empty', () => {
  const dup = createErrors(kind, driver({ tokenRequests: [{ audience: 'a' }, { audience: 'a' }] }));
  assert.deepEqual(summary(dup), ['FieldValueDuplicate spec.tokenRequests[1].audience']);
  assert.deepEqual(summary(createErrors(kind, driver({ tokenRequests: [{ audience: '' }, { audience: '' }] }))), ['FieldValueDuplicate spec.tokenRequests[1].audience']);
  assert.ok(has(createErrors(kind, driver({ tokenRequests: [{}] })), 'FieldValueRequired', 'spec.tokenRequests[0].audience'));
});

test('token lifetimes lie between 10 minutes and 2^32 seconds', () => {
  assert.deepEqual(summary(createErrors(kind, driver({ tokenRequests: [{ audience: 'a', expirationSeconds: 599 }] }))), ['FieldValueInvalid spec.tokenRequests[0].expirationSeconds']);
  assert.deepEqual(summary(createErrors(kind, driver({ tokenRequests: [{ audience: 'a', expirationSeconds: 2 ** 32 + 1 }] }))), ['FieldValueInvalid spec.tokenRequests[0].expirationSeconds']);
});

test('attachRequired, podInfoOnMount, fsGroupPolicy and volumeLifecycleModes are immutable', () => {
  const old = driver();
  for (const [field, value] of [['attachRequired', false], ['podInfoOnMount', true], ['fsGroupPolicy', 'File'], ['volumeLifecycleModes', ['Ephemeral']]] as const) {
    const errs = updateErrors(kind, driver({ [field]: value }), old);
    assert.deepEqual(summary(errs), [`FieldValueInvalid spec.${field}`], field);
    assert.equal(errs[0]!.detail, 'field is immutable');
  }
});

test('requiresRepublish, seLinuxMount, storageCapacity and tokenRequests may change', () => {
  const changed = driver({ requiresRepublish: true, seLinuxMount: true, storageCapacity: true, tokenRequests: [{ audience: 'x' }] });
  assert.deepEqual(updateErrors(kind, changed, driver()), []);
});
