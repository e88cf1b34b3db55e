import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ResourceQuota } from '../../api/core/v1/resource-quota.js';
import { calculateUsage, desiredQuotaStatus, sameResourceList } from './calculate-usage.js';
import { objectCountEvaluator } from './object-count-evaluators.js';
import { podEvaluator } from './pod-evaluator.js';

const pods = podEvaluator({ keyDomain: 'orch.io', chargeUpdates: false });
const pod = (cpu?: string, phase = 'Running') => ({
  metadata: { name: 'p' },
  spec: { containers: [{ name: 'c', image: 'i', ...(cpu ? { resources: { requests: { cpu }, limits: { cpu } } } : {}) }] },
  status: { phase },
});

test('usage sums the tracked names of matching objects, with 0 for a tracked name nobody uses', () => {
  const q: ResourceQuota = { spec: { hard: { pods: '10', 'requests.cpu': '4', 'count/configmaps': '3', 'example.com/unknown': '1' } } };
  const used = calculateUsage(q, [
    { evaluator: pods, objects: [pod('250m'), pod('1'), pod('2', 'Succeeded')] },
    { evaluator: objectCountEvaluator('configmaps', ''), objects: [] },
  ], new Date());
  const status = desiredQuotaStatus({ ...q, status: { used: { 'example.com/unknown': '1', stale: '5' } } }, used);
  assert.deepEqual(status.used, { 'count/configmaps': '0', 'example.com/unknown': '1', pods: '2', 'requests.cpu': '1250m' });
  assert.deepEqual(status.hard, { 'count/configmaps': '3', 'example.com/unknown': '1', pods: '10', 'requests.cpu': '4' });
});

test('scopes restrict which pods a quota counts', () => {
  const q: ResourceQuota = { spec: { hard: { pods: '10' }, scopes: ['BestEffort'] } };
  const used = calculateUsage(q, [{ evaluator: pods, objects: [pod(), pod('1'), pod()] }], new Date());
  assert.deepEqual(desiredQuotaStatus(q, used).used, { pods: '2' });
});

test('resource lists compare by quantity, not spelling', () => {
  assert.ok(sameResourceList({ cpu: '1000m', memory: '1Gi' }, { memory: '1024Mi', cpu: '1' }));
  assert.ok(!sameResourceList({ cpu: '1' }, { cpu: '2' }));
  assert.ok(!sameResourceList({ cpu: '1' }, undefined));
});
