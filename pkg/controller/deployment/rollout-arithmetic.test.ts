import assert from 'node:assert/strict';
import { test } from 'node:test';
import { computePodTemplateHash } from './pod-template-hash.js';
import { newRSNewReplicasRolling, proportion, resolveFenceposts, scaledValue } from './rollout-arithmetic.js';

test('percentages: surge rounds up, unavailable down; both zero becomes unavailable 1', () => {
  assert.deepEqual(resolveFenceposts({ maxSurge: '25%', maxUnavailable: '25%' }, 10), { surge: 3, unavailable: 2 });
  assert.deepEqual(resolveFenceposts({ maxSurge: 1, maxUnavailable: 0 }, 3), { surge: 1, unavailable: 0 });
  assert.deepEqual(resolveFenceposts({ maxSurge: '0%', maxUnavailable: '10%' }, 5), { surge: 0, unavailable: 1 });
  assert.deepEqual(resolveFenceposts(undefined, 1), { surge: 1, unavailable: 0 });
  assert.equal(scaledValue('50%', 3, true), 2);
  assert.throws(() => scaledValue('x%', 3, true));
});

test('the new ReplicaSet grows only as far as replicas + maxSurge allows', () => {
  assert.equal(newRSNewReplicasRolling(3, 1, 3, 0), 1);
  assert.equal(newRSNewReplicasRolling(3, 1, 4, 1), 1);
  assert.equal(newRSNewReplicasRolling(3, 1, 3, 1), 2);
  assert.equal(newRSNewReplicasRolling(10, 3, 0, 0), 10);
});

test('proportional scaling hands a ReplicaSet its share, capped by what is left', () => {
  // 10 → 20 with surge 0 over ReplicaSets annotated at a total of 10: a ReplicaSet of 6 grows by 6.
  assert.equal(proportion(6, 20, 20, 10, 10, 0), 6);
  assert.equal(proportion(6, 20, 20, 10, 10, 8), 2);
  // Scaling to zero takes everything.
  assert.equal(proportion(4, 0, 0, 10, -10, 0), -4);
  assert.equal(proportion(0, 5, 5, 10, 3, 0), 0);
});

test('the pod-template hash is stable across key order and changes with the template and collisionCount', () => {
  const a = computePodTemplateHash({ spec: { containers: [{ name: 'c', image: 'x' }] }, metadata: { labels: { a: '1' } } });
  const b = computePodTemplateHash({ metadata: { labels: { a: '1' } }, spec: { containers: [{ image: 'x', name: 'c' }] } });
  assert.equal(a, b);
  assert.match(a, /^[bcdfghjklmnpqrstvwxz2456789]+$/);
  assert.notEqual(a, computePodTemplateHash({ metadata: { labels: { a: '1' } }, spec: { containers: [{ image: 'y', name: 'c' }] } }));
  assert.notEqual(a, computePodTemplateHash({ spec: { containers: [{ name: 'c', image: 'x' }] }, metadata: { labels: { a: '1' } } }, 1));
});
