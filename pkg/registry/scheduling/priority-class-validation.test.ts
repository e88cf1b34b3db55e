import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PriorityClass } from '../../../api/scheduling/v1/priority-class.js';
import { createErrors, defaulted, summary, updateErrors, type KindUnderTest } from '../testing/kind-check.js';
import { priorityClassValidation } from './priority-class-validation.js';

const kind: KindUnderTest<PriorityClass> = { schema: PriorityClass, validation: priorityClassValidation };
const pc = (name: string, fields: Record<string, unknown> = {}) =>
  ({ apiVersion: 'scheduling.orch.io/v1', kind: 'PriorityClass', metadata: { name }, value: 100, ...fields });

test('preemptionPolicy defaults to PreemptLowerPriority', () => {
  assert.equal(defaulted(kind, pc('high')).preemptionPolicy, 'PreemptLowerPriority');
  assert.equal(defaulted(kind, pc('high', { preemptionPolicy: 'Never' })).preemptionPolicy, 'Never');
  assert.deepEqual(createErrors(kind, pc('high', { globalDefault: true, description: 'x' })), []);
});

test('user classes may not exceed one billion', () => {
  assert.deepEqual(createErrors(kind, pc('high', { value: 1_000_000_000 })), []);
  assert.deepEqual(createErrors(kind, pc('low', { value: -2_147_483_648 })), []);
  const errs = createErrors(kind, pc('high', { value: 1_000_000_001 }));
  assert.deepEqual(summary(errs), ['FieldValueForbidden value']);
  assert.equal(errs[0]!.detail, 'maximum allowed value of a user defined priority is 1000000000');
});

test('the system- prefix is reserved for the built-in classes as defined', () => {
  assert.deepEqual(createErrors(kind, pc('system-cluster-critical', { value: 2_000_000_000 })), []);
  assert.deepEqual(createErrors(kind, pc('system-node-critical', { value: 2_000_001_000 })), []);
  const cases: [Record<string, unknown>, string][] = [
    [pc('system-mine'), 'system-mine is not a known system priority class'],
    [pc('system-node-critical', { value: 5 }), 'value of system-node-critical PriorityClass must be 2000001000'],
    [pc('system-cluster-critical', { value: 2_000_000_000, globalDefault: true }), 'globalDefault of system-cluster-critical PriorityClass must be false'],
  ];
  for (const [obj, why] of cases) {
    const errs = createErrors(kind, obj);
    assert.deepEqual(summary(errs), ['FieldValueForbidden metadata.name']);
    assert.equal(errs[0]!.detail, `priority class names with 'system-' prefix are reserved for system use only. error: ${why}`);
  }
});

test('preemptionPolicy takes known values', () => {
  assert.deepEqual(summary(createErrors(kind, pc('high', { preemptionPolicy: 'Sometimes' }))), ['FieldValueNotSupported preemptionPolicy']);
});

test('value and preemptionPolicy never change; the rest may', () => {
  const old = pc('high');
  assert.deepEqual(updateErrors(kind, pc('high', { description: 'new', globalDefault: true }), old), []);
  const v = updateErrors(kind, pc('high', { value: 101 }), old);
  assert.deepEqual(summary(v), ['FieldValueForbidden value']);
  assert.equal(v[0]!.detail, 'may not be changed in an update.');
  assert.deepEqual(summary(updateErrors(kind, pc('high', { preemptionPolicy: 'Never' }), old)), ['FieldValueInvalid preemptionPolicy']);
});
