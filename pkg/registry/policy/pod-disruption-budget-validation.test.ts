import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PodDisruptionBudget } from '../../../api/policy/v1/pod-disruption-budget.js';
import { createErrors, has, statusUpdateErrors, summary, type KindUnderTest } from '../testing/kind-check.js';
import { podDisruptionBudgetValidation } from './pod-disruption-budget-validation.js';

const kind: KindUnderTest<PodDisruptionBudget> = { schema: PodDisruptionBudget, validation: podDisruptionBudgetValidation };
const pdb = (spec: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  ({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'b', namespace: 'default' }, spec, ...extra });
const status = { disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 2, expectedPods: 3 };

test('valid budgets are accepted', () => {
  assert.deepEqual(createErrors(kind, pdb({ minAvailable: 2, selector: { matchLabels: { app: 'db' } } })), []);
  assert.deepEqual(createErrors(kind, pdb({ maxUnavailable: '25%', selector: {}, unhealthyPodEvictionPolicy: 'AlwaysAllow' })), []);
  assert.deepEqual(createErrors(kind, pdb({ minAvailable: '100%' })), []);
  assert.deepEqual(createErrors(kind, pdb({ maxUnavailable: 0 })), []);
});

test('minAvailable and maxUnavailable are exclusive', () => {
  const errs = createErrors(kind, pdb({ minAvailable: 1, maxUnavailable: 1 }));
  assert.deepEqual(summary(errs), ['FieldValueInvalid spec']);
  assert.equal(errs[0]!.detail, 'minAvailable and maxUnavailable cannot be both set');
});

test('values are non-negative ints or percentages up to 100%', () => {
  const neg = createErrors(kind, pdb({ minAvailable: -1 }));
  assert.deepEqual(summary(neg), ['FieldValueInvalid spec.minAvailable']);
  assert.equal(neg[0]!.detail, 'must be greater than or equal to 0');
  assert.deepEqual(summary(createErrors(kind, pdb({ maxUnavailable: -3 }))), ['FieldValueInvalid spec.maxUnavailable']);
  const over = createErrors(kind, pdb({ maxUnavailable: '101%' }));
  assert.deepEqual(summary(over), ['FieldValueInvalid spec.maxUnavailable']);
  assert.equal(over[0]!.detail, 'must not be greater than 100%');
  for (const bad of ['50', '5.5%', 'half', '%', '-5%']) {
    assert.deepEqual(summary(createErrors(kind, pdb({ minAvailable: bad }))), ['FieldValueInvalid spec.minAvailable'], bad);
  }
});

test('the selector is validated', () => {
  assert.deepEqual(summary(createErrors(kind, pdb({ selector: { matchExpressions: [{ key: 'a', operator: 'Near' }] } }))), ['FieldValueNotSupported spec.selector.matchExpressions[0].operator']);
});

test('unhealthyPodEvictionPolicy takes known values', () => {
  assert.deepEqual(summary(createErrors(kind, pdb({ unhealthyPodEvictionPolicy: 'Sometimes' }))), ['FieldValueNotSupported spec.unhealthyPodEvictionPolicy']);
});

test('status counts are required and non-negative', () => {
  const old = pdb({ minAvailable: 1 });
  assert.deepEqual(statusUpdateErrors(kind, pdb({ minAvailable: 1 }, { status: { ...status, disruptedPods: { 'db-0': '2024-01-01T00:00:00Z' } } }), old), []);
  assert.deepEqual(summary(statusUpdateErrors(kind, pdb({ minAvailable: 1 }, { status: { ...status, currentHealthy: -1 } }), old)), ['FieldValueInvalid status.currentHealthy']);
  assert.ok(has(statusUpdateErrors(kind, pdb({ minAvailable: 1 }, { status: { currentHealthy: 1, desiredHealthy: 1 } }), old), 'FieldValueRequired', 'status.disruptionsAllowed'));
  const cond = { type: 'DisruptionAllowed', status: 'Maybe', lastTransitionTime: '2024-01-01T00:00:00Z', reason: 'SufficientPods', message: '' };
  assert.deepEqual(summary(statusUpdateErrors(kind, pdb({ minAvailable: 1 }, { status: { ...status, conditions: [cond] } }), old)), ['FieldValueNotSupported status.conditions[0].status']);
});
