import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isPodAvailable, rankPodsForDeletion, type PodObject } from './pod-ranking.js';

const pod = (name: string, o: { node?: string; phase?: string; ready?: string; created?: string; cost?: string } = {}): PodObject => ({
  metadata: { name, creationTimestamp: o.created ?? '2024-01-01T00:00:00Z', ...(o.cost ? { annotations: { 'controller.orch.io/pod-deletion-cost': o.cost } } : {}) },
  spec: { containers: [{ name: 'c' }], ...(o.node ? { nodeName: o.node } : {}) },
  status: { phase: (o.phase ?? 'Running') as 'Running', conditions: o.ready ? [{ type: 'Ready', status: 'True', lastTransitionTime: o.ready }] : [] },
} as PodObject);

test('surplus pods go unscheduled first, then pending, not ready, cheaper, newer', () => {
  const names = (ps: PodObject[]) => rankPodsForDeletion(ps, 'controller.orch.io/pod-deletion-cost').map((p) => p.metadata.name);
  assert.deepEqual(names([pod('scheduled', { node: 'n' }), pod('unscheduled')]), ['unscheduled', 'scheduled']);
  assert.deepEqual(names([pod('running', { node: 'n' }), pod('pending', { node: 'n', phase: 'Pending' })]), ['pending', 'running']);
  assert.deepEqual(names([pod('ready', { node: 'n', ready: '2024-01-01T00:00:00Z' }), pod('unready', { node: 'n' })]), ['unready', 'ready']);
  assert.deepEqual(names([pod('dear', { node: 'n', cost: '10' }), pod('cheap', { node: 'n', cost: '-1' })]), ['cheap', 'dear']);
  assert.deepEqual(names([pod('old', { node: 'a' }), pod('new', { node: 'b', created: '2024-02-01T00:00:00Z' })]), ['new', 'old']);
  assert.deepEqual(names([pod('alone', { node: 'a' }), pod('double1', { node: 'b' }), pod('double2', { node: 'b' })]).at(-1), 'alone');
});

test('a pod is available once ready for minReadySeconds', () => {
  const p = pod('p', { ready: '2024-01-01T00:00:00Z' });
  const t0 = Date.parse('2024-01-01T00:00:00Z');
  assert.equal(isPodAvailable(p, 0, t0), true);
  assert.equal(isPodAvailable(p, 10, t0 + 5_000), false);
  assert.equal(isPodAvailable(p, 10, t0 + 10_000), true);
  assert.equal(isPodAvailable(pod('q'), 0, t0), false);
});
