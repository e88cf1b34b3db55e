// Pods through the real server: defaults (phase, QoS class, the PodSpec defaults), validation with
// one cause per bad field, the spec fixed but for images and a few scheduling fields, Table
// columns as `kubectl get pods` prints them, field selectors, and the binding, eviction,
// ephemeralcontainers and status sub-resources; last, the real kubectl's get and describe.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ensureDefaultServiceAccount, startTestServer, type TestServer } from './framework/apiserver.js';
import { assertStatus } from './framework/assertions.js';
import { writeKubeconfig, type Kubeconfig } from './framework/kubeconfig.js';
import { Kubectl } from './framework/kubectl.js';

const ns = 'pods-test';
const pods = `/api/v1/namespaces/${ns}/pods`;
const pdbs = `/apis/policy/v1/namespaces/${ns}/poddisruptionbudgets`;
const tableAccept = { Accept: 'application/json;as=Table;v=v1;g=meta.orch.io' };

const causes = (r: { body: any }) => (r.body.details?.causes ?? []).map((c: { field: string }) => c.field).sort();

const pod = (name: string, extra: Record<string, unknown> = {}, labels: Record<string, string> = {}) => ({
  apiVersion: 'v1', kind: 'Pod',
  metadata: { name, labels },
  spec: { containers: [{ name: 'app', image: 'nginx' }], ...extra },
});

describe('pods', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    const r = await t.client.post('/api/v1/namespaces', { metadata: { name: ns } });
    assert.equal(r.status, 201, r.text);
    await ensureDefaultServiceAccount(t.client, ns);
  });
  after(async () => t?.stop());

  async function create(body: unknown) {
    const r = await t.client.post(pods, body);
    assert.equal(r.status, 201, r.text);
    return r.body;
  }

  /** Writes the pod's status through /status (there is no kubelet). */
  async function setStatus(name: string, status: Record<string, unknown>) {
    const r = await t.client.patch(`${pods}/${name}/status`, { status });
    assert.equal(r.status, 200, r.text);
    return r.body;
  }

  test('a new pod is Pending with its QoS class, and the PodSpec defaults are filled in', async () => {
    const p = await create(pod('defaults'));
    assert.equal(p.status.phase, 'Pending');
    assert.equal(p.status.qosClass, 'BestEffort');
    assert.equal(p.metadata.generation, 1);
    assert.equal(p.spec.restartPolicy, 'Always');
    assert.equal(p.spec.dnsPolicy, 'ClusterFirst');
    assert.equal(p.spec.terminationGracePeriodSeconds, 30);
    assert.equal(p.spec.schedulerName, 'default-scheduler');
    assert.equal(p.spec.enableServiceLinks, true);
    assert.deepEqual(p.spec.securityContext, {});
    assert.equal(p.spec.containers[0].imagePullPolicy, 'Always');
    assert.equal(p.spec.containers[0].terminationMessagePath, '/dev/termination-log');
    assert.equal(p.spec.containers[0].terminationMessagePolicy, 'File');

    // Limits alone become requests too, which makes the pod Guaranteed.
    const limited = await create({
      ...pod('guaranteed'),
      spec: { containers: [{ name: 'app', image: 'nginx:1.25', resources: { limits: { cpu: '500m', memory: '64Mi' } } }] },
    });
    assert.deepEqual(limited.spec.containers[0].resources.requests, { cpu: '500m', memory: '64Mi' });
    assert.equal(limited.spec.containers[0].imagePullPolicy, 'IfNotPresent');
    assert.equal(limited.status.qosClass, 'Guaranteed');
    const burstable = await create({
      ...pod('burstable'),
      spec: { containers: [{ name: 'app', image: 'nginx', resources: { requests: { cpu: '100m' } } }] },
    });
    assert.equal(burstable.status.qosClass, 'Burstable');
    // A status sent at creation is replaced.
    const sent = await create({ ...pod('sent-status'), status: { phase: 'Running', podIP: '10.0.0.9' } });
    assert.deepEqual(sent.status, { phase: 'Pending', qosClass: 'BestEffort' });
  });

  test('validation: one cause per bad field, at upstream paths', async () => {
    const r = await t.client.post(pods, {
      metadata: { name: 'bad' },
      spec: {
        containers: [{ name: 'Bad_Name', image: ' nginx' }, { name: 'ok', image: 'nginx', ports: [{ containerPort: 0 }] }],
        restartPolicy: 'Sometimes',
        activeDeadlineSeconds: 0,
      },
    });
    assertStatus(r, 422, 'Invalid');
    assert.deepEqual(causes(r), [
      'spec.activeDeadlineSeconds', 'spec.containers[0].image', 'spec.containers[0].name',
      'spec.containers[1].ports[0].containerPort', 'spec.restartPolicy',
    ]);
    assert.match(r.body.message, /^Pod "bad" is invalid: /);
    assert.match(r.body.message, /spec\.containers\[0\]\.image: Invalid value: " nginx": must not have leading or trailing whitespace/);

    const ephemeral = await t.client.post(pods, pod('ephemeral-at-create', {
      ephemeralContainers: [{ name: 'debug', image: 'busybox' }],
    }));
    assertStatus(ephemeral, 422, 'Invalid');
    assert.deepEqual(causes(ephemeral), ['spec.ephemeralContainers']);
    assert.match(ephemeral.body.message, /spec\.ephemeralContainers: Forbidden: cannot be set on create/);
  });

  test('the spec is fixed but for images, activeDeadlineSeconds and added tolerations', async () => {
    const p = await create(pod('fixed'));
    const changed = structuredClone(p);
    changed.spec.hostname = 'other';
    const refused = await t.client.put(`${pods}/fixed`, changed);
    assertStatus(refused, 422, 'Invalid');
    assert.deepEqual(causes(refused), ['spec']);
    assert.match(refused.body.details.causes[0].message,
      /^Forbidden: pod updates may not change fields other than `spec\.containers\[\*\]\.image`,`spec\.initContainers\[\*\]\.image`,`spec\.activeDeadlineSeconds`,`spec\.tolerations` \(only additions to existing tolerations\),`spec\.terminationGracePeriodSeconds` \(allow it to be set to 1 if it was previously negative\)/);

    const more = structuredClone(p);
    more.spec.containers.push({ name: 'second', image: 'nginx' });
    const added = await t.client.put(`${pods}/fixed`, more);
    assertStatus(added, 422, 'Invalid');
    assert.match(added.body.message, /spec\.containers: Forbidden: pod updates may not add or remove containers/);

    const allowed = await t.client.patch(`${pods}/fixed`, {
      spec: { containers: [{ name: 'app', image: 'nginx:1.27' }], activeDeadlineSeconds: 600, tolerations: [{ key: 'k', operator: 'Exists' }] },
    }, 'application/strategic-merge-patch+json');
    assert.equal(allowed.status, 200, allowed.text);
    assert.equal(allowed.body.spec.containers[0].image, 'nginx:1.27');
    assert.equal(allowed.body.metadata.generation, 2);
    const longer = await t.client.patch(`${pods}/fixed`, { spec: { activeDeadlineSeconds: 900 } });
    assertStatus(longer, 422, 'Invalid');
    assert.match(longer.body.message, /spec\.activeDeadlineSeconds: Invalid value: 900: must be less than or equal to previous value/);
    const removed = await t.client.patch(`${pods}/fixed`, { spec: { tolerations: null } });
    assertStatus(removed, 422, 'Invalid');
    assert.match(removed.body.message, /existing toleration can not be modified except its tolerationSeconds/);
  });

  test('Table columns as kubectl get pods prints them, from the status the node reports', async () => {
    await create(pod('table', { readinessGates: [{ conditionType: 'example.com/gate' }] }));
    let r = await t.client.get(`${pods}/table`, { headers: tableAccept });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.columnDefinitions.map((c: any) => [c.name, c.priority]), [
      ['Name', 0], ['Ready', 0], ['Status', 0], ['Restarts', 0], ['Age', 0],
      ['IP', 1], ['Node', 1], ['Nominated Node', 1], ['Readiness Gates', 1],
    ]);
    assert.deepEqual(r.body.rows[0].cells.filter((_: unknown, i: number) => i !== 4), ['table', '0/1', 'Pending', '0', '<none>', '<none>', '<none>', '0/1']);

    const finished = new Date(Date.now() - 120_000).toISOString().replace(/\.\d+Z$/, 'Z');
    await setStatus('table', {
      phase: 'Running',
      podIPs: [{ ip: '10.1.2.3' }], podIP: '10.1.2.3', nominatedNodeName: 'node-9',
      conditions: [{ type: 'example.com/gate', status: 'True' }],
      containerStatuses: [{
        name: 'app', ready: false, restartCount: 4, image: 'nginx', imageID: '',
        state: { waiting: { reason: 'CrashLoopBackOff' } },
        lastState: { terminated: { exitCode: 1, finishedAt: finished } },
      }],
    });
    r = await t.client.get(`${pods}/table`, { headers: tableAccept });
    const cells = r.body.rows[0].cells.filter((_: unknown, i: number) => i !== 4);
    // Two minutes, and the seconds a slow machine took since (kubectl prints 2m, 2m1s, ...).
    assert.match(cells[3], /^4 \(2m(\d+s)? ago\)$/);
    assert.deepEqual(cells.filter((_: unknown, i: number) => i !== 3), ['table', '0/1', 'CrashLoopBackOff', '10.1.2.3', '<none>', 'node-9', '1/1']);

    await setStatus('table', {
      containerStatuses: [{ name: 'app', ready: true, restartCount: 0, image: 'nginx', imageID: '', state: { running: { startedAt: finished } } }],
    });
    r = await t.client.get(`${pods}/table`, { headers: tableAccept });
    assert.deepEqual(r.body.rows[0].cells.slice(1, 4), ['1/1', 'Running', '0']);
  });

  test('binding assigns the node once; the next binding is a Conflict; spec.nodeName selects', async () => {
    await create(pod('bind-me'));
    await create(pod('bind-legacy'));
    const binding = (name: string, node: string) => ({ apiVersion: 'v1', kind: 'Binding', metadata: { name }, target: { apiVersion: 'v1', kind: 'Node', name: node } });
    const r = await t.client.post(`${pods}/bind-me/binding`, binding('bind-me', 'node-1'));
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.kind, 'Status');
    assert.equal(r.body.status, 'Success');
    const bound = (await t.client.get(`${pods}/bind-me`)).body;
    assert.equal(bound.spec.nodeName, 'node-1');
    assert.equal(bound.status.conditions.find((c: any) => c.type === 'PodScheduled')?.status, 'True');

    const again = await t.client.post(`${pods}/bind-me/binding`, binding('bind-me', 'node-2'));
    assertStatus(again, 409, 'Conflict');
    assert.equal(again.body.message, 'Operation cannot be fulfilled on pods/binding "bind-me": pod bind-me is already assigned to node "node-1"');

    const legacy = await t.client.post(`/api/v1/namespaces/${ns}/bindings`, binding('bind-legacy', 'node-2'));
    assert.equal(legacy.status, 201, legacy.text);
    const wrongKind = await t.client.post(`${pods}/bind-me/binding`, { ...binding('bind-me', 'x'), target: { kind: 'Pod', name: 'x' } });
    assertStatus(wrongKind, 422, 'Invalid');
    assert.deepEqual(causes(wrongKind), ['target.kind']);
    const wrongName = await t.client.post(`${pods}/bind-me/binding`, binding('other', 'node-1'));
    assertStatus(wrongName, 400, 'BadRequest');

    const onNode1 = await t.client.get(`${pods}?fieldSelector=spec.nodeName%3Dnode-1`);
    assert.equal(onNode1.status, 200, onNode1.text);
    assert.deepEqual(onNode1.body.items.map((i: any) => i.metadata.name), ['bind-me']);
    const unassigned = await t.client.get(`${pods}?fieldSelector=spec.nodeName%3D,status.phase%3DPending`);
    assert.ok(!unassigned.body.items.some((i: any) => ['bind-me', 'bind-legacy'].includes(i.metadata.name)));
    assert.ok(unassigned.body.items.some((i: any) => i.metadata.name === 'defaults'));
    const unknownField = await t.client.get(`${pods}?fieldSelector=spec.hostname%3Dx`);
    assertStatus(unknownField, 400, 'BadRequest');
  });

  describe('eviction', () => {
    const runningReady = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] };
    const eviction = (name: string, extra: Record<string, unknown> = {}) => ({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name }, ...extra });

    async function budget(name: string, app: string, disruptionsAllowed: number) {
      const r = await t.client.post(pdbs, { metadata: { name }, spec: { minAvailable: 1, selector: { matchLabels: { app } } } });
      assert.equal(r.status, 201, r.text);
      const s = await t.client.put(`${pdbs}/${name}/status`, {
        ...r.body, status: { observedGeneration: 1, disruptionsAllowed, currentHealthy: 2, desiredHealthy: 1, expectedPods: 2 },
      });
      assert.equal(s.status, 200, s.text);
    }

    test('allowed by the budget: the pod goes and the budget records it', async () => {
      await budget('web', 'web', 1);
      await create(pod('web-1', {}, { app: 'web' }));
      await setStatus('web-1', runningReady);
      const r = await t.client.post(`${pods}/web-1/eviction`, eviction('web-1'));
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.kind, 'Status');
      assert.equal(r.body.status, 'Success');
      assertStatus(await t.client.get(`${pods}/web-1`), 404, 'NotFound');
      const b = (await t.client.get(`${pdbs}/web`)).body;
      assert.equal(b.status.disruptionsAllowed, 0);
      assert.deepEqual(Object.keys(b.status.disruptedPods), ['web-1']);
      assert.ok(!Number.isNaN(Date.parse(b.status.disruptedPods['web-1'])));
    });

    test('refused by a budget that allows no disruption: 429 naming the budget, the pod stays', async () => {
      await budget('db', 'db', 0);
      await create(pod('db-1', {}, { app: 'db' }));
      await setStatus('db-1', runningReady);
      const r = await t.client.post(`${pods}/db-1/eviction`, eviction('db-1'));
      assertStatus(r, 429, 'TooManyRequests');
      assert.equal(r.body.message, 'Cannot evict pod as it would violate the pod\'s disruption budget.');
      assert.deepEqual(r.body.details.causes, [{ reason: 'DisruptionBudget', message: 'The disruption budget db needs 1 healthy pods and has 2 currently' }]);
      assert.equal((await t.client.get(`${pods}/db-1`)).status, 200);

      // A pod that is not running is not protected.
      await create(pod('db-pending', {}, { app: 'db' }));
      const pending = await t.client.post(`${pods}/db-pending/eviction`, eviction('db-pending'));
      assert.equal(pending.status, 201, pending.text);
      assertStatus(await t.client.get(`${pods}/db-pending`), 404, 'NotFound');
    });

    test('dryRun checks the budget but changes nothing', async () => {
      await budget('cache', 'cache', 1);
      await create(pod('cache-1', {}, { app: 'cache' }));
      await setStatus('cache-1', runningReady);
      const before = (await t.client.get(`${pdbs}/cache`)).body;
      const r = await t.client.post(`${pods}/cache-1/eviction?dryRun=All`, eviction('cache-1'));
      assert.equal(r.status, 201, r.text);
      const inBody = await t.client.post(`${pods}/cache-1/eviction`, eviction('cache-1', { deleteOptions: { dryRun: ['All'] } }));
      assert.equal(inBody.status, 201, inBody.text);
      assert.equal((await t.client.get(`${pods}/cache-1`)).status, 200);
      const afterwards = (await t.client.get(`${pdbs}/cache`)).body;
      assert.equal(afterwards.metadata.resourceVersion, before.metadata.resourceVersion);
      assert.equal(afterwards.status.disruptionsAllowed, 1);
    });

    test('two budgets for one pod are not supported', async () => {
      await budget('multi-a', 'multi', 1);
      await budget('multi-b', 'multi', 1);
      await create(pod('multi-1', {}, { app: 'multi' }));
      await setStatus('multi-1', runningReady);
      const r = await t.client.post(`${pods}/multi-1/eviction`, eviction('multi-1'));
      assert.equal(r.status, 500, r.text);
      assert.equal(r.body.message, 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.');
      assert.equal((await t.client.get(`${pods}/multi-1`)).status, 200);
    });

    test('discovery names Eviction and Binding as the kinds of their sub-resources', async () => {
      const r = await t.client.get('/api/v1');
      const byName = new Map((r.body.resources as any[]).map((x) => [x.name, x]));
      assert.deepEqual({ ...byName.get('pods/eviction'), singularName: undefined }, { name: 'pods/eviction', singularName: undefined, namespaced: true, group: 'policy', version: 'v1', kind: 'Eviction', verbs: ['create'] });
      assert.equal(byName.get('pods/binding').kind, 'Binding');
      assert.deepEqual(byName.get('pods/ephemeralcontainers').verbs, ['get', 'patch', 'update']);
      assert.deepEqual(byName.get('bindings').verbs, ['create']);
      assert.deepEqual(byName.get('pods').shortNames, ['po']);
      assert.deepEqual(byName.get('pods').categories, ['all']);
    });
  });

  test('ephemeralcontainers: added through the sub-resource, never removed or changed', async () => {
    await create(pod('debug-me'));
    const got = await t.client.get(`${pods}/debug-me/ephemeralcontainers`);
    assert.equal(got.status, 200, got.text);
    assert.equal(got.body.kind, 'Pod');
    const added = await t.client.patch(`${pods}/debug-me/ephemeralcontainers`, {
      spec: { ephemeralContainers: [{ name: 'debug', image: 'busybox', targetContainerName: 'app', stdin: true, tty: true }] },
    }, 'application/strategic-merge-patch+json');
    assert.equal(added.status, 200, added.text);
    assert.equal(added.body.spec.ephemeralContainers[0].name, 'debug');
    assert.equal(added.body.spec.ephemeralContainers[0].terminationMessagePolicy, 'File');
    assert.equal(added.body.metadata.generation, 2);

    // Only spec.ephemeralContainers is taken from the sub-resource's body.
    const withOther = structuredClone(added.body);
    withOther.spec.hostname = 'ignored';
    withOther.spec.ephemeralContainers = [];
    const removed = await t.client.put(`${pods}/debug-me/ephemeralcontainers`, withOther);
    assertStatus(removed, 422, 'Invalid');
    assert.match(removed.body.message, /spec\.ephemeralContainers: Forbidden: existing ephemeral containers "debug" may not be removed/);

    const changed = await t.client.patch(`${pods}/debug-me/ephemeralcontainers`, {
      spec: { ephemeralContainers: [{ name: 'debug', image: 'alpine' }] },
    }, 'application/strategic-merge-patch+json');
    assertStatus(changed, 422, 'Invalid');
    assert.match(changed.body.message, /existing ephemeral containers "debug" may not be changed/);

    const badTarget = await t.client.patch(`${pods}/debug-me/ephemeralcontainers`, {
      spec: { ephemeralContainers: [{ name: 'probe', image: 'busybox', targetContainerName: 'nope', ports: [{ containerPort: 80 }] }] },
    }, 'application/strategic-merge-patch+json');
    assertStatus(badTarget, 422, 'Invalid');
    // A strategic merge patch puts the patch's items first.
    assert.deepEqual(causes(badTarget), ['spec.ephemeralContainers[0].ports', 'spec.ephemeralContainers[0].targetContainerName']);

    // The main resource refuses to change them.
    const viaMain = await t.client.patch(`${pods}/debug-me`, { spec: { ephemeralContainers: [{ name: 'debug', image: 'busybox', targetContainerName: 'app', stdin: true, tty: true }, { name: 'x', image: 'busybox' }] } },
      'application/strategic-merge-patch+json');
    assertStatus(viaMain, 422, 'Invalid');
    assert.deepEqual(causes(viaMain), ['spec']);
  });

  describe('kubectl', () => {
    let kc: Kubeconfig;
    let kubectl: Kubectl;
    before(() => {
      kc = writeKubeconfig(t);
      kubectl = new Kubectl(kc);
    });
    after(() => kc?.remove());

    test('kubectl get pods (wide) and kubectl describe pod', async () => {
      await create(pod('kubectl-pod'));
      const get = await kubectl.ok(['-n', ns, 'get', 'pods', 'kubectl-pod', '-o', 'wide']);
      const [header, row] = get.stdout.trim().split('\n');
      assert.match(header!, /^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\s+IP\s+NODE\s+NOMINATED NODE\s+READINESS GATES$/);
      assert.match(row!, /^kubectl-pod\s+0\/1\s+Pending\s+0\s+\S+\s+<none>\s+<none>\s+<none>\s+<none>$/);
      const short = await kubectl.ok(['-n', ns, 'get', 'po', 'kubectl-pod', '-o', 'jsonpath={.status.qosClass}']);
      assert.equal(short.stdout, 'BestEffort');
      const describe = await kubectl.ok(['-n', ns, 'describe', 'pod', 'kubectl-pod']);
      assert.match(describe.stdout, /^Name:\s+kubectl-pod$/m);
      assert.match(describe.stdout, /^Status:\s+Pending$/m);
      assert.match(describe.stdout, /^QoS Class:\s+BestEffort$/m);
      assert.match(describe.stdout, /Image:\s+nginx/);
    });
  });
});
