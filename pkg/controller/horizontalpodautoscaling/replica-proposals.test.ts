import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HorizontalPodAutoscaler } from '../../../api/autoscaling/v2/horizontal-pod-autoscaler.js';
import { Indexer, type Json, type KubeObject } from '../../client/index.js';
import type { PodObject } from '../pod-pvc-index.js';
import { MetricsClient, type MetricsTransport } from './metrics-client.js';
import { ReplicaProposals } from './replica-proposals.js';

type HPAObject = HorizontalPodAutoscaler & KubeObject;

const hourAgo = () => new Date(Date.now() - 3_600_000).toISOString();

/** A Running, Ready pod of the target (as a node agent reports it) with one container's requests. */
const pod = (name: string, requests: Record<string, string>): PodObject => ({
  apiVersion: 'v1', kind: 'Pod',
  metadata: { name, namespace: 'ns', labels: { app: 'web' } },
  spec: { containers: [{ name: 'app', image: 'registry.example/app:1', resources: { requests } }] },
  status: { phase: 'Running', startTime: hourAgo(), conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: hourAgo() }] },
});

/** A served resource metrics API answering every list with these PodMetrics, as metrics-server does; it records what was asked. */
function metricsServer(usage: Record<string, Record<string, string>>) {
  const asked: string[] = [];
  const transport: MetricsTransport = {
    request: (method: string, path: string) => {
      asked.push(`${method} ${path}`);
      const items = Object.entries(usage).map(([name, u]) => ({
        metadata: { name, namespace: 'ns', labels: { app: 'web' } }, timestamp: new Date().toISOString(), window: '30s', containers: [{ name: 'app', usage: u }],
      }));
      return Promise.resolve({ kind: 'PodMetricsList', apiVersion: 'metrics.orch.io/v1beta1', metadata: {}, items } as Json);
    },
    // No custom metrics API is registered.
    discovery: { serverGroups: () => Promise.resolve([]) },
  };
  return { asked, metrics: new MetricsClient(transport, { group: (prefix: string) => `${prefix}.orch.io` }) };
}

function proposalsOver(usage: Record<string, Record<string, string>>, pods: PodObject[]) {
  const server = metricsServer(usage);
  const indexer = new Indexer<PodObject>();
  for (const p of pods) indexer.upsert(p);
  const events: string[] = [];
  const proposals = new ReplicaProposals({
    metrics: server.metrics, pods: indexer, selectors: new Map([['ns/web', null]]),
    event: (_hpa, type, reason, text) => events.push(`${type} ${reason} ${text}`),
    options: { tolerance: 0.1, cpuInitializationPeriodMs: 300_000, initialReadinessDelayMs: 30_000 },
  });
  return { proposals, events, asked: server.asked };
}

const hpa = (metrics: unknown[]): HPAObject => ({
  apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web', namespace: 'ns', uid: 'u1' },
  spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 10, metrics } as HPAObject['spec'],
});
const scaleOf = (replicas: number) => ({ spec: { replicas }, status: { replicas, selector: 'app=web' } });
const scalingActive = (h: HPAObject) => {
  const c = h.status?.conditions?.find((x) => x.type === 'ScalingActive');
  return c && { status: c.status, reason: c.reason, message: c.message };
};
const cpuAt = (percent: number) => ({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: percent } } });
const podsMetric = { type: 'Pods', pods: { metric: { name: 'requests' }, target: { type: 'AverageValue', averageValue: '10' } } };
const memoryAverage = (value: string) => ({ type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: value } } });
const customMissing = 'failed to get pods metric value: unable to get metric requests: unable to fetch metrics from custom metrics API: no custom metrics API (custom.metrics.orch.io) registered';

test('a served resource metrics API is read for the target\'s pods, and CPU utilization over the target asks for more replicas', async () => {
  const { proposals, events, asked } = proposalsOver({ 'web-a': { cpu: '500m' }, 'web-b': { cpu: '500m' } }, [pod('web-a', { cpu: '500m' }), pod('web-b', { cpu: '500m' })]);
  const h = hpa([cpuAt(50)]);
  const p = await proposals.propose(h, 'ns/web', scaleOf(2));
  assert.deepEqual(asked, ['GET /apis/metrics.orch.io/v1beta1/namespaces/ns/pods?labelSelector=app%3Dweb']);
  // 100% of the request against 50%: twice the pods.
  assert.deepEqual(p, {
    replicas: 4, metric: 'cpu resource utilization (percentage of request)',
    statuses: [{ type: 'Resource', resource: { name: 'cpu', current: { averageValue: '500m', averageUtilization: 100 } } }],
  });
  assert.deepEqual(scalingActive(h), { status: 'True', reason: 'ValidMetricFound', message: 'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)' });
  assert.deepEqual(events, []);
});

test('the highest proposal wins; a failed metric is reported but does not stop a scale-up', async () => {
  const { proposals, events } = proposalsOver({ 'web-a': { memory: '150Mi', cpu: '100m' }, 'web-b': { memory: '150Mi', cpu: '100m' } },
    [pod('web-a', { cpu: '500m', memory: '100Mi' }), pod('web-b', { cpu: '500m', memory: '100Mi' })]);
  const h = hpa([podsMetric, cpuAt(50), memoryAverage('100Mi')]);
  const p = await proposals.propose(h, 'ns/web', scaleOf(2));
  assert.equal(p.replicas, 3, '150Mi against 100Mi on two pods; CPU at 20% alone would ask for one');
  assert.equal(p.metric, 'memory resource');
  assert.deepEqual(p.statuses, [
    { type: '' },
    { type: 'Resource', resource: { name: 'cpu', current: { averageValue: '100m', averageUtilization: 20 } } },
    { type: 'Resource', resource: { name: 'memory', current: { averageValue: '157286400' } } },
  ]);
  assert.equal(p.error, `invalid metrics (1 invalid out of 3), first error is: ${customMissing}`);
  assert.equal(scalingActive(h)?.reason, 'ValidMetricFound');
  assert.deepEqual(events, [`Warning FailedGetPodsMetric ${customMissing.replace('failed to get pods metric value: ', '')}`]);
});

test('with a failed metric, a proposal to scale down is no proposal: ScalingActive False names the failure', async () => {
  const { proposals } = proposalsOver({ 'web-a': { memory: '10Mi' }, 'web-b': { memory: '10Mi' } }, [pod('web-a', { memory: '100Mi' }), pod('web-b', { memory: '100Mi' })]);
  const h = hpa([memoryAverage('100Mi'), podsMetric]);
  const p = await proposals.propose(h, 'ns/web', scaleOf(2));
  assert.equal(p.replicas, -1);
  assert.deepEqual(scalingActive(h), {
    status: 'False', reason: 'FailedGetPodsMetric',
    message: `the HPA was unable to compute the replica count: ${customMissing.replace('failed to get pods metric value: ', '')}`,
  });
});

test('pods the metrics API has no sample for are assumed idle when scaling up', async () => {
  const { proposals } = proposalsOver({ 'web-a': { cpu: '1' } }, [pod('web-a', { cpu: '500m' }), pod('web-b', { cpu: '500m' })]);
  const h = hpa([cpuAt(50)]);
  // web-a alone is at 200% (four pods' worth); with web-b at 0 the two average 100%: four replicas still.
  const p = await proposals.propose(h, 'ns/web', scaleOf(2));
  assert.equal(p.replicas, 4);
  assert.deepEqual(p.statuses, [{ type: 'Resource', resource: { name: 'cpu', current: { averageValue: '1', averageUtilization: 200 } } }]);
});
