// The node lifecycle, taint eviction, pod garbage collection and ttl controllers through the real
// API server and the real controller manager, with short periods: node agents are played by
// framework/fake-nodes.ts (Ready status and Lease renewals). A node whose agent goes silent turns
// Ready Unknown, gets upstream's unreachable taints and its pods lose Ready; its pods are evicted
// once their tolerationSeconds pass, with a DisruptionTarget condition, and the ones that tolerate
// longer stay; when the agent speaks again the taints go and pending evictions are cancelled.
// podgc deletes the pods of a deleted Node after its quarantine and the terminated pods beyond
// its threshold, oldest first; ttl annotates every node. `kubectl describe node` tells the story.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { defaultOptions } from '../../cmd/controller-manager/app/options.js';
import { isNotFound, type KubeObject } from '../../pkg/client/index.js';
import { ensureDefaultServiceAccount } from './framework/apiserver.js';
import { pollUntil } from './framework/authentication.js';
import { startNodeCluster, type NodeCluster } from './framework/controller-manager.js';
import type { FakeNode } from './framework/fake-nodes.js';

interface Condition { type: string; status: string; reason?: string; message?: string }
interface Pod extends KubeObject { spec?: Record<string, unknown>; status?: { phase?: string; conditions?: Condition[] } }
interface Event extends KubeObject { reason?: string; message?: string; type?: string; source?: { component?: string }; involvedObject?: { kind?: string; name?: string; namespace?: string } }

// Long enough that a busy machine's stall of a few seconds (the agents, the server and the
// controllers share this process) is not mistaken for a dead node.
const graceMs = 10_000;
const quarantineMs = 2_000;
const now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

describe('node lifecycle, taint eviction, podgc and ttl', () => {
  let cluster: NodeCluster;
  before(async () => {
    cluster = await startNodeCluster({
      controllers: ['nodelifecycle', 'taint-eviction-controller', 'podgc', 'ttl'],
      // At the default --node-eviction-rate (0.1) a second outage within 10 s would wait for its token.
      nodeLifecycle: { ...defaultOptions().nodeLifecycle, monitorPeriodMs: 250, monitorGracePeriodMs: graceMs, startupGracePeriodMs: 2 * graceMs, evictionRate: 10 },
      podGC: { terminatedPodThreshold: 3, checkPeriodMs: 300, quarantineMs },
    }, 250);
  });
  after(async () => cluster?.stop());

  const nodes = () => cluster.client.resource<FakeNode>('', 'v1', 'nodes');
  const pods = (ns: string) => cluster.client.resource<Pod>('', 'v1', 'pods').namespace(ns);
  const gone = async (ns: string, name: string) => {
    try {
      await pods(ns).get(name);
      return false;
    } catch (e) {
      if (isNotFound(e)) return true;
      throw e;
    }
  };
  const events = async (ns: string) => (await cluster.client.resource<Event>('', 'v1', 'events').namespace(ns).list()).items;
  const ready = (o: { status?: { conditions?: Condition[] } }) => o.status?.conditions?.find((c) => c.type === 'Ready');
  async function namespace(ns: string): Promise<void> {
    await cluster.client.resource('', 'v1', 'namespaces').create({ metadata: { name: ns } });
    await ensureDefaultServiceAccount(cluster.t.client, ns);
  }
  /** A pod bound to `node` and reported running and ready, as its agent would. */
  async function runningPod(ns: string, name: string, node: string, extra: Record<string, unknown> = {}): Promise<Pod> {
    const { finalizers, ...spec } = extra as { finalizers?: string[] };
    const p = await pods(ns).create({ metadata: { name, ...(finalizers ? { finalizers } : {}) }, spec: { nodeName: node, containers: [{ name: 'c', image: 'registry.example/app:1' }], ...spec } });
    return pods(ns).updateStatus({ ...p, status: { ...p.status, phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: now() } as Condition] } });
  }
  const untilNodeReady = (name: string) =>
    pollUntil(() => nodes().get(name), (n) => ready(n)?.status === 'True' && !(n.spec?.taints ?? []).length, `${name} Ready without taints`, 20_000);

  test('a node whose Lease stops renewing turns Unknown, is tainted, its pods evicted after their tolerationSeconds; it recovers when the Lease renews', async () => {
    const ns = 'lifecycle';
    await namespace(ns);
    await cluster.agents.register('alive');
    await cluster.agents.register('dying');
    // The not-ready taint every new node gets (TaintNodesByCondition) goes once the controller sees it Ready.
    await untilNodeReady('alive');
    await untilNodeReady('dying');

    const unreachable = 'node.orch.io/unreachable';
    // Evicted 2 s after the taint; held by a finalizer so the test can read why it went.
    await runningPod(ns, 'quick', 'dying', { finalizers: ['example.com/hold'], tolerations: [{ key: unreachable, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 2 }] });
    // DefaultTolerationSeconds gives it 300 s; and one that tolerates the taint forever.
    await runningPod(ns, 'patient', 'dying');
    await runningPod(ns, 'forever', 'dying', { tolerations: [{ key: unreachable, operator: 'Exists', effect: 'NoExecute' }] });
    await runningPod(ns, 'elsewhere', 'alive');

    cluster.agents.silence('dying');
    const silencedAt = Date.now();
    const unknown = await pollUntil(() => nodes().get('dying'), (n) => ready(n)?.status === 'Unknown', 'the silent node to turn Unknown', 30_000);
    assert.ok(Date.now() - silencedAt >= graceMs - 300, 'not before its grace period');
    assert.deepEqual({ ...ready(unknown), lastHeartbeatTime: undefined, lastTransitionTime: undefined },
      { type: 'Ready', status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', lastHeartbeatTime: undefined, lastTransitionTime: undefined });
    for (const type of ['MemoryPressure', 'DiskPressure', 'PIDPressure']) {
      assert.equal(unknown.status?.conditions?.find((c) => c.type === type)?.status, 'Unknown', type);
    }
    const tainted = await pollUntil(() => nodes().get('dying'), (n) => (n.spec?.taints ?? []).length === 2, 'both unreachable taints', 20_000);
    assert.deepEqual(tainted.spec!.taints!.map((x) => `${x.key}:${x.effect}`).sort(), [`${unreachable}:NoExecute`, `${unreachable}:NoSchedule`]);
    assert.ok(tainted.spec!.taints!.every((x) => x.timeAdded), 'stamped with when they were added');
    const describe = (await cluster.kubectl.ok(['describe', 'node', 'dying'])).stdout;
    assert.match(describe, /Taints:\s+node\.orch\.io\/unreachable:NoExecute\n\s+node\.orch\.io\/unreachable:NoSchedule/);
    assert.match(describe, /Ready\s+Unknown\s.*NodeStatusUnknown\s+Kubelet stopped posting node status\./);
    assert.match(describe, /NodeNotReady\s+\S+\s+node-controller\s+Node dying status is now: NodeNotReady/);
    assert.match(describe, /RegisteredNode\s+\S+\s+node-controller\s+Node dying event: Registered Node dying in Controller/);
    assert.equal(ready((await nodes().get('alive')))?.status, 'True', 'the other node is untouched');

    // Its pods are not Ready any more; the other node's are.
    for (const name of ['patient', 'forever']) {
      await pollUntil(() => pods(ns).get(name), (p) => ready(p)?.status === 'False', `${name} marked not ready`, 10_000);
    }
    assert.equal(ready(await pods(ns).get('elsewhere'))?.status, 'True');

    // The pod tolerating 2 s goes after them, with a DisruptionTarget condition saying why.
    const evicted = await pollUntil(() => pods(ns).get('quick'), (p) => !!p.metadata.deletionTimestamp, 'the quick pod to be evicted', 20_000);
    const taintedAt = Date.parse(tainted.spec!.taints!.find((x) => x.effect === 'NoExecute')!.timeAdded!);
    assert.ok(Date.parse(evicted.metadata.deletionTimestamp!) - taintedAt >= 1000, 'not before its tolerationSeconds');
    const target = evicted.status?.conditions?.find((c) => c.type === 'DisruptionTarget');
    assert.deepEqual([target?.status, target?.reason, target?.message], ['True', 'DeletionByTaintManager', 'Taint manager: deleting due to NoExecute taint']);
    await pods(ns).patch('quick', 'merge', { metadata: { finalizers: null } });
    await pollUntil(() => gone(ns, 'quick'), (g) => g, 'the quick pod to go', 10_000);
    assert.ok(!(await gone(ns, 'patient')) && !(await gone(ns, 'forever')) && !(await gone(ns, 'elsewhere')), 'the others stay');

    const evs = await events(ns);
    const said = (reason: string, message: string) => evs.some((e) => e.reason === reason && e.message === message);
    assert.ok(said('TaintManagerEviction', `Marking for deletion Pod ${ns}/quick`), JSON.stringify(evs.map((e) => [e.reason, e.message])));
    assert.ok(evs.some((e) => e.reason === 'NodeNotReady' && e.involvedObject?.name === 'patient' && e.message === 'Node is not ready' && e.type === 'Warning'));

    // The agent comes back: Ready again, the taints go, the pending eviction is cancelled.
    cluster.agents.resume('dying');
    await untilNodeReady('dying');
    await pollUntil(() => events(ns), (e) => e.some((x) => x.reason === 'TaintManagerEviction' && x.message === `Cancelling deletion of Pod ${ns}/patient`), 'the pending eviction cancelled', 10_000);
    assert.ok(!(await gone(ns, 'patient')), 'the patient pod survived the outage');
  });

  test('podgc deletes the pods of a deleted Node after its quarantine, marking them Failed with DisruptionTarget, and unscheduled terminating pods', async () => {
    const ns = 'orphans';
    await namespace(ns);
    await cluster.agents.register('doomed');
    await untilNodeReady('doomed');
    await runningPod(ns, 'orphan', 'doomed', { finalizers: ['example.com/hold'] });
    cluster.agents.silence('doomed');
    await nodes().delete('doomed');
    const deletedAt = Date.now();
    const orphan = await pollUntil(() => pods(ns).get('orphan'), (p) => !!p.metadata.deletionTimestamp, 'the orphan to be deleted', 20_000);
    assert.ok(Date.now() - deletedAt >= quarantineMs - 300, 'not before the quarantine');
    assert.equal(orphan.status?.phase, 'Failed', 'its agent is gone: podgc marks it Failed');
    const target = orphan.status?.conditions?.find((c) => c.type === 'DisruptionTarget');
    assert.deepEqual([target?.status, target?.reason, target?.message], ['True', 'DeletionByPodGC', 'PodGC: node no longer exists']);
    await pods(ns).patch('orphan', 'merge', { metadata: { finalizers: null } });
    await pollUntil(() => gone(ns, 'orphan'), (g) => g, 'the orphan to go', 10_000);

    // A pod never bound to a node that is being deleted is finished by podgc.
    const p = await pods(ns).create({ metadata: { name: 'unbound', finalizers: ['example.com/hold'] }, spec: { containers: [{ name: 'c', image: 'registry.example/app:1' }] } });
    assert.equal(p.status?.phase, 'Pending');
    await pods(ns).delete('unbound');
    await pollUntil(() => pods(ns).get('unbound'), (x) => x.status?.phase === 'Failed', 'the unbound terminating pod to be marked Failed', 10_000);
    await pods(ns).patch('unbound', 'merge', { metadata: { finalizers: null } });
    await pollUntil(() => gone(ns, 'unbound'), (g) => g, 'the unbound pod to go', 10_000);
  });

  test('podgc keeps --terminated-pod-gc-threshold terminated pods and deletes the oldest beyond it', async () => {
    const ns = 'terminated';
    await namespace(ns);
    await cluster.agents.register('worker');
    // The oldest pod of all, but running: never collected.
    await runningPod(ns, 'running', 'worker');
    for (const [i, phase] of [[1, 'Succeeded'], [2, 'Failed'], [3, 'Succeeded'], [4, 'Succeeded'], [5, 'Failed']] as const) {
      const p = await runningPod(ns, `done-${i}`, 'worker');
      await pods(ns).updateStatus({ ...p, status: { ...p.status, phase } });
    }
    const left = await pollUntil(async () => (await pods(ns).list()).items.map((p) => p.metadata.name).sort(), (names) => names.length === 4, 'three terminated pods left', 20_000);
    assert.deepEqual(left, ['done-3', 'done-4', 'done-5', 'running'], 'the oldest terminated pods go first, the running one stays');
  });

  test('ttl annotates every node with the TTL for the cluster\'s size', async () => {
    const annotated = await pollUntil(async () => (await nodes().list()).items, (items) => items.length > 0 && items.every((n) => n.metadata.annotations?.['node.alpha.orch.io/ttl'] === '0'), 'every node annotated', 20_000);
    assert.ok(annotated.length >= 3);
  });
});
