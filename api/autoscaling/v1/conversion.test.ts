import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiDomain, defaultApiDomain } from '../../domain.js';
import type { HorizontalPodAutoscaler as V2 } from '../v2/horizontal-pod-autoscaler.js';
import { hpaFromV1, hpaToV1, roundTripAnnotations } from './conversion.js';
import type { HorizontalPodAutoscaler as V1 } from './horizontal-pod-autoscaler.js';

const keys = roundTripAnnotations(defaultApiDomain);

const full = (): V2 => ({
  kind: 'HorizontalPodAutoscaler',
  apiVersion: 'autoscaling/v2',
  metadata: { name: 'web', namespace: 'default', annotations: { owner: 'team-a' } },
  spec: {
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
    minReplicas: 2,
    maxReplicas: 10,
    metrics: [
      { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '512Mi' } } },
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } },
      { type: 'Pods', pods: { metric: { name: 'rps', selector: { matchLabels: { verb: 'GET' } } }, target: { type: 'AverageValue', averageValue: '10' } } },
      { type: 'Object', object: { describedObject: { kind: 'Ingress', name: 'main', apiVersion: 'networking.orch.io/v1' }, target: { type: 'Value', value: '2k' }, metric: { name: 'hits' } } },
      { type: 'External', external: { metric: { name: 'queue' }, target: { type: 'AverageValue', averageValue: '30' } } },
      { type: 'ContainerResource', containerResource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 }, container: 'app' } },
    ],
    behavior: {
      scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }] },
      scaleDown: { selectPolicy: 'Min', policies: [{ type: 'Percent', value: 50, periodSeconds: 60 }] },
    },
  },
  status: {
    observedGeneration: 3,
    lastScaleTime: '2026-01-01T00:00:00Z',
    currentReplicas: 3,
    desiredReplicas: 4,
    currentMetrics: [
      { type: 'Resource', resource: { name: 'memory', current: { averageValue: '400Mi' } } },
      { type: 'Resource', resource: { name: 'cpu', current: { averageValue: '150m', averageUtilization: 75 } } },
      { type: '' },
    ],
    conditions: [
      { type: 'AbleToScale', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'SucceededGetScale', message: 'the HPA controller was able to get the target\'s current scale' },
    ],
  },
});

test('v2 -> v1 keeps the CPU target and current value in v1 fields and the rest in the four annotations', () => {
  const v1 = hpaToV1(full(), keys);
  assert.equal(v1.apiVersion, 'autoscaling/v1');
  assert.deepEqual(v1.spec, { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 2, maxReplicas: 10, targetCPUUtilizationPercentage: 60 });
  assert.deepEqual(v1.status, { observedGeneration: 3, lastScaleTime: '2026-01-01T00:00:00Z', currentReplicas: 3, desiredReplicas: 4, currentCPUUtilizationPercentage: 75 });
  const a = v1.metadata!.annotations!;
  assert.deepEqual(Object.keys(a), ['owner', 'autoscaling.alpha.orch.io/metrics', 'autoscaling.alpha.orch.io/current-metrics',
    'autoscaling.alpha.orch.io/behavior', 'autoscaling.alpha.orch.io/conditions']);
  // As Go's encoding/json writes upstream's v1 types: field order, non-pointer quantities always.
  assert.equal(a[keys.metrics], '[{"type":"Resource","resource":{"name":"memory","targetAverageValue":"512Mi"}},' +
    '{"type":"Pods","pods":{"metricName":"rps","targetAverageValue":"10","selector":{"matchLabels":{"verb":"GET"}}}},' +
    '{"type":"Object","object":{"target":{"kind":"Ingress","name":"main","apiVersion":"networking.orch.io/v1"},"metricName":"hits","targetValue":"2k"}},' +
    '{"type":"External","external":{"metricName":"queue","targetAverageValue":"30"}},' +
    '{"type":"ContainerResource","containerResource":{"name":"cpu","targetAverageUtilization":70,"container":"app"}}]');
  assert.equal(a[keys.currentMetrics], '[{"type":"Resource","resource":{"name":"memory","currentAverageValue":"400Mi"}},' +
    '{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":75,"currentAverageValue":"150m"}},{"type":""}]');
  // Upstream marshals its internal type, which has no JSON tags.
  assert.equal(a[keys.behavior], '{"ScaleUp":{"StabilizationWindowSeconds":0,"SelectPolicy":"Max","Policies":[{"Type":"Pods","Value":4,"PeriodSeconds":15}]},' +
    '"ScaleDown":{"StabilizationWindowSeconds":null,"SelectPolicy":"Min","Policies":[{"Type":"Percent","Value":50,"PeriodSeconds":60}]}}');
  assert.equal(a[keys.conditions], '[{"type":"AbleToScale","status":"True","lastTransitionTime":"2026-01-01T00:00:00Z","reason":"SucceededGetScale",' +
    '"message":"the HPA controller was able to get the target\'s current scale"}]');
});

test('v2 -> v1 -> v2 loses nothing and leaves no round-trip annotation behind', () => {
  const original = full();
  const back = hpaFromV1(hpaToV1(original, keys), keys);
  // The v1 CPU target comes back after the other metrics, as upstream orders them.
  const [memory, cpu, ...rest] = original.spec!.metrics!;
  assert.deepEqual(back, { ...original, spec: { ...original.spec!, metrics: [memory!, ...rest, cpu!] } });
  assert.deepEqual(back.metadata!.annotations, { owner: 'team-a' });
});

test('v1 alone: the CPU target becomes a Resource metric, 80% when none is set; minReplicas and status carried', () => {
  const v1: V1 = {
    metadata: { name: 'a' },
    spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 3, targetCPUUtilizationPercentage: 40 },
    status: { currentReplicas: 1, desiredReplicas: 2, currentCPUUtilizationPercentage: 33 },
  };
  const v2 = hpaFromV1(v1, keys);
  assert.deepEqual(v2.spec!.metrics, [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 40 } } }]);
  assert.deepEqual(v2.status, { currentReplicas: 1, desiredReplicas: 2, currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 33 } } }] });
  const none = hpaFromV1({ ...v1, spec: { ...v1.spec!, targetCPUUtilizationPercentage: undefined } }, keys);
  assert.deepEqual(none.spec!.metrics, [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }]);
  assert.equal(none.metadata!.annotations, undefined);
});

test('annotations that do not decode as Go would decode them are ignored, each on its own', () => {
  const v1: V1 = {
    metadata: {
      name: 'a', annotations: {
        [keys.metrics]: '[{"type":"Pods","pods":{"metricName":"rps","targetAverageValue":"ten"}}]',
        [keys.currentMetrics]: 'not json',
        [keys.conditions]: '[{"type":"AbleToScale","status":"True","lastTransitionTime":"yesterday"}]',
        // Go matches field names case-insensitively; upstream writes these in Go's own spelling.
        [keys.behavior]: '{"scaleup":{"policies":[{"type":"Pods","value":2,"periodSeconds":30}]}}',
        other: 'kept',
      },
    },
    spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 3, targetCPUUtilizationPercentage: 50 },
  };
  const v2 = hpaFromV1(v1, keys);
  assert.deepEqual(v2.spec!.metrics, [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }]);
  assert.deepEqual(v2.spec!.behavior, { scaleUp: { policies: [{ type: 'Pods', value: 2, periodSeconds: 30 }] } });
  assert.equal(v2.status!.currentMetrics, undefined);
  assert.equal(v2.status!.conditions, undefined);
  assert.deepEqual(v2.metadata!.annotations, { other: 'kept' });
  for (const bad of ['{"ScaleUp":null,"ScaleDown":null}', '{}', '[1]', '{"ScaleUp":{"StabilizationWindowSeconds":"60"}}']) {
    assert.equal(hpaFromV1({ ...v1, metadata: { name: 'a', annotations: { [keys.behavior]: bad } } }, keys).spec!.behavior, undefined, bad);
  }
});

test('v2 -> v1 drops round-trip annotations the stored object carries and writes only its own; keys follow the domain', () => {
  const stale = full();
  stale.metadata!.annotations = { [keys.metrics]: '[]', [keys.behavior]: '{}' };
  stale.spec!.metrics = [stale.spec!.metrics![1]!];
  delete stale.spec!.behavior;
  delete stale.status!.currentMetrics;
  delete stale.status!.conditions;
  assert.equal(hpaToV1(stale, keys).metadata!.annotations, undefined);
  const k8s = roundTripAnnotations(apiDomain('k8s.io'));
  assert.deepEqual(k8s, {
    metrics: 'autoscaling.alpha.kubernetes.io/metrics', currentMetrics: 'autoscaling.alpha.kubernetes.io/current-metrics',
    conditions: 'autoscaling.alpha.kubernetes.io/conditions', behavior: 'autoscaling.alpha.kubernetes.io/behavior',
  });
});
