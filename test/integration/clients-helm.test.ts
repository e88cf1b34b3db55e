// Stock helm 3.17 and 4.1 through the everyday lifecycle of a release, against the real server with
// upstream's group names (--api-domain k8s.io, which stock clients hard-code) and the real
// controller manager: install, upgrade, rollback, uninstall and a reinstall of the same name, each
// with --wait (helm 4 waits through watch-lists, as kubectl 1.35 does: clients-kubectl-waits.test.ts).
// Nothing runs pods here, so a fake node agent reports pods Ready, and only once the test lets it:
// the install is seen waiting first, then seen finishing once the pods are Ready.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { defaultOptions } from '../../cmd/controller-manager/app/options.js';
import { runControllerManager, type RunningControllerManager } from '../../cmd/controller-manager/app/server.js';
import { Logger } from '../../pkg/log/logger.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { pollUntil } from './framework/authentication.js';
import { writeKubeconfig, type Kubeconfig } from './framework/kubeconfig.js';
import { stockTools } from './framework/kubectl.js';
import { FakeNodeAgent } from './framework/node-agent.js';
import { run, type ProcessResult } from './framework/process.js';

const domain = 'k8s.io';

/** A chart as a user writes one: settings in a ConfigMap, a Deployment and its Service. */
function writeChart(dir: string): string {
  const chart = join(dir, 'demo');
  mkdirSync(join(chart, 'templates'), { recursive: true });
  writeFileSync(join(chart, 'Chart.yaml'), 'apiVersion: v2\nname: demo\nversion: 0.1.0\n');
  writeFileSync(join(chart, 'values.yaml'), 'message: hello\nimage: registry.example/web:1\nreplicas: 2\n');
  writeFileSync(join(chart, 'templates', 'all.yaml'), `apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Release.Name }}-settings
data:
  message: {{ .Values.message | quote }}
---
apiVersion: v1
kind: Service
metadata:
  name: {{ .Release.Name }}-web
spec:
  selector:
    app: {{ .Release.Name }}-web
  ports:
  - port: 80
    targetPort: 8080
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Release.Name }}-web
spec:
  replicas: {{ .Values.replicas }}
  selector:
    matchLabels:
      app: {{ .Release.Name }}-web
  template:
    metadata:
      labels:
        app: {{ .Release.Name }}-web
    spec:
      containers:
      - name: web
        image: {{ .Values.image }}
`);
  return chart;
}

/** A command started now whose end the test can look at while it runs. */
function started(p: Promise<ProcessResult>): { result: Promise<ProcessResult>; running: () => boolean } {
  let ended = false;
  const result = p.finally(() => { ended = true; });
  return { result, running: () => !ended };
}

describe('helm 3 and 4 (upstream group names)', () => {
  let t: TestServer;
  let kc: Kubeconfig;
  let cm: RunningControllerManager;
  let agent: FakeNodeAgent;
  let chart: string;
  const logs: string[] = [];

  before(async () => {
    t = await startTestServer({ apiDomain: domain });
    kc = writeKubeconfig(t);
    cm = await runControllerManager({ ...defaultOptions(), kubeconfig: kc.path, securePort: 0, bindAddress: '127.0.0.1', apiDomain: domain },
      new Logger(2, (l) => { logs.push(l); }));
    agent = new FakeNodeAgent(kc, domain);
    chart = writeChart(kc.dir);
  });
  after(async () => {
    await agent?.stop();
    await cm?.stop();
    kc?.remove();
    await t?.stop();
  });

  /** Runs a helm binary with its caches and configuration kept beside the test's kubeconfig. */
  function helm(binary: string, args: readonly string[], timeoutMs = 90_000): Promise<ProcessResult> {
    const home = join(kc.dir, 'helm-home');
    return run(binary, [...args, '--kubeconfig', kc.path], {
      timeoutMs,
      env: {
        ...process.env, HOME: home, HELM_CACHE_HOME: join(home, 'cache'), HELM_CONFIG_HOME: join(home, 'config'), HELM_DATA_HOME: join(home, 'data'),
        KUBECONFIG: kc.path, NO_COLOR: '1',
      },
    });
  }
  const ok = (r: ProcessResult) => assert.equal(r.code, 0, r.describe());
  /**
   * A namespace with its default ServiceAccount (the serviceaccount controller's), which pods need
   * before the ServiceAccount admission plug-in lets them in.
   */
  const namespaceWithAccount = async (ns: string) => {
    assert.equal((await t.client.post('/api/v1/namespaces', { metadata: { name: ns } })).status, 201);
    await pollUntil(() => t.client.get(`/api/v1/namespaces/${ns}/serviceaccounts/default`), (r) => r.status === 200, `the default ServiceAccount of ${ns}`, 30_000);
  };

  const configMap = async (ns: string, name: string) => (await t.client.get(`/api/v1/namespaces/${ns}/configmaps/${name}`));
  /** The release's Secrets (helm's storage driver), by revision and status. */
  const releases = async (ns: string, release: string) => {
    const r = await t.client.get(`/api/v1/namespaces/${ns}/secrets?labelSelector=owner%3Dhelm%2Cname%3D${release}`);
    assert.equal(r.status, 200, r.text);
    return (r.body.items as { metadata: { labels: Record<string, string> } }[])
      .map((s) => `${s.metadata.labels.version}:${s.metadata.labels.status}`).sort();
  };

  for (const [name, binary] of [['helm 3.17', stockTools.helm3], ['helm 4.1', stockTools.helm4]] as const) {
    test(`${name}: install --wait waits for ready pods, then upgrade, rollback, uninstall and a reinstall of the same name`, async () => {
      const ns = `helm-${name.replace(/\D/g, '')}`;
      const release = 'demo';
      await namespaceWithAccount(ns);
      const install = started(helm(binary, ['install', release, chart, '--namespace', ns, '--wait', '--timeout', '60s']));
      // Everything is created, yet helm waits: no pod is Ready until the node agent serves the namespace.
      await pollUntil(() => t.client.get(`/apis/apps/v1/namespaces/${ns}/replicasets`),
        (r) => r.status === 200 && (r.body.items as { status?: { replicas?: number } }[]).some((rs) => rs.status?.replicas === 2), 'the Deployment\'s ReplicaSet with its two pods', 30_000);
      if (!install.running()) assert.fail(`helm returned before any pod was Ready:\n${(await install.result).describe()}`);
      agent.serve(ns);
      const installed = await install.result;
      ok(installed);
      assert.match(installed.stdout, /STATUS: deployed/);
      assert.equal((await configMap(ns, `${release}-settings`)).body.data.message, 'hello');
      const deployment = await t.client.get(`/apis/apps/v1/namespaces/${ns}/deployments/${release}-web`);
      assert.equal(deployment.body.status.readyReplicas, 2, 'helm --wait returned once both replicas were Ready');

      ok(await helm(binary, ['upgrade', release, chart, '--namespace', ns, '--set', 'message=bye', '--set', 'image=registry.example/web:2', '--wait', '--timeout', '60s']));
      assert.equal((await configMap(ns, `${release}-settings`)).body.data.message, 'bye');
      const upgraded = await t.client.get(`/apis/apps/v1/namespaces/${ns}/deployments/${release}-web`);
      assert.equal(upgraded.body.spec.template.spec.containers[0].image, 'registry.example/web:2');

      const rolledBack = await helm(binary, ['rollback', release, '1', '--namespace', ns, '--wait', '--timeout', '60s']);
      ok(rolledBack);
      assert.match(rolledBack.stdout, /Rollback was a success/);
      assert.equal((await configMap(ns, `${release}-settings`)).body.data.message, 'hello');
      assert.deepEqual(await releases(ns, release), ['1:superseded', '2:superseded', '3:deployed']);
      const history = await helm(binary, ['history', release, '--namespace', ns]);
      ok(history);
      assert.match(history.stdout, /^3\s.*deployed\s.*Rollback to 1\s*$/m);

      const uninstalled = await helm(binary, ['uninstall', release, '--namespace', ns, '--wait', '--timeout', '60s']);
      ok(uninstalled);
      assert.match(uninstalled.stdout, /release "demo" uninstalled/);
      assert.equal((await configMap(ns, `${release}-settings`)).status, 404);
      assert.deepEqual(await releases(ns, release), [], 'no release record is left behind, so the name can be used again');
      const uninstalling = await helm(binary, ['list', '--uninstalling', '--short', '--namespace', ns]);
      ok(uninstalling);
      assert.doesNotMatch(uninstalling.stdout, /^demo$/m, 'not left uninstalling');

      const again = await helm(binary, ['install', release, chart, '--namespace', ns, '--wait', '--timeout', '60s']);
      ok(again);
      assert.match(again.stdout, /STATUS: deployed/);
      assert.deepEqual(await releases(ns, release), ['1:deployed']);
      ok(await helm(binary, ['uninstall', release, '--namespace', ns, '--wait', '--timeout', '60s']));
    });
  }
});
