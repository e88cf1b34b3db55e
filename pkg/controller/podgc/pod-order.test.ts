import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PodObject } from '../pod-conditions.js';
import { gcOrder, isPodTerminated } from './pod-order.js';

const pod = (name: string, phase: string | undefined, created: string, reason?: string) =>
  ({ metadata: { name, creationTimestamp: created }, status: { ...(phase ? { phase } : {}), ...(reason ? { reason } : {}) } }) as unknown as PodObject;

test('terminated pods go evicted first, then oldest, then by name; an empty phase counts as terminated', () => {
  assert.deepEqual(['Pending', 'Running', 'Unknown', 'Succeeded', 'Failed', undefined].map((ph) => isPodTerminated(pod('p', ph, 'x'))), [false, false, false, true, true, true]);
  const pods = [pod('young', 'Succeeded', '2024-01-02T00:00:00Z'), pod('b', 'Failed', '2024-01-01T00:00:00Z'), pod('a', 'Failed', '2024-01-01T00:00:00Z'),
    pod('evicted', 'Failed', '2024-01-03T00:00:00Z', 'Evicted')];
  assert.deepEqual(pods.sort(gcOrder).map((p) => p.metadata.name), ['evicted', 'a', 'b', 'young']);
});
