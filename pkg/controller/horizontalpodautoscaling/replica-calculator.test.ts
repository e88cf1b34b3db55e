import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../../api/core/v1/pod.js';
import { calculatePodRequests, groupPods, plainMetricReplicas, resourceReplicas, resourceUtilizationRatio, type PodMetrics, type ReadinessTiming } from './replica-calculator.js';

const now = Date.parse('2026-01-01T01:00:00Z');
const longAgo = '2026-01-01T00:00:00Z';
const timing: ReadinessTiming = { cpuInitializationPeriodMs: 5 * 60_000, initialReadinessDelayMs: 30_000, now };

function pod(name: string, opts: { phase?: string; ready?: boolean; request?: string; started?: string; readyAt?: string; deleting?: boolean; containers?: number } = {}): Pod {
  return {
    metadata: { name, ...(opts.deleting ? { deletionTimestamp: longAgo } : {}) },
    spec: { containers: Array.from({ length: opts.containers ?? 1 }, (_, i) => ({ name: `c${i}`, image: 'x', resources: opts.request === undefined ? {} : { requests: { cpu: opts.request } } })) },
    status: {
      phase: opts.phase ?? 'Running',
      startTime: opts.started ?? longAgo,
      conditions: [{ type: 'Ready', status: opts.ready === false ? 'False' : 'True', lastTransitionTime: opts.readyAt ?? longAgo }],
    },
  } as Pod;
}
const samples = (values: Record<string, number>): PodMetrics =>
  new Map(Object.entries(values).map(([n, v]) => [n, { timestampMs: now - 10_000, windowMs: 30_000, value: v }]));
const cpuReplicas = (current: number, target: number, pods: Pod[], metrics: PodMetrics, tolerance = 0.1) =>
  resourceReplicas({ currentReplicas: current, targetUtilization: target, resource: 'cpu', container: '', pods, metrics, tolerance, timing });

test('utilization above the target scales up in proportion, rounded up', () => {
  const pods = ['a', 'b', 'c'].map((n) => pod(n, { request: '1' }));
  // 500m of 1000m is 50%; against 30% that is 5/3 of the three pods.
  assert.deepEqual(cpuReplicas(3, 30, pods, samples({ a: 500, b: 500, c: 500 })), { replicas: 5, utilization: 50, rawUtilization: 500 });
  // 10% against 50%: one pod does.
  assert.deepEqual(cpuReplicas(3, 50, pods, samples({ a: 100, b: 100, c: 100 })), { replicas: 1, utilization: 10, rawUtilization: 100 });
});

test('a ratio within the tolerance keeps the current count', () => {
  const pods = ['a', 'b'].map((n) => pod(n, { request: '1' }));
  assert.equal(cpuReplicas(2, 50, pods, samples({ a: 540, b: 540 })).replicas, 2, '54/50 is within 10%');
  assert.equal(cpuReplicas(2, 50, pods, samples({ a: 560, b: 560 })).replicas, 3, '56/50 is not');
  assert.equal(cpuReplicas(2, 50, pods, samples({ a: 560, b: 560 }), 0.2).replicas, 2, 'with --horizontal-pod-autoscaler-tolerance 0.2 it is');
});

test('scaling up, unready pods count as using nothing; scaling down, pods without samples as using all they asked for', () => {
  const up = [pod('a', { request: '1' }), pod('b', { request: '1' }), pod('c', { request: '1', ready: false, started: '2026-01-01T00:59:00Z', readyAt: '2026-01-01T00:59:00Z' })];
  // 90% of the ready two against 50%; with the unready one at 0: 60% of three, 1.2 x 3 = 4.
  assert.equal(cpuReplicas(3, 50, up, samples({ a: 900, b: 900, c: 900 })).replicas, 4);
  const down = ['a', 'b', 'c'].map((n) => pod(n, { request: '1' }));
  // 10% of two against 50%; the third without a sample at 100%: 40%, 0.8 x 3 is 3, no change.
  assert.equal(cpuReplicas(3, 50, down, samples({ a: 100, b: 100 })).replicas, 3);
  // Scaling up, a pod without a sample counts as nothing: 150% of two, then 100% of three = 2 x 3 = 6.
  assert.equal(cpuReplicas(3, 50, down, samples({ a: 1500, b: 1500 })).replicas, 6);
});

test('groupPods: failed and deleted pods are ignored, pending and never-ready ones unready, others without samples missing', () => {
  const pods = [
    pod('ok', { request: '1' }), pod('gone', { deleting: true }), pod('failed', { phase: 'Failed' }), pod('pending', { phase: 'Pending' }),
    pod('nosample'), pod('starting', { ready: false, started: '2026-01-01T00:58:00Z', readyAt: '2026-01-01T00:58:10Z' }),
    // Ready long enough ago, but its sample was taken before a full window after readiness: not trusted yet.
    pod('fresh', { started: '2026-01-01T00:58:00Z', readyAt: '2026-01-01T00:59:55Z' }),
  ];
  const g = groupPods(pods, samples({ ok: 1, gone: 1, failed: 1, starting: 1, fresh: 1 }), 'cpu', timing);
  assert.equal(g.readyPodCount, 1);
  assert.deepEqual([...g.ignored].sort(), ['failed', 'gone']);
  assert.deepEqual([...g.unready].sort(), ['fresh', 'pending', 'starting']);
  assert.deepEqual([...g.missing], ['nosample']);
  // Readiness only matters for cpu.
  assert.equal(groupPods(pods, samples({ ok: 1, starting: 1, fresh: 1 }), 'memory', timing).readyPodCount, 3);
});

test('requests: summed over containers, or of one; a missing request is upstream\'s error', () => {
  assert.deepEqual([...calculatePodRequests([pod('a', { request: '250m', containers: 2 })], '', 'cpu')], [['a', 500]]);
  assert.deepEqual([...calculatePodRequests([pod('a', { request: '250m', containers: 2 })], 'c1', 'cpu')], [['a', 250]]);
  assert.throws(() => calculatePodRequests([pod('a')], '', 'cpu'), { message: 'missing request for cpu in container c0 of Pod a' });
  assert.throws(() => resourceUtilizationRatio(samples({ x: 1 }), new Map([['a', 1]]), 50), { message: 'no metrics returned matched known pods' });
  assert.throws(() => cpuReplicas(1, 50, [], samples({})), { message: 'no pods returned by selector while calculating replica count' });
  assert.throws(() => cpuReplicas(1, 50, [pod('p', { phase: 'Pending', request: '1' })], samples({ p: 1 })), { message: 'did not receive metrics for targeted pods (pods might be unready)' });
});

test('an average-value target: usage against the target per pod', () => {
  const pods = ['a', 'b'].map((n) => pod(n, { request: '1' }));
  const plain = (metrics: PodMetrics, target: number) =>
    plainMetricReplicas({ currentReplicas: 2, targetUsage: target, resource: 'memory', pods, metrics, tolerance: 0.1, timing });
  assert.deepEqual(plain(samples({ a: 300, b: 300 }), 100), { replicas: 6, usage: 300 });
  assert.deepEqual(plain(samples({ a: 105, b: 105 }), 100), { replicas: 2, usage: 105 });
  // Scaling down, a pod without a sample counts as exactly at the target.
  assert.deepEqual(plain(samples({ a: 20 }), 100), { replicas: 2, usage: 20 });
});
