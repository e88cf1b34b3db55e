import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ResourceQuota } from '../../../api/core/v1/resource-quota.js';
import { createErrors, has, statusUpdateErrors, summary, updateErrors, type KindUnderTest } from '../testing/kind-check.js';
import { ResourceNames } from './resource-names.js';
import { resourceQuotaValidation as resourceQuotaValidationFor } from './resource-quota-validation.js';

const resourceQuotaValidation = resourceQuotaValidationFor(new ResourceNames('orch.io'));

const kind: KindUnderTest<ResourceQuota> = { schema: ResourceQuota, validation: resourceQuotaValidation };
const rq = (spec: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  ({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q', namespace: 'default' }, spec, ...extra });
const expr = (scopeName: string, operator: string, values?: string[]) => ({ scopeSelector: { matchExpressions: [{ scopeName, operator, ...(values ? { values } : {}) }] } });

test('a quota with standard resources and scopes is accepted', () => {
  assert.deepEqual(createErrors(kind, rq({ hard: { pods: '10', 'requests.cpu': '4', 'limits.memory': '8Gi', 'count/deployments.apps': 3, 'requests.example.com/gpu': 2 } })), []);
  assert.deepEqual(createErrors(kind, rq({ hard: { pods: 5 }, scopes: ['NotTerminating'] })), []);
  assert.deepEqual(createErrors(kind, rq({ hard: { pods: 5 }, ...expr('PriorityClass', 'In', ['high']) })), []);
  assert.deepEqual(createErrors(kind, rq({ ...expr('BestEffort', 'Exists') })), []);
});

test('hard amounts are non-negative, whole for countable resources, with valid names', () => {
  const neg = createErrors(kind, rq({ hard: { cpu: '-1' } }));
  assert.deepEqual(summary(neg), ['FieldValueInvalid spec.hard[cpu]']);
  assert.equal(neg[0]!.detail, 'must be greater than or equal to 0');
  assert.deepEqual(summary(createErrors(kind, rq({ hard: { pods: '1.5' } }))), ['FieldValueInvalid spec.hard[pods]']);
  assert.deepEqual(summary(createErrors(kind, rq({ hard: { pods: '1500m' } }))), ['FieldValueInvalid spec.hard[pods]']);
  const unknown = createErrors(kind, rq({ hard: { widgets: '1' } }));
  assert.ok(has(unknown, 'FieldValueInvalid', 'spec.hard[widgets]'));
  assert.ok(unknown.some((e) => e.detail === 'must be a standard resource for quota'));
  assert.ok(has(createErrors(kind, rq({ hard: { 'not valid!': '1' } })), 'FieldValueInvalid', 'spec.hard[not valid!]'));
});

test('In and NotIn need values; Exists and DoesNotExist take none', () => {
  const inEmpty = createErrors(kind, rq(expr('PriorityClass', 'In')));
  assert.deepEqual(summary(inEmpty), ['FieldValueRequired spec.scopeSelector.matchExpressions.values']);
  assert.deepEqual(summary(createErrors(kind, rq(expr('PriorityClass', 'NotIn', [])))), ['FieldValueRequired spec.scopeSelector.matchExpressions.values']);
  assert.deepEqual(summary(createErrors(kind, rq(expr('PriorityClass', 'Exists', ['x'])))), ['FieldValueInvalid spec.scopeSelector.matchExpressions.values']);
  assert.deepEqual(summary(createErrors(kind, rq(expr('PriorityClass', 'DoesNotExist', ['x'])))), ['FieldValueInvalid spec.scopeSelector.matchExpressions.values']);
  assert.deepEqual(summary(createErrors(kind, rq(expr('PriorityClass', 'Within', ['x'])))), ['FieldValueInvalid spec.scopeSelector.matchExpressions.operator']);
});

test('scope names must be known', () => {
  assert.deepEqual(summary(createErrors(kind, rq(expr('Shiny', 'Exists')))), ['FieldValueInvalid spec.scopeSelector.matchExpressions.scopeName']);
  const scopes = createErrors(kind, rq({ scopes: ['Shiny'] }));
  assert.deepEqual(summary(scopes), ['FieldValueInvalid spec.scopes']);
  assert.equal(scopes[0]!.detail, 'unsupported scope');
});

test('scopes must fit the limited resources and not conflict', () => {
  assert.deepEqual(summary(createErrors(kind, rq({ hard: { cpu: '1' }, scopes: ['BestEffort'] }))), ['FieldValueInvalid spec.scopes']);
  assert.deepEqual(summary(createErrors(kind, rq({ scopes: ['Terminating', 'NotTerminating'] }))), ['FieldValueInvalid spec.scopes']);
  assert.deepEqual(summary(createErrors(kind, rq(expr('Terminating', 'In', ['x'])))), ['FieldValueInvalid spec.scopeSelector.matchExpressions.operator']);
});

test('scopes never change', () => {
  const old = rq({ hard: { pods: 1 }, scopes: ['Terminating'] });
  assert.deepEqual(updateErrors(kind, rq({ hard: { pods: 2 }, scopes: ['Terminating'] }), old), []);
  const errs = updateErrors(kind, rq({ hard: { pods: 1 }, scopes: ['NotTerminating'] }), old);
  assert.deepEqual(summary(errs), ['FieldValueInvalid spec.scopes']);
  assert.equal(errs[0]!.detail, 'field is immutable');
});

test('status amounts follow the same rules', () => {
  const old = rq({ hard: { pods: 1 } });
  assert.deepEqual(statusUpdateErrors(kind, rq({ hard: { pods: 1 } }, { status: { hard: { pods: 1 }, used: { pods: 0 } } }), old), []);
  assert.deepEqual(summary(statusUpdateErrors(kind, rq({ hard: { pods: 1 } }, { status: { used: { pods: '-1' } } }), old)), ['FieldValueInvalid status.used[pods]']);
});
