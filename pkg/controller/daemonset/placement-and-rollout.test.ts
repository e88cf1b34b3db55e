// Where daemon pods belong, how a RollingUpdate proceeds and what the status counts, without a server.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultApiDomain } from '../../../api/domain.js';
import type { PodObject } from '../pod-conditions.js';
import { affinityForNode, nodeShouldRunDaemonPod, targetNodeName, withDaemonTolerations, type DaemonSetObject, type DaemonNode } from './placement.js';
import { daemonPodTemplate, isPodUpdated, newDaemonRevision, templateGeneration } from './revisions.js';
import { rollingUpdateStep, updateBudget } from './rolling-update.js';
import { statusCounts } from './status.js';

const d = defaultApiDomain;
const ds = (spec: Record<string, unknown> = {}, annotations: Record<string, string> = {}): DaemonSetObject => ({
  metadata: { name: 'agent', namespace: 'ns', uid: 'u1', annotations },
  spec: { selector: { matchLabels: { app: 'a' } }, template: { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'i' }], ...spec } } },
} as DaemonSetObject);
const node = (name: string, labels: Record<string, string> = {}, taints: { key: string; effect: 'NoSchedule' | 'NoExecute' | 'PreferNoSchedule' }[] = []): DaemonNode =>
  ({ metadata: { name, labels }, spec: { taints } });
const run = (n: DaemonNode, s: DaemonSetObject) => { const r = nodeShouldRunDaemonPod(n, s, d); return [r.shouldRun, r.shouldContinueRunning]; };

test('a node runs the daemon pod when nodeName, selector and affinity admit it and it tolerates the taints; NoSchedule keeps a running pod, NoExecute does not', () => {
  assert.deepEqual(run(node('n1'), ds()), [true, true]);
  assert.deepEqual(run(node('n1'), ds({ nodeName: 'n2' })), [false, false]);
  assert.deepEqual(run(node('n1', { role: 'infra' }), ds({ nodeSelector: { role: 'worker' } })), [false, false]);
  assert.deepEqual(run(node('n1', {}, [{ key: 'example.com/x', effect: 'NoSchedule' }]), ds()), [false, true]);
  assert.deepEqual(run(node('n1', {}, [{ key: 'example.com/x', effect: 'NoExecute' }]), ds()), [false, false]);
  assert.deepEqual(run(node('n1', {}, [{ key: 'example.com/x', effect: 'PreferNoSchedule' }]), ds()), [true, true]);
  // The daemon tolerations: trouble and cordoning do not keep a daemon pod away, a missing network only a hostNetwork one's.
  for (const key of ['node.orch.io/unschedulable', 'node.orch.io/memory-pressure', 'node.orch.io/disk-pressure', 'node.orch.io/pid-pressure']) {
    assert.deepEqual(run(node('n1', {}, [{ key, effect: 'NoSchedule' }]), ds()), [true, true], key);
  }
  assert.deepEqual(run(node('n1', {}, [{ key: 'node.orch.io/unreachable', effect: 'NoExecute' }]), ds()), [true, true]);
  assert.deepEqual(run(node('n1', {}, [{ key: 'node.orch.io/not-ready', effect: 'NoSchedule' }]), ds()), [false, true], 'a new node not yet Ready');
  assert.deepEqual(run(node('n1', {}, [{ key: 'node.orch.io/network-unavailable', effect: 'NoSchedule' }]), ds()), [false, true]);
  assert.deepEqual(run(node('n1', {}, [{ key: 'node.orch.io/network-unavailable', effect: 'NoSchedule' }]), ds({ hostNetwork: true })), [true, true]);
  // The pod's own toleration of the same kind is replaced: a daemon pod stays forever.
  const own = { key: 'node.orch.io/not-ready', operator: 'Exists' as const, effect: 'NoExecute' as const, tolerationSeconds: 5 };
  const merged = withDaemonTolerations({ tolerations: [own, { key: 'x', operator: 'Exists' }] }, d);
  assert.deepEqual(merged.slice(0, 2), [{ key: 'node.orch.io/not-ready', operator: 'Exists', effect: 'NoExecute' }, { key: 'x', operator: 'Exists' }]);
  assert.equal(merged.length, 7);
});

test('a daemon pod is tied to its node by a metadata.name term, which names its target until it is bound', () => {
  const kept = { podAntiAffinity: {}, nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [] } };
  const a = affinityForNode(kept as never, 'n7');
  assert.deepEqual(a.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution, { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n7'] }] }] });
  assert.ok(a.podAntiAffinity && a.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution, 'the rest of the affinity stays');
  const pod = { metadata: { name: 'p' }, spec: { containers: [], affinity: a } } as unknown as PodObject;
  assert.equal(targetNodeName(pod), 'n7');
  assert.equal(targetNodeName({ ...pod, spec: { ...pod.spec!, nodeName: 'bound' } }), 'bound');
  assert.equal(targetNodeName({ metadata: {}, spec: { containers: [] } } as unknown as PodObject), undefined);
});

test('revisions: the template generation and hash label the pods; either matching is up to date', () => {
  const s = ds({}, { 'deprecated.daemonset.template.generation': '3' });
  assert.equal(templateGeneration(s), 3);
  assert.equal(templateGeneration(ds({}, { 'deprecated.daemonset.template.generation': 'x' })), undefined);
  const rev = newDaemonRevision(s, 4);
  const hash = rev.metadata.labels!['controller-revision-hash']!;
  assert.equal(rev.metadata.name, `agent-${hash}`);
  assert.equal(rev.revision, 4);
  assert.equal(newDaemonRevision({ ...s, status: { collisionCount: 1 } } as DaemonSetObject, 4).metadata.name === rev.metadata.name, false, 'a collision count renames');
  const t = daemonPodTemplate(s, hash, d);
  assert.deepEqual(t.metadata?.labels, { app: 'a', 'pod-template-generation': '3', 'controller-revision-hash': hash });
  const pod = (labels: Record<string, string>) => ({ metadata: { labels } }) as unknown as PodObject;
  assert.ok(isPodUpdated(pod({ 'controller-revision-hash': hash }), hash, 3));
  assert.ok(isPodUpdated(pod({ 'pod-template-generation': '3' }), hash, 3));
  assert.ok(!isPodUpdated(pod({ 'controller-revision-hash': 'old', 'pod-template-generation': '2' }), hash, 3));
});

const NOW = Date.parse('2024-01-01T00:10:00Z');
const p = (name: string, node: string, o: { fresh?: boolean; ready?: boolean; deleting?: boolean; created?: string } = {}): PodObject => ({
  metadata: { name, creationTimestamp: o.created ?? '2024-01-01T00:00:00Z', labels: { 'controller-revision-hash': o.fresh ? 'new' : 'old' }, ...(o.deleting ? { deletionTimestamp: '2024-01-01T00:09:00Z' } : {}) },
  spec: { containers: [], nodeName: node },
  status: { phase: 'Running', conditions: o.ready ? [{ type: 'Ready', status: 'True', lastTransitionTime: '2024-01-01T00:00:00Z' }] : [] },
} as unknown as PodObject);
const step = (pods: PodObject[], maxSurge: number, maxUnavailable: number, extraNodes: string[] = []) => {
  const nodeToPods = new Map<string, PodObject[]>(extraNodes.map((n) => [n, []]));
  for (const x of pods) nodeToPods.set(x.spec!.nodeName!, [...(nodeToPods.get(x.spec!.nodeName!) ?? []), x]);
  return rollingUpdateStep({ nodeToPods, shouldRun: () => true, desired: nodeToPods.size, maxSurge, maxUnavailable, hash: 'new', generation: undefined, minReadySeconds: 0, now: NOW });
};

test('a rolling update without surge deletes available old pods only within maxUnavailable; unavailable old pods always go', () => {
  assert.deepEqual(updateBudget({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%' } }, 5), { maxSurge: 0, maxUnavailable: 2 });
  assert.deepEqual(updateBudget({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } }, 3), { maxSurge: 0, maxUnavailable: 1 });
  assert.deepEqual(updateBudget({ type: 'OnDelete' }, 3), { maxSurge: 0, maxUnavailable: 0 });
  const ready4 = ['a', 'b', 'c', 'd'].map((n) => p(`old-${n}`, n, { ready: true }));
  assert.deepEqual(step(ready4, 0, 2).deletePods, ['old-a', 'old-b']);
  // Two new pods not yet ready use up the budget.
  const midway = [p('new-a', 'a', { fresh: true }), p('new-b', 'b', { fresh: true }), p('old-c', 'c', { ready: true }), p('old-d', 'd', { ready: true })];
  assert.deepEqual(step(midway, 0, 2), { deletePods: [], createOn: [] });
  // One of them ready: one more old pod may go.
  midway[0] = p('new-a', 'a', { fresh: true, ready: true });
  assert.deepEqual(step(midway, 0, 2).deletePods, ['old-c']);
  // An old pod that is not available is replaced whatever the budget; a node without a pod counts as unavailable.
  assert.deepEqual(step([p('old-a', 'a'), p('old-b', 'b', { ready: true })], 0, 1, ['c']).deletePods, ['old-a']);
});

test('a rolling update with surge makes the new pod beside the available old one, up to maxSurge nodes, and deletes the old once the new is available', () => {
  const ready3 = ['a', 'b', 'c'].map((n) => p(`old-${n}`, n, { ready: true }));
  assert.deepEqual(step(ready3, 1, 0), { deletePods: [], createOn: ['a'] });
  const surging = [p('old-a', 'a', { ready: true }), p('new-a', 'a', { fresh: true }), p('old-b', 'b', { ready: true })];
  assert.deepEqual(step(surging, 1, 0), { deletePods: [], createOn: [] }, 'the surge is used up while the new pod is not available');
  surging[1] = p('new-a', 'a', { fresh: true, ready: true });
  assert.deepEqual(step(surging, 1, 0), { deletePods: ['old-a'], createOn: ['b'] });
  assert.deepEqual(step([p('old-a', 'a')], 1, 0).createOn, ['a'], 'an unavailable old pod gets its replacement at once');
});

test('status counts nodes: desired, scheduled, misscheduled, ready, available, updated (by the oldest pod of each node)', () => {
  const nodeToPods = new Map<string, PodObject[]>([
    ['a', [p('new-a', 'a', { fresh: true, ready: true, created: '2024-01-01T00:05:00Z' }), p('old-a', 'a', { ready: false })]],
    ['b', [p('new-b', 'b', { fresh: true, ready: true })]],
    ['x', [p('stray', 'x', { ready: true })]],
  ]);
  const c = statusCounts({ nodes: [{ name: 'a', shouldRun: true }, { name: 'b', shouldRun: true }, { name: 'c', shouldRun: true }, { name: 'x', shouldRun: false }], nodeToPods, hash: 'new', generation: undefined, minReadySeconds: 0, now: NOW });
  assert.deepEqual(c, { desiredNumberScheduled: 3, currentNumberScheduled: 2, numberMisscheduled: 1, numberReady: 1, updatedNumberScheduled: 1, numberAvailable: 1, numberUnavailable: 2 });
});
