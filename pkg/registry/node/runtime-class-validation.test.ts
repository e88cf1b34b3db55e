import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RuntimeClass } from '../../../api/node/v1/runtime-class.js';
import { ResourceNames } from '../core/resource-names.js';
import { createErrors, summary, updateErrors, type KindUnderTest } from '../testing/kind-check.js';
import { runtimeClassValidation } from './runtime-class-validation.js';

const kind: KindUnderTest<RuntimeClass> = { schema: RuntimeClass, validation: runtimeClassValidation(new ResourceNames('orch.io')) };
const rc = (fields: Record<string, unknown> = {}) => ({ apiVersion: 'node.orch.io/v1', kind: 'RuntimeClass', metadata: { name: 'gvisor' }, handler: 'runsc', ...fields });

test('a class with overhead and scheduling is accepted', () => {
  assert.deepEqual(createErrors(kind, rc({
    overhead: { podFixed: { cpu: '250m', memory: '64Mi' } },
    scheduling: { nodeSelector: { 'runtime.orch.io/sandbox': 'gvisor' }, tolerations: [{ key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' }] },
  })), []);
});

test('the handler is a DNS label', () => {
  assert.deepEqual(summary(createErrors(kind, rc({ handler: '' }))), ['FieldValueInvalid handler']);
  assert.deepEqual(summary(createErrors(kind, rc({ handler: 'Run_SC' }))), ['FieldValueInvalid handler']);
  assert.deepEqual(summary(createErrors(kind, rc({ handler: 'a'.repeat(64) }))), ['FieldValueInvalid handler']);
  assert.ok(summary(createErrors(kind, { metadata: { name: 'x' } })).includes('FieldValueRequired handler'));
});

test('overhead quantities are checked as limits', () => {
  assert.deepEqual(summary(createErrors(kind, rc({ overhead: { podFixed: { cpu: '-1' } } }))), ['FieldValueInvalid overhead.limits[cpu]']);
});

test('scheduling: label-valued node selector and distinct, valid tolerations', () => {
  assert.deepEqual(summary(createErrors(kind, rc({ scheduling: { nodeSelector: { 'bad key!': 'v' } } }))), ['FieldValueInvalid scheduling.nodeSelector']);
  const t = { key: 'sandbox', operator: 'Equal', value: 'gvisor', effect: 'NoSchedule' };
  assert.deepEqual(summary(createErrors(kind, rc({ scheduling: { tolerations: [t, { ...t, tolerationSeconds: undefined }] } }))), ['FieldValueDuplicate scheduling.tolerations[1]']);
  assert.deepEqual(createErrors(kind, rc({ scheduling: { tolerations: [t, { ...t, value: 'kata' }] } })), []);
  // Upstream nests the per-toleration path one level deeper.
  assert.deepEqual(summary(createErrors(kind, rc({ scheduling: { tolerations: [{ operator: 'Equal', value: 'x' }] } }))),
    ['FieldValueInvalid scheduling.tolerations.tolerations[0].operator']);
});

test('only the handler is fixed on update', () => {
  assert.deepEqual(updateErrors(kind, rc({ overhead: { podFixed: { cpu: '1' } } }), rc()), []);
  assert.deepEqual(summary(updateErrors(kind, rc({ handler: 'kata' }), rc())), ['FieldValueInvalid handler']);
});
