import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countHealthy, deletionTimeoutMs, disruptionAllowedCondition, liveDisruptions, scaledValue, setCondition, type PodLike } from './budget-status.js';

const pod = (name: string, ready: boolean, deleting = false): PodLike => ({
  metadata: { name, ...(deleting ? { deletionTimestamp: '2024-01-01T00:00:00Z' } : {}) },
  status: { conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
});

test('percentages scale against the expected count, rounding up as upstream does', () => {
  assert.equal(scaledValue(3, 10, true), 3);
  assert.equal(scaledValue('50%', 3, true), 2);
  assert.equal(scaledValue('50%', 3, false), 1);
  assert.equal(scaledValue('0%', 7, true), 0);
  assert.throws(() => scaledValue('half', 4, true), /not a percentage/);
});

test('recorded disruptions count until the timeout, and only for pods that exist and are not being deleted', () => {
  const now = Date.parse('2024-05-01T12:00:00Z');
  const recent = new Date(now - 30_000).toISOString();
  const old = new Date(now - deletionTimeoutMs - 1_000).toISOString();
  const pods = [pod('a', true), pod('b', true), pod('c', true, true), pod('d', false)];
  const { disrupted, expired, recheckAt } = liveDisruptions({ a: recent, b: old, c: recent, gone: recent }, pods, now);
  assert.deepEqual(disrupted, { a: recent });
  assert.deepEqual(expired, ['b']);
  assert.equal(recheckAt, Date.parse(recent) + deletionTimeoutMs);
  // a awaits its eviction, c is being deleted, d is not ready: only b is healthy.
  assert.equal(countHealthy(pods, disrupted, now), 1);
  assert.deepEqual(liveDisruptions(undefined, pods, now), { disrupted: {}, expired: [] });
});

test('the DisruptionAllowed condition moves its transition time only when its status changes', () => {
  const t0 = '2024-01-01T00:00:00Z';
  const t1 = '2024-01-02T00:00:00Z';
  let c = setCondition([], disruptionAllowedCondition(0, 1), t0);
  assert.deepEqual(c, [{ type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods', message: '', observedGeneration: 1, lastTransitionTime: t0 }]);
  c = setCondition(c, { ...disruptionAllowedCondition(0, 2), reason: 'SyncFailed', message: 'boom' }, t1);
  assert.equal(c[0]!.lastTransitionTime, t0);
  assert.equal(c[0]!.reason, 'SyncFailed');
  c = setCondition(c, disruptionAllowedCondition(2, 2), t1);
  assert.deepEqual(c[0], { type: 'DisruptionAllowed', status: 'True', reason: 'SufficientPods', message: '', observedGeneration: 2, lastTransitionTime: t1 });
});
