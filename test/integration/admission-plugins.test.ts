// The built-in admission plug-ins through the real server, each on its allow and deny paths and
// under dryRun (which must leave nothing behind): LimitRanger, ResourceQuota on pods, Priority,
// RuntimeClass, SecurityContextDeny, ServiceAccount, NamespaceLifecycle, DefaultTolerationSeconds,
// PodTolerationRestriction, TaintNodesByCondition, NodeRestriction, DefaultStorageClass and
// StorageObjectInUseProtection, with plug-ins reading other objects from the server's caches.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { defaultAdmissionOptions } from '../../cmd/apiserver/app/admission-options.js';
import { defaultAuthenticationOptions } from '../../cmd/apiserver/app/authentication-options.js';
import { tempFiles } from '../../pkg/authentication/testing/signing-keys.js';
import { ensureDefaultServiceAccount, startTestServer, type TestServer } from './framework/apiserver.js';
import { assertStatus } from './framework/assertions.js';
import { quotasSeen } from './framework/quota.js';
import { pollUntil } from './framework/authentication.js';
import type { Client, Response } from './framework/client.js';

const ns = 'admitted';
const pods = `/api/v1/namespaces/${ns}/pods`;
const pod = (name: string, spec: Record<string, unknown> = {}, container: Record<string, unknown> = {}) => ({
  metadata: { name },
  spec: { containers: [{ name: 'app', image: 'registry.example/app:1', ...container }], ...spec },
});

describe('built-in admission plug-ins', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ admission: { ...defaultAdmissionOptions(), plugins: { enable: ['SecurityContextDeny'] } } });
    assert.equal((await t.client.post('/api/v1/namespaces', { metadata: { name: ns } })).status, 201);
    await ensureDefaultServiceAccount(t.client, ns);
  });
  after(async () => t?.stop());

  /** Creates `obj`, retrying while a plug-in's cache has not yet seen an object made just before. */
  async function eventually(path: string, obj: unknown, ok: (r: Response) => boolean): Promise<Response> {
    return pollUntil(() => t.client.post(path, obj), ok, `POST ${path} to be admitted as expected`);
  }
  /**
   * Creates `obj` once a dry run of it is admitted as `ok` says: a plug-in reads its objects
   * (LimitRanges, PriorityClasses) from an informer, and an object created before the informer has
   * one made just before would be stored without its effect (and could not be created again).
   */
  async function onceAdmitted(path: string, obj: unknown, ok: (r: Response) => boolean): Promise<Response> {
    await eventually(`${path}?dryRun=All`, obj, ok);
    return t.client.post(path, obj);
  }
  const absent = async (name: string) => assert.equal((await t.client.get(`${pods}/${name}`)).status, 404, `${name} was not stored`);

  test('LimitRanger: container defaults are filled in and noted; a limit above the maximum is refused, with dryRun too', async () => {
    const lr = await t.client.post(`/api/v1/namespaces/${ns}/limitranges`, {
      metadata: { name: 'limits' },
      spec: { limits: [{ type: 'Container', default: { cpu: '200m' }, defaultRequest: { cpu: '100m' }, max: { cpu: '1' } }] },
    });
    assert.equal(lr.status, 201, lr.text);
    const r = await onceAdmitted(pods, pod('lr-defaults'), (x) => x.status === 201 && x.body.spec.containers[0].resources?.limits?.cpu === '200m');
    assert.equal(r.status, 201, r.text);
    const body = r.body;
    assert.deepEqual(body.spec.containers[0].resources, { limits: { cpu: '200m' }, requests: { cpu: '100m' } });
    assert.equal(body.metadata.annotations['orch.io/limit-ranger'], 'LimitRanger plugin set: cpu request for container app; cpu limit for container app');
    for (const q of ['', '?dryRun=All']) {
      const big = await t.client.post(`${pods}${q}`, pod('lr-too-big', {}, { resources: { limits: { cpu: '2' } } }));
      assertStatus(big, 403, 'Forbidden');
      assert.equal(big.body.message, 'pods "lr-too-big" is forbidden: maximum cpu usage per Container is 1, but limit is 2');
    }
    await absent('lr-too-big');
    const dry = await t.client.post(`${pods}?dryRun=All`, pod('lr-dry'));
    assert.equal(dry.status, 201, dry.text);
    assert.equal(dry.body.spec.containers[0].resources.limits.cpu, '200m', 'a dry run shows the defaults');
    await absent('lr-dry');
    assert.equal((await t.client.delete(`/api/v1/namespaces/${ns}/limitranges/limits`)).status, 200);
  });

  test('ResourceQuota on pods: compute requests and the pod count are charged to status.used; over the limit is refused', async () => {
    const quotaNs = 'admitted-quota';
    assert.equal((await t.client.post('/api/v1/namespaces', { metadata: { name: quotaNs } })).status, 201);
    await ensureDefaultServiceAccount(t.client, quotaNs);
    const hard = { pods: '2', 'requests.cpu': '1' };
    const q = await t.client.post(`/api/v1/namespaces/${quotaNs}/resourcequotas`, { metadata: { name: 'compute' }, spec: { hard } });
    assert.equal((await t.client.put(`/api/v1/namespaces/${quotaNs}/resourcequotas/compute/status`, { ...q.body, status: { hard, used: { pods: '0', 'requests.cpu': '0' } } })).status, 200);
    const withCPU = (name: string, cpu: string) => pod(name, {}, { resources: { requests: { cpu } } });
    const path = `/api/v1/namespaces/${quotaNs}/pods`;
    await quotasSeen(t.client, quotaNs);
    const first = await t.client.post(path, withCPU('p1', '400m'));
    assert.equal(first.status, 201, first.text);
    const noRequest = await t.client.post(path, pod('p-none'));
    assertStatus(noRequest, 403, 'Forbidden');
    assert.equal(noRequest.body.message, 'pods "p-none" is forbidden: failed quota: compute: must specify requests.cpu for: app');
    const tooMuch = await t.client.post(path, withCPU('p2', '700m'));
    assertStatus(tooMuch, 403, 'Forbidden');
    assert.equal(tooMuch.body.message, 'pods "p2" is forbidden: exceeded quota: compute, requested: requests.cpu=700m, used: requests.cpu=400m, limited: requests.cpu=1');
    assert.equal((await t.client.post(path, withCPU('p2', '600m'))).status, 201);
    const third = await t.client.post(path, withCPU('p3', '0'));
    assertStatus(third, 403, 'Forbidden');
    assert.match(third.body.message, /exceeded quota: compute, requested: pods=1, used: pods=2, limited: pods=2/);
    const stored = await t.client.get(`/api/v1/namespaces/${quotaNs}/resourcequotas/compute`);
    assert.deepEqual(stored.body.status.used, { pods: '2', 'requests.cpu': '1' });
  });

  test('ResourceQuota scopes and scopeSelector: a quota charges only the pods it selects', async () => {
    const scopedNs = 'admitted-scopes';
    assert.equal((await t.client.post('/api/v1/namespaces', { metadata: { name: scopedNs } })).status, 201);
    await ensureDefaultServiceAccount(t.client, scopedNs);
    const quotas = `/api/v1/namespaces/${scopedNs}/resourcequotas`;
    const withStatus = async (name: string, spec: Record<string, unknown>, hard: Record<string, string>) => {
      const q = await t.client.post(quotas, { metadata: { name }, spec: { hard, ...spec } });
      assert.equal(q.status, 201, q.text);
      const used = Object.fromEntries(Object.keys(hard).map((k) => [k, '0']));
      assert.equal((await t.client.put(`${quotas}/${name}/status`, { ...q.body, status: { hard, used } })).status, 200);
    };
    await withStatus('best-effort', { scopes: ['BestEffort'] }, { pods: '1' });
    await withStatus('critical', { scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['system-node-critical'] }] } }, { pods: '1' });
    await quotasSeen(t.client, scopedNs);
    const path = `/api/v1/namespaces/${scopedNs}/pods`;
    const first = await t.client.post(path, pod('be-1'));
    assert.equal(first.status, 201, first.text);
    const second = await eventually(path, pod('be-2'), (r) => r.status === 403);
    assert.match(second.body.message, /exceeded quota: best-effort, requested: pods=1, used: pods=1, limited: pods=1/);
    // Not best-effort and not critical: neither quota selects it.
    const burstable = await t.client.post(path, pod('burstable', {}, { resources: { requests: { cpu: '10m' } } }));
    assert.equal(burstable.status, 201, burstable.text);
    const critical = await t.client.post(path, pod('critical-1', { priorityClassName: 'system-node-critical' }, { resources: { requests: { cpu: '10m' } } }));
    assert.equal(critical.status, 201, critical.text);
    const critical2 = await t.client.post(path, pod('critical-2', { priorityClassName: 'system-node-critical' }, { resources: { requests: { cpu: '10m' } } }));
    assertStatus(critical2, 403, 'Forbidden');
    assert.match(critical2.body.message, /exceeded quota: critical/);
    const used = async (name: string) => (await t.client.get(`${quotas}/${name}`)).body.status.used;
    assert.deepEqual(await used('best-effort'), { pods: '1' });
    assert.deepEqual(await used('critical'), { pods: '1' });
  });

  test('Priority: a class name resolves to its value, the global default applies, unknown classes and a second default are refused', async () => {
    const pcs = '/apis/scheduling.orch.io/v1/priorityclasses';
    assert.equal((await t.client.post(pcs, { metadata: { name: 'high' }, value: 1000, preemptionPolicy: 'Never' })).status, 201);
    const high = await eventually(pods, pod('prio-high', { priorityClassName: 'high' }), (r) => r.status === 201);
    assert.equal(high.body.spec.priority, 1000);
    assert.equal(high.body.spec.preemptionPolicy, 'Never');
    const plain = await t.client.post(pods, pod('prio-none'));
    assert.equal(plain.body.spec.priority, 0, 'no default class yet');
    const unknown = await t.client.post(pods, pod('prio-unknown', { priorityClassName: 'nope' }));
    assertStatus(unknown, 403, 'Forbidden');
    assert.equal(unknown.body.message, 'pods "prio-unknown" is forbidden: no PriorityClass with name nope was found');
    const forged = await t.client.post(pods, pod('prio-forged', { priorityClassName: 'high', priority: 5 }));
    assertStatus(forged, 403, 'Forbidden');
    assert.match(forged.body.message, /the integer value of priority \(5\) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name/);

    assert.equal((await t.client.post(pcs, { metadata: { name: 'everyone' }, value: 10, globalDefault: true })).status, 201);
    const defaulted = await onceAdmitted(pods, pod('prio-default'), (r) => r.status === 201 && r.body.spec.priority === 10);
    assert.equal(defaulted.status, 201, defaulted.text);
    assert.equal(defaulted.body.spec.priority, 10);
    assert.equal(defaulted.body.spec.priorityClassName, 'everyone');
    const second = await eventually(pcs, { metadata: { name: 'everyone-else' }, value: 20, globalDefault: true }, (r) => r.status === 403);
    assertStatus(second, 403, 'Forbidden');
    assert.equal(second.body.message, 'priorityclasses.scheduling.orch.io "everyone-else" is forbidden: PriorityClass everyone is already marked as default. Only one default can exist');
    assert.equal((await t.client.delete(`${pcs}/everyone`)).status, 200);
  });

  test('RuntimeClass: overhead and scheduling come from the class; an unknown class is refused', async () => {
    const rc = await t.client.post('/apis/node.orch.io/v1/runtimeclasses', {
      metadata: { name: 'sandboxed' }, handler: 'runsc',
      overhead: { podFixed: { cpu: '250m', memory: '64Mi' } },
      scheduling: { nodeSelector: { sandbox: 'yes' }, tolerations: [{ key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' }] },
    });
    assert.equal(rc.status, 201, rc.text);
    const r = await eventually(pods, pod('rc-pod', { runtimeClassName: 'sandboxed', nodeSelector: { zone: 'a' } }), (x) => x.status === 201);
    const spec = r.body.spec;
    assert.deepEqual(spec.overhead, { cpu: '250m', memory: '64Mi' });
    assert.deepEqual(spec.nodeSelector, { zone: 'a', sandbox: 'yes' });
    assert.ok(spec.tolerations.some((tol: { key?: string }) => tol.key === 'sandbox'));
    const conflict = await t.client.post(pods, pod('rc-conflict', { runtimeClassName: 'sandboxed', nodeSelector: { sandbox: 'no' } }));
    assertStatus(conflict, 403, 'Forbidden');
    assert.equal(conflict.body.message, 'pods "rc-conflict" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[sandbox] = yes; pod.spec.nodeSelector[sandbox] = no');
    const unknown = await t.client.post(pods, pod('rc-unknown', { runtimeClassName: 'missing' }));
    assertStatus(unknown, 403, 'Forbidden');
    assert.equal(unknown.body.message, 'pods "rc-unknown" is forbidden: pod rejected: RuntimeClass "missing" not found');
  });

  test('SecurityContextDeny (enabled by flag): a pod running as a chosen user is refused; other pods pass', async () => {
    const r = await t.client.post(pods, pod('scd', { securityContext: { runAsUser: 1000 } }));
    assertStatus(r, 403, 'Forbidden');
    assert.equal(r.body.message, 'pods "scd" is forbidden: pod.Spec.SecurityContext.RunAsUser is forbidden');
    const c = await t.client.post(pods, pod('scd-c', {}, { securityContext: { runAsUser: 0 } }));
    assertStatus(c, 403, 'Forbidden');
    assert.equal((await t.client.post(pods, pod('scd-ok', { securityContext: { runAsNonRoot: true } }))).status, 201);
  });

  test('ServiceAccount: a pod naming an account that does not exist is refused', async () => {
    const r = await t.client.post(pods, pod('sa-missing', { serviceAccountName: 'ghost' }));
    assertStatus(r, 403, 'Forbidden');
    assert.equal(r.body.message, 'pods "sa-missing" is forbidden: error looking up service account admitted/ghost: serviceaccount "ghost" not found');
    const off = await t.client.post(pods, pod('sa-no-token', { automountServiceAccountToken: false }));
    assert.equal(off.status, 201, off.text);
    assert.equal(off.body.spec.serviceAccountName, 'default');
    assert.equal(off.body.spec.volumes, undefined, 'no token volume when automount is off');
  });
});

describe('built-in admission plug-ins of namespaces, nodes, tolerations and storage', () => {
  const files = tempFiles('orch-admission-');
  const nodeToken = 'node-token-5f1c0e7a2b';
  let t: TestServer;
  let node: Client;
  before(async () => {
    t = await startTestServer({
      authentication: { ...defaultAuthenticationOptions(), tokenAuthFile: files.write('tokens.csv', `${nodeToken},system:node:worker-1,node-uid,"system:nodes"\n`) },
      admission: { ...defaultAdmissionOptions(), plugins: { enable: ['NodeRestriction', 'PodTolerationRestriction'] }, defaultNotReadyTolerationSeconds: 120 },
    });
    node = t.client.withToken(nodeToken);
  });
  after(async () => {
    await t?.stop();
    files.remove();
  });

  test('NamespaceLifecycle: no content in a missing or terminating namespace; the system namespaces stay', async () => {
    const missing = await t.client.post('/api/v1/namespaces/ghost/configmaps', { metadata: { name: 'x' } });
    assertStatus(missing, 404, 'NotFound');
    assert.equal(missing.body.message, 'namespaces "ghost" not found');
    for (const q of ['', '?dryRun=All']) {
      const r = await t.client.delete(`/api/v1/namespaces/default${q}`);
      assertStatus(r, 403, 'Forbidden');
      assert.equal(r.body.message, 'namespaces "default" is forbidden: this namespace may not be deleted');
    }
    assert.equal((await t.client.post('/api/v1/namespaces', { metadata: { name: 'leaving' } })).status, 201);
    assert.equal((await t.client.delete('/api/v1/namespaces/leaving')).status, 200);
    const late = await pollUntil(() => t.client.post('/api/v1/namespaces/leaving/configmaps', { metadata: { name: 'late' } }), (r) => r.status === 403, 'the terminating namespace to refuse content');
    assert.equal(late.body.message, 'configmaps "late" is forbidden: unable to create new content in namespace leaving because it is being terminated');
    assert.deepEqual(late.body.details.causes, [{ reason: 'NamespaceTerminating', message: 'namespace leaving is being terminated', field: 'metadata.namespace' }]);
  });

  test('DefaultTolerationSeconds and PodTolerationRestriction: defaults merged, the namespace whitelist enforced', async () => {
    const whitelist = [
      { key: 'team', operator: 'Equal', value: 'a', effect: 'NoSchedule' },
      { key: 'node.orch.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
      { key: 'node.orch.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
    ];
    const created = await t.client.post('/api/v1/namespaces', {
      metadata: {
        name: 'tolerant',
        annotations: {
          'scheduler.alpha.orch.io/defaultTolerations': JSON.stringify([whitelist[0]]),
          'scheduler.alpha.orch.io/tolerationsWhitelist': JSON.stringify(whitelist),
        },
      },
    });
    assert.equal(created.status, 201, created.text);
    await ensureDefaultServiceAccount(t.client, 'tolerant');
    const ok = await pollUntil(() => t.client.post('/api/v1/namespaces/tolerant/pods', pod('tolerated')), (r) => r.status === 201, 'the pod to be admitted');
    assert.deepEqual(ok.body.spec.tolerations, [
      { key: 'node.orch.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 120 },
      { key: 'node.orch.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'team', operator: 'Equal', value: 'a', effect: 'NoSchedule' },
    ]);
    const refused = await t.client.post('/api/v1/namespaces/tolerant/pods', pod('intolerable', { tolerations: [{ key: 'gpu', operator: 'Exists' }] }));
    assertStatus(refused, 403, 'Forbidden');
    assert.equal(refused.body.message, 'pods "intolerable" is forbidden: pod tolerations (possibly merged with namespace default tolerations) conflict with its namespace whitelist');
  });

  test('TaintNodesByCondition and NodeRestriction: a new node is tainted not-ready; a node changes only itself and its own pods', async () => {
    const mine = await node.post('/api/v1/nodes', { metadata: { name: 'worker-1' } });
    assert.equal(mine.status, 201, mine.text);
    assert.deepEqual(mine.body.spec.taints, [{ key: 'node.orch.io/not-ready', effect: 'NoSchedule' }]);
    assert.equal((await t.client.post('/api/v1/nodes', { metadata: { name: 'worker-2' } })).status, 201);
    const other = await node.patch('/api/v1/nodes/worker-2', { metadata: { labels: { mine: 'yes' } } });
    assertStatus(other, 403, 'Forbidden');
    assert.equal(other.body.message, 'nodes "worker-2" is forbidden: node "worker-1" is not allowed to modify node "worker-2"');
    const own = await node.patch('/api/v1/nodes/worker-1/status', { status: { conditions: [{ type: 'Ready', status: 'True' }] } });
    assert.equal(own.status, 200, own.text);

    for (const [name, nodeName] of [['runs-here', 'worker-1'], ['runs-there', 'worker-2']] as const) {
      const r = await t.client.post(`/api/v1/namespaces/default/pods`, pod(name, { nodeName }));
      assert.equal(r.status, 201, r.text);
    }
    const here = await node.patch('/api/v1/namespaces/default/pods/runs-here/status', { status: { phase: 'Running' } });
    assert.equal(here.status, 200, here.text);
    const there = await pollUntil(() => node.patch('/api/v1/namespaces/default/pods/runs-there/status', { status: { phase: 'Running' } }), (r) => r.status !== 404, 'the pod cache to hold the pod');
    assertStatus(there, 403, 'Forbidden');
    assert.equal(there.body.message, 'pods "runs-there" is forbidden: node "worker-1" can only update pod status for pods with spec.nodeName set to itself');
    const ordinary = await node.post('/api/v1/namespaces/default/pods', pod('not-mirror', { nodeName: 'worker-1' }));
    assertStatus(ordinary, 403, 'Forbidden');
    assert.match(ordinary.body.message, /node "worker-1" can only create mirror pods$/);
  });

  test('DefaultStorageClass and StorageObjectInUseProtection: claims get the default class; claims and volumes are protected until released', async () => {
    const sc = await t.client.post('/apis/storage.orch.io/v1/storageclasses', {
      metadata: { name: 'fast', annotations: { 'storageclass.orch.io/is-default-class': 'true' } }, provisioner: 'example.com/fast',
    });
    assert.equal(sc.status, 201, sc.text);
    const claim = (name: string, extra: Record<string, unknown> = {}) => ({
      metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...extra },
    });
    const claims = '/api/v1/namespaces/default/persistentvolumeclaims';
    const defaulted = await pollUntil(() => t.client.post(`${claims}?dryRun=All`, claim('data')), (r) => r.status === 201 && r.body.spec.storageClassName === 'fast', 'the default class to be seen');
    assert.deepEqual(defaulted.body.metadata.finalizers, ['orch.io/pvc-protection']);
    const created = await t.client.post(claims, claim('data'));
    assert.equal(created.body.spec.storageClassName, 'fast');
    const explicit = await t.client.post(claims, claim('no-class', { storageClassName: '' }));
    assert.equal(explicit.body.spec.storageClassName, '', 'an explicit empty class is a choice');
    const pv = await t.client.post('/api/v1/persistentvolumes', {
      metadata: { name: 'vol-1' }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data/1' } },
    });
    assert.deepEqual(pv.body.metadata.finalizers, ['orch.io/pv-protection']);

    const del = await t.client.delete(`${claims}/data`);
    assert.equal(del.status, 200, del.text);
    const held = await t.client.get(`${claims}/data`);
    assert.ok(held.body.metadata.deletionTimestamp, 'the claim waits for its protection to be lifted');
    // What the pvc-protection controller does once no pod uses the claim.
    assert.equal((await t.client.patch(`${claims}/data`, { metadata: { finalizers: null } })).status, 200);
    assert.equal((await t.client.get(`${claims}/data`)).status, 404);
  });
});
