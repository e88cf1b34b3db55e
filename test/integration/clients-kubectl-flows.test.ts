// The stock kubectl flows a user runs on day one, against the real server: `run`, `create
// deployment`, `expose`, `describe statefulset` (its pods and events), `get all`, `cluster-info`,
// `drain --dry-run=server` (evictions through the eviction sub-resource, one refused by a
// disruption budget) and `apply --prune` with kubectl's default allow-list, which resolves every
// kind of that list (upstream group names: a server with --api-domain k8s.io).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { APIServerOptions } from '../../cmd/apiserver/app/options.js';
import { ensureDefaultServiceAccount, startTestServer, type TestServer } from './framework/apiserver.js';
import { pollUntil } from './framework/authentication.js';
import { writeKubeconfig, type Kubeconfig } from './framework/kubeconfig.js';
import { Kubectl } from './framework/kubectl.js';

function flows(title: string, overrides: Partial<APIServerOptions>, body: (ctx: () => { t: TestServer; kubectl: Kubectl; kc: Kubeconfig }) => void): void {
  describe(title, () => {
    let t: TestServer;
    let kc: Kubeconfig;
    let kubectl: Kubectl;
    before(async () => {
      t = await startTestServer(overrides);
      kc = writeKubeconfig(t);
      kubectl = new Kubectl(kc);
      await ensureDefaultServiceAccount(t.client, 'default');
    });
    after(async () => {
      kc?.remove();
      await t?.stop();
    });
    body(() => ({ t, kubectl, kc }));
  });
}

flows('kubectl day-one flows', {}, (ctx) => {
  test('run, create deployment, expose and get all', async () => {
    const { t, kubectl } = ctx();
    assert.match((await kubectl.ok(['run', 'web', '--image=registry.example/nginx:1'])).stdout, /^pod\/web created$/m);
    const pod = await t.client.get('/api/v1/namespaces/default/pods/web');
    assert.equal(pod.body.metadata.labels.run, 'web');
    assert.equal(pod.body.spec.serviceAccountName, 'default', 'the ServiceAccount plug-in named the account');
    assert.match((await kubectl.ok(['create', 'deployment', 'shop', '--image=registry.example/shop:1', '--replicas=2'])).stdout, /^deployment.apps\/shop created$/m);
    assert.match((await kubectl.ok(['expose', 'deployment', 'shop', '--port=80', '--target-port=8080'])).stdout, /^service\/shop exposed$/m);
    const svc = await t.client.get('/api/v1/namespaces/default/services/shop');
    assert.deepEqual(svc.body.spec.selector, { app: 'shop' });
    assert.deepEqual(svc.body.spec.ports, [{ protocol: 'TCP', port: 80, targetPort: 8080 }]);
    assert.match(svc.body.spec.clusterIP, /^10\.0\.0\.\d+$/);
    const all = (await kubectl.ok(['get', 'all'])).stdout;
    for (const line of [/^pod\/web\s+0\/1\s+Pending\s+0\s+/m, /^service\/kubernetes\s+ClusterIP\s+10\.0\.0\.1\s+<none>\s+443\/TCP/m,
      /^service\/shop\s+ClusterIP\s+10\.0\.0\.\d+\s+<none>\s+80\/TCP/m, /^deployment.apps\/shop\s+0\/2\s+0\s+0\s+/m]) {
      assert.match(all, line);
    }
  });

  test('describe statefulset shows its pods and its events', async () => {
    const { t, kubectl } = ctx();
    const sts = await t.client.post('/apis/apps/v1/namespaces/default/statefulsets', {
      metadata: { name: 'db' },
      spec: { serviceName: 'db', replicas: 1, selector: { matchLabels: { app: 'db' } }, template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'db', image: 'registry.example/db:1' }] } } },
    });
    assert.equal(sts.status, 201, sts.text);
    const owner = { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: sts.body.metadata.uid, controller: true };
    // What the statefulset controller would make and record (it is not part of this server).
    const pod = await t.client.post('/api/v1/namespaces/default/pods', {
      metadata: { name: 'db-0', labels: { app: 'db' }, ownerReferences: [owner] },
      spec: { containers: [{ name: 'db', image: 'registry.example/db:1' }] },
    });
    assert.equal(pod.status, 201, pod.text);
    const ev = await t.client.post('/api/v1/namespaces/default/events', {
      metadata: { name: 'db.create' },
      involvedObject: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', namespace: 'default', uid: sts.body.metadata.uid },
      reason: 'SuccessfulCreate', message: 'create Pod db-0 in StatefulSet db successful', type: 'Normal',
      source: { component: 'statefulset-controller' }, firstTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      lastTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'), count: 1,
    });
    assert.equal(ev.status, 201, ev.text);
    const out = (await kubectl.ok(['describe', 'statefulset', 'db'])).stdout;
    assert.match(out, /^Name:\s+db$/m);
    assert.match(out, /^Pods Status:\s+0 Running \/ 1 Waiting \/ 0 Succeeded \/ 0 Failed$/m);
    assert.match(out, /^\s+Normal\s+SuccessfulCreate\s+\S+\s+statefulset-controller\s+create Pod db-0 in StatefulSet db successful$/m);
  });

  test('cluster-info names the control plane', async () => {
    const { kubectl, kc } = ctx();
    // kubectl colours this line whatever NO_COLOR says.
    const out = (await kubectl.ok(['cluster-info'])).stdout.replace(/\x1b\[[0-9;]*m/g, '');
    assert.ok(out.includes(`Kubernetes control plane is running at ${kc.server}`), out);
  });

  test('drain --dry-run=server cordons and evicts nothing for real; a budget at zero refuses the eviction', async () => {
    const { t, kubectl } = ctx();
    assert.equal((await t.client.post('/api/v1/nodes', { metadata: { name: 'worker-1' } })).status, 201);
    for (const name of ['on-node-a', 'on-node-b']) {
      const r = await t.client.post('/api/v1/namespaces/default/pods', {
        metadata: { name, labels: { app: name } }, spec: { nodeName: 'worker-1', containers: [{ name: 'app', image: 'registry.example/app:1' }] },
      });
      assert.equal(r.status, 201, r.text);
      // Running and ready, so the budget protects it (there is no kubelet to say so).
      const st = await t.client.patch(`/api/v1/namespaces/default/pods/${name}/status`, { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } });
      assert.equal(st.status, 200, st.text);
    }
    const dry = await kubectl.ok(['drain', 'worker-1', '--dry-run=server', '--force', '--pod-selector=app=on-node-a']);
    assert.match(dry.stdout, /^node\/worker-1 cordoned \(server dry run\)$/m);
    assert.match(dry.stdout, /^evicting pod default\/on-node-a \(server dry run\)$/m);
    assert.match(dry.stdout, /^node\/worker-1 drained \(server dry run\)$/m);
    assert.equal((await t.client.get('/api/v1/nodes/worker-1')).body.spec?.unschedulable, undefined, 'not cordoned for real');
    assert.equal((await t.client.get('/api/v1/namespaces/default/pods/on-node-a')).status, 200, 'not evicted for real');

    const pdb = await t.client.post('/apis/policy/v1/namespaces/default/poddisruptionbudgets', {
      metadata: { name: 'keep-b' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'on-node-b' } } },
    });
    assert.equal(pdb.status, 201, pdb.text);
    // The disruption controller's verdict (it is not part of this server): nothing may go.
    const st = await t.client.put('/apis/policy/v1/namespaces/default/poddisruptionbudgets/keep-b/status', {
      ...pdb.body, status: { observedGeneration: pdb.body.metadata.generation, disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 },
    });
    assert.equal(st.status, 200, st.text);
    const refused = await kubectl.run(['drain', 'worker-1', '--dry-run=server', '--force', '--pod-selector=app=on-node-b', '--timeout=3s']);
    assert.notEqual(refused.code, 0, refused.describe());
    assert.match(refused.stderr + refused.stdout, /Cannot evict pod as it would violate the pod's disruption budget/);
    assert.equal((await t.client.get('/api/v1/namespaces/default/pods/on-node-b')).status, 200);
  });
});

flows('kubectl apply --prune with the default allow-list (upstream group names)', { apiDomain: 'k8s.io' }, (ctx) => {
  test('objects of the set that left the manifest are pruned; others stay', async () => {
    const { t, kubectl, kc } = ctx();
    const cm = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  labels: {set: pruned}\ndata: {a: b}\n`;
    const file = join(kc.dir, 'set.yaml');
    writeFileSync(file, [cm('keep'), cm('drop')].join('---\n'));
    assert.equal((await t.client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'outside', labels: { set: 'other' } } })).status, 201);
    await kubectl.ok(['apply', '--prune', '-l', 'set=pruned', '-f', file]);
    writeFileSync(file, cm('keep'));
    const r = await kubectl.ok(['apply', '--prune', '-l', 'set=pruned', '-f', file]);
    assert.match(r.stdout, /^configmap\/keep unchanged$/m);
    assert.match(r.stdout, /^configmap\/drop pruned$/m);
    await pollUntil(() => t.client.get('/api/v1/namespaces/default/configmaps/drop'), (x) => x.status === 404, 'the pruned ConfigMap to go');
    assert.equal((await t.client.get('/api/v1/namespaces/default/configmaps/keep')).status, 200);
    assert.equal((await t.client.get('/api/v1/namespaces/default/configmaps/outside')).status, 200);
  });
});
