// The daemonset controller through the real API server and the real controller manager (with the
// node lifecycle controller, which lifts a new node's not-ready taint once it reports Ready, as
// upstream's does). Node agents and the scheduler are played by framework/fake-nodes.ts: they
// register Ready nodes and renew their Leases, and bind each daemon pod to the node its node
// affinity names; the test reports pods Ready as a node agent would. A DaemonSet follows Nodes as
// they come, go, change labels and taints; a new template rolls out within maxUnavailable (or
// maxSurge), or only as pods are deleted (OnDelete); failed pods are replaced; and `kubectl
// describe ds`, `rollout status` and `rollout history` read upstream's story.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { defaultOptions } from '../../cmd/controller-manager/app/options.js';
import { isNotFound, type KubeObject } from '../../pkg/client/index.js';
import { ensureDefaultServiceAccount } from './framework/apiserver.js';
import { pollUntil } from './framework/authentication.js';
import { startNodeCluster, type NodeCluster } from './framework/controller-manager.js';
import type { FakeNode } from './framework/fake-nodes.js';

interface DSStatus {
  desiredNumberScheduled: number; currentNumberScheduled: number; numberMisscheduled: number; numberReady: number;
  updatedNumberScheduled?: number; numberAvailable?: number; numberUnavailable?: number; observedGeneration?: number;
}
interface DS extends KubeObject { spec: Record<string, unknown>; status?: DSStatus }
interface Toleration { key?: string; operator?: string; effect?: string; tolerationSeconds?: number }
interface Pod extends KubeObject {
  spec?: {
    nodeName?: string; tolerations?: Toleration[]; containers: { image: string }[];
    affinity?: { nodeAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms: unknown[] } } };
  };
  status?: { phase?: string; conditions?: { type: string; status: string }[] };
}
interface Event extends KubeObject { reason?: string; message?: string; type?: string; source?: { component?: string }; involvedObject?: { kind?: string; name?: string } }

const now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

describe('daemonset controller', () => {
  let cluster: NodeCluster;
  before(async () => {
    cluster = await startNodeCluster({
      controllers: ['daemonset', 'nodelifecycle', 'garbagecollector'],
      nodeLifecycle: { ...defaultOptions().nodeLifecycle, monitorPeriodMs: 300 },
    });
  });
  after(async () => cluster?.stop());

  const sets = (ns: string) => cluster.client.resource<DS>('apps', 'v1', 'daemonsets').namespace(ns);
  const pods = (ns: string) => cluster.client.resource<Pod>('', 'v1', 'pods').namespace(ns);
  const nodes = () => cluster.client.resource<FakeNode>('', 'v1', 'nodes');
  const live = async (ns: string) => (await pods(ns).list()).items.filter((p) => !p.metadata.deletionTimestamp);
  const targetOf = (p: Pod) => JSON.stringify(p.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? []).match(/"values":\["([^"]+)"\]/)?.[1];
  /** The live pods by the node each is for, as "node=pod-count". */
  const placement = async (ns: string) => (await live(ns)).map(targetOf).sort();
  const untilPlacement = (ns: string, want: string[], what: string) =>
    pollUntil(() => placement(ns), (p) => JSON.stringify(p) === JSON.stringify([...want].sort()), what, 20_000);
  const untilStatus = async (ns: string, name: string, check: (s: DSStatus) => boolean, what: string): Promise<DSStatus> =>
    (await pollUntil(async () => (await sets(ns).get(name)).status, (s) => !!s && check(s), what, 20_000))!;
  /** What the node agent reports of a started container. */
  async function setReady(ns: string, name: string): Promise<void> {
    const p = await pods(ns).get(name);
    await pods(ns).updateStatus({ ...p, status: { ...p.status, phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: now() } as { type: string; status: string }] } });
  }
  /** Binds the unbound pods (the scheduler) and reports them all Ready (their node agents). */
  async function runAll(ns: string): Promise<void> {
    await cluster.agents.bindPods(ns);
    for (const p of await live(ns)) if (!p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')) await setReady(ns, p.metadata.name!);
  }
  /** A new image (and strategy), as `kubectl set image` would patch it. */
  const setImage = (ns: string, name: string, image: string, updateStrategy?: Record<string, unknown>) =>
    sets(ns).patch(name, 'strategic', { spec: { ...(updateStrategy ? { updateStrategy } : {}), template: { spec: { containers: [{ name: 'agent', image }] } } } });
  async function namespace(ns: string): Promise<void> {
    await cluster.client.resource('', 'v1', 'namespaces').create({ metadata: { name: ns } });
    await ensureDefaultServiceAccount(cluster.t.client, ns);
  }
  const daemonSet = (name: string, nodeSelector: Record<string, string>, strategy: Record<string, unknown> = {}): DS => ({
    metadata: { name },
    spec: {
      selector: { matchLabels: { app: name } },
      updateStrategy: strategy,
      template: { metadata: { labels: { app: name } }, spec: { nodeSelector, containers: [{ name: 'agent', image: 'registry.example/agent:1' }] } },
    },
  });
  const events = async (ns: string, name: string) => (await cluster.client.resource<Event>('', 'v1', 'events').namespace(ns).list()).items
    .filter((e) => e.involvedObject?.kind === 'DaemonSet' && e.involvedObject.name === name);
  /** Waits for a node to be Ready in the node lifecycle controller's eyes: its not-ready taint lifted. */
  const untilSchedulable = (name: string) =>
    pollUntil(() => nodes().get(name), (n) => !(n.spec?.taints ?? []).some((x) => x.key === 'node.orch.io/not-ready'), `${name} to lose its not-ready taint`, 20_000);

  test('a DaemonSet follows Nodes: one pod per eligible node, tied to it by node affinity; nodes coming, relabelled, tainted and going', async () => {
    const ns = 'ds-follow';
    await namespace(ns);
    for (const [name, role] of [['w1', 'worker'], ['w2', 'worker'], ['i1', 'infra']] as const) await cluster.agents.register(name, { role });
    // A new node carries the not-ready taint until the node lifecycle controller sees it Ready: no daemon pod goes there before.
    for (const n of ['w1', 'w2', 'i1']) await untilSchedulable(n);

    const created = await sets(ns).create(daemonSet('agent', { role: 'worker' }));
    assert.equal(created.metadata.annotations?.['deprecated.daemonset.template.generation'], '1', 'the server counts template generations');
    await untilPlacement(ns, ['w1', 'w2'], 'a pod on each worker');
    let s = await untilStatus(ns, 'agent', (x) => x.desiredNumberScheduled === 2 && x.currentNumberScheduled === 2 && x.observedGeneration === 1, 'the status to count two nodes');
    assert.deepEqual([s.numberReady, s.numberMisscheduled, s.updatedNumberScheduled, s.numberAvailable ?? 0, s.numberUnavailable], [0, 0, 2, 0, 2]);

    const pod = (await live(ns))[0]!;
    assert.equal(pod.spec?.nodeName, undefined, 'the scheduler binds daemon pods, as upstream: the controller only sets the affinity');
    assert.deepEqual(pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms,
      [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [targetOf(pod)] }] }]);
    assert.deepEqual(pod.metadata.ownerReferences?.map((r) => [r.kind, r.name, r.uid, r.controller]), [['DaemonSet', 'agent', created.metadata.uid, true]]);
    assert.equal(pod.metadata.labels?.['pod-template-generation'], '1');
    const revisions = (await cluster.client.resource('apps', 'v1', 'controllerrevisions').namespace(ns).list()).items;
    assert.equal(revisions.length, 1);
    assert.equal(pod.metadata.labels?.['controller-revision-hash'], revisions[0]!.metadata.labels?.['controller-revision-hash']);
    assert.equal(revisions[0]!.metadata.name, `agent-${pod.metadata.labels?.['controller-revision-hash']}`);
    // Every daemon pod tolerates node trouble (forever, for the NoExecute ones) and cordoning; the
    // network-unavailable toleration is only for hostNetwork pods.
    const tolerations = (pod.spec?.tolerations ?? []).map((x) => `${x.key}:${x.operator}:${x.effect}:${x.tolerationSeconds ?? '-'}`).sort();
    assert.deepEqual(tolerations, ['disk-pressure:Exists:NoSchedule', 'memory-pressure:Exists:NoSchedule', 'not-ready:Exists:NoExecute', 'pid-pressure:Exists:NoSchedule',
      'unreachable:Exists:NoExecute', 'unschedulable:Exists:NoSchedule'].map((x) => `node.orch.io/${x}:-`).sort());

    await runAll(ns);
    s = await untilStatus(ns, 'agent', (x) => x.numberReady === 2 && x.numberAvailable === 2, 'two ready pods');
    assert.equal(s.numberUnavailable ?? 0, 0);
    for (const p of await live(ns)) assert.equal(p.spec?.nodeName, targetOf(p), 'bound where its affinity said');

    // A new node with the label: a pod for it.
    await cluster.agents.register('w3', { role: 'worker' });
    await untilPlacement(ns, ['w1', 'w2', 'w3'], 'a pod for the new node');
    await untilStatus(ns, 'agent', (x) => x.desiredNumberScheduled === 3, 'three desired');
    // Relabelled out: its pod goes.
    await nodes().patch('w1', 'merge', { metadata: { labels: { role: 'infra' } } });
    await untilPlacement(ns, ['w2', 'w3'], 'the pod of the relabelled node to go');
    // A NoSchedule taint keeps new pods off but lets a running one stay, counted as misscheduled;
    // a NoExecute one it does not tolerate takes it away.
    await nodes().patch('w2', 'merge', { spec: { taints: [{ key: 'example.com/maintenance', effect: 'NoSchedule' }] } });
    s = await untilStatus(ns, 'agent', (x) => x.desiredNumberScheduled === 1 && x.numberMisscheduled === 1, 'the tainted node to stop counting as desired');
    assert.deepEqual(await placement(ns), ['w2', 'w3'], 'a NoSchedule taint does not evict');
    await nodes().patch('w2', 'merge', { spec: { taints: [{ key: 'example.com/maintenance', effect: 'NoExecute' }] } });
    await untilPlacement(ns, ['w3'], 'the pod of the NoExecute-tainted node to go');
    // A node that goes takes its unscheduled pod with it.
    const w3pod = (await live(ns))[0]!;
    await pods(ns).updateStatus({ ...w3pod, status: { phase: 'Pending' } });
    cluster.agents.silence('w3');
    await nodes().delete('w3');
    await untilPlacement(ns, [], 'the pod of the deleted node to go');

    const reasons = (await events(ns, 'agent')).map((e) => `${e.type} ${e.reason} ${e.source?.component}`);
    assert.ok(reasons.includes('Normal SuccessfulCreate daemonset-controller'), reasons.join('\n'));
    assert.ok(reasons.includes('Normal SuccessfulDelete daemonset-controller'), reasons.join('\n'));
    assert.ok((await events(ns, 'agent')).every((e) => /^(Created|Deleted) pod: agent-[a-z0-9]{5}$/.test(e.message ?? '')), 'upstream\'s messages');
    const describe = (await cluster.kubectl.ok(['describe', 'ds', 'agent', '-n', ns])).stdout;
    assert.match(describe, /Desired Number of Nodes Scheduled: 0/);
    assert.match(describe, /Number of Nodes Misscheduled: 0/);
    assert.match(describe, /SuccessfulCreate +\S+ +daemonset-controller +Created pod: agent-/);
    assert.match(describe, /SuccessfulDelete +\S+ +daemonset-controller +Deleted pod: agent-/);
  });

  test('RollingUpdate replaces pods node by node within maxUnavailable as they become Ready; kubectl rollout status and history follow', async () => {
    const ns = 'ds-roll';
    await namespace(ns);
    const pool = ['r1', 'r2', 'r3', 'r4'];
    for (const n of pool) await cluster.agents.register(n, { pool: 'roll' });
    for (const n of pool) await untilSchedulable(n);
    await sets(ns).create(daemonSet('web', { pool: 'roll' }, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2 } }));
    await untilPlacement(ns, pool, 'a pod per node');
    await runAll(ns);
    await untilStatus(ns, 'web', (x) => x.numberAvailable === 4, 'four available');

    await setImage(ns, 'web', 'registry.example/agent:2');
    const rollout = cluster.kubectl.run(['rollout', 'status', 'ds/web', '-n', ns, '--timeout', '60s']);
    const isNew = (p: Pod) => p.spec?.containers[0]?.image === 'registry.example/agent:2';
    const isReady = (p: Pod) => !!p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
    let worst = 0;
    /** Every look at the pods: how many nodes lack a ready pod (never more than maxUnavailable). */
    const look = async () => {
      const l = await live(ns);
      worst = Math.max(worst, pool.length - new Set(l.filter(isReady).map(targetOf)).size);
      return l;
    };
    // Two old pods go and two new ones come; the controller then waits for them to be Ready.
    let l = await pollUntil(look, (x) => x.length === 4 && x.filter(isNew).length === 2, 'two replacements', 20_000);
    await untilStatus(ns, 'web', (x) => x.observedGeneration === 2 && x.updatedNumberScheduled === 2 && x.numberUnavailable === 2, 'the controller to count two nodes unavailable');
    l = await look();
    assert.deepEqual([l.filter((p) => !isNew(p)).length, l.filter((p) => !isNew(p) && isReady(p)).length], [2, 2], 'two old pods left running while the new are not ready');
    await runAll(ns);
    l = await pollUntil(look, (x) => x.length === 4 && x.every(isNew), 'the other two replaced', 20_000);
    await runAll(ns);
    assert.ok(worst <= 2, `at most maxUnavailable nodes were without a ready pod (${worst})`);
    const done = await rollout;
    assert.equal(done.code, 0, done.describe());
    assert.match(done.stdout, /daemon set "web" successfully rolled out/);
    const s = await untilStatus(ns, 'web', (x) => x.updatedNumberScheduled === 4 && x.numberAvailable === 4, 'the rollout to complete');
    assert.equal(s.desiredNumberScheduled, 4);
    assert.ok((await live(ns)).every(isNew));
    assert.equal((await sets(ns).get('web')).metadata.annotations?.['deprecated.daemonset.template.generation'], '2');
    assert.ok((await live(ns)).every((p) => p.metadata.labels?.['pod-template-generation'] === '2'), 'the new pods carry the new template generation');
    const revs = (await cluster.client.resource<KubeObject & { revision: number }>('apps', 'v1', 'controllerrevisions').namespace(ns).list()).items;
    assert.deepEqual(revs.map((r) => r.revision).sort(), [1, 2]);
    const history = (await cluster.kubectl.ok(['rollout', 'history', 'ds/web', '-n', ns])).stdout;
    assert.match(history, /REVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>/);
    for (const n of pool) cluster.agents.silence(n);
  });

  test('maxSurge starts the new pod beside the old one and removes the old once the new is available; OnDelete waits for deletions; failed pods are replaced', async () => {
    const ns = 'ds-surge';
    await namespace(ns);
    await cluster.agents.register('s1', { pool: 'surge' });
    await untilSchedulable('s1');
    await sets(ns).create(daemonSet('surge', { pool: 'surge' }, { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } }));
    await untilPlacement(ns, ['s1'], 'the first pod');
    await runAll(ns);
    const [old] = await live(ns);
    await setImage(ns, 'surge', 'registry.example/agent:2');
    const both = await untilPlacement(ns, ['s1', 's1'], 'a new pod beside the old one');
    assert.equal(both.length, 2);
    assert.ok((await pods(ns).get(old!.metadata.name!)).metadata.uid === old!.metadata.uid, 'the old pod stays while the new one is not ready');
    await runAll(ns);
    await pollUntil(() => live(ns), (l) => l.length === 1 && l[0]!.metadata.uid !== old!.metadata.uid, 'the old pod to go once the new one is available', 20_000);

    // OnDelete: a new template replaces nothing until a pod is deleted.
    await setImage(ns, 'surge', 'registry.example/agent:3', { type: 'OnDelete', rollingUpdate: null });
    await untilStatus(ns, 'surge', (x) => x.observedGeneration === 3 && (x.updatedNumberScheduled ?? 0) === 0, 'the new template seen, nothing updated');
    const [kept] = await live(ns);
    assert.equal(kept!.spec?.containers[0]?.image, 'registry.example/agent:2');
    await pods(ns).delete(kept!.metadata.name!);
    const [fresh] = await pollUntil(() => live(ns), (l) => l.length === 1 && l[0]!.metadata.uid !== kept!.metadata.uid, 'a replacement', 20_000);
    assert.equal(fresh!.spec?.containers[0]?.image, 'registry.example/agent:3');

    // A failed daemon pod is deleted and made anew, with upstream's warning.
    await cluster.agents.bindPods(ns);
    const failed = await pods(ns).get(fresh!.metadata.name!);
    await pods(ns).updateStatus({ ...failed, status: { ...failed.status, phase: 'Failed' } });
    await pollUntil(() => live(ns), (l) => l.length === 1 && l[0]!.metadata.uid !== failed.metadata.uid, 'the failed pod to be replaced', 20_000);
    const warning = await pollUntil(() => events(ns, 'surge'), (e) => e.some((x) => x.reason === 'FailedDaemonPod'), 'the FailedDaemonPod event', 10_000);
    assert.equal(warning.find((x) => x.reason === 'FailedDaemonPod')!.message, `Found failed daemon pod ${ns}/${failed.metadata.name} on node s1, will try to kill it`);
    try {
      await pods(ns).get(failed.metadata.name!);
      assert.fail('the failed pod is deleted');
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
    cluster.agents.silence('s1');
  });
});
