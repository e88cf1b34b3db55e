// More of upstream's admission plug-ins through the real server, each with a request it must change
// or refuse and one it must let through: the opt-in AlwaysAdmit, AlwaysPullImages,
// DenyServiceExternalIPs, ExtendedResourceToleration and LimitPodHardAntiAffinityTopology and the
// default-on DefaultIngressClass and PersistentVolumeClaimResize on one server; NamespaceAutoProvision
// with NamespaceExists (NamespaceLifecycle off) and AlwaysDeny on servers of their own; and a
// server asked to run a plug-in it has no code for, which does not start.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { defaultAdmissionOptions } from '../../cmd/apiserver/app/admission-options.js';
import type { AdmissionPluginFlags } from '../../pkg/admission/plugins.js';
import { ensureDefaultServiceAccount, startTestServer, type TestServer } from './framework/apiserver.js';
import { assertStatus } from './framework/assertions.js';
import { pollUntil } from './framework/authentication.js';

const withPlugins = (plugins: AdmissionPluginFlags) => ({ admission: { ...defaultAdmissionOptions(), plugins } });
const pod = (name: string, spec: Record<string, unknown> = {}, container: Record<string, unknown> = {}) => ({
  metadata: { name },
  spec: { containers: [{ name: 'app', image: 'registry.example/app:1', ...container }], ...spec },
});

describe('opt-in admission plug-ins, and the default DefaultIngressClass and PersistentVolumeClaimResize', () => {
  const ns = 'extra';
  const pods = `/api/v1/namespaces/${ns}/pods`;
  let t: TestServer;
  before(async () => {
    t = await startTestServer(withPlugins({
      enable: ['AlwaysAdmit', 'AlwaysPullImages', 'DenyServiceExternalIPs', 'ExtendedResourceToleration', 'LimitPodHardAntiAffinityTopology'],
    }));
    assert.equal((await t.client.post('/api/v1/namespaces', { metadata: { name: ns } })).status, 201);
    await ensureDefaultServiceAccount(t.client, ns);
  });
  after(async () => t?.stop());

  test('AlwaysAdmit: runs (with upstream\'s deprecation warning) and lets requests through', async () => {
    assert.ok(t.logs.some((l) => l.startsWith('W') && l.includes('AlwaysAdmit admission controller is deprecated')), 'the deprecation is logged');
    assert.ok(t.logs.some((l) => /"admission configured".*AlwaysAdmit/.test(l)), 'AlwaysAdmit is in the chain');
    const r = await t.client.post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'admitted' } });
    assert.equal(r.status, 201, r.text);
  });

  test('AlwaysPullImages: every container of a new pod pulls always; a label change goes through', async () => {
    const created = await t.client.post(pods, pod('pulls', { initContainers: [{ name: 'init', image: 'registry.example/init:1', imagePullPolicy: 'Never' }] }, { imagePullPolicy: 'IfNotPresent' }));
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.spec.containers[0].imagePullPolicy, 'Always');
    assert.equal(created.body.spec.initContainers[0].imagePullPolicy, 'Always');
    const labelled = await t.client.patch(`${pods}/pulls`, { metadata: { labels: { seen: 'yes' } } });
    assert.equal(labelled.status, 200, labelled.text);
    const newImage = await t.client.patch(`${pods}/pulls`, { spec: { containers: [{ name: 'app', image: 'registry.example/app:2' }] } }, 'application/strategic-merge-patch+json');
    assert.equal(newImage.status, 200, newImage.text);
    assert.equal(newImage.body.spec.containers[0].imagePullPolicy, 'Always');
  });

  test('DenyServiceExternalIPs: a new external IP is refused on create and update; a Service without one is created', async () => {
    const services = `/api/v1/namespaces/${ns}/services`;
    const svc = (name: string, extra: Record<string, unknown> = {}) => ({ metadata: { name }, spec: { ports: [{ port: 80 }], ...extra } });
    const refused = await t.client.post(services, svc('captures', { externalIPs: ['192.0.2.10'] }));
    assertStatus(refused, 403, 'Forbidden');
    assert.equal(refused.body.message, 'services "captures" is forbidden: Use of external IPs is denied by admission control');
    const plain = await t.client.post(services, svc('plain'));
    assert.equal(plain.status, 201, plain.text);
    const added = await t.client.patch(`${services}/plain`, { spec: { externalIPs: ['192.0.2.11'] } });
    assertStatus(added, 403, 'Forbidden');
    assert.equal(added.body.message, 'services "plain" is forbidden: Use of external IPs is denied by admission control');
    assert.equal((await t.client.get(`${services}/captures`)).status, 404);
  });

  test('ExtendedResourceToleration: a pod requesting an extended resource tolerates its taint; others get no such toleration', async () => {
    const gpu = await t.client.post(pods, pod('trains', {}, { resources: { requests: { 'example.com/gpu': '1' }, limits: { 'example.com/gpu': '1' } } }));
    assert.equal(gpu.status, 201, gpu.text);
    assert.ok(gpu.body.spec.tolerations.some((x: Record<string, unknown>) => x['key'] === 'example.com/gpu' && x['operator'] === 'Exists' && x['effect'] === 'NoSchedule'), JSON.stringify(gpu.body.spec.tolerations));
    const plain = await t.client.post(pods, pod('serves', {}, { resources: { requests: { cpu: '10m' } } }));
    assert.equal(plain.status, 201, plain.text);
    assert.ok(!plain.body.spec.tolerations.some((x: Record<string, unknown>) => x['effect'] === 'NoSchedule'), JSON.stringify(plain.body.spec.tolerations));
  });

  test('LimitPodHardAntiAffinityTopology: required anti-affinity over zones is refused, over hostnames admitted', async () => {
    const anti = (topologyKey: string) => ({ affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'db' } }, topologyKey }] } } });
    const zone = await t.client.post(pods, pod('db-zone', anti('topology.orch.io/zone')));
    assertStatus(zone, 403, 'Forbidden');
    assert.equal(zone.body.message, 'pods "db-zone" is forbidden: affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey topology.orch.io/zone but only key orch.io/hostname is allowed');
    const host = await t.client.post(pods, pod('db-host', anti('orch.io/hostname')));
    assert.equal(host.status, 201, host.text);
  });

  test('DefaultIngressClass (on by default): an ingress without a class gets the default; one naming its class keeps it', async () => {
    const classes = '/apis/networking.orch.io/v1/ingressclasses';
    const ingresses = `/apis/networking.orch.io/v1/namespaces/${ns}/ingresses`;
    for (const [name, annotations] of [['public', { 'ingressclass.orch.io/is-default-class': 'true' }], ['internal', {}]] as const) {
      const r = await t.client.post(classes, { metadata: { name, annotations }, spec: { controller: 'example.com/ingress' } });
      assert.equal(r.status, 201, r.text);
    }
    const ingress = (name: string, spec: Record<string, unknown> = {}) => ({ metadata: { name }, spec: { defaultBackend: { service: { name: 'web', port: { number: 80 } } }, ...spec } });
    // The plug-in reads classes from its cache: a dry run shows when it has the default.
    await pollUntil(() => t.client.post(`${ingresses}?dryRun=All`, ingress('web')), (r) => r.status === 201 && r.body.spec.ingressClassName === 'public', 'the default class to be seen');
    const defaulted = await t.client.post(ingresses, ingress('web'));
    assert.equal(defaulted.status, 201, defaulted.text);
    assert.equal(defaulted.body.spec.ingressClassName, 'public');
    const named = await t.client.post(ingresses, ingress('admin', { ingressClassName: 'internal' }));
    assert.equal(named.status, 201, named.text);
    assert.equal(named.body.spec.ingressClassName, 'internal');
  });

  test('PersistentVolumeClaimResize (on by default): a bound claim grows only when its class allows expansion', async () => {
    const classes = '/apis/storage.orch.io/v1/storageclasses';
    const claims = `/api/v1/namespaces/${ns}/persistentvolumeclaims`;
    for (const [name, allowVolumeExpansion] of [['elastic', true], ['fixed', false]] as const) {
      const r = await t.client.post(classes, { metadata: { name }, provisioner: 'example.com/disk', allowVolumeExpansion });
      assert.equal(r.status, 201, r.text);
    }
    for (const cls of ['elastic', 'fixed']) {
      const c = await t.client.post(claims, { metadata: { name: `data-${cls}` }, spec: { storageClassName: cls, accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } });
      assert.equal(c.status, 201, c.text);
      // What the volume binder writes once the claim has its volume.
      const bound = await t.client.patch(`${claims}/data-${cls}/status`, { status: { phase: 'Bound', capacity: { storage: '1Gi' } } });
      assert.equal(bound.status, 200, bound.text);
    }
    const grow = { spec: { resources: { requests: { storage: '2Gi' } } } };
    const fixed = await t.client.patch(`${claims}/data-fixed`, grow);
    assertStatus(fixed, 403, 'Forbidden');
    assert.equal(fixed.body.message, 'persistentvolumeclaims "data-fixed" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize');
    // The plug-in reads the class from its cache; until it has it, the growth is refused the same way.
    const elastic = await pollUntil(() => t.client.patch(`${claims}/data-elastic`, grow), (r) => r.status === 200, 'the expandable class to be seen');
    assert.equal(elastic.body.spec.resources.requests.storage, '2Gi');
    assert.equal((await t.client.get(`${claims}/data-fixed`)).body.spec.resources.requests.storage, '1Gi');
  });
});

describe('NamespaceAutoProvision and NamespaceExists, NamespaceLifecycle off', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer(withPlugins({ enable: ['NamespaceAutoProvision', 'NamespaceExists'], disable: ['NamespaceLifecycle'] }));
  });
  after(async () => t?.stop());

  test('a create in a missing namespace makes the namespace; one in an existing namespace makes none', async () => {
    const r = await t.client.post('/api/v1/namespaces/made-on-use/configmaps', { metadata: { name: 'settings' } });
    assert.equal(r.status, 201, r.text);
    const made = await t.client.get('/api/v1/namespaces/made-on-use');
    assert.equal(made.status, 200, made.text);
    assert.equal(made.body.status.phase, 'Active');
    const before = (await t.client.get('/api/v1/namespaces')).body.items.length;
    assert.equal((await t.client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'settings' } })).status, 201);
    assert.equal((await t.client.get('/api/v1/namespaces')).body.items.length, before);
  });

  test('a dry run provisions nothing, so NamespaceExists refuses it with the namespace\'s NotFound; an existing namespace passes', async () => {
    const dry = await t.client.post('/api/v1/namespaces/never-made/configmaps?dryRun=All', { metadata: { name: 'settings' } });
    assertStatus(dry, 404, 'NotFound');
    assert.equal(dry.body.message, 'namespaces "never-made" not found');
    assert.equal((await t.client.get('/api/v1/namespaces/never-made')).status, 404);
    const ok = await t.client.post('/api/v1/namespaces/default/configmaps?dryRun=All', { metadata: { name: 'other' } });
    assert.equal(ok.status, 201, ok.text);
  });
});

describe('AlwaysDeny', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer(withPlugins({ enable: ['AlwaysDeny'] }));
  });
  after(async () => t?.stop());

  test('every write is refused with upstream\'s message, deletes included; reads are not admission\'s', async () => {
    const created = await t.client.post('/api/v1/namespaces', { metadata: { name: 'denied' } });
    assertStatus(created, 403, 'Forbidden');
    assert.equal(created.body.message, 'namespaces "denied" is forbidden: admission control is denying all modifications');
    // The server's own cluster-info, written without admission at start.
    const clusterInfo = '/api/v1/namespaces/orch-public/configmaps/cluster-info';
    await pollUntil(() => t.client.get(clusterInfo), (r) => r.status === 200, 'cluster-info to be published');
    const deleted = await t.client.delete(clusterInfo);
    assertStatus(deleted, 403, 'Forbidden');
    assert.equal(deleted.body.message, 'configmaps "cluster-info" is forbidden: admission control is denying all modifications');
    const read = await t.client.get(clusterInfo);
    assert.equal(read.status, 200, read.text);
    assert.ok(t.logs.some((l) => l.includes('AlwaysDeny admission controller is deprecated')));
  });
});

test('a server asked to run a plug-in it has no code for does not start, naming it', async () => {
  await assert.rejects(startTestServer(withPlugins({ enable: ['PersistentVolumeLabel'] })),
    /^Error: enable-admission-plugins plugin "PersistentVolumeLabel" is not implemented by this server$/);
});
