// The pure rules of the job controller: index sets as status writes them, what a failed pod
// means under a pod failure policy, the pod failure backoff, and which pods go first.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultApiDomain } from '../../../api/domain.js';
import { batchKeys } from '../../../api/batch/v1/well-known.js';
import type { Job } from '../../../api/batch/v1/job.js';
import type { PodObject } from '../replicaset/pod-ranking.js';
import { BackoffStore, finishedTime, remainingBackoff } from './backoff.js';
import { IndexSet } from './indexes.js';
import { activePodsForRemoval, indexedGenerateName, isPodFailed } from './job-pods.js';
import { matchPodFailurePolicy } from './pod-failure-policy.js';

const keys = batchKeys(defaultApiDomain);
const t0 = Date.parse('2024-01-01T00:00:00Z');
const at = (s: number) => new Date(t0 + s * 1000).toISOString().replace(/\.\d+Z$/, 'Z');

function pod(name: string, o: { phase?: string; index?: number; ready?: boolean; nodeName?: string; created?: number; deleted?: boolean;
  exits?: Record<string, number>; initExits?: Record<string, number>; conditions?: { type: string; status: string }[]; finishedAt?: number } = {}): PodObject {
  const term = (exits: Record<string, number>) => Object.entries(exits).map(([n, exitCode]) => ({
    name: n, image: 'i', ready: false, restartCount: 0, state: { terminated: { exitCode, ...(o.finishedAt !== undefined ? { finishedAt: at(o.finishedAt) } : {}) } },
  }));
  return {
    metadata: {
      name, namespace: 'ns', uid: `uid-${name}`, creationTimestamp: at(o.created ?? 0),
      ...(o.index !== undefined ? { annotations: { [keys.completionIndex]: String(o.index) } } : {}),
      ...(o.deleted ? { deletionTimestamp: at(100) } : {}),
    },
    spec: { containers: [{ name: 'main', image: 'i' }], ...(o.nodeName ? { nodeName: o.nodeName } : {}) },
    status: {
      phase: (o.phase ?? 'Running') as 'Running',
      conditions: [...(o.conditions ?? []), ...(o.ready ? [{ type: 'Ready', status: 'True' }] : [])] as never,
      ...(o.exits ? { containerStatuses: term(o.exits) } : {}),
      ...(o.initExits ? { initContainerStatuses: term(o.initExits) } : {}),
    },
  } as PodObject;
}

test('index sets parse, merge and print as upstream writes completedIndexes', () => {
  const s = IndexSet.parse('0,2-4,7,x,9-11', 10);
  assert.equal(s.toString(), '0,2-4,7,9');
  assert.equal(s.total(), 6);
  assert.ok(s.has(3) && !s.has(5) && s.has(9));
  assert.equal(s.with([1, 5, 6, 8]).toString(), '0-9');
  assert.equal(IndexSet.empty().with([3, 4]).toString(), '3,4', 'a range of two is written with a comma');
  assert.equal(IndexSet.empty().with([5, 1, 3]).merge(IndexSet.parse('2', 10)).toString(), '1-3,5');
  assert.equal(IndexSet.parse('12', 10).toString(), '', 'indexes past completions are dropped');
  assert.deepEqual(IndexSet.parse('1,3-4', 10).firstMissing(4, 10), [0, 2, 5, 6]);
  assert.deepEqual(IndexSet.parse('0-2', 3).firstMissing(2, 3), []);
});

test('a pod failure policy: first matching rule decides, exit code 0 and running containers never match', () => {
  const policy = { rules: [
    { action: 'FailJob' as const, onExitCodes: { containerName: 'main', operator: 'In' as const, values: [42] } },
    { action: 'Ignore' as const, onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
    { action: 'Count' as const, onExitCodes: { operator: 'NotIn' as const, values: [1, 2] } },
    { action: 'FailIndex' as const, onExitCodes: { operator: 'In' as const, values: [7] } },
  ] };
  assert.deepEqual(matchPodFailurePolicy(policy, pod('p', { phase: 'Failed', exits: { main: 42 } })), {
    failJobMessage: 'Container main for pod ns/p failed with exit code 42 matching FailJob rule at index 0', countFailed: true, action: 'FailJob',
  });
  assert.deepEqual(matchPodFailurePolicy(policy, pod('p', { phase: 'Failed', exits: { side: 42 } })), { countFailed: true, action: 'Count' }, 'another container: NotIn [1,2] counts it');
  assert.deepEqual(matchPodFailurePolicy(policy, pod('p', { phase: 'Failed', exits: { main: 137 }, conditions: [{ type: 'DisruptionTarget', status: 'True' }] })),
    { countFailed: false, action: 'Ignore' });
  assert.deepEqual(matchPodFailurePolicy(policy, pod('p', { phase: 'Failed', exits: { main: 1 } })), { countFailed: true });
  assert.deepEqual(matchPodFailurePolicy(policy, pod('p', { phase: 'Failed', exits: { main: 0 }, initExits: { init: 7 } })), { countFailed: true, action: 'Count' },
    'init containers are matched too (after the regular ones), and NotIn matched 7 first');
  assert.deepEqual(matchPodFailurePolicy({ rules: [{ action: 'FailJob', onPodConditions: [{ type: 'ConfigIssue', status: 'True' }] }] },
    pod('q', { phase: 'Failed', conditions: [{ type: 'ConfigIssue', status: 'True' }] })),
  { failJobMessage: 'Pod ns/q has condition ConfigIssue matching FailJob rule at index 0', countFailed: true, action: 'FailJob' });
  assert.deepEqual(matchPodFailurePolicy(undefined, pod('p', { phase: 'Failed' })), { countFailed: true });
});

test('the pod failure backoff doubles from 10 s to 10 min after the last failure, and a success resets it', () => {
  assert.equal(remainingBackoff(t0, 0, undefined), 0);
  assert.equal(remainingBackoff(t0 + 4_000, 1, t0), 6_000);
  assert.equal(remainingBackoff(t0 + 4_000, 3, t0), 36_000);
  assert.equal(remainingBackoff(t0, 20, t0), 600_000);
  assert.equal(remainingBackoff(t0 + 11_000, 1, t0), 0);
  const store = new BackoffStore();
  const failed = (n: string, s: number) => pod(n, { phase: 'Failed', exits: { main: 1 }, finishedAt: s });
  const r1 = store.next('ns/j', [], [failed('a', 5), failed('b', 3)]);
  assert.deepEqual(r1, { key: 'ns/j', failuresAfterLastSuccess: 2, lastFailureTime: t0 + 5_000 });
  store.update(r1);
  assert.deepEqual(store.next('ns/j', [pod('ok', { phase: 'Succeeded', exits: { main: 0 }, finishedAt: 8 })], [failed('c', 9), failed('d', 7)]),
    { key: 'ns/j', failuresAfterLastSuccess: 1, lastFailureTime: t0 + 9_000 }, 'only failures after the last success count');
  assert.equal(finishedTime(pod('x', { created: 2 })), t0 + 2_000, 'without anything better, the creation');
});

test('pods count as failed when Failed, or deleted unless only failed pods are replaced; surplus pods go not-ready and repeated indexes first', () => {
  const job: Job = { spec: { template: {} } } as Job;
  assert.ok(isPodFailed(pod('a', { phase: 'Failed' }), job));
  assert.ok(isPodFailed(pod('a', { deleted: true }), job));
  assert.ok(!isPodFailed(pod('a', { deleted: true }), { spec: { ...job.spec!, podReplacementPolicy: 'Failed' } } as Job));
  assert.ok(!isPodFailed(pod('a', { phase: 'Succeeded', deleted: true }), job));

  const running = [pod('ready', { ready: true, nodeName: 'n' }), pod('pending', { phase: 'Pending' }), pod('scheduled', { nodeName: 'n' })];
  assert.deepEqual(activePodsForRemoval(job, running, 2, keys).map((p) => p.metadata.name), ['pending', 'scheduled']);
  const indexed = { spec: { completionMode: 'Indexed', completions: 3, template: {} } } as Job;
  const pods = [pod('i0', { index: 0 }), pod('i1a', { index: 1, ready: true }), pod('i1b', { index: 1 }), pod('none'), pod('i5', { index: 5 })];
  assert.deepEqual(activePodsForRemoval(indexed, pods, 0, keys).map((p) => p.metadata.name).sort(), ['i1b', 'i5', 'none']);
  assert.equal(indexedGenerateName('pi', 3), 'pi-3-');
  assert.equal(indexedGenerateName('x'.repeat(60), 12), `${'x'.repeat(54)}-12-`);
});
