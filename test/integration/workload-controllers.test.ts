// The replicaset and deployment controllers, with the garbage collector, in-process against a real
// API server. Nothing runs pods here, so the test plays the kubelet: it marks pods Ready through
// their status sub-resource. A Deployment makes a ReplicaSet and its pods, becomes Available and
// satisfies `kubectl rollout status`; a new image rolls to a new ReplicaSet without exceeding
// maxSurge; scaling down removes pods; a background deletion removes ReplicaSets and pods.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { defaultApiDomain } from '../../api/domain.js';
import type { Client, KubeObject } from '../../pkg/client/index.js';
import { deploymentController } from '../../pkg/controller/deployment/controller.js';
import { garbagecollectorController } from '../../pkg/controller/garbagecollector/controller.js';
import { replicasetController } from '../../pkg/controller/replicaset/controller.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { pollUntil } from './framework/authentication.js';
import { runControllers, type RunningControllers } from './framework/in-process-controller.js';
import { writeKubeconfig, type Kubeconfig } from './framework/kubeconfig.js';
import { Kubectl } from './framework/kubectl.js';

const ns = 'workloads';
const revisionKey = defaultApiDomain.key('revision', 'deployment');

interface Obj extends KubeObject {
  spec?: { replicas?: number; template?: { spec?: { containers?: { image?: string; [k: string]: unknown }[] }; [k: string]: unknown }; [k: string]: unknown };
  status?: { replicas?: number; readyReplicas?: number; availableReplicas?: number; updatedReplicas?: number; observedGeneration?: number;
    conditions?: { type: string; status: string; reason?: string; [k: string]: unknown }[]; [k: string]: unknown };
}

describe('workload controllers', () => {
  let t: TestServer;
  let running: RunningControllers;
  let c: Client;
  let kc: Kubeconfig;
  let kubectl: Kubectl;

  before(async () => {
    t = await startTestServer();
    running = await runControllers(t, [replicasetController, deploymentController, garbagecollectorController]);
    c = running.client;
    kc = writeKubeconfig(t);
    kubectl = new Kubectl(kc);
    await c.resource('', 'v1', 'namespaces').create({ metadata: { name: ns } });
    // The ServiceAccount admission plug-in wants the namespace's default account (the serviceaccount controller's job).
    await c.resource('', 'v1', 'serviceaccounts').namespace(ns).create({ metadata: { name: 'default' } });
  });
  after(async () => {
    await running?.stop();
    kc?.remove();
    await t?.stop();
  });

  const pods = () => c.resource<Obj>('', 'v1', 'pods').namespace(ns);
  const rss = () => c.resource<Obj>('apps', 'v1', 'replicasets').namespace(ns);
  const deploys = () => c.resource<Obj>('apps', 'v1', 'deployments').namespace(ns);
  const livePods = async (selector: string) => (await pods().list({ labelSelector: selector })).items.filter((p) => !p.metadata.deletionTimestamp);
  const isReady = (p: Obj) => (p.status?.conditions ?? []).some((x) => x.type === 'Ready' && x.status === 'True');
  /** Plays the kubelet: every live pod of the selector that is not Ready yet becomes Running and Ready. */
  const markReady = async (selector: string): Promise<number> => {
    let n = 0;
    for (const p of await livePods(selector)) {
      if (isReady(p)) continue;
      try {
        await pods().updateStatus({ ...p, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z') }] } });
        n++;
      } catch {
        // Deleted or changed meanwhile: the next round sees it again.
      }
    }
    return n;
  };
  const condition = (o: Obj, type: string) => o.status?.conditions?.find((x) => x.type === type);

  test('a ReplicaSet adopts a matching orphan, creates the rest, releases a pod that stops matching and reports status', async () => {
    await pods().create({ metadata: { name: 'orphan', labels: { app: 'rs' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });
    const rs = await rss().create({
      metadata: { name: 'rs' },
      spec: { replicas: 2, selector: { matchLabels: { app: 'rs' } }, template: { metadata: { labels: { app: 'rs' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } },
    });
    const owned = await pollUntil(() => livePods('app=rs'), (ps) => ps.length === 2 && ps.every((p) => p.metadata.ownerReferences?.[0]?.uid === rs.metadata.uid), 'two pods owned by the ReplicaSet');
    assert.ok(owned.some((p) => p.metadata.name === 'orphan'), 'the orphan was adopted, not duplicated');
    const made = owned.find((p) => p.metadata.name !== 'orphan')!;
    assert.equal(made.metadata.generateName, 'rs-');
    assert.deepEqual(made.metadata.ownerReferences, [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: rs.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    await markReady('app=rs');
    await pollUntil(() => rss().get('rs'), (r) => r.status?.readyReplicas === 2 && r.status?.availableReplicas === 2 && r.status?.replicas === 2 &&
      (r.status as { fullyLabeledReplicas?: number }).fullyLabeledReplicas === 2 && r.status?.observedGeneration === r.metadata.generation, 'ReplicaSet status');
    // Relabeled out of the selector: released and replaced.
    await pods().patch('orphan', 'merge', { metadata: { labels: { app: 'other' } } });
    await pollUntil(() => pods().get('orphan'), (p) => (p.metadata.ownerReferences ?? []).length === 0, 'the relabeled pod to be released');
    await pollUntil(() => livePods('app=rs'), (ps) => ps.length === 2, 'a replacement pod');
    // Too many: scaled down to one, the not-ready replacement goes first.
    const notReady = (await livePods('app=rs')).filter((p) => !isReady(p)).map((p) => p.metadata.name);
    assert.equal(notReady.length, 1);
    await rss().patch('rs', 'merge', { spec: { replicas: 1 } });
    const left = await pollUntil(() => livePods('app=rs'), (ps) => ps.length === 1, 'one pod left');
    assert.notEqual(left[0]!.metadata.name, notReady[0], 'the not-ready pod was deleted first');
    await rss().delete('rs');
    await pods().delete('orphan');
  });

  test('a Deployment rolls out, becomes Available, rolls a new image within maxSurge, scales, and is collected', async () => {
    const template = (image: string) => ({ metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'web', image }] } });
    const d = await deploys().create({
      metadata: { name: 'x' },
      spec: { replicas: 3, selector: { matchLabels: { app: 'x' } }, template: template('nginx:1'), strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } } },
    });
    const [rs1] = await pollUntil(async () => (await rss().list({ labelSelector: 'app=x' })).items, (l) => l.length === 1, 'a ReplicaSet');
    assert.match(rs1!.metadata.name!, /^x-[bcdfghjklmnpqrstvwxz2456789]+$/);
    assert.equal(rs1!.metadata.annotations?.[revisionKey], '1');
    assert.equal(rs1!.metadata.ownerReferences?.[0]?.uid, d.metadata.uid);
    await pollUntil(() => livePods('app=x'), (ps) => ps.length === 3, 'three pods');
    const notAvailable = await pollUntil(() => deploys().get('x'), (o) => condition(o, 'Available')?.status === 'False', 'Available=False before pods are ready');
    assert.equal(condition(notAvailable, 'Available')?.reason, 'MinimumReplicasUnavailable');

    // kubectl waits for the rollout while the test plays the kubelet.
    const status = kubectl.ok(['-n', ns, 'rollout', 'status', 'deployment/x', '--timeout=60s'], { timeoutMs: 70_000 });
    let done = false;
    void status.finally(() => { done = true; });
    while (!done) {
      await markReady('app=x');
      await new Promise((r) => setTimeout(r, 100));
    }
    const out = await status;
    assert.match(out.stdout, /successfully rolled out/);
    const available = await deploys().get('x');
    assert.equal(condition(available, 'Available')?.reason, 'MinimumReplicasAvailable');
    assert.equal(condition(available, 'Progressing')?.reason, 'NewReplicaSetAvailable');
    assert.equal(available.status?.availableReplicas, 3);
    assert.equal(available.metadata.annotations?.[revisionKey], '1');

    // A new image: a second ReplicaSet, never more than replicas + maxSurge pods, never fewer than 3 ready.
    await deploys().patch('x', 'merge', { spec: { template: template('nginx:2') } });
    const deadline = Date.now() + 60_000;
    let maxSeen = 0;
    for (;;) {
      const live = await livePods('app=x');
      maxSeen = Math.max(maxSeen, live.length);
      assert.ok(live.filter(isReady).length >= 3 || live.length < 3, `maxUnavailable 0 keeps 3 ready pods; saw ${live.filter(isReady).length}`);
      const cur = await deploys().get('x');
      if (cur.status?.updatedReplicas === 3 && cur.status?.availableReplicas === 3 && cur.status?.replicas === 3 && (cur.status.observedGeneration ?? 0) >= (cur.metadata.generation ?? 0)) break;
      assert.ok(Date.now() < deadline, `rollout to finish; last status ${JSON.stringify(cur.status)}`);
      await markReady('app=x');
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(maxSeen <= 4, `at most replicas + maxSurge pods at once; saw ${maxSeen}`);
    const both = (await rss().list({ labelSelector: 'app=x' })).items;
    assert.equal(both.length, 2);
    const newRS = both.find((r) => r.metadata.name !== rs1!.metadata.name)!;
    const oldRS = both.find((r) => r.metadata.name === rs1!.metadata.name)!;
    assert.equal(newRS.spec?.replicas, 3);
    assert.equal(newRS.spec?.template?.spec?.containers?.[0]?.image, 'nginx:2');
    assert.equal(newRS.metadata.annotations?.[revisionKey], '2');
    await pollUntil(() => rss().get(oldRS.metadata.name!), (r) => r.spec?.replicas === 0 && r.status?.replicas === 0, 'the old ReplicaSet at 0');
    await pollUntil(() => deploys().get('x'), (o) => o.metadata.annotations?.[revisionKey] === '2', 'the Deployment at revision 2');
    await kubectl.ok(['-n', ns, 'rollout', 'status', 'deployment/x', '--timeout=30s']);

    // Scaling down removes pods.
    await deploys().patch('x', 'merge', { spec: { replicas: 1 } });
    await pollUntil(() => livePods('app=x'), (ps) => ps.length === 1, 'one pod after scaling to 1', 20_000);
    await pollUntil(() => deploys().get('x'), (o) => o.status?.replicas === 1 && o.status?.availableReplicas === 1, 'status of one replica', 20_000);

    // A background deletion: the collector removes ReplicaSets and then their pods.
    await deploys().delete('x', { propagationPolicy: 'Background' });
    await pollUntil(async () => (await rss().list({ labelSelector: 'app=x' })).items.length, (n) => n === 0, 'the ReplicaSets to be collected', 30_000);
    await pollUntil(async () => (await pods().list({ labelSelector: 'app=x' })).items.length, (n) => n === 0, 'the pods to be collected', 30_000);
  });

  test('a Deployment\'s ScalingReplicaSet events: one per change of a count, in upstream\'s words, none for a ReplicaSet made at zero', async () => {
    const scalingEvents = async () => (await c.resource<KubeObject & { reason?: string; message?: string; involvedObject?: { kind?: string; name?: string } }>('', 'v1', 'events').namespace(ns).list()).items
      .filter((e) => e.involvedObject?.kind === 'Deployment' && e.involvedObject.name === 'zero' && e.reason === 'ScalingReplicaSet')
      .map((e) => e.message);
    await deploys().create({
      metadata: { name: 'zero' },
      spec: { replicas: 0, selector: { matchLabels: { app: 'zero' } }, template: { metadata: { labels: { app: 'zero' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } },
    });
    const [rs] = await pollUntil(async () => (await rss().list({ labelSelector: 'app=zero' })).items, (l) => l.length === 1, 'the ReplicaSet at zero');
    assert.equal(rs!.spec?.replicas, 0);
    const name = rs!.metadata.name!;
    await deploys().patch('zero', 'merge', { spec: { replicas: 2 } });
    await pollUntil(scalingEvents, (m) => m.length >= 1, 'the scale-up event');
    await deploys().patch('zero', 'merge', { spec: { replicas: 1 } });
    const messages = await pollUntil(scalingEvents, (m) => m.length >= 2, 'the scale-down event');
    assert.deepEqual(messages.sort(), [`Scaled down replica set ${name} from 2 to 1`, `Scaled up replica set ${name} from 0 to 2`]);
    await deploys().delete('zero');
  });
});
