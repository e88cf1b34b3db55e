// The storage controllers through the real API server and the real controller manager (every
// default controller, as `make run` starts them): a claim a scheduled pod uses stays Terminating
// until the pod goes (pvc-protection), a bound volume likewise until it is released
// (pv-protection); a namespace holding a StatefulSet with volume claim templates empties and goes;
// the persistentvolume-binder binds claims to matching volumes only, honours volumeName and claimRef
// pre-binding, reclaims released volumes, and says why a claim waits in upstream's events.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { defaultOptions } from '../../cmd/controller-manager/app/options.js';
import { runControllerManager, type RunningControllerManager } from '../../cmd/controller-manager/app/server.js';
import { Client, isNotFound, type KubeObject } from '../../pkg/client/index.js';
import { Logger } from '../../pkg/log/logger.js';
import { ensureDefaultServiceAccount, startTestServer, type TestServer } from './framework/apiserver.js';
import { pollUntil } from './framework/authentication.js';
import { writeKubeconfig, type Kubeconfig } from './framework/kubeconfig.js';

interface Claim extends KubeObject {
  spec?: { volumeName?: string; storageClassName?: string; accessModes?: string[]; resources?: { requests?: Record<string, string> } };
  status?: { phase?: string; capacity?: Record<string, string>; accessModes?: string[] };
}
interface Volume extends KubeObject {
  spec?: { claimRef?: { name?: string; namespace?: string; uid?: string; kind?: string }; persistentVolumeReclaimPolicy?: string; [field: string]: unknown };
  status?: { phase?: string; message?: string };
}
interface CoreEvent extends KubeObject {
  involvedObject?: { name?: string; kind?: string };
  reason?: string;
  message?: string;
  type?: string;
  source?: { component?: string };
}

describe('storage controllers', () => {
  let t: TestServer;
  let kc: Kubeconfig;
  let c: Client;
  let cm: RunningControllerManager;
  const logs: string[] = [];

  before(async () => {
    t = await startTestServer();
    kc = writeKubeconfig(t);
    c = Client.fromKubeconfig(kc.path).client;
    cm = await runControllerManager({
      ...defaultOptions(), kubeconfig: kc.path, securePort: 0, bindAddress: '127.0.0.1', leaderElect: false, pvClaimBinderSyncPeriodMs: 1_000,
    }, new Logger(4, (l) => {
      logs.push(l);
      if (process.env.ORCH_TEST_LOG) process.stderr.write(l);
    }));
  });
  after(async () => {
    await cm?.stop();
    c?.close();
    kc?.remove();
    await t?.stop();
  });

  const claims = (ns: string) => c.resource<Claim>('', 'v1', 'persistentvolumeclaims').namespace(ns);
  const volumes = () => c.resource<Volume>('', 'v1', 'persistentvolumes');
  const pods = (ns: string) => c.resource('', 'v1', 'pods').namespace(ns);
  const gone = async (get: () => Promise<unknown>) => {
    try {
      await get();
      return false;
    } catch (e) {
      if (isNotFound(e)) return true;
      throw e;
    }
  };
  async function namespace(name: string): Promise<void> {
    await c.resource('', 'v1', 'namespaces').create({ metadata: { name } });
    await ensureDefaultServiceAccount(t.client, name);
  }
  const claim = (name: string, spec: Record<string, unknown> = {}): Claim => ({
    metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: '', ...spec },
  });
  const volume = (name: string, spec: Record<string, unknown> = {}, labels?: Record<string, string>): Volume => ({
    metadata: { name, ...(labels ? { labels } : {}) },
    spec: { capacity: { storage: '5Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: `/data/${name}` }, storageClassName: '', ...spec },
  });
  const podUsing = (name: string, volumes: Record<string, unknown>[], nodeName?: string) => ({
    metadata: { name },
    spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: 'app', image: 'registry.example/app:1' }], volumes },
  });
  /** The events about an object, as `kubectl describe` lists them. */
  const eventsOf = async (ns: string, name: string) => (await c.resource<CoreEvent>('', 'v1', 'events').namespace(ns).list({ fieldSelector: `involvedObject.name=${name}` })).items;
  const untilEvent = (ns: string, name: string, reason: string) =>
    pollUntil(() => eventsOf(ns, name), (evs) => evs.some((e) => e.reason === reason), `a ${reason} event about ${name}`, 20_000)
      .then((evs) => evs.find((e) => e.reason === reason)!);

  test('a claim a scheduled pod uses stays Terminating until the pod goes; unscheduled pods and other claims do not hold it', async () => {
    const ns = 'pvc-protect';
    await namespace(ns);
    await claims(ns).create(claim('data'));
    await claims(ns).create(claim('spare'));
    await pods(ns).create(podUsing('user', [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }], 'node-1'));
    await pods(ns).create(podUsing('waiting', [{ name: 'd', persistentVolumeClaim: { claimName: 'spare' } }]));

    await claims(ns).delete('data');
    await claims(ns).delete('spare');
    // A pod never scheduled cannot be using its claim: it goes at once.
    await pollUntil(() => gone(() => claims(ns).get('spare')), (v) => v, 'the claim of an unscheduled pod to go', 20_000);
    const held = await claims(ns).get('data');
    assert.ok(held.metadata.deletionTimestamp, 'the claim is Terminating');
    assert.deepEqual(held.metadata.finalizers, ['orch.io/pvc-protection']);
    // Still held a while later: the controller has seen it and keeps it.
    await pollUntil(async () => logs.some((l) => l.includes('Keeping PVC because it is being used') && l.includes(`${ns}/data`)), (v) => v, 'the controller to keep the claim', 20_000);
    assert.ok((await claims(ns).get('data')).metadata.deletionTimestamp);

    await pods(ns).delete('user');
    await pollUntil(() => gone(() => claims(ns).get('data')), (v) => v, 'the claim to go with its pod', 20_000);
    assert.ok(logs.some((l) => l.includes('Removed protection finalizer from PVC') && l.includes(`${ns}/data`)));
  });

  test('a generic ephemeral volume\'s claim is held by the pod it was made for', async () => {
    const ns = 'pvc-ephemeral';
    await namespace(ns);
    const pod = await pods(ns).create(podUsing('web', [{ name: 'scratch', ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } } } }], 'node-1'));
    // What the ephemeral-volume controller would make: <pod>-<volume>, controlled by the pod.
    await claims(ns).create({ ...claim('web-scratch'), metadata: { name: 'web-scratch', ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'web', uid: pod.metadata.uid!, controller: true }] } });
    await claims(ns).delete('web-scratch');
    await pollUntil(async () => logs.some((l) => l.includes('Keeping PVC because it is being used') && l.includes(`${ns}/web-scratch`)), (v) => v, 'the ephemeral claim to be kept', 20_000);
    assert.ok((await claims(ns).get('web-scratch')).metadata.deletionTimestamp);
    await pods(ns).delete('web');
    await pollUntil(() => gone(() => claims(ns).get('web-scratch')), (v) => v, 'the ephemeral claim to go with its pod', 20_000);
  });

  test('a bound volume stays Terminating until its claim is gone and it is released', async () => {
    const ns = 'pv-protect';
    await namespace(ns);
    await volumes().create(volume('pv-protected'));
    await claims(ns).create(claim('data', { volumeName: 'pv-protected' }));
    await pollUntil(() => volumes().get('pv-protected'), (v) => v.status?.phase === 'Bound', 'the volume to bind', 20_000);
    await volumes().delete('pv-protected');
    const held = await volumes().get('pv-protected');
    assert.ok(held.metadata.deletionTimestamp);
    assert.deepEqual(held.metadata.finalizers, ['orch.io/pv-protection']);
    await claims(ns).delete('data');
    await pollUntil(() => gone(() => volumes().get('pv-protected')), (v) => v, 'the released volume to go', 20_000);
  });

  test('a namespace holding a StatefulSet with volume claim templates and scheduled pods empties and goes', async () => {
    const ns = 'sts-doomed';
    await namespace(ns);
    await c.resource('apps', 'v1', 'statefulsets').namespace(ns).create({
      metadata: { name: 'web' },
      spec: {
        replicas: 2, serviceName: 'web', podManagementPolicy: 'Parallel', selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'registry.example/web:1', volumeMounts: [{ name: 'data', mountPath: '/data' }] }] } },
        volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
      },
    });
    const made = await pollUntil(async () => (await pods(ns).list()).items, (ps) => ps.length === 2, 'the StatefulSet\'s pods', 20_000);
    // As a scheduler would: now the claims are in use.
    for (const p of made) await t.client.post(`/api/v1/namespaces/${ns}/pods/${p.metadata.name}/binding`, { metadata: { name: p.metadata.name }, target: { kind: 'Node', name: 'node-1' } });
    const pvcs = await pollUntil(async () => (await claims(ns).list()).items.map((x) => x.metadata.name).sort(), (n) => n.length === 2, 'the claims', 20_000);
    assert.deepEqual(pvcs, ['data-web-0', 'data-web-1']);
    await c.resource('', 'v1', 'namespaces').delete(ns);
    await pollUntil(() => gone(() => c.resource('', 'v1', 'namespaces').get(ns)), (v) => v, 'the namespace to go', 60_000);
  });

  test('claims bind to the smallest matching Available volume, never to one that does not match', async () => {
    const ns = 'binding';
    await namespace(ns);
    await volumes().create(volume('pv-1g', { capacity: { storage: '1Gi' } }));
    await volumes().create(volume('pv-10g', { capacity: { storage: '10Gi' } }));
    await volumes().create(volume('pv-6g', { capacity: { storage: '6Gi' } }));
    await volumes().create(volume('pv-rwx', { capacity: { storage: '8Gi' }, accessModes: ['ReadWriteMany'] }));
    await volumes().create(volume('pv-gold', { capacity: { storage: '20Gi' } }, { tier: 'gold' }));
    await volumes().create(volume('pv-block', { capacity: { storage: '50Gi' }, volumeMode: 'Block' }));
    const made = ['pv-1g', 'pv-10g', 'pv-6g', 'pv-rwx', 'pv-gold', 'pv-block'];
    await pollUntil(async () => (await volumes().list()).items.filter((v) => made.includes(v.metadata.name!)).map((v) => `${v.metadata.name}:${v.status?.phase}`),
      (l) => l.filter((x) => x.endsWith(':Available')).length === made.length, 'the volumes to become Available', 20_000);

    await claims(ns).create(claim('data', { resources: { requests: { storage: '3Gi' } } }));
    const bound = await pollUntil(() => claims(ns).get('data'), (x) => x.status?.phase === 'Bound', 'the claim to bind', 20_000);
    assert.equal(bound.spec!.volumeName, 'pv-6g', 'the smallest volume that is large enough');
    assert.deepEqual(bound.status!.capacity, { storage: '6Gi' });
    assert.deepEqual(bound.status!.accessModes, ['ReadWriteOnce']);
    assert.equal(bound.metadata.annotations?.['pv.orch.io/bind-completed'], 'yes');
    assert.equal(bound.metadata.annotations?.['pv.orch.io/bound-by-controller'], 'yes');
    const pv = await pollUntil(() => volumes().get('pv-6g'), (v) => v.status?.phase === 'Bound', 'the volume to be Bound', 20_000);
    assert.deepEqual({ ...pv.spec!.claimRef, resourceVersion: undefined }, { kind: 'PersistentVolumeClaim', namespace: ns, name: 'data', uid: bound.metadata.uid, apiVersion: 'v1', resourceVersion: undefined });
    assert.equal(pv.metadata.annotations?.['pv.orch.io/bound-by-controller'], 'yes');

    // Selected by label, the larger labelled volume; ReadWriteMany only where it is offered.
    await claims(ns).create(claim('gold', { selector: { matchLabels: { tier: 'gold' } } }));
    await claims(ns).create(claim('shared', { accessModes: ['ReadWriteMany'] }));
    await claims(ns).create(claim('huge', { resources: { requests: { storage: '100Gi' } } }));
    await claims(ns).create(claim('raw', { volumeMode: 'Block', resources: { requests: { storage: '1Gi' } } }));
    assert.equal((await pollUntil(() => claims(ns).get('gold'), (x) => x.status?.phase === 'Bound', 'gold', 20_000)).spec!.volumeName, 'pv-gold');
    assert.equal((await pollUntil(() => claims(ns).get('shared'), (x) => x.status?.phase === 'Bound', 'shared', 20_000)).spec!.volumeName, 'pv-rwx');
    assert.equal((await pollUntil(() => claims(ns).get('raw'), (x) => x.status?.phase === 'Bound', 'raw', 20_000)).spec!.volumeName, 'pv-block');
    // No volume is large enough: Pending, and upstream's event says why.
    const ev = await untilEvent(ns, 'huge', 'FailedBinding');
    assert.equal(ev.message, 'no persistent volumes available for this claim and no storage class is set');
    assert.equal(ev.source?.component, 'persistentvolume-controller');
    const huge = await claims(ns).get('huge');
    assert.equal(huge.status!.phase, 'Pending');
    assert.equal(huge.spec!.volumeName, undefined);
    assert.equal((await volumes().get('pv-10g')).status!.phase, 'Available', 'an unmatched volume stays Available');
    assert.equal((await volumes().get('pv-1g')).status!.phase, 'Available');
  });

  test('volumeName and claimRef pre-bind; a mismatching named volume is refused with upstream\'s event', async () => {
    const ns = 'prebind';
    await namespace(ns);
    await volumes().create(volume('pv-named', { capacity: { storage: '2Gi' } }));
    await volumes().create(volume('pv-reserved', { capacity: { storage: '2Gi' }, claimRef: { namespace: ns, name: 'reserved' } }));
    await volumes().create(volume('pv-tiny', { capacity: { storage: '100Mi' } }));
    await claims(ns).create(claim('named', { volumeName: 'pv-named' }));
    await claims(ns).create(claim('reserved'));
    await claims(ns).create(claim('too-big', { volumeName: 'pv-tiny' }));
    const named = await pollUntil(() => claims(ns).get('named'), (x) => x.status?.phase === 'Bound', 'the named claim to bind', 20_000);
    assert.equal(named.metadata.annotations?.['pv.orch.io/bound-by-controller'], undefined, 'the user chose the volume');
    const reserved = await pollUntil(() => claims(ns).get('reserved'), (x) => x.status?.phase === 'Bound', 'the reserved claim to bind', 20_000);
    assert.equal(reserved.spec!.volumeName, 'pv-reserved');
    const pv = await volumes().get('pv-reserved');
    assert.equal(pv.spec!.claimRef!.uid, reserved.metadata.uid);
    assert.equal(pv.metadata.annotations?.['pv.orch.io/bound-by-controller'], undefined, 'the user reserved the volume');
    const mismatch = await untilEvent(ns, 'too-big', 'VolumeMismatch');
    assert.equal(mismatch.message, 'Cannot bind to requested volume "pv-tiny": requested PV is too small');
    assert.equal(mismatch.type, 'Warning');
    assert.equal((await claims(ns).get('too-big')).status!.phase, 'Pending');
  });

  test('released volumes are reclaimed by their policy: Retain keeps them Released, Delete fails as upstream without a deleter', async () => {
    const ns = 'reclaim';
    await namespace(ns);
    await volumes().create(volume('pv-retain', { capacity: { storage: '1Gi' } }));
    await volumes().create(volume('pv-delete', { capacity: { storage: '1Gi' }, persistentVolumeReclaimPolicy: 'Delete', hostPath: { path: '/srv/data' } }));
    await volumes().create(volume('pv-delete-tmp', { capacity: { storage: '1Gi' }, persistentVolumeReclaimPolicy: 'Delete', hostPath: { path: '/tmp/orch-scratch' } }));
    for (const [c1, v] of [['a', 'pv-retain'], ['b', 'pv-delete'], ['c', 'pv-delete-tmp']] as const) await claims(ns).create(claim(c1, { volumeName: v }));
    for (const c1 of ['a', 'b', 'c']) await pollUntil(() => claims(ns).get(c1), (x) => x.status?.phase === 'Bound', `claim ${c1} to bind`, 20_000);
    for (const c1 of ['a', 'b', 'c']) await claims(ns).delete(c1);
    const retained = await pollUntil(() => volumes().get('pv-retain'), (v) => v.status?.phase === 'Released', 'the Retain volume to be Released', 20_000);
    assert.equal(retained.spec!.claimRef!.name, 'a', 'a released volume keeps its claimRef');
    const failed = await pollUntil(() => volumes().get('pv-delete'), (v) => v.status?.phase === 'Failed', 'the Delete volume to fail', 20_000);
    assert.equal(failed.status!.message, 'host_path deleter only supports /tmp/.+ but received provided /srv/data');
    const ev = await untilEvent('default', 'pv-delete', 'VolumeFailedDelete');
    assert.equal(ev.message, failed.status!.message);
    // hostPath's deleter takes /tmp/ paths: the volume object goes.
    await pollUntil(() => gone(() => volumes().get('pv-delete-tmp')), (v) => v, 'the /tmp volume to be deleted', 20_000);
  });

  test('a claim of a missing class, of a WaitForFirstConsumer class, and of an external provisioner says why it waits', async () => {
    const ns = 'classes';
    await namespace(ns);
    const classes = c.resource('storage.orch.io', 'v1', 'storageclasses');
    await classes.create({ metadata: { name: 'local' }, provisioner: 'orch.io/no-provisioner', volumeBindingMode: 'WaitForFirstConsumer' });
    await classes.create({ metadata: { name: 'ext' }, provisioner: 'csi.example.com' });
    await claims(ns).create(claim('nowhere', { storageClassName: 'fast' }));
    await claims(ns).create(claim('later', { storageClassName: 'local' }));
    await claims(ns).create(claim('outside', { storageClassName: 'ext' }));
    assert.equal((await untilEvent(ns, 'nowhere', 'ProvisioningFailed')).message, 'storageclass.storage.orch.io "fast" not found');
    assert.equal((await untilEvent(ns, 'later', 'WaitForFirstConsumer')).message, 'waiting for first consumer to be created before binding');
    await pods(ns).create(podUsing('consumer', [{ name: 'd', persistentVolumeClaim: { claimName: 'later' } }]));
    assert.equal((await untilEvent(ns, 'later', 'WaitForPodScheduled')).message, 'waiting for pod consumer to be scheduled');
    const ext = await untilEvent(ns, 'outside', 'ExternalProvisioning');
    assert.match(ext.message!, /^Waiting for a volume to be created either by the external provisioner 'csi\.example\.com' or manually by the system administrator/);
    const outside = await claims(ns).get('outside');
    assert.equal(outside.metadata.annotations?.['volume.orch.io/storage-provisioner'], 'csi.example.com');
    assert.equal(outside.metadata.annotations?.['volume.beta.orch.io/storage-provisioner'], 'csi.example.com');
    for (const n of ['nowhere', 'later', 'outside']) assert.equal((await claims(ns).get(n)).status!.phase, 'Pending');
  });

  test('a claim whose volume is deleted is Lost', async () => {
    const ns = 'lost';
    await namespace(ns);
    await volumes().create(volume('pv-lost', { capacity: { storage: '1Gi' } }));
    await claims(ns).create(claim('data', { volumeName: 'pv-lost' }));
    await pollUntil(() => claims(ns).get('data'), (x) => x.status?.phase === 'Bound', 'the claim to bind', 20_000);
    // Deleted, and its protection finalizer removed by hand: the bound volume goes.
    await volumes().delete('pv-lost');
    const pv = await volumes().get('pv-lost');
    await volumes().update({ ...pv, metadata: { ...pv.metadata, finalizers: [] } });
    await pollUntil(() => claims(ns).get('data'), (x) => x.status?.phase === 'Lost', 'the claim to be Lost', 20_000);
    assert.equal((await untilEvent(ns, 'data', 'ClaimLost')).message, 'Bound claim has lost its PersistentVolume. Data on the volume is lost!');
  });
});
