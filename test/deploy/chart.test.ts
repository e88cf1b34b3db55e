// The chart in deploy/helm/orch checked with the real helm 3 (the newest helm 3 pinned by
// hack/install-layer-tools.sh): lint, what it renders for each values file in test/deploy/values,
// the values its schema and checks refuse, every rendered object validated by our own API server
// (kubectl apply --dry-run=server, upstream group names), and a release's life in that server:
// install, upgrade, history, rollback and uninstall, with the generated certificates kept.
// Nothing runs the pods here (there is no node agent): the server stores the release and objects.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse } from 'yaml';
import { startTestServer, type TestServer } from '../integration/framework/apiserver.js';
import { writeKubeconfig, type Kubeconfig } from '../integration/framework/kubeconfig.js';
import { Kubectl } from '../integration/framework/kubectl.js';
import { chartDir, flag, flagValues, helm, objectNamed, podSpec, renderChart, valuesFile, type RenderedContainer, type RenderedObject } from './chart.js';

const release = 'ctl';
const full = 'ctl-orch';
const namespace = 'orch-system';

/** The values sets of test/deploy/values. */
const valuesSets = ['defaults', 'etcd-5', 'oidc', 'audit', 'provided-certificates'] as const;

const container = (objects: readonly RenderedObject[], kind: string, name: string): RenderedContainer => podSpec(objectNamed(objects, kind, name)).containers[0]!;
const secretData = (objects: readonly RenderedObject[], name: string, key: string): string =>
  Buffer.from(objectNamed(objects, 'Secret', name).data![key]!, 'base64').toString();
const certificate = (objects: readonly RenderedObject[], name: string, key = 'tls.crt') => new X509Certificate(secretData(objects, name, key));
const sans = (cert: X509Certificate) => (cert.subjectAltName ?? '').split(', ');

describe('the orch chart', () => {
  test('helm lint and helm lint --strict pass, with every values file', async () => {
    for (const strict of [[], ['--strict']]) {
      for (const values of valuesSets) {
        const r = await helm(['lint', chartDir, ...strict, '-f', valuesFile(values)]);
        assert.equal(r.code, 0, r.describe());
        assert.match(r.stdout, /1 chart\(s\) linted, 0 chart\(s\) failed/);
      }
    }
  });

  test('defaults: 3 etcd members with TLS both ways, 2 API servers listing each member, 2 controller managers on a Lease', async () => {
    const { objects } = await renderChart(release, namespace, ['-f', valuesFile('defaults')]);
    const etcdSet = objectNamed(objects, 'StatefulSet', `${full}-etcd`);
    assert.equal(etcdSet.spec!.replicas, 3);
    assert.equal(etcdSet.spec!.serviceName, `${full}-etcd-headless`);
    const headless = objectNamed(objects, 'Service', `${full}-etcd-headless`).spec!;
    assert.equal(headless.clusterIP, 'None');
    assert.equal(headless.publishNotReadyAddresses, true, 'members resolve each other before they are ready');
    const etcd = container(objects, 'StatefulSet', `${full}-etcd`);
    const domain = `${full}-etcd-headless.${namespace}.svc.cluster.local`;
    assert.equal(flag(etcd, 'initial-cluster'), [0, 1, 2].map((i) => `${full}-etcd-${i}=https://${full}-etcd-${i}.${domain}:2380`).join(','));
    for (const [name, value] of [['client-cert-auth', 'true'], ['peer-client-cert-auth', 'true'], ['auto-compaction-retention', '0'], ['listen-metrics-urls', 'http://0.0.0.0:2381']]) {
      assert.equal(flag(etcd, name), value, `--${name}`);
    }
    for (const name of ['trusted-ca-file', 'peer-trusted-ca-file', 'cert-file', 'peer-cert-file']) flag(etcd, name);
    assert.deepEqual([(etcd.livenessProbe as { httpGet: { path: string } }).httpGet.path, (etcd.readinessProbe as { httpGet: { path: string } }).httpGet.path], ['/livez', '/readyz']);
    assert.equal(((etcdSet.spec!.volumeClaimTemplates as RenderedObject[])[0]!.metadata.name), 'data');

    const api = container(objects, 'Deployment', `${full}-apiserver`);
    const apiDeployment = objectNamed(objects, 'Deployment', `${full}-apiserver`);
    assert.equal(apiDeployment.spec!.replicas, 2);
    assert.deepEqual(flag(api, 'etcd-servers').split(','), [0, 1, 2].map((i) => `https://${full}-etcd-${i}.${domain}:2379`));
    for (const name of ['etcd-cafile', 'etcd-certfile', 'etcd-keyfile', 'client-ca-file', 'requestheader-client-ca-file', 'service-account-key-file', 'service-account-signing-key-file', 'tls-cert-file']) flag(api, name);
    assert.equal(flag(api, 'shutdown-delay-duration'), '20s');
    assert.equal(flag(api, 'request-timeout'), '60s');
    assert.ok(podSpec(apiDeployment).terminationGracePeriodSeconds! > 20 + 60, 'the grace period covers the delay and a request that started just before it ended');
    assert.equal(flag(api, 'proxy-client-cert-file'), '/etc/orch/pki/front-proxy/tls.crt', 'aggregation is on by default');
    const https = (probe: unknown) => (probe as { httpGet: { scheme: string; path: string } }).httpGet;
    assert.deepEqual([https(api.livenessProbe), https(api.readinessProbe)].map((g) => `${g.scheme} ${g.path}`), ['HTTPS /livez', 'HTTPS /readyz']);
    assert.equal(flag(api, 'anonymous-auth'), 'true', 'the probes are anonymous');
    const service = objectNamed(objects, 'Service', `${full}-apiserver`).spec!;
    assert.deepEqual((service.ports as { port: number }[]).map((p) => p.port), [443]);

    const cm = container(objects, 'Deployment', `${full}-controller-manager`);
    assert.equal(objectNamed(objects, 'Deployment', `${full}-controller-manager`).spec!.replicas, 2);
    assert.equal(flag(cm, 'leader-elect'), 'true');
    assert.equal(flag(cm, 'leader-elect-resource-lock'), 'leases');
    assert.equal(flag(cm, 'use-service-account-credentials'), 'true');
    for (const name of ['kubeconfig', 'service-account-private-key-file', 'root-ca-file', 'cluster-signing-cert-file', 'cluster-signing-key-file']) flag(cm, name);
    for (const name of ['etcd', 'apiserver', 'controller-manager']) {
      assert.equal(objectNamed(objects, 'PodDisruptionBudget', `${full}-${name}`).spec!.maxUnavailable, 1, name);
    }
    // Every container's command line is plain: strings, each flag as --name=value.
    for (const c of [etcd, api, cm]) {
      assert.ok(c.command.length === 1 && c.args.every((a) => typeof a === 'string' && /^--[a-z0-9-]+=/.test(a)), JSON.stringify(c.args));
    }
  });

  test('defaults: the generated certificates chain to their CAs and cover the names they are reached by', async () => {
    const { objects } = await renderChart(release, namespace);
    const ca = certificate(objects, `${full}-ca`);
    const etcdCA = certificate(objects, `${full}-etcd-ca`);
    const serving = certificate(objects, `${full}-apiserver-serving`);
    assert.ok(serving.verify(ca.publicKey), 'the serving certificate is signed by the cluster CA');
    const svc = `${full}-apiserver`;
    for (const name of [svc, `${svc}.${namespace}`, `${svc}.${namespace}.svc`, `${svc}.${namespace}.svc.cluster.local`, 'localhost']) {
      assert.ok(sans(serving).includes(`DNS:${name}`), `${name} in ${serving.subjectAltName}`);
    }
    for (const name of ['etcd-server', 'etcd-peer', 'etcd-client']) {
      const cert = certificate(objects, `${full}-${name}`);
      assert.ok(cert.verify(etcdCA.publicKey), `${name} is signed by the etcd CA`);
      assert.equal(secretData(objects, `${full}-${name}`, 'ca.crt'), secretData(objects, `${full}-etcd-ca`, 'tls.crt'));
    }
    assert.ok(sans(certificate(objects, `${full}-etcd-peer`)).includes(`DNS:*.${full}-etcd-headless.${namespace}.svc.cluster.local`), 'every member, by a wildcard');
    const frontProxy = certificate(objects, `${full}-front-proxy-client`);
    assert.ok(frontProxy.verify(certificate(objects, `${full}-front-proxy-ca`).publicKey));
    assert.match(frontProxy.subject, /CN=front-proxy-client/);
    assert.match(secretData(objects, `${full}-service-account`, 'sa.key'), /^-----BEGIN EC PRIVATE KEY-----/);

    const cmConfig = parse(secretData(objects, `${full}-controller-manager-kubeconfig`, 'kubeconfig'));
    assert.equal(cmConfig.clusters[0].cluster.server, `https://${svc}.${namespace}.svc:443`);
    const cmCert = new X509Certificate(Buffer.from(cmConfig.users[0].user['client-certificate-data'], 'base64'));
    assert.match(cmCert.subject, /CN=system:kube-controller-manager/);
    assert.ok(cmCert.verify(ca.publicKey));
    const admin = parse(secretData(objects, `${full}-admin-kubeconfig`, 'kubeconfig'));
    const token = admin.users[0].user.token as string;
    assert.match(token, /^[A-Za-z0-9]{48}$/);
    assert.equal(secretData(objects, `${full}-admin-kubeconfig`, 'tokens.csv'), `${token},orch-admin,orch-admin,"system:masters"\n`);
    assert.equal(Buffer.from(admin.clusters[0].cluster['certificate-authority-data'], 'base64').toString(), secretData(objects, `${full}-ca`, 'tls.crt'));
  });

  test('5 etcd members: every member in --initial-cluster and --etcd-servers, anti-affinity required', async () => {
    const { objects } = await renderChart(release, namespace, ['-f', valuesFile('etcd-5')]);
    assert.equal(objectNamed(objects, 'StatefulSet', `${full}-etcd`).spec!.replicas, 5);
    assert.equal(flag(container(objects, 'StatefulSet', `${full}-etcd`), 'initial-cluster').split(',').length, 5);
    assert.equal(flag(container(objects, 'Deployment', `${full}-apiserver`), 'etcd-servers').split(',').length, 5);
    assert.ok('requiredDuringSchedulingIgnoredDuringExecution' in (podSpec(objectNamed(objects, 'StatefulSet', `${full}-etcd`)).affinity!.podAntiAffinity as object));
    assert.equal(objectNamed(objects, 'Deployment', `${full}-apiserver`).spec!.replicas, 3);
  });

  test('OIDC on: the --oidc-* flags and the provider CA mounted from its ConfigMap', async () => {
    const { objects } = await renderChart(release, namespace, ['-f', valuesFile('oidc')]);
    const api = container(objects, 'Deployment', `${full}-apiserver`);
    assert.equal(flag(api, 'oidc-issuer-url'), 'https://issuer.example.com');
    assert.equal(flag(api, 'oidc-username-prefix'), 'oidc:', 'a value ending in a colon stays a string');
    assert.deepEqual(flagValues(api, 'oidc-required-claim'), ['hd=example.com']);
    assert.equal(flag(api, 'oidc-ca-file'), '/etc/orch/oidc/ca.crt');
    assert.equal(podSpec(objectNamed(objects, 'Deployment', `${full}-apiserver`)).volumes!.find((v) => v.name === 'oidc-ca')?.configMap?.name, 'oidc-issuer-ca');
  });

  test('audit on: the policy and admission configuration in a ConfigMap, the log on a volume, extraArgs replacing a chart flag', async () => {
    const { objects } = await renderChart(release, namespace, ['-f', valuesFile('audit')]);
    const config = objectNamed(objects, 'ConfigMap', `${full}-apiserver-config`);
    assert.match(config.data!['audit-policy.yaml']!, /kind: Policy/);
    assert.match(config.data!['admission.yaml']!, /kind: AdmissionConfiguration/);
    const api = container(objects, 'Deployment', `${full}-apiserver`);
    assert.equal(flag(api, 'audit-policy-file'), '/etc/orch/config/audit-policy.yaml');
    assert.equal(flag(api, 'audit-log-path'), '/var/log/orch/audit.log');
    assert.equal(flag(api, 'admission-control-config-file'), '/etc/orch/config/admission.yaml');
    assert.equal(flag(api, 'runtime-config'), 'api/beta=true');
    assert.equal(flag(api, 'max-requests-inflight'), '800', 'extraArgs replaces the chart\'s flag rather than repeating it');
    assert.ok((api.volumeMounts as { mountPath: string }[]).some((m) => m.mountPath === '/var/log/orch'));
  });

  test('provided certificates: the chart makes no Secret and mounts the operator\'s, the kubelet client and front proxy client certificates too', async () => {
    const { objects } = await renderChart(release, namespace, ['-f', valuesFile('provided-certificates')]);
    assert.deepEqual(objects.filter((o) => o.kind === 'Secret').map((o) => o.metadata.name), []);
    const secrets = (kind: string, name: string) => podSpec(objectNamed(objects, kind, name)).volumes!.flatMap((v) => (v.secret ? [v.secret.secretName] : [])).sort();
    assert.deepEqual(secrets('StatefulSet', `${full}-etcd`), ['corp-etcd-peer', 'corp-etcd-server']);
    assert.deepEqual(secrets('Deployment', `${full}-apiserver`), ['corp-etcd-client', 'corp-front-proxy-client', 'corp-kubelet-client', 'corp-orch-ca', 'corp-orch-serving', 'corp-service-account', 'corp-static-tokens']);
    const api = container(objects, 'Deployment', `${full}-apiserver`);
    assert.deepEqual(['proxy-client-cert-file', 'proxy-client-key-file', 'kubelet-client-certificate', 'kubelet-certificate-authority'].map((name) => flag(api, name)),
      ['/etc/orch/pki/front-proxy/tls.crt', '/etc/orch/pki/front-proxy/tls.key', '/etc/orch/kubelet-client/tls.crt', '/etc/orch/kubelet-client/ca.crt']);
    assert.deepEqual(secrets('Deployment', `${full}-controller-manager`), ['corp-controller-manager-kubeconfig', 'corp-orch-ca', 'corp-service-account']);
  });

  test('bad values are refused before anything is sent, each with a message naming the value', async () => {
    const refusals: [string[], RegExp][] = [
      [['etcd.replicas=4'], /etcd\.replicas: etcd\.replicas must be one of the following: 1, 3, 5/],
      [['etcd.replicas=2'], /etcd\.replicas must be one of the following: 1, 3, 5/],
      [['apiServer.replicas=0'], /apiServer\.replicas: Must be greater than or equal to 1/],
      [['controllerManager.replicas=0'], /controllerManager\.replicas: Must be greater than or equal to 1/],
      [['apiServer.authorization.modes[0]=Magic'], /apiServer\.authorization\.modes\.0 must be one of the following: "AlwaysAllow", "AlwaysDeny", "Webhook", "RBAC", "Node"/],
      [['apiServer.eventTTL=1hour'], /apiServer\.eventTTL: Does not match pattern/],
      [['controllerManager.leaderElection.leaseDuration=fifteen'], /controllerManager\.leaderElection\.leaseDuration: Does not match pattern/],
      [['etcd.image.pullPolicy=Sometimes'], /etcd\.image\.pullPolicy must be one of the following/],
      [['apiServer.replica=2'], /apiServer: Additional property replica is not allowed/],
      [['apiDomain=Orch_IO'], /apiDomain: Does not match pattern/],
      [['certificates.generate=false'], /certificates\.generate is false, so certificates\.existingSecrets\.\w+ must name a Secret/],
      [['apiServer.authorization.modes={RBAC,Webhook}'], /apiServer\.authorization\.modes has Webhook, so apiServer\.authorization\.webhook\.secret must name/],
      [['apiServer.authentication.oidc.enabled=true'], /oidc\.issuerURL and apiServer\.authentication\.oidc\.clientID must be set/],
      [['controllerManager.leaderElection.enabled=false'], /controllerManager\.replicas is above 1, so controllerManager\.leaderElection\.enabled must be true/],
    ];
    for (const [sets, message] of refusals) {
      const r = await helm(['template', release, chartDir, ...sets.flatMap((s) => ['--set', s])]);
      assert.notEqual(r.code, 0, `refused: ${sets.join(' ')}\n${r.describe()}`);
      assert.equal(r.stdout, '', 'nothing rendered');
      assert.match(r.stderr, message, sets.join(' '));
    }
  });

  describe('in our API server (upstream group names)', () => {
    let t: TestServer;
    let kc: Kubeconfig;
    let kubectl: Kubectl;

    before(async () => {
      t = await startTestServer({ apiDomain: 'k8s.io' });
      kc = writeKubeconfig(t);
      kubectl = new Kubectl(kc);
    });
    after(async () => {
      kc?.remove();
      await t?.stop();
    });

    const createNamespace = async (ns: string) => assert.equal((await t.client.post('/api/v1/namespaces', { metadata: { name: ns } })).status, 201);
    /** Objects of the release in a namespace, as kind/name. */
    const stored = async (ns: string): Promise<string[]> => {
      const selector = `app.kubernetes.io/instance=${release}`;
      const out: string[] = [];
      for (const [kind, path, resource] of [['Secret', '/api/v1', 'secrets'], ['Service', '/api/v1', 'services'], ['ConfigMap', '/api/v1', 'configmaps'], ['StatefulSet', '/apis/apps/v1', 'statefulsets'],
        ['Deployment', '/apis/apps/v1', 'deployments'], ['PodDisruptionBudget', '/apis/policy/v1', 'poddisruptionbudgets']] as const) {
        const r = await t.client.get(`${path}/namespaces/${ns}/${resource}?labelSelector=${encodeURIComponent(selector)}`);
        assert.equal(r.status, 200, r.text);
        out.push(...(r.body.items as RenderedObject[]).map((o) => `${kind}/${o.metadata.name}`));
      }
      return out.sort();
    };

    test('every object of every values set passes kubectl apply --dry-run=server, and none is stored', async () => {
      for (const values of valuesSets) {
        const ns = `dry-${values}`;
        await createNamespace(ns);
        const { text, objects } = await renderChart(release, ns, ['-f', valuesFile(values)]);
        const file = join(kc.dir, `${values}.yaml`);
        writeFileSync(file, text);
        // A loaded machine takes its time: kubectl's own per-request timeout (20 s) still bounds each call.
        const r = await kubectl.run(['apply', '--dry-run=server', '-f', file], { timeoutMs: 180_000 });
        assert.equal(r.code, 0, `${values}:\n${r.describe()}`);
        for (const o of objects) {
          const group = o.apiVersion.includes('/') ? `.${o.apiVersion.split('/')[0]}` : '';
          assert.match(r.stdout, new RegExp(`^${o.kind.toLowerCase()}${group.replace(/\./g, '\\.')}/${o.metadata.name} created \\(server dry run\\)$`, 'm'), `${values}: ${o.kind}/${o.metadata.name}`);
        }
        assert.deepEqual(await stored(ns), [], `${values}: a dry run stores nothing`);
      }
    });

    test('helm install, upgrade (replicas and a flag), history, rollback and uninstall; the certificates are kept', async () => {
      const ns = 'orch-life';
      await createNamespace(ns);
      const h = (args: string[]) => helm([...args, '--namespace', ns], { kubeconfig: kc.path });
      const deployment = async () => {
        const r = await t.client.get(`/apis/apps/v1/namespaces/${ns}/deployments/${full}-apiserver`);
        assert.equal(r.status, 200, r.text);
        const c = r.body.spec.template.spec.containers[0] as RenderedContainer;
        return { replicas: r.body.spec.replicas as number, delay: flag(c, 'shutdown-delay-duration'), grace: r.body.spec.template.spec.terminationGracePeriodSeconds as number };
      };
      /** The data of every Secret the chart generated (helm's release records left out). */
      const certificates = async () => {
        const r = await t.client.get(`/api/v1/namespaces/${ns}/secrets?labelSelector=${encodeURIComponent('app.kubernetes.io/component=certificates')}`);
        assert.equal(r.status, 200, r.text);
        return Object.fromEntries((r.body.items as RenderedObject[]).map((s) => [s.metadata.name, s.data]));
      };

      const installed = await h(['install', release, chartDir]);
      assert.equal(installed.code, 0, installed.describe());
      assert.match(installed.stdout, /STATUS: deployed/);
      assert.match(installed.stdout, new RegExp(`get secret ${full}-admin-kubeconfig`), 'the NOTES say where the admin kubeconfig is');
      const { objects } = await renderChart(release, ns);
      assert.deepEqual(await stored(ns), objects.map((o) => `${o.kind}/${o.metadata.name}`).sort(), 'every rendered object is stored');
      assert.deepEqual(await deployment(), { replicas: 2, delay: '20s', grace: 95 });
      const generated = await certificates();
      assert.equal(Object.keys(generated).length, 11);

      const upgraded = await h(['upgrade', release, chartDir, '--set', 'apiServer.replicas=3', '--set', 'apiServer.shutdownDelaySeconds=30']);
      assert.equal(upgraded.code, 0, upgraded.describe());
      assert.deepEqual(await deployment(), { replicas: 3, delay: '30s', grace: 105 });
      assert.deepEqual(await certificates(), generated, 'the upgrade looked the Secrets up and kept every certificate and key');

      const history = await h(['history', release]);
      assert.equal(history.code, 0, history.describe());
      assert.match(history.stdout, /^1\s.*superseded\s.*Install complete\s*$/m);
      assert.match(history.stdout, /^2\s.*deployed\s.*Upgrade complete\s*$/m);

      const rolledBack = await h(['rollback', release, '1']);
      assert.equal(rolledBack.code, 0, rolledBack.describe());
      assert.match(rolledBack.stdout, /Rollback was a success/);
      assert.deepEqual(await deployment(), { replicas: 2, delay: '20s', grace: 95 });
      assert.deepEqual(await certificates(), generated);
      assert.match((await h(['history', release])).stdout, /^3\s.*deployed\s.*Rollback to 1\s*$/m);

      const uninstalled = await h(['uninstall', release]);
      assert.equal(uninstalled.code, 0, uninstalled.describe());
      assert.match(uninstalled.stdout, new RegExp(`release "${release}" uninstalled`));
      assert.deepEqual(await stored(ns), [], 'every object of the release is gone');
      const records = await t.client.get(`/api/v1/namespaces/${ns}/secrets?labelSelector=${encodeURIComponent(`owner=helm,name=${release}`)}`);
      assert.deepEqual(records.body.items, [], 'and so are helm\'s release records');
    });
  });
});
