import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Lease } from '../../../api/coordination/v1/lease.js';
import { createErrors, summary, updateErrors, type KindUnderTest } from '../testing/kind-check.js';
import { leaseValidation } from './lease-validation.js';

const kind: KindUnderTest<Lease> = { schema: Lease, validation: leaseValidation };
const lease = (spec: Record<string, unknown>) => ({ apiVersion: 'coordination.orch.io/v1', kind: 'Lease', metadata: { name: 'l', namespace: 'default' }, spec });

test('a lease with every field is accepted, as is one without spec', () => {
  assert.deepEqual(createErrors(kind, lease({
    holderIdentity: 'a', leaseDurationSeconds: 1, acquireTime: '2026-01-01T00:00:00.000001Z', renewTime: '2026-01-01T00:00:01.5Z', leaseTransitions: 0,
  })), []);
  assert.deepEqual(createErrors(kind, { metadata: { name: 'l' } }), []);
});

test('the duration is positive and transitions are not negative, on create and update', () => {
  const bad = lease({ leaseDurationSeconds: 0, leaseTransitions: -1 });
  assert.deepEqual(summary(createErrors(kind, bad)), ['FieldValueInvalid spec.leaseDurationSeconds', 'FieldValueInvalid spec.leaseTransitions']);
  assert.deepEqual(createErrors(kind, bad).map((e) => e.detail), ['must be greater than 0', 'must be greater than or equal to 0']);
  assert.deepEqual(summary(updateErrors(kind, lease({ leaseDurationSeconds: -5 }), lease({}))), ['FieldValueInvalid spec.leaseDurationSeconds']);
  assert.deepEqual(updateErrors(kind, lease({ holderIdentity: 'b' }), lease({ holderIdentity: 'a' })), []);
});

test('times that are not timestamps fail to decode', () => {
  assert.throws(() => createErrors(kind, lease({ renewTime: 'yesterday' })), /decode errors/);
});
