import { test } from 'node:test';
import assert from 'node:assert/strict';
import { podMetricsFrom } from './metrics-client.js';

const item = (name: string, containers: { name: string; usage: Record<string, string> }[]) =>
  ({ metadata: { name, namespace: 'ns' }, timestamp: '2026-01-01T00:00:00Z', window: '30s', containers });

test('a PodMetrics list gives each pod\'s use summed over its containers, in milli-units', () => {
  const m = podMetricsFrom([
    item('a', [{ name: 'app', usage: { cpu: '250m', memory: '64Mi' } }, { name: 'sidecar', usage: { cpu: '10m', memory: '1Mi' } }]),
    item('b', [{ name: 'app', usage: { cpu: '1', memory: '32Mi' } }, { name: 'sidecar', usage: { memory: '1Mi' } }]),
    item('c', []),
  ], 'cpu', '');
  assert.deepEqual([...m.entries()], [['a', { timestampMs: Date.parse('2026-01-01T00:00:00Z'), windowMs: 30_000, value: 260 }]],
    'a pod missing the resource in a container, or without containers, has no sample');
  assert.equal(podMetricsFrom([item('a', [{ name: 'app', usage: { memory: '1Ki' } }])], 'memory', '').get('a')!.value, 1024_000);
});

test('one container\'s use; a pod without that container is an error', () => {
  const m = podMetricsFrom([item('a', [{ name: 'app', usage: { cpu: '250m' } }, { name: 'sidecar', usage: { cpu: '10m' } }])], 'cpu', 'sidecar');
  assert.equal(m.get('a')!.value, 10);
  assert.throws(() => podMetricsFrom([item('a', [{ name: 'app', usage: { cpu: '1' } }])], 'cpu', 'sidecar'), { message: 'container sidecar not present in metrics for pod ns/a' });
});
