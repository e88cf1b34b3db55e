import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ControllerRevision } from '../../../api/apps/v1/controller-revision.js';
import { createErrors, has, summary, updateErrors, type KindUnderTest } from '../testing/kind-check.js';
import { controllerRevisionValidation } from './controller-revision-validation.js';

const kind: KindUnderTest<ControllerRevision> = { schema: ControllerRevision, validation: controllerRevisionValidation };

const cr = (extra: Record<string, unknown> = {}) => ({
  apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'web-1', namespace: 'default' },
  data: { spec: { template: { spec: { containers: [{ name: 'c', image: 'i' }] } } } }, revision: 1, ...extra,
});

test('a revision with data is accepted; data is kept as sent', () => {
  assert.deepEqual(createErrors(kind, cr()), []);
  assert.deepEqual(createErrors(kind, cr({ data: { anything: [1, 'two', { three: null }] } })), []);
});

test('data is mandatory and revision is required and non-negative', () => {
  for (const data of [undefined, null]) {
    const errs = createErrors(kind, cr({ data }));
    assert.deepEqual(summary(errs), ['FieldValueRequired data']);
    assert.equal(errs[0]!.detail, 'data is mandatory');
  }
  const noRevision = cr();
  delete (noRevision as Record<string, unknown>).revision;
  assert.ok(has(createErrors(kind, noRevision), 'FieldValueRequired', 'revision'));
  assert.deepEqual(summary(createErrors(kind, cr({ revision: -1 }))), ['FieldValueInvalid revision']);
});

test('data cannot change; revision can', () => {
  assert.deepEqual(updateErrors(kind, cr({ revision: 2 }), cr()), []);
  const errs = updateErrors(kind, cr({ data: { other: true } }), cr());
  assert.deepEqual(summary(errs), ['FieldValueInvalid data']);
  assert.equal(errs[0]!.detail, 'field is immutable');
});
