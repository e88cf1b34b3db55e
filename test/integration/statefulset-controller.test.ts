// The statefulset controller in-process (with the garbage collector) against a real API server:
// OrderedReady creates web-0, then web-1 only once web-0 is Ready (marked through the pods' status
// sub-resource, as a node agent would), then web-2, each with its stable identity and its own
// claim; a new image is rolled out from the highest ordinal through a new ControllerRevision while
// the real kubectl's `rollout status` waits for it; scaling down removes the highest ordinals first
// and keeps the claims; Parallel creates every pod at once.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { defaultApiDomain } from '../../api/domain.js';
import type { Client, KubeObject } from '../../pkg/client/index.js';
import { garbagecollectorController } from '../../pkg/controller/garbagecollector/controller.js';
import { statefulsetController } from '../../pkg/controller/statefulset/controller.js';
import { ensureDefaultServiceAccount, startTestServer, type TestServer } from './framework/apiserver.js';
import { pollUntil } from './framework/authentication.js';
import { runControllers, type RunningControllers } from './framework/in-process-controller.js';
import { writeKubeconfig, type Kubeconfig } from './framework/kubeconfig.js';
import { Kubectl } from './framework/kubectl.js';

interface SetStatus {
  observedGeneration?: number;
  replicas: number;
  readyReplicas?: number;
  currentReplicas?: number;
  updatedReplicas?: number;
  availableReplicas?: number;
  currentRevision?: string;
  updateRevision?: string;
  collisionCount?: number;
}
type Pod = KubeObject & { spec?: { hostname?: string; subdomain?: string; containers: { image?: string }[]; volumes?: { name: string; persistentVolumeClaim?: { claimName: string } }[] } };

describe('statefulset controller', () => {
  let t: TestServer;
  let rc: RunningControllers;
  let c: Client;
  let kc: Kubeconfig;
  let kubectl: Kubectl;

  before(async () => {
    t = await startTestServer();
    rc = await runControllers(t, [garbagecollectorController, statefulsetController]);
    c = rc.client;
    kc = writeKubeconfig(t);
    kubectl = new Kubectl(kc);
  });
  after(async () => {
    await rc?.stop();
    kc?.remove();
    await t?.stop();
  });

  async function namespace(name: string): Promise<void> {
    await c.resource('', 'v1', 'namespaces').create({ metadata: { name } });
    await ensureDefaultServiceAccount(t.client, name);
  }
  const pods = (ns: string) => c.resource<Pod>('', 'v1', 'pods').namespace(ns);
  const sets = (ns: string) => c.resource('apps', 'v1', 'statefulsets').namespace(ns);
  const podNames = async (ns: string) => (await pods(ns).list()).items.map((p) => p.metadata.name!).sort();
  const statusOf = async (ns: string, name: string) => (await sets(ns).get(name)).status as SetStatus | undefined;
  const untilStatus = (ns: string, name: string, check: (s: SetStatus | undefined) => boolean, what: string) =>
    pollUntil(() => statusOf(ns, name), check, what, 20_000);
  const untilPods = (ns: string, check: (names: string[]) => boolean, what: string) => pollUntil(() => podNames(ns), check, what, 20_000);
  /** What the node agent would report: Running, and Ready or not. */
  async function setRunning(ns: string, name: string, ready: boolean): Promise<void> {
    const p = await pods(ns).get(name);
    await pods(ns).updateStatus({ ...p, status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z') }] } });
  }
  const revisionOf = (p: Pod) => p.metadata.labels?.['controller-revision-hash'];
  /** The pods named in the controller's log lines with `message`, in the order it logged them. */
  const logged = (message: string) => rc.logs.filter((l) => l.includes(JSON.stringify(message))).map((l) => /pod="([^"]+)"/.exec(l)?.[1]);
  const webSet = (replicas: number, policy: 'OrderedReady' | 'Parallel') => ({
    metadata: { name: 'web' },
    spec: {
      replicas, serviceName: 'web', podManagementPolicy: policy,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'registry.example/web:1', volumeMounts: [{ name: 'data', mountPath: '/data' }] }] } },
      volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
    },
  });

  test('OrderedReady: pods one at a time, claims per ordinal, rolling update from the top, scale down from the top', async () => {
    const ns = 'sts-ordered';
    await namespace(ns);
    const created = await sets(ns).create(webSet(3, 'OrderedReady'));

    // web-0 first; while it runs but is not Ready, web-1 is not created.
    await untilPods(ns, (n) => n.includes('web-0'), 'web-0');
    await setRunning(ns, 'web-0', false);
    await untilStatus(ns, 'web', (s) => s?.replicas === 1 && s.observedGeneration === 1, 'the controller saw web-0 running');
    assert.deepEqual(await podNames(ns), ['web-0'], 'web-1 waits for web-0 to be Ready');

    const web0 = await pods(ns).get('web-0');
    assert.equal(web0.spec?.hostname, 'web-0');
    assert.equal(web0.spec?.subdomain, 'web');
    assert.equal(web0.metadata.labels?.[defaultApiDomain.key('pod-name', 'statefulset')], 'web-0');
    assert.equal(web0.metadata.labels?.[defaultApiDomain.key('pod-index', 'apps')], '0');
    assert.equal(web0.metadata.labels?.app, 'web');
    assert.deepEqual(web0.metadata.ownerReferences?.map((r) => [r.kind, r.name, r.uid, r.controller]), [['StatefulSet', 'web', created.metadata.uid, true]]);
    assert.deepEqual(web0.spec?.volumes?.find((v) => v.name === 'data')?.persistentVolumeClaim, { claimName: 'data-web-0' });

    await setRunning(ns, 'web-0', true);
    await untilPods(ns, (n) => n.includes('web-1'), 'web-1 once web-0 is Ready');
    assert.deepEqual(await podNames(ns), ['web-0', 'web-1']);
    await setRunning(ns, 'web-1', true);
    await untilPods(ns, (n) => n.includes('web-2'), 'web-2 once web-1 is Ready');
    await setRunning(ns, 'web-2', true);
    let s = await untilStatus(ns, 'web', (x) => x?.readyReplicas === 3, 'three ready replicas');
    assert.equal(s?.replicas, 3);
    assert.equal(s?.availableReplicas, 3);
    assert.equal(s?.currentReplicas, 3);
    assert.equal(s?.updatedReplicas, 3);
    assert.equal(s?.collisionCount, 0);
    assert.ok(s?.currentRevision?.startsWith('web-'), `revision named after the set: ${s?.currentRevision}`);
    assert.equal(s?.updateRevision, s?.currentRevision);
    const first = s!.currentRevision!;
    for (const p of (await pods(ns).list()).items) assert.equal(revisionOf(p), first);

    const claims = (await c.resource('', 'v1', 'persistentvolumeclaims').namespace(ns).list()).items;
    assert.deepEqual(claims.map((x) => x.metadata.name).sort(), ['data-web-0', 'data-web-1', 'data-web-2']);
    assert.equal(claims[0]!.metadata.labels?.app, 'web');
    const revisions = c.resource<KubeObject & { revision: number }>('apps', 'v1', 'controllerrevisions').namespace(ns);
    assert.deepEqual((await revisions.list()).items.map((r) => [r.metadata.name, r.revision]), [[first, 1]]);

    // A new image: revision 2, pods replaced from web-2 down, each once the one above is Ready again.
    const rollout = kubectl.run(['rollout', 'status', 'statefulset/web', '-n', ns, '--timeout=90s'], { timeoutMs: 100_000 });
    // Strategic merge keeps the container's volumeMounts, as `kubectl set image` would.
    await sets(ns).patch('web', 'strategic', { spec: { template: { spec: { containers: [{ name: 'app', image: 'registry.example/web:2' }] } } } });
    s = await untilStatus(ns, 'web', (x) => x?.updateRevision !== first && x?.observedGeneration === 2, 'the update revision');
    const second = s!.updateRevision!;
    assert.deepEqual((await revisions.list()).items.map((r) => [r.metadata.name, r.revision]).sort(), [[first, 1], [second, 2]].sort());
    for (const name of ['web-2', 'web-1', 'web-0']) {
      const p = await pollUntil(() => pods(ns).get(name).catch(() => undefined), (x) => x !== undefined && revisionOf(x) === second, `${name} at the new revision`, 20_000);
      assert.equal(p!.spec?.containers[0]?.image, 'registry.example/web:2');
      const older = (await pods(ns).list()).items.filter((x) => x.metadata.name! < name);
      for (const o of older) assert.equal(revisionOf(o), first, `${o.metadata.name} is not replaced before ${name} is Ready`);
      await setRunning(ns, name, true);
    }
    const done = await rollout;
    assert.equal(done.code, 0, done.describe());
    // The server defaults partition to 0, so kubectl reports a (trivially) partitioned roll out, as against kube-apiserver.
    assert.match(done.stdout, /partitioned roll out complete: 3 new pods have been updated/);
    assert.match(done.stdout, /Waiting for 1 pods to be ready/);
    s = await untilStatus(ns, 'web', (x) => x?.currentRevision === second && x.readyReplicas === 3, 'the update became current');
    assert.equal(s?.currentReplicas, 3);
    assert.equal(s?.updatedReplicas, 3);
    assert.deepEqual(logged('Pod of StatefulSet is terminating for update'), ['web-2', 'web-1', 'web-0']);

    // Scale down to 1: web-2 goes first, then web-1; the claims stay (Retain).
    await sets(ns).patch('web', 'merge', { spec: { replicas: 1 } });
    await untilPods(ns, (n) => n.length === 1, 'one pod left');
    assert.deepEqual(await podNames(ns), ['web-0']);
    assert.deepEqual(logged('Pod of StatefulSet is terminating for scale down'), ['web-2', 'web-1']);
    s = await untilStatus(ns, 'web', (x) => x?.replicas === 1 && x.observedGeneration === 3, 'the status of one replica');
    assert.equal(s?.readyReplicas, 1);
    const kept = (await c.resource('', 'v1', 'persistentvolumeclaims').namespace(ns).list()).items.map((x) => x.metadata.name).sort();
    assert.deepEqual(kept, ['data-web-0', 'data-web-1', 'data-web-2']);
  });

  test('Parallel creates every pod without waiting for readiness; a partition holds back the lower ordinals; deleting the set removes them through the garbage collector', async () => {
    const ns = 'sts-parallel';
    await namespace(ns);
    await sets(ns).create(webSet(3, 'Parallel'));
    await untilPods(ns, (n) => n.length === 3, 'three pods at once');
    assert.deepEqual(await podNames(ns), ['web-0', 'web-1', 'web-2']);
    for (const n of ['web-0', 'web-1', 'web-2']) await setRunning(ns, n, true);
    const first = (await untilStatus(ns, 'web', (x) => x?.readyReplicas === 3, 'three ready replicas'))!.currentRevision!;

    // A partition of 2 updates only web-2: the pods below it keep the current revision.
    await sets(ns).patch('web', 'strategic', { spec: { updateStrategy: { rollingUpdate: { partition: 2 } }, template: { spec: { containers: [{ name: 'app', image: 'registry.example/web:2' }] } } } });
    const s = await untilStatus(ns, 'web', (x) => x?.updatedReplicas === 1 && x.observedGeneration === 2, 'one updated replica');
    assert.notEqual(s?.updateRevision, first);
    await setRunning(ns, 'web-2', true);
    await untilStatus(ns, 'web', (x) => x?.readyReplicas === 3, 'web-2 ready again');
    const byName = Object.fromEntries((await pods(ns).list()).items.map((p) => [p.metadata.name, revisionOf(p)]));
    assert.deepEqual(byName, { 'web-0': first, 'web-1': first, 'web-2': s?.updateRevision });
    assert.equal((await statusOf(ns, 'web'))?.currentRevision, first, 'a partitioned roll out does not become current');

    await sets(ns).delete('web');
    await untilPods(ns, (n) => n.length === 0, 'pods collected with their set');
  });
});
