// How a node's silence is judged, how zones are weighed, and how the taint queue hands nodes out.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apiDomain, defaultApiDomain } from '../../../api/domain.js';
import { assessNodeHealth, microTime, type NodeHealth } from './node-health.js';
import { RateLimitedTimedQueue } from './rate-limited-queue.js';
import { computeZoneState, zoneEvictionRate, zoneKey } from './zones.js';
import { swappedTaints } from './node-taints.js';

const grace = { monitorGracePeriodMs: 40_000, startupGracePeriodMs: 60_000 };
const T = Date.parse('2024-01-01T00:00:00Z');
const ready = (heartbeat: string) => ({ type: 'Ready', status: 'True' as const, lastHeartbeatTime: heartbeat, lastTransitionTime: '2024-01-01T00:00:00Z', reason: 'KubeletReady', message: 'ok' });
const node = (conditions: object[] = []) => ({ metadata: { name: 'n', creationTimestamp: '2024-01-01T00:00:00Z' }, status: { conditions } }) as Parameters<typeof assessNodeHealth>[0];
const lease = (renewTime: string) => ({ metadata: { name: 'n' }, spec: { renewTime } });

test('a node is heard from when its Ready heartbeat moves or its Lease renews; silent past the grace period its conditions become Unknown', () => {
  let a = assessNodeHealth(node([ready('2024-01-01T00:00:00Z')]), undefined, undefined, T, grace);
  assert.equal(a.health.probeTimestamp, T);
  assert.equal(a.unknownConditions, undefined);
  // 30 s later the Lease was renewed: heard from.
  a = assessNodeHealth(node([ready('2024-01-01T00:00:00Z')]), a.health, lease('2024-01-01T00:00:30.000001Z') as never, T + 30_000, grace);
  assert.equal(a.health.probeTimestamp, T + 30_000);
  // The same Lease and heartbeat 70 s in: 40 s silent, past the grace period.
  const saved: NodeHealth = a.health;
  a = assessNodeHealth(node([ready('2024-01-01T00:00:00Z'), { type: 'MemoryPressure', status: 'False' }]), saved, lease('2024-01-01T00:00:30.000001Z') as never, T + 70_001, grace);
  const byType = Object.fromEntries((a.unknownConditions ?? []).map((c) => [c.type, c]));
  assert.deepEqual([byType.Ready?.status, byType.Ready?.reason, byType.Ready?.message], ['Unknown', 'NodeStatusUnknown', 'Kubelet stopped posting node status.']);
  assert.equal(byType.Ready?.lastHeartbeatTime, '2024-01-01T00:00:00Z', 'the heartbeat is the node\'s own');
  assert.equal(byType.MemoryPressure?.status, 'Unknown');
  assert.deepEqual([byType.DiskPressure?.status, byType.DiskPressure?.reason, byType.DiskPressure?.message], ['Unknown', 'NodeStatusNeverUpdated', 'Kubelet never posted node status.']);
  assert.equal(a.observedReady.status, 'True', 'what the node had');
  // Already Unknown: nothing to write again.
  const unknown = node([{ ...ready('2024-01-01T00:00:00Z'), status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' }]);
  assert.equal(assessNodeHealth(unknown, saved, undefined, T + 200_000, grace).unknownConditions, undefined);
});

test('a node that never reported Ready is judged from its creation, with the startup grace period', () => {
  assert.equal(assessNodeHealth(node(), undefined, undefined, T + 59_000, grace).unknownConditions, undefined);
  const a = assessNodeHealth(node(), undefined, undefined, T + 61_000, grace);
  assert.equal(a.unknownConditions?.find((c) => c.type === 'Ready')?.reason, 'NodeStatusNeverUpdated');
  assert.equal(microTime('2024-01-01T00:00:01.5Z'), T + 1500);
  assert.equal(microTime('2024-01-01T00:00:01.000001Z'), T + 1000.001);
  assert.ok(Number.isNaN(microTime('yesterday')));
});

test('zones: keys from the topology labels; fully, partially disrupted or normal; rates by state and size', () => {
  assert.equal(zoneKey(defaultApiDomain, {}), '');
  assert.equal(zoneKey(defaultApiDomain, { 'topology.orch.io/region': 'r', 'topology.orch.io/zone': 'z' }), 'r:\x00:z');
  assert.equal(zoneKey(apiDomain('k8s.io'), { 'failure-domain.beta.kubernetes.io/zone': 'z' }), ':\x00:z');
  const c = (status: string) => ({ type: 'Ready', status }) as never;
  assert.deepEqual(computeZoneState([c('Unknown'), undefined], 0.55), { unhealthy: 2, state: 'FullDisruption' });
  assert.deepEqual(computeZoneState([c('True'), c('False'), c('False'), c('Unknown')], 0.55), { unhealthy: 3, state: 'PartialDisruption' });
  assert.deepEqual(computeZoneState([c('True'), c('False'), c('False')], 0.55), { unhealthy: 2, state: 'Normal' }, 'at least three not ready');
  const rates = { evictionRate: 0.1, secondaryEvictionRate: 0.01, largeClusterSizeThreshold: 50 };
  assert.equal(zoneEvictionRate('Normal', 10, rates), 0.1);
  assert.equal(zoneEvictionRate('FullDisruption', 10, rates), 0.1);
  assert.equal(zoneEvictionRate('PartialDisruption', 10, rates), 0);
  assert.equal(zoneEvictionRate('PartialDisruption', 51, rates), 0.01);
});

test('the taint queue hands out one node per token, keeps handled nodes known until removed, and stops at rate 0', async () => {
  let now = T;
  const q = new RateLimitedTimedQueue(1, () => now);
  assert.ok(q.add('a', 'ua'));
  assert.ok(q.add('b', 'ub'));
  assert.ok(!q.add('a', 'ua'), 'queued once');
  const seen: string[] = [];
  const take = () => q.try(async (v) => {
    seen.push(v.value);
    return { done: true, retryMs: 0 };
  });
  await take();
  assert.deepEqual(seen, ['a'], 'a burst of one');
  now += 1000;
  await take();
  assert.deepEqual(seen, ['a', 'b']);
  assert.ok(!q.add('a', 'ua'), 'handled but still known');
  assert.ok(q.remove('a') && q.add('a', 'ua'));
  q.swapLimiter(0);
  now += 10_000;
  await take();
  assert.deepEqual(seen, ['a', 'b'], 'no token at rate 0');
  q.swapLimiter(1);
  now += 1000;
  await q.try(async () => ({ done: false, retryMs: 5000 }));
  assert.deepEqual(q.pending(), ['a'], 'a refused node comes back later');
});

test('taint swaps put a taint in place of one of the same key and effect and take others out', () => {
  const u = { key: 'u', effect: 'NoExecute' as const };
  const nr = { key: 'nr', effect: 'NoExecute' as const };
  const mine = { key: 'mine', effect: 'NoSchedule' as const };
  assert.deepEqual(swappedTaints([mine, nr], [{ ...u, timeAdded: 't' }], [nr]), [mine, { ...u, timeAdded: 't' }]);
  assert.deepEqual(swappedTaints([{ ...u, timeAdded: 'old' }], [{ ...u, timeAdded: 'new' }], []), [{ ...u, timeAdded: 'new' }]);
});
