// The aggregation layer through the real API server (with upstream's names, --api-domain k8s.io)
// and a real extension API server over HTTPS (test/integration/framework/extension-apiserver.ts):
// APIServices (validation, local ones for the built-in groups as `kubectl get apiservices` lists
// upstream's), the Available condition and its reasons, the proxy with the front-proxy identity
// (the extension server authenticates our certificate, reads the user from the headers and
// authorizes by SubjectAccessReview), watch and upgrades through it, 503 when the service is
// unavailable, discovery and OpenAPI merged, and stock kubectl's `top pods` and `top nodes`.
import assert from 'node:assert/strict';
import { connect } from 'node:tls';
import { after, before, describe, test } from 'node:test';
import { defaultAuthenticationOptions } from '../../cmd/apiserver/app/authentication-options.js';
import { defaultAuthorizationOptions } from '../../pkg/authorization/modes.js';
import { tempFiles } from '../../pkg/authentication/testing/signing-keys.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { pollUntil } from './framework/authentication.js';
import type { Client, Response } from './framework/client.js';
import { frontProxyOptions, publishedTrust, registerMetricsServer, startExtensionAPIServer, type ExtensionAPIServer } from './framework/extension-apiserver.js';
import { writeKubeconfig, type Kubeconfig } from './framework/kubeconfig.js';
import { Kubectl } from './framework/kubectl.js';

const adminToken = 'aggregator-admin-token';
const janeToken = 'aggregator-jane-token';
const bobToken = 'aggregator-bob-token';
const apiservices = '/apis/apiregistration.k8s.io/v1/apiservices';
const metrics = '/apis/metrics.k8s.io/v1beta1';
const systemNs = 'orch-system';

interface DiscoveredVersion { version: string; freshness: string; resources?: { resource: string; responseKind: { kind: string } }[] }
interface Condition { type: string; status: string; reason?: string; message?: string; lastTransitionTime?: string }
const aggregatedAccept = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const available = (r: Response): Condition | undefined => (r.body?.status?.conditions ?? []).find((c: Condition) => c.type === 'Available');

describe('aggregation layer', () => {
  const files = tempFiles('orch-aggregator-');
  const frontProxy = frontProxyOptions(files);
  let t: TestServer;
  let admin: Client;
  let ext: ExtensionAPIServer;
  let kc: Kubeconfig;
  let kubectl: Kubectl;

  const waitAvailable = (name: string, status: string, reason: string) => pollUntil(
    () => admin.get(`${apiservices}/${name}`), (r) => available(r)?.status === status && available(r)?.reason === reason, `${name} Available=${status} (${reason})`, 20_000);

  /** The metrics group's versions in the aggregated discovery document of /apis. */
  const aggregatedMetrics = async (): Promise<DiscoveredVersion[] | undefined> => {
    const r = await admin.get('/apis', { headers: { Accept: aggregatedAccept } });
    assert.equal(r.status, 200, r.text);
    return (r.body.items as { metadata: { name: string }; versions: DiscoveredVersion[] }[]).find((g) => g.metadata.name === 'metrics.k8s.io')?.versions;
  };

  before(async () => {
    t = await startTestServer({
      apiDomain: 'k8s.io',
      authentication: {
        ...defaultAuthenticationOptions(),
        tokenAuthFile: files.write('tokens.csv', `${adminToken},admin,1,"system:masters"\n${janeToken},jane,2,"dev"\n${bobToken},bob,3\n`),
        requestHeader: frontProxy.requestHeader,
      },
      authorization: { ...defaultAuthorizationOptions(), modes: ['RBAC'] },
      aggregator: frontProxy.aggregator,
    });
    admin = t.client.withToken(adminToken);
    // The extension server learns whom to trust from what the API server publishes.
    ext = await startExtensionAPIServer({
      domain: 'k8s.io', trust: await publishedTrust(admin, systemNs), serviceDNSName: `metrics-server.${systemNs}.svc`, reviewer: admin, authorizationGroup: 'authorization.k8s.io',
    });
    for (const [path, body] of [
      ['/apis/rbac.authorization.k8s.io/v1/clusterroles', { metadata: { name: 'metrics-reader' }, rules: [{ apiGroups: ['metrics.k8s.io'], resources: ['pods', 'nodes'], verbs: ['get', 'list', 'watch'] }] }],
      ['/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', { metadata: { name: 'metrics-reader' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'metrics-reader' }, subjects: [{ kind: 'User', name: 'jane', apiGroup: 'rbac.authorization.k8s.io' }] }],
      ['/api/v1/nodes', { metadata: { name: 'n1' }, status: { capacity: { cpu: '4', memory: '8Gi' }, allocatable: { cpu: '4', memory: '8Gi' } } }],
    ] as const) {
      const r = await admin.post(path, body);
      assert.equal(r.status, 201, `${path}: ${r.text}`);
    }
    await registerMetricsServer(t, admin, ext, 'k8s.io', systemNs);
    ext.setNodeMetrics('n1', { cpu: '250m', memory: '1Gi' });
    ext.setPodMetrics({ namespace: 'default', name: 'web-1', containers: [{ name: 'app', usage: { cpu: '12m', memory: '34Mi' } }] });
    kc = writeKubeconfig(t, adminToken);
    kubectl = new Kubectl(kc);
  });
  after(async () => {
    kc?.remove();
    await ext?.close();
    await t?.stop();
    files.remove();
  });

  test('the API server publishes extension-apiserver-authentication as upstream (header names as JSON arrays) and the Role that reads it', async () => {
    const r = await admin.get(`/api/v1/namespaces/${systemNs}/configmaps/extension-apiserver-authentication`);
    assert.equal(r.body.data['requestheader-client-ca-file'], frontProxy.ca.cert);
    assert.equal(r.body.data['requestheader-username-headers'], '["X-Remote-User"]');
    assert.equal(r.body.data['requestheader-group-headers'], '["X-Remote-Group"]');
    assert.equal(r.body.data['requestheader-extra-headers-prefix'], '["X-Remote-Extra-"]');
    assert.equal(r.body.data['requestheader-allowed-names'], '["front-proxy-client"]');
    const role = await admin.get(`/apis/rbac.authorization.k8s.io/v1/namespaces/${systemNs}/roles/extension-apiserver-authentication-reader`);
    assert.equal(role.status, 200, role.text);
    assert.deepEqual(role.body.rules[0].resourceNames, ['extension-apiserver-authentication']);
  });

  test('kubectl get apiservices lists the local ones of every built-in group version and the extension server\'s, as upstream\'s', async () => {
    const out = (await kubectl.ok(['get', 'apiservices'])).stdout;
    const rows = out.trim().split('\n').map((l) => l.trim().split(/\s{2,}/));
    assert.deepEqual(rows[0], ['NAME', 'SERVICE', 'AVAILABLE', 'AGE']);
    const row = (name: string) => rows.find((x) => x[0] === name)?.slice(0, 3);
    for (const name of ['v1.', 'v1.apps', 'v2.autoscaling', 'v1.rbac.authorization.k8s.io', 'v1.apiregistration.k8s.io', 'v1beta1.authentication.k8s.io']) {
      assert.deepEqual(row(name), [name, 'Local', 'True'], out);
    }
    assert.deepEqual(row('v1beta1.metrics.k8s.io'), ['v1beta1.metrics.k8s.io', `${systemNs}/metrics-server`, 'True'], out);
    const apps = await admin.get(`${apiservices}/v1.apps`);
    assert.equal(apps.body.metadata.labels['kube-aggregator.kubernetes.io/automanaged'], 'onstart');
    assert.deepEqual({ ...apps.body.spec }, { group: 'apps', version: 'v1', groupPriorityMinimum: 17800, versionPriority: 15 });
    assert.deepEqual(available(apps), { type: 'Available', status: 'True', reason: 'Local', message: 'Local APIServices are always available', lastTransitionTime: available(apps)!.lastTransitionTime });
  });

  test('APIServices are validated as upstream\'s', async () => {
    const bad = await admin.post(apiservices, {
      metadata: { name: 'v1.wrong.example.com' },
      spec: { group: 'widgets.example.com', version: 'v1', groupPriorityMinimum: 0, versionPriority: 1001, insecureSkipTLSVerify: true, caBundle: ext.caBundle, service: { namespace: 'x', name: 'y', port: 70000 } },
    });
    assert.equal(bad.status, 422, bad.text);
    const causes = bad.body.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`);
    assert.deepEqual(causes.sort(), [
      'metadata.name: Invalid value: "v1.wrong.example.com": must be `spec.version+"."+spec.group`: "v1.widgets.example.com"',
      'spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000',
      'spec.insecureSkipTLSVerify: Invalid value: true: may not be true if caBundle is present',
      'spec.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive',
      'spec.versionPriority: Invalid value: 1001: must be positive and less than 1000',
    ]);
    const local = await admin.post(apiservices, { metadata: { name: 'v1.local.example.com' }, spec: { group: 'local.example.com', version: 'v1', groupPriorityMinimum: 1, versionPriority: 1, insecureSkipTLSVerify: true } });
    assert.equal(local.status, 422, local.text);
    assert.match(local.body.message, /spec.insecureSkipTLSVerify: Invalid value: true: local APIServices may not have insecureSkipTLSVerify/);
  });

  test('discovery: /apis lists the aggregated group after the built-in ones, its group document is served, its version\'s resources come from the extension server', async () => {
    const groups = (await admin.get('/apis')).body.groups.map((g: { name: string }) => g.name);
    assert.equal(groups[0], 'apiregistration.k8s.io');
    assert.equal(groups.at(-1), 'metrics.k8s.io', groups.join(' '));
    const group = await admin.get('/apis/metrics.k8s.io');
    assert.deepEqual(group.body.preferredVersion, { groupVersion: 'metrics.k8s.io/v1beta1', version: 'v1beta1' });
    const list = await admin.get(metrics);
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(list.body.resources.map((r: { name: string; kind: string }) => `${r.name} ${r.kind}`), ['nodes NodeMetrics', 'pods PodMetrics']);
    // The aggregated document has the group version, with the resources the extension server lists.
    const versions = await pollUntil(aggregatedMetrics, (v) => (v?.[0]?.resources ?? []).length === 2, 'metrics.k8s.io in the aggregated document');
    assert.equal(versions![0]!.version, 'v1beta1');
    assert.equal(versions![0]!.freshness, 'Current');
    assert.deepEqual(versions![0]!.resources!.map((r) => `${r.resource} ${r.responseKind.kind}`), ['nodes NodeMetrics', 'pods PodMetrics']);
    const out = (await kubectl.ok(['api-resources', '--api-group', 'metrics.k8s.io'])).stdout;
    assert.match(out, /^nodes\s+metrics\.k8s\.io\/v1beta1\s+false\s+NodeMetrics$/m, out);
    assert.match(out, /^pods\s+metrics\.k8s\.io\/v1beta1\s+true\s+PodMetrics$/m, out);
  });

  test('kubectl top pods and kubectl top nodes print the extension server\'s figures', async () => {
    const pods = (await kubectl.ok(['top', 'pods', '-n', 'default'])).stdout;
    assert.match(pods, /^NAME\s+CPU\(cores\)\s+MEMORY\(bytes\)\s*$/m, pods);
    assert.match(pods, /^web-1\s+12m\s+34Mi\s*$/m, pods);
    const nodes = (await kubectl.ok(['top', 'nodes'])).stdout;
    assert.match(nodes, /^NAME\s+CPU\(cores\)\s+CPU%?\s+MEMORY\(bytes\)\s+MEMORY%?\s*$/m, nodes);
    assert.match(nodes, /^n1\s+250m\s+6%\s+1024Mi\s+12%\s*$/m, nodes);
  });

  test('the extension server gets the user as X-Remote-* headers under the front-proxy certificate, never the client\'s credentials', async () => {
    const r = await admin.get(`${metrics}/namespaces/default/pods/web-1`, {
      headers: { 'Impersonate-User': 'jane', 'Impersonate-Group': 'dev', 'Impersonate-Extra-Example.org%2fteam': ['a', 'b'], 'X-Remote-User': 'mallory' },
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.kind, 'PodMetrics');
    const seen = ext.received.filter((x) => x.url === `${metrics}/namespaces/default/pods/web-1`).at(-1)!;
    assert.equal(seen.clientCN, 'front-proxy-client');
    assert.equal(seen.user.name, 'jane');
    assert.deepEqual(seen.user.groups, ['dev', 'system:authenticated']);
    assert.deepEqual(seen.user.extra, { 'example.org/team': ['a', 'b'] });
    assert.equal(seen.headers.authorization, undefined);
    assert.equal(seen.headers['impersonate-user'], undefined);
  });

  test('the extension server authorizes (by SubjectAccessReview); this server only authenticates: bob reaches it and is refused there, jane is allowed, anonymous never gets past us', async () => {
    const before = ext.received.length;
    const bob = await t.client.withToken(bobToken).get(`${metrics}/nodes`);
    assert.equal(bob.status, 403, bob.text);
    assert.match(bob.body.message, /User "bob" cannot list resource "nodes" in API group "metrics.k8s.io" at the cluster scope/);
    assert.ok(ext.received.slice(before).some((x) => x.user.name === 'bob' && x.url === `${metrics}/nodes`));
    const jane = await t.client.withToken(janeToken).get(`${metrics}/nodes`);
    assert.equal(jane.status, 200, jane.text);
    assert.deepEqual(jane.body.items.map((n: { metadata: { name: string } }) => n.metadata.name), ['n1']);
    const anonymous = await t.client.withToken('not-a-token').get(`${metrics}/nodes`);
    assert.equal(anonymous.status, 401);
  });

  test('a watch streams through the proxy', async () => {
    const w = await t.client.withToken(adminToken).watch(`${metrics}/namespaces/default/pods?watch=true`);
    try {
      assert.equal(w.status, 200);
      const first = await w.next(10_000);
      assert.equal(first?.type, 'ADDED');
      ext.setPodMetrics({ namespace: 'default', name: 'web-1', containers: [{ name: 'app', usage: { cpu: '20m', memory: '40Mi' } }] });
      const changed = await w.next(10_000);
      assert.equal(changed?.type, 'MODIFIED');
      assert.equal(changed?.object.containers[0].usage.cpu, '20m');
    } finally {
      w.close();
    }
  });

  test('an upgrade request is joined to the extension server\'s connection', async () => {
    const socket = connect({ host: '127.0.0.1', port: t.server.port, ca: t.server.cert.cert, servername: 'localhost' });
    await new Promise((resolve, reject) => socket.once('secureConnect', resolve).once('error', reject));
    socket.write(`GET ${metrics}/namespaces/default/pods/web-1/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${adminToken}\r\nConnection: Upgrade\r\nUpgrade: test-echo\r\n\r\n`);
    let got = '';
    socket.on('data', (c: Buffer) => { got += c.toString('latin1'); });
    await pollUntil(async () => got, (g) => g.includes('\r\n\r\n'), 'the 101 answer');
    assert.match(got, /^HTTP\/1\.1 101 /);
    got = '';
    socket.write('ping through the proxy');
    await pollUntil(async () => got, (g) => g === 'ping through the proxy', 'the echo');
    socket.destroy();
    assert.ok(ext.received.some((x) => x.user.name === 'admin' && x.url === `${metrics}/namespaces/default/pods/web-1/stream`));
  });

  test('/openapi/v2 and /openapi/v3 include the extension server\'s documents', async () => {
    const v2 = await pollUntil(() => admin.get('/openapi/v2'), (r) => r.status === 200 && 'io.k8s.metrics.pkg.apis.metrics.v1beta1.NodeMetrics' in (r.body.definitions ?? {}), 'the merged v2 document');
    assert.ok(`${metrics}/nodes` in v2.body.paths);
    assert.ok('/api/v1/namespaces/{namespace}/pods' in v2.body.paths, 'our own paths stay');
    const index = await admin.get('/openapi/v3');
    const entry = index.body.paths['apis/metrics.k8s.io/v1beta1'];
    assert.ok(entry, Object.keys(index.body.paths).join(' '));
    const doc = await admin.get(entry.serverRelativeURL);
    assert.equal(doc.status, 200);
    assert.ok('io.k8s.metrics.pkg.apis.metrics.v1beta1.PodMetrics' in doc.body.components.schemas);
  });

  test('the merged OpenAPI documents follow the extension server\'s as they change', async () => {
    const kind = 'io.k8s.metrics.pkg.apis.metrics.v1beta1.NodeMetrics';
    ext.describeKind('NodeMetrics', 'NodeMetrics, described anew while served.');
    await pollUntil(() => admin.get('/openapi/v2'), (r) => r.status === 200 && r.body.definitions?.[kind]?.description === 'NodeMetrics, described anew while served.', 'the new description in /openapi/v2');
    await pollUntil(async () => {
      const entry = (await admin.get('/openapi/v3')).body.paths['apis/metrics.k8s.io/v1beta1'];
      return entry ? admin.get(entry.serverRelativeURL) : undefined;
    }, (r) => r?.status === 200 && r.body.components.schemas[kind]?.description === 'NodeMetrics, described anew while served.', 'the new description in /openapi/v3');
  });

  test('an APIService whose Service is an ExternalName is proxied to the external name', async () => {
    const svc = await admin.post(`/api/v1/namespaces/${systemNs}/services`, { metadata: { name: 'metrics-external' }, spec: { type: 'ExternalName', externalName: '127.0.0.1' } });
    assert.equal(svc.status, 201, svc.text);
    const name = 'v1beta1.metrics.k8s.io';
    const original = (await admin.get(`${apiservices}/${name}`)).body;
    const { caBundle: _ca, ...spec } = original.spec;
    // Its serving certificate names metrics-server, not metrics-external: this case checks where the request goes.
    const moved = await admin.put(`${apiservices}/${name}`, { ...original, spec: { ...spec, insecureSkipTLSVerify: true, service: { namespace: systemNs, name: 'metrics-external', port: ext.port } } });
    assert.equal(moved.status, 200, moved.text);
    const seen = ext.received.length;
    const node = await pollUntil(() => admin.get(`${metrics}/nodes/n1`), (r) => r.status === 200, 'n1 through the ExternalName Service');
    assert.equal(node.body.usage.cpu, '250m');
    assert.ok(ext.received.slice(seen).some((r) => r.url.startsWith(`${metrics}/nodes/n1`)), 'the extension server answered it');
    const back = (await admin.get(`${apiservices}/${name}`)).body;
    assert.equal((await admin.put(`${apiservices}/${name}`, { ...back, spec: original.spec })).status, 200);
    await waitAvailable(name, 'True', 'Passed');
  });

  test('Available says why a service cannot be reached; its requests answer 503 as upstream\'s', async () => {
    const missing = await admin.post(apiservices, {
      metadata: { name: 'v1alpha1.missing.example.com' },
      spec: { group: 'missing.example.com', version: 'v1alpha1', groupPriorityMinimum: 100, versionPriority: 10, insecureSkipTLSVerify: true, service: { namespace: systemNs, name: 'nowhere' } },
    });
    assert.equal(missing.status, 201, missing.text);
    const nf = await waitAvailable('v1alpha1.missing.example.com', 'False', 'ServiceNotFound');
    assert.equal(available(nf)?.message, `service/nowhere in "${systemNs}" is not present`);
    const r = await admin.get('/apis/missing.example.com/v1alpha1/things');
    assert.equal(r.status, 503);
    assert.equal(r.text, 'service unavailable\n');
    const wrongPort = await admin.put(`${apiservices}/v1alpha1.missing.example.com`, { ...nf.body, spec: { ...nf.body.spec, service: { namespace: systemNs, name: 'metrics-server', port: 8443 } } });
    assert.equal(wrongPort.status, 200, wrongPort.text);
    const pe = await waitAvailable('v1alpha1.missing.example.com', 'False', 'ServicePortError');
    assert.equal(available(pe)?.message, `service/metrics-server in "${systemNs}" is not listening on port 8443`);
    const out = (await kubectl.ok(['get', 'apiservice', 'v1alpha1.missing.example.com'])).stdout;
    assert.match(out, /v1alpha1\.missing\.example\.com\s+orch-system\/metrics-server\s+False \(ServicePortError\)/, out);
    // The extension server goes away: the discovery check fails, and its requests get 503.
    await ext.close();
    const failed = await waitAvailable('v1beta1.metrics.k8s.io', 'False', 'FailedDiscoveryCheck');
    assert.match(available(failed)!.message!, new RegExp(`^failing or missing response from https://127\\.0\\.0\\.1:${ext.port}/apis/metrics\\.k8s\\.io/v1beta1: Get "https://127\\.0\\.0\\.1:${ext.port}/apis/metrics\\.k8s\\.io/v1beta1": dial tcp 127\\.0\\.0\\.1:${ext.port}: connect: connection refused$`));
    const gone = await admin.get(`${metrics}/nodes`);
    assert.equal(gone.status, 503);
    assert.equal(gone.text, 'service unavailable\n');
    // Discovery keeps what the server last said, marked Stale.
    const stale = await pollUntil(aggregatedMetrics, (v) => v?.[0]?.freshness === 'Stale', 'a Stale metrics.k8s.io in the aggregated document');
    assert.equal(stale![0]!.resources!.length, 2);
    // Without its Endpoints the reason says so.
    assert.equal((await admin.delete(`/api/v1/namespaces/${systemNs}/endpoints/metrics-server`)).status, 200);
    const ep = await waitAvailable('v1beta1.metrics.k8s.io', 'False', 'EndpointsNotFound');
    assert.equal(available(ep)?.message, `cannot find endpoints for service/metrics-server in "${systemNs}"`);
  });

  test('an APIService deleted leaves discovery and OpenAPI', async () => {
    assert.equal((await admin.delete(`${apiservices}/v1beta1.metrics.k8s.io`)).status, 200);
    await pollUntil(() => admin.get('/apis'), (r) => !r.body.groups.some((g: { name: string }) => g.name === 'metrics.k8s.io'), 'metrics.k8s.io gone from /apis');
    await pollUntil(() => admin.get('/openapi/v2'), (r) => r.status === 200 && !('io.k8s.metrics.pkg.apis.metrics.v1beta1.NodeMetrics' in r.body.definitions), 'NodeMetrics gone from /openapi/v2');
    assert.equal((await admin.get('/openapi/v3')).body.paths['apis/metrics.k8s.io/v1beta1'], undefined);
    assert.equal((await admin.get(`${metrics}/nodes`)).status, 404);
  });
});
