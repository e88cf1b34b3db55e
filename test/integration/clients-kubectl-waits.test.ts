// Stock kubectl 1.35.2, whose client-go waits through watch-lists (sendInitialEvents=true) and
// trusts its state only once the server's BOOKMARK annotated `k8s.io/initial-events-end` came,
// against the real server (default domain) with the controllers it waits for running in process:
// `wait --for=condition` and `--for=jsonpath` on objects that become ready while it waits,
// `rollout status` of a Deployment, `delete ns` and `delete --cascade=foreground` each return once
// what they wait for has happened, well inside their own --timeout. Before the server sent that
// bookmark each of them sat until its timeout. helm 4's --wait, which waits the same way, is in
// clients-helm.test.ts.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { deploymentController } from '../../pkg/controller/deployment/controller.js';
import { garbagecollectorController } from '../../pkg/controller/garbagecollector/controller.js';
import { NamespaceController } from '../../pkg/controller/namespace/namespace-controller.js';
import { replicasetController } from '../../pkg/controller/replicaset/controller.js';
import { ensureDefaultServiceAccount, startTestServer, type TestServer } from './framework/apiserver.js';
import { pollUntil } from './framework/authentication.js';
import type { Client } from './framework/client.js';
import { runControllers, type RunningControllers } from './framework/in-process-controller.js';
import { writeKubeconfig, type Kubeconfig } from './framework/kubeconfig.js';
import { Kubectl, stockTools } from './framework/kubectl.js';
import type { ProcessResult } from './framework/process.js';

/** kubectl's own limit: a command that hangs on its watch fails at it, well inside the test process's 30 s. */
const TIMEOUT = '--timeout=20s';

/** The open watches of `resource` (apiserver_longrunning_requests), to know a client is waiting. */
async function watches(c: Client, resource: string): Promise<number> {
  const text = (await c.get('/metrics')).text;
  let n = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('apiserver_longrunning_requests{') && line.includes('verb="WATCH"') && line.includes(`resource="${resource}"`)) n += Number(line.split(' ').pop());
  }
  return n;
}

describe('stock kubectl 1.35 waits through watch-lists', () => {
  let t: TestServer;
  let kc: Kubeconfig;
  let kubectl: Kubectl;
  let controllers: RunningControllers;
  before(async () => {
    assert.ok(existsSync(stockTools.kubectl135), `${stockTools.kubectl135} (make test installs it: hack/install-layer-tools.sh)`);
    t = await startTestServer();
    kc = writeKubeconfig(t);
    kubectl = new Kubectl(kc, stockTools.kubectl135);
    controllers = await runControllers(t, [() => new NamespaceController(), garbagecollectorController, deploymentController, replicasetController]);
  });
  after(async () => {
    await controllers?.stop();
    kc?.remove();
    await t?.stop();
  });

  /** Runs kubectl, and once it watches `resource` (one more open watch of it), makes what it waits for happen. */
  const waitFor = async (args: string[], resource: string, happen: () => Promise<void>): Promise<ProcessResult> => {
    const before = await watches(t.client, resource);
    const running = kubectl.run(args);
    await pollUntil(() => watches(t.client, resource), (n) => n > before, `kubectl to watch ${resource}`, 20_000);
    await happen();
    return running;
  };

  test('wait --for=condition=Ready returns once the pod becomes ready', async () => {
    const pods = '/api/v1/namespaces/default/pods';
    await ensureDefaultServiceAccount(t.client, 'default');
    const created = await t.client.post(pods, { metadata: { name: 'waited' }, spec: { containers: [{ name: 'c', image: 'registry.example/app:1' }] } });
    assert.equal(created.status, 201, created.text);
    const r = await waitFor(['wait', '--for=condition=Ready', 'pod/waited', TIMEOUT], 'pods', async () => {
      const st = await t.client.patch(`${pods}/waited/status`, { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } });
      assert.equal(st.status, 200, st.text);
    });
    assert.equal(r.code, 0, r.describe());
    assert.match(r.stdout, /^pod\/waited condition met$/m);
  });

  test('wait --for=jsonpath returns once the field has the value', async () => {
    const cms = '/api/v1/namespaces/default/configmaps';
    assert.equal((await t.client.post(cms, { metadata: { name: 'flag' }, data: { ready: 'no' } })).status, 201);
    const r = await waitFor(['wait', '--for=jsonpath={.data.ready}=yes', 'configmap/flag', TIMEOUT], 'configmaps', async () => {
      assert.equal((await t.client.patch(`${cms}/flag`, { data: { ready: 'yes' } })).status, 200);
    });
    assert.equal(r.code, 0, r.describe());
    assert.match(r.stdout, /^configmap\/flag condition met$/m);
  });

  test('rollout status returns once the deployment controller reports the rollout done', async () => {
    const made = await kubectl.run(['create', 'deployment', 'rolled', '--image=registry.example/app:1', '--replicas=0']);
    assert.equal(made.code, 0, made.describe());
    const r = await kubectl.run(['rollout', 'status', 'deployment/rolled', TIMEOUT]);
    assert.equal(r.code, 0, r.describe());
    assert.match(r.stdout, /deployment "rolled" successfully rolled out/);
    const d = await t.client.get('/apis/apps/v1/namespaces/default/deployments/rolled');
    assert.equal(d.body.status.observedGeneration, d.body.metadata.generation, 'what rollout status waited for');
  });

  test('delete ns returns once the namespace controller has emptied the namespace and it is gone', async () => {
    assert.equal((await t.client.post('/api/v1/namespaces', { metadata: { name: 'leaving' } })).status, 201);
    assert.equal((await t.client.post('/api/v1/namespaces/leaving/configmaps', { metadata: { name: 'content' } })).status, 201);
    const r = await kubectl.run(['delete', 'namespace', 'leaving', TIMEOUT]);
    assert.equal(r.code, 0, r.describe());
    assert.match(r.stdout, /^namespace "leaving" deleted$/m);
    assert.equal((await t.client.get('/api/v1/namespaces/leaving')).status, 404, 'kubectl returned after the namespace went');
  });

  test('delete --cascade=foreground returns once the garbage collector has deleted the dependents and then the owner', async () => {
    const cms = '/api/v1/namespaces/default/configmaps';
    const owner = await t.client.post(cms, { metadata: { name: 'owner' } });
    assert.equal(owner.status, 201, owner.text);
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.body.metadata.uid, blockOwnerDeletion: true };
    assert.equal((await t.client.post(cms, { metadata: { name: 'dependent', ownerReferences: [ref] } })).status, 201);
    // The collector must know the dependent before the owner goes, or it would have nothing to wait for.
    await pollUntil(() => t.client.get(`${cms}/dependent`), (r) => r.status === 200, 'the dependent to exist');
    const r = await kubectl.run(['delete', 'configmap', 'owner', '--cascade=foreground', TIMEOUT]);
    assert.equal(r.code, 0, r.describe());
    assert.match(r.stdout, /^configmap "owner" deleted/m);
    assert.equal((await t.client.get(`${cms}/owner`)).status, 404, 'kubectl returned after the owner went');
    assert.equal((await t.client.get(`${cms}/dependent`)).status, 404, 'the dependent went first');
  });
});
