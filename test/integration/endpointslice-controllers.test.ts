// The endpointslice, endpointslicemirroring and replicationcontroller controllers through the real
// API server and the real controller manager, with upstream's group names (--api-domain k8s.io,
// which stock kubectl hard-codes for discovery.k8s.io): a Service's EndpointSlices follow its
// pods' readiness (ready, not ready, terminating, gone), pack at most --max-endpoints-per-slice;
// a selector-less Service's hand-made Endpoints are mirrored; a ReplicationController keeps its
// replicas, reports its status and a ReplicaFailure, with upstream's events; stock kubectl lists
// the slices and describes the service and an ingress from them; invalid slices are refused with
// upstream's messages. Nothing runs pods here: the test reports its pods' IPs and readiness as a
// node agent would (the fake node agent, for the ReplicationController's pods).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RunningControllerManager } from '../../cmd/controller-manager/app/server.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { assertStatus } from './framework/assertions.js';
import { pollUntil } from './framework/authentication.js';
import type { Response } from './framework/client.js';
import { startControllerManager } from './framework/controller-manager.js';
import { writeKubeconfig, type Kubeconfig } from './framework/kubeconfig.js';
import { Kubectl, stockTools } from './framework/kubectl.js';
import { FakeNodeAgent } from './framework/node-agent.js';

const domain = 'k8s.io';
const ns = 'slices';
const core = `/api/v1/namespaces/${ns}`;
const discovery = `/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices`;
const maxEndpointsPerSlice = 2;

interface Endpoint { addresses: string[]; conditions: { ready?: boolean; serving?: boolean; terminating?: boolean }; nodeName?: string; zone?: string; targetRef?: { name?: string; uid?: string } }
interface Slice { metadata: { name: string; generateName?: string; labels?: Record<string, string>; ownerReferences?: { kind: string; name: string; uid: string; controller?: boolean }[] }; addressType: string; endpoints: Endpoint[] | null; ports: unknown[] | null }

describe('endpoint slices and replication controllers, through the controller manager (upstream group names)', () => {
  let t: TestServer;
  let kc: Kubeconfig;
  let cm: RunningControllerManager;
  let agent: FakeNodeAgent;

  before(async () => {
    t = await startTestServer({ apiDomain: domain });
    kc = writeKubeconfig(t);
    cm = await startControllerManager(kc, { apiDomain: domain, endpointSlice: { maxEndpointsPerSlice, batchPeriodMs: 0 } });
    agent = new FakeNodeAgent(kc, domain);
    assert.equal((await t.client.post('/api/v1/namespaces', { metadata: { name: ns } })).status, 201);
    await pollUntil(() => t.client.get(`${core}/serviceaccounts/default`), (r) => r.status === 200, 'the default ServiceAccount', 30_000);
    const node = await t.client.post('/api/v1/nodes', { metadata: { name: 'node-1', labels: { 'topology.kubernetes.io/zone': 'zone-a' } } });
    assert.equal(node.status, 201, node.text);
  });
  after(async () => {
    await agent?.stop();
    await cm?.stop();
    kc?.remove();
    await t?.stop();
  });

  const slicesOf = async (service: string): Promise<Slice[]> => {
    const r = await t.client.get(`${discovery}?labelSelector=${encodeURIComponent(`kubernetes.io/service-name=${service}`)}`);
    assert.equal(r.status, 200, r.text);
    return r.body.items as Slice[];
  };
  const endpointsOf = (slices: Slice[]) => slices.flatMap((s) => s.endpoints ?? []);
  /** A pod on node-1 offering port `http` (8080), as a workload would make it. */
  const makePod = async (name: string, labels: Record<string, string>, finalizers?: string[]) => {
    const r = await t.client.post(`${core}/pods`, {
      metadata: { name, labels, ...(finalizers ? { finalizers } : {}) },
      spec: { nodeName: 'node-1', containers: [{ name: 'app', image: 'registry.example/app:1', ports: [{ name: 'http', containerPort: 8080 }] }] },
    });
    assert.equal(r.status, 201, r.text);
    return r.body as { metadata: { uid: string } };
  };
  /** What a node agent reports: the pod's IP and whether it is Ready. */
  const report = async (name: string, ip: string, ready: boolean) => {
    const r = await t.client.patch(`${core}/pods/${name}/status`, {
      status: { phase: 'Running', podIP: ip, podIPs: [{ ip }], conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
    });
    assert.equal(r.status, 200, r.text);
  };

  test('a Service gets a placeholder slice, then its pods\' endpoints follow readiness: ready, not ready, terminating, gone', async () => {
    const svc = await t.client.post(`${core}/services`, {
      metadata: { name: 'web', labels: { tier: 'front' } },
      spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 'http' }] },
    });
    assert.equal(svc.status, 201, svc.text);
    const [placeholder] = await pollUntil(() => slicesOf('web'), (s) => s.length === 1, 'the placeholder slice', 30_000);
    assert.match(placeholder!.metadata.name, /^web-[a-z0-9]{5}$/);
    assert.equal(placeholder!.metadata.generateName, 'web-');
    assert.deepEqual(placeholder!.metadata.labels, {
      tier: 'front', 'kubernetes.io/service-name': 'web', 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
    });
    assert.deepEqual(placeholder!.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'Service', name: 'web', uid: svc.body.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    assert.equal(placeholder!.addressType, 'IPv4');
    assert.deepEqual([placeholder!.endpoints, placeholder!.ports], [[], []]);

    const pod = await makePod('web-1', { app: 'web' }, ['example.com/hold']);
    await report('web-1', '10.1.0.1', true);
    const ready = await pollUntil(() => slicesOf('web'), (s) => endpointsOf(s).length === 1, 'the ready pod in the slice', 30_000);
    assert.equal(ready[0]!.metadata.name, placeholder!.metadata.name, 'the placeholder is filled in place');
    assert.deepEqual(ready[0]!.ports, [{ name: 'http', protocol: 'TCP', port: 8080 }]);
    assert.deepEqual(endpointsOf(ready), [{
      addresses: ['10.1.0.1'], conditions: { ready: true, serving: true, terminating: false }, nodeName: 'node-1', zone: 'zone-a',
      targetRef: { kind: 'Pod', namespace: ns, name: 'web-1', uid: pod.metadata.uid },
    }]);

    await report('web-1', '10.1.0.1', false);
    await pollUntil(() => slicesOf('web'), (s) => endpointsOf(s)[0]?.conditions.ready === false, 'the pod not ready', 30_000);
    assert.deepEqual(endpointsOf(await slicesOf('web'))[0]!.conditions, { ready: false, serving: false, terminating: false });

    await report('web-1', '10.1.0.1', true);
    // A finalizer holds the deleted pod: it is terminating, still serving, no longer ready.
    assert.equal((await t.client.delete(`${core}/pods/web-1`)).status, 200);
    await pollUntil(() => slicesOf('web'), (s) => endpointsOf(s)[0]?.conditions.terminating === true, 'the pod terminating', 30_000);
    assert.deepEqual(endpointsOf(await slicesOf('web'))[0]!.conditions, { ready: false, serving: true, terminating: true });

    assert.equal((await t.client.patch(`${core}/pods/web-1`, { metadata: { finalizers: null } })).status, 200);
    const gone = await pollUntil(() => slicesOf('web'), (s) => s.length === 1 && endpointsOf(s).length === 0, 'the pod gone from the slices', 30_000);
    assert.equal(gone[0]!.metadata.name, placeholder!.metadata.name, 'back to the placeholder, kept in place');

    assert.equal((await t.client.delete(`${core}/services/web`)).status, 200);
    await pollUntil(() => slicesOf('web'), (s) => s.length === 0, 'the slices collected with their service', 30_000);
  });

  test('--max-endpoints-per-slice: five pods pack into slices of at most two', async () => {
    assert.equal((await t.client.post(`${core}/services`, { metadata: { name: 'many' }, spec: { selector: { app: 'many' }, ports: [{ port: 80, targetPort: 8080 }] } })).status, 201);
    for (let i = 1; i <= 5; i++) {
      await makePod(`many-${i}`, { app: 'many' });
      await report(`many-${i}`, `10.2.0.${i}`, true);
    }
    const slices = await pollUntil(() => slicesOf('many'), (s) => endpointsOf(s).length === 5, 'every pod in a slice', 30_000);
    assert.deepEqual(slices.map((s) => (s.endpoints ?? []).length).sort(), [1, 2, 2]);
    assert.deepEqual(endpointsOf(slices).flatMap((e) => e.addresses).sort(), ['10.2.0.1', '10.2.0.2', '10.2.0.3', '10.2.0.4', '10.2.0.5']);
    // A user's deletion of a controller's slice is undone.
    assert.equal((await t.client.delete(`${discovery}/${slices[0]!.metadata.name}`)).status, 200);
    await pollUntil(() => slicesOf('many'), (s) => endpointsOf(s).length === 5 && !s.some((x) => x.metadata.name === slices[0]!.metadata.name), 'the slice made again', 30_000);
  });

  test('a selector-less Service\'s Endpoints are mirrored into a slice, updated with them, and dropped on skip-mirror', async () => {
    assert.equal((await t.client.post(`${core}/services`, { metadata: { name: 'ext' }, spec: { ports: [{ name: 'db', port: 5432 }] } })).status, 201);
    const ep = await t.client.post(`${core}/endpoints`, {
      metadata: { name: 'ext', labels: { team: 'data' }, annotations: { note: 'hand-made' } },
      subsets: [{ addresses: [{ ip: '192.0.2.10' }], notReadyAddresses: [{ ip: '192.0.2.11' }], ports: [{ name: 'db', port: 5432 }] }],
    });
    assert.equal(ep.status, 201, ep.text);
    const [mirror] = await pollUntil(() => slicesOf('ext'), (s) => s.length === 1, 'the mirrored slice', 30_000);
    assert.deepEqual(mirror!.metadata.labels, {
      team: 'data', 'kubernetes.io/service-name': 'ext', 'endpointslice.kubernetes.io/managed-by': 'endpointslicemirroring-controller.k8s.io',
    });
    assert.equal((mirror as { metadata: { annotations?: Record<string, string> } }).metadata.annotations?.note, 'hand-made');
    assert.deepEqual(mirror!.metadata.ownerReferences?.map((o) => [o.kind, o.name, o.uid]), [['Endpoints', 'ext', ep.body.metadata.uid]]);
    assert.deepEqual(mirror!.endpoints, [{ addresses: ['192.0.2.10'], conditions: { ready: true } }, { addresses: ['192.0.2.11'], conditions: { ready: false } }]);
    assert.deepEqual(mirror!.ports, [{ name: 'db', protocol: 'TCP', port: 5432 }]);

    assert.equal((await t.client.patch(`${core}/endpoints/ext`, { subsets: [{ addresses: [{ ip: '192.0.2.12' }], ports: [{ name: 'db', port: 5432 }] }] })).status, 200);
    const updated = await pollUntil(() => slicesOf('ext'), (s) => endpointsOf(s)[0]?.addresses[0] === '192.0.2.12', 'the mirror updated', 30_000);
    assert.equal(updated[0]!.metadata.name, mirror!.metadata.name, 'updated in place');

    assert.equal((await t.client.patch(`${core}/endpoints/ext`, { metadata: { labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } } })).status, 200);
    await pollUntil(() => slicesOf('ext'), (s) => s.length === 0, 'the mirror deleted on skip-mirror', 30_000);
    // The server's own kubernetes Endpoints is never mirrored: its slice is the server's alone.
    const kubernetes = await t.client.get(`/apis/discovery.k8s.io/v1/namespaces/default/endpointslices?labelSelector=${encodeURIComponent('kubernetes.io/service-name=kubernetes')}`);
    assert.deepEqual(kubernetes.body.items.map((s: Slice) => s.metadata.name), ['kubernetes']);
  });

  test('a ReplicationController keeps its replicas, reports its status and, when pods cannot be made, ReplicaFailure', async () => {
    const legacy = '/api/v1/namespaces/legacy';
    assert.equal((await t.client.post('/api/v1/namespaces', { metadata: { name: 'legacy' } })).status, 201);
    await pollUntil(() => t.client.get(`${legacy}/serviceaccounts/default`), (r) => r.status === 200, 'the default ServiceAccount', 30_000);
    agent.serve('legacy');
    const rc = await t.client.post(`${legacy}/replicationcontrollers`, {
      metadata: { name: 'legacy' },
      spec: { replicas: 2, selector: { app: 'legacy' }, template: { metadata: { labels: { app: 'legacy' } }, spec: { containers: [{ name: 'app', image: 'registry.example/app:1' }] } } },
    });
    assert.equal(rc.status, 201, rc.text);
    const status = (r: Response) => r.body.status as { replicas?: number; readyReplicas?: number; availableReplicas?: number; fullyLabeledReplicas?: number; observedGeneration?: number; conditions?: { type: string; status: string; reason?: string; message?: string }[] };
    const running = await pollUntil(() => t.client.get(`${legacy}/replicationcontrollers/legacy`), (r) => status(r).availableReplicas === 2, 'two available replicas', 30_000);
    assert.deepEqual(status(running), { replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 2, availableReplicas: 2, observedGeneration: 1 });
    const pods = await t.client.get(`${legacy}/pods?labelSelector=app%3Dlegacy`);
    assert.equal(pods.body.items.length, 2);
    for (const p of pods.body.items) {
      assert.match(p.metadata.name, /^legacy-[a-z0-9]{5}$/);
      assert.deepEqual(p.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'ReplicationController', name: 'legacy', uid: rc.body.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    }
    const events = await pollUntil(() => t.client.get(`${legacy}/events?fieldSelector=${encodeURIComponent('involvedObject.name=legacy')}`),
      (r) => r.body.items.filter((e: { reason: string }) => e.reason === 'SuccessfulCreate').length === 2, 'two SuccessfulCreate events', 30_000);
    for (const e of events.body.items) {
      assert.equal(e.source.component, 'replication-controller');
      assert.equal(e.involvedObject.kind, 'ReplicationController');
      assert.match(e.message, /^Created pod: legacy-[a-z0-9]{5}$/);
    }

    // A quota of two pods: the third cannot be made.
    assert.equal((await t.client.post(`${legacy}/resourcequotas`, { metadata: { name: 'two-pods' }, spec: { hard: { pods: '2' } } })).status, 201);
    await pollUntil(() => t.client.get(`${legacy}/resourcequotas/two-pods`), (r) => r.body.status?.used?.pods === '2', 'the quota counted', 30_000);
    assert.equal((await t.client.patch(`${legacy}/replicationcontrollers/legacy`, { spec: { replicas: 3 } })).status, 200);
    const failing = await pollUntil(() => t.client.get(`${legacy}/replicationcontrollers/legacy`),
      (r) => (status(r).conditions ?? []).some((c) => c.type === 'ReplicaFailure'), 'the ReplicaFailure condition', 30_000);
    const failure = status(failing).conditions!.find((c) => c.type === 'ReplicaFailure')!;
    assert.deepEqual([failure.status, failure.reason], ['True', 'FailedCreate']);
    assert.match(failure.message!, /exceeded quota: two-pods/);
    await pollUntil(() => t.client.get(`${legacy}/events?fieldSelector=${encodeURIComponent('involvedObject.name=legacy,reason=FailedCreate')}`),
      (r) => r.body.items.some((e: { message: string; type: string }) => e.type === 'Warning' && /^Error creating: .*exceeded quota: two-pods/.test(e.message)), 'the FailedCreate event', 30_000);

    // Scaled down, the surplus goes and the failure clears.
    assert.equal((await t.client.patch(`${legacy}/replicationcontrollers/legacy`, { spec: { replicas: 1 } })).status, 200);
    const scaled = await pollUntil(() => t.client.get(`${legacy}/replicationcontrollers/legacy`),
      (r) => status(r).replicas === 1 && status(r).observedGeneration === 3 && !status(r).conditions, 'one replica, no failure', 30_000);
    assert.equal(status(scaled).readyReplicas, 1);
    await pollUntil(() => t.client.get(`${legacy}/events?fieldSelector=${encodeURIComponent('involvedObject.name=legacy,reason=SuccessfulDelete')}`),
      (r) => r.body.items.length === 1 && /^Deleted pod: legacy-[a-z0-9]{5}$/.test(r.body.items[0].message), 'the SuccessfulDelete event', 30_000);
  });

  test('stock kubectl lists the slices and describes the service and an ingress from them', async () => {
    assert.equal((await t.client.post(`${core}/services`, { metadata: { name: 'shop' }, spec: { selector: { app: 'shop' }, ports: [{ name: 'http', port: 80, targetPort: 'http' }] } })).status, 201);
    await makePod('shop-1', { app: 'shop' });
    await report('shop-1', '10.3.0.1', true);
    await pollUntil(() => slicesOf('shop'), (s) => endpointsOf(s).length === 1, 'the shop pod in its slice', 30_000);
    const kubectl = new Kubectl(kc);
    const get = (await kubectl.ok(['get', 'endpointslices', '-n', ns, '-l', 'kubernetes.io/service-name=shop'])).stdout;
    assert.match(get, /^NAME\s+ADDRESSTYPE\s+PORTS\s+ENDPOINTS\s+AGE$/m);
    assert.match(get, /^shop-[a-z0-9]{5}\s+IPv4\s+8080\s+10\.3\.0\.1\s+\d+s$/m);
    // kubectl 1.33 and later read a service's endpoints from its slices.
    const newer = new Kubectl(kc, stockTools.kubectl135);
    const svc = (await newer.ok(['describe', 'service', 'shop', '-n', ns])).stdout;
    assert.match(svc, /^Endpoints:\s+10\.3\.0\.1:8080$/m);
    const ing = await t.client.post(`/apis/networking.k8s.io/v1/namespaces/${ns}/ingresses`, {
      metadata: { name: 'shop' },
      spec: { rules: [{ host: 'shop.example', http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'shop', port: { number: 80 } } } }] } }] },
    });
    assert.equal(ing.status, 201, ing.text);
    const described = await newer.run(['describe', 'ingress', 'shop', '-n', ns]);
    assert.equal(described.code, 0, described.describe());
    assert.match(described.stdout, /shop:80 \(10\.3\.0\.1:8080\)/);
    assert.doesNotMatch(described.stdout + described.stderr, /not found|404/);
  });

  test('invalid slices are refused with upstream\'s messages', async () => {
    const create = (body: Record<string, unknown>) => t.client.post(discovery, { metadata: { name: 'bad' }, addressType: 'IPv4', ...body });
    const causes = (r: Response) => (r.body.details?.causes ?? []).map((c: { field: string; message: string }) => `${c.field}: ${c.message}`);
    let r = await create({ addressType: 'IP' });
    assertStatus(r, 422, 'Invalid');
    assert.deepEqual(causes(r), ['addressType: Unsupported value: "IP": supported values: "FQDN", "IPv4", "IPv6"']);
    r = await create({ endpoints: [{ addresses: ['127.0.0.1'] }, { addresses: ['fd00::1'] }, { addresses: [] }] });
    assertStatus(r, 422, 'Invalid');
    assert.equal(r.body.message, 'EndpointSlice.discovery.k8s.io "bad" is invalid: [endpoints[0].addresses[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128), '
      + 'endpoints[1].addresses[0]: Invalid value: "fd00::1": must be a valid IPv4 address, endpoints[2].addresses: Required value: must contain at least 1 address]');
    r = await create({ ports: [{ name: 'http', port: 80 }, { name: 'http', port: 81, protocol: 'ICMP' }] });
    assert.deepEqual(causes(r), ['ports[1].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"', 'ports[1].name: Duplicate value: "http"']);
    r = await create({ endpoints: Array.from({ length: 1001 }, (_, i) => ({ addresses: [`10.9.${i >> 8}.${(i % 250) + 1}`] })) });
    assert.deepEqual(causes(r), ['endpoints: Too many: 1001: must have at most 1000 items']);
    const ok = await create({ endpoints: [{ addresses: ['10.9.0.1'] }], ports: [{ port: 80 }] });
    assert.equal(ok.status, 201, ok.text);
    assert.deepEqual(ok.body.ports, [{ name: '', protocol: 'TCP', port: 80 }], 'defaults as upstream');
    assert.equal(ok.body.metadata.generation, 1);
    r = await t.client.patch(`${discovery}/bad`, { addressType: 'IPv6' });
    assert.deepEqual(causes(r), ['endpoints[0].addresses[0]: Invalid value: "10.9.0.1": must be a valid IPv6 address', 'addressType: Invalid value: "IPv6": field is immutable']);
    r = await t.client.patch(`${discovery}/bad`, { endpoints: [{ addresses: ['10.9.0.2'] }] });
    assert.equal(r.body.metadata.generation, 2, 'a content change moves the generation');
    r = await t.client.patch(`${discovery}/bad`, { metadata: { annotations: { a: 'b' } } });
    assert.equal(r.body.metadata.generation, 2, 'an annotation does not');
  });
});
