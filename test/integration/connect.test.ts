// The CONNECT sub-resources end to end: kubectl and the Python client exec into a pod through a
// real node agent over HTTPS (the server's kubelet client certificate, the agent's own CA), a
// port-forward upgrade becomes a tunnel, and pods/proxy, services/proxy and nodes/proxy reach real
// servers; the refusals (no node, no such container, loopback targets, no endpoints, a plain
// request to a stream) are upstream's; a WebSocket exec needs `create` as well as `get`.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:tls';
import { after, before, describe, test } from 'node:test';
import { TestCA } from '../../pkg/authentication/testing/ca.js';
import { tempFiles } from '../../pkg/authentication/testing/signing-keys.js';
import { defaultKubeletOptions } from '../../cmd/apiserver/app/kubelet-options.js';
import { defaultAuthenticationOptions } from '../../cmd/apiserver/app/authentication-options.js';
import { defaultAuthorizationOptions } from '../../pkg/authorization/modes.js';
import { ensureDefaultServiceAccount, startTestServer, type TestServer } from './framework/apiserver.js';
import { pollUntil } from './framework/authentication.js';
import { configurationsPath, createConfiguration, denied, patching, startAdmissionWebhookServer } from './framework/admission-webhook.js';
import { proxyableAddress, startFakeKubelet, type FakeKubelet } from './framework/fake-kubelet.js';
import { writeKubeconfig, type Kubeconfig } from './framework/kubeconfig.js';
import { Kubectl } from './framework/kubectl.js';
import { runPython } from './framework/python.js';

const ns = '/api/v1/namespaces/default';

/** A plain HTTP server standing in for a pod's container: it answers with what it was asked. */
async function startPodServer(): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/redirect')) {
      res.writeHead(302, { Location: 'http://example.invalid/' });
      res.end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json', 'X-Pod': 'yes' });
    res.end(JSON.stringify({ pod: true, method: req.method, url: req.url, authorization: req.headers.authorization !== undefined }));
  });
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', () => resolve()));
  return { server, port: (server.address() as { port: number }).port };
}

/** Sends an upgrade request on a raw TLS connection; resolves with the status line and the open socket. */
function rawUpgrade(t: TestServer, path: string, protocol: string): Promise<{ statusLine: string; head: string; socket: ReturnType<typeof connect> }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: t.server.port, ca: t.server.cert.cert, servername: 'localhost' });
    const timer = setTimeout(() => reject(new Error('no answer to the upgrade within 10s')), 10_000);
    socket.once('secureConnect', () => {
      socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: ${protocol}\r\nContent-Length: 0\r\n\r\n`);
    });
    let buf = '';
    const onData = (c: Buffer) => {
      buf += c.toString('latin1');
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      clearTimeout(timer);
      socket.off('data', onData);
      resolve({ statusLine: buf.slice(0, buf.indexOf('\r\n')), head: buf.slice(0, end), socket });
    };
    socket.on('data', onData);
    socket.once('error', reject);
  });
}

describe('CONNECT sub-resources', () => {
  let t: TestServer;
  let kubelet: FakeKubelet;
  let podServer: { server: Server; port: number };
  let kc: Kubeconfig;
  let kubectl: Kubectl;
  const files = tempFiles('orch-kubelet-');
  const host = proxyableAddress();
  const kubeletCA = TestCA.root({ commonName: 'kubelet-ca' });
  const clientCA = TestCA.root({ commonName: 'kubelet-client-ca' });

  before(async () => {
    const clientCert = clientCA.client('kube-apiserver-kubelet-client', ['system:masters']);
    kubelet = await startFakeKubelet(kubeletCA, clientCA, [host, '127.0.0.1']);
    podServer = await startPodServer();
    t = await startTestServer({
      kubelet: {
        ...defaultKubeletOptions(),
        clientCertificate: files.write('client.crt', clientCert.chainPem),
        clientKey: files.write('client.key', clientCert.keyPem),
        certificateAuthority: files.write('ca.crt', kubeletCA.certPem),
        preferredAddressTypes: ['InternalIP', 'Hostname'],
      },
    });
    kc = writeKubeconfig(t);
    kubectl = new Kubectl(kc);
    await ensureDefaultServiceAccount(t.client, 'default');
    const node = (name: string, ip: string) => ({
      metadata: { name },
      status: { addresses: [{ type: 'Hostname', address: 'not-used' }, { type: 'InternalIP', address: ip }], daemonEndpoints: { kubeletEndpoint: { Port: kubelet.port } } },
    });
    for (const [name, ip] of [['node-1', host], ['node-lo', '127.0.0.1']] as const) {
      const created = await t.client.post('/api/v1/nodes', node(name, ip));
      assert.equal(created.status, 201, created.text);
      const status = await t.client.patch(`/api/v1/nodes/${name}/status`, { status: node(name, ip).status });
      assert.equal(status.status, 200, status.text);
    }
    const pod = (name: string, nodeName: string | undefined, ip: string) => ({
      metadata: { name, labels: { app: 'web' } },
      spec: {
        ...(nodeName ? { nodeName } : {}),
        containers: [{ name: 'app', image: 'registry.example/app:1', ports: [{ containerPort: podServer.port }] }, { name: 'sidecar', image: 'registry.example/side:1' }],
      },
      ip,
    });
    for (const p of [pod('web', 'node-1', host), pod('unscheduled', undefined, host), pod('loopback', 'node-1', '127.0.0.1')]) {
      const { ip, ...body } = p;
      const created = await t.client.post(`${ns}/pods`, body);
      assert.equal(created.status, 201, created.text);
      const status = await t.client.patch(`${ns}/pods/${p.metadata.name}/status`, { status: { podIP: ip, podIPs: [{ ip }] } });
      assert.equal(status.status, 200, status.text);
    }
  });

  after(async () => {
    kc?.remove();
    await t?.stop();
    await kubelet?.stop();
    podServer?.server.close();
    files.remove();
  });

  test('kubectl exec runs through the node agent with the server\'s kubelet client certificate', async () => {
    const before = kubelet.requests.length;
    const r = await kubectl.ok(['exec', 'web', '-c', 'app', '--', 'echo', 'hello', 'world'], { env: { ...process.env, HOME: kc.dir, KUBECONFIG: kc.path, KUBECTL_REMOTE_COMMAND_WEBSOCKETS: 'true' } });
    assert.equal(r.stdout, 'echo hello world\n');
    const seen = kubelet.requests.slice(before).find((q) => q.url.startsWith('/exec/'));
    assert.ok(seen, 'the node agent got the exec');
    assert.equal(new URL(seen.url, 'https://x').pathname, '/exec/default/web/app');
    assert.deepEqual(new URL(seen.url, 'https://x').searchParams.getAll('command'), ['echo', 'hello', 'world']);
    assert.equal(seen.clientCN, 'kube-apiserver-kubelet-client');
    assert.equal(seen.authorization, false, 'the client\'s credentials end at the API server');
  });

  test('the Python client execs through its WebSocket stream', async () => {
    const r = await runPython(kc, 'exec_pod.py', ['default', 'web', 'app', 'uname', '-a']);
    assert.deepEqual(r.report, { output: 'uname -a\n' });
  });

  test('a stream names its container and needs a node; a plain request is refused', async () => {
    const exec = (pod: string, q: string) => t.client.post(`${ns}/pods/${pod}/exec?${q}`, undefined);
    let r = await exec('web', 'command=ls&stdout=1');
    assert.equal(r.status, 400);
    assert.equal(r.body.message, 'a container name must be specified for pod web, choose one of: [app sidecar]');
    r = await exec('web', 'command=ls&stdout=1&container=nope');
    assert.equal(r.status, 400);
    assert.equal(r.body.message, 'container nope is not valid for pod web');
    r = await exec('unscheduled', 'command=ls&stdout=1&container=app');
    assert.equal(r.status, 400);
    assert.equal(r.body.message, 'pod unscheduled does not have a host assigned');
    r = await exec('web', 'command=ls&stdout=1&container=app');
    assert.equal(r.status, 400);
    assert.equal(r.body.message, 'Upgrade request required');
    r = await exec('missing', 'command=ls&container=app');
    assert.equal(r.status, 404);
    assert.equal(r.body.message, 'pods "missing" not found');
    r = await t.client.request('PUT', `${ns}/pods/web/exec?command=ls`);
    assert.equal(r.status, 405);
    r = await t.client.post(`${ns}/pods/web/portforward?ports=http`, undefined);
    assert.equal(r.status, 400);
    assert.equal(r.body.message, 'strconv.ParseInt: parsing "http": invalid syntax');
  });

  test('a port-forward upgrade becomes a tunnel to the node agent', async () => {
    const before = kubelet.requests.length;
    const { statusLine, socket } = await rawUpgrade(t, `${ns}/pods/web/portforward?ports=8080`, 'SPDY/3.1');
    try {
      assert.equal(statusLine, 'HTTP/1.1 101 Switching Protocols');
      const echoed = new Promise<string>((resolve) => socket.once('data', (c: Buffer) => resolve(c.toString())));
      socket.write('ping through the tunnel');
      assert.equal(await echoed, 'ping through the tunnel');
    } finally {
      socket.destroy();
    }
    const seen = kubelet.requests.slice(before).find((q) => q.url.startsWith('/portForward/'));
    assert.equal(seen?.url, '/portForward/default/web?port=8080');
    assert.equal(seen?.upgrade, 'SPDY/3.1');
  });

  test('pods/proxy reaches the pod, without the client\'s credentials; loopback pods and redirects are refused', async () => {
    const viaKubectl = await kubectl.ok(['get', '--raw', `${ns}/pods/web:${podServer.port}/proxy/hello/there?x=1`]);
    // The client's query goes along (kubectl adds its request timeout to it).
    assert.deepEqual(JSON.parse(viaKubectl.stdout), { pod: true, method: 'GET', url: '/hello/there?timeout=20s&x=1', authorization: false });
    // Without a port, the first declared container port.
    const r = await t.client.withToken('secret-token').request('POST', `${ns}/pods/web/proxy/submit`, { raw: 'data' });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, { pod: true, method: 'POST', url: '/submit', authorization: false });
    assert.equal(r.headers['x-pod'], 'yes');
    const root = await t.client.get(`${ns}/pods/web/proxy?a=b`);
    assert.equal(root.status, 301);
    assert.equal(root.headers.location, `${ns}/pods/web/proxy/?a=b`);
    const loop = await t.client.get(`${ns}/pods/loopback/proxy/`);
    assert.equal(loop.status, 400);
    assert.equal(loop.body.message, 'address not allowed');
    const redirect = await t.client.get(`${ns}/pods/web/proxy/redirect`);
    assert.equal(redirect.status, 502);
    assert.equal(redirect.text, 'the backend attempted to redirect this request, which is not permitted');
    const bad = await t.client.get(`${ns}/pods/a:b:c:d/proxy/`);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.message, 'invalid pod request "a:b:c:d"');
  });

  test('services/proxy picks a ready endpoint that is one of the service\'s pods', async () => {
    const svc = await t.client.post(`${ns}/services`, { metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: podServer.port }] } });
    assert.equal(svc.status, 201, svc.text);
    const none = await t.client.get(`${ns}/services/web:http/proxy/`);
    assert.equal(none.status, 404, 'no Endpoints object yet');
    const eps = await t.client.post(`${ns}/endpoints`, {
      metadata: { name: 'web' },
      subsets: [{ addresses: [{ ip: host, targetRef: { kind: 'Pod', namespace: 'default', name: 'web' } }], ports: [{ name: 'http', port: podServer.port }] }],
    });
    assert.equal(eps.status, 201, eps.text);
    for (const id of ['web:http', 'web:80', 'http:web:http']) {
      const r = await t.client.get(`${ns}/services/${id}/proxy/ping`);
      assert.equal(r.status, 200, `${id}: ${r.text}`);
      assert.equal(r.body.url, '/ping');
    }
    const wrongPort = await t.client.get(`${ns}/services/web:81/proxy/`);
    assert.equal(wrongPort.status, 503);
    assert.equal(wrongPort.body.message, 'no service port 81 found for service "web"');
    const stranger = await t.client.post(`${ns}/endpoints`, {
      metadata: { name: 'stranger' },
      subsets: [{ addresses: [{ ip: host }], ports: [{ name: 'http', port: podServer.port }] }],
    });
    assert.equal(stranger.status, 201, stranger.text);
    const notPod = await t.client.get(`${ns}/services/stranger:http/proxy/`);
    assert.equal(notPod.status, 503);
    assert.equal(notPod.body.message, 'no endpoints available for service "stranger:http"');
  });

  test('nodes/proxy reaches the node agent with the kubelet client certificate', async () => {
    const r = await kubectl.ok(['get', '--raw', '/api/v1/nodes/node-1/proxy/healthz']);
    const seen = JSON.parse(r.stdout) as { url: string; clientCN: string; authorization: boolean };
    assert.equal(seen.url, '/healthz?timeout=20s');
    assert.equal(seen.clientCN, 'kube-apiserver-kubelet-client');
    assert.equal(seen.authorization, false);
    const loop = await t.client.get('/api/v1/nodes/node-lo/proxy/healthz');
    assert.equal(loop.status, 400);
    assert.equal(loop.body.message, 'address not allowed');
    const missing = await t.client.get('/api/v1/nodes/nowhere/proxy/healthz');
    assert.equal(missing.status, 404);
  });

  test('admission sees CONNECT with the options kind: a validating webhook refuses an exec, a mutating one changes its command', async () => {
    const hooks = await startAdmissionWebhookServer();
    try {
      const domain = t.options.apiDomain;
      const hook = (name: string, over: Record<string, unknown> = {}) => ({
        name: `${name}.hooks.test`, clientConfig: { url: `${hooks.url}/${name}`, caBundle: hooks.caBundle },
        rules: [{ operations: ['CONNECT'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods/exec'] }],
        sideEffects: 'None', admissionReviewVersions: ['v1'], objectSelector: {}, ...over,
      });
      hooks.on('/rewrite', patching([{ op: 'replace', path: '/command', value: ['echo', 'rewritten'] }]));
      await createConfiguration(t.client, domain, 'mutating', 'connect-rewrite', [hook('rewrite')]);
      const env = { ...process.env, HOME: kc.dir, KUBECONFIG: kc.path, KUBECTL_REMOTE_COMMAND_WEBSOCKETS: 'true' };
      const rewritten = await pollUntil(() => kubectl.run(['exec', 'web', '-c', 'app', '--', 'ls'], { env }), (r) => r.stdout === 'echo rewritten\n', 'the mutating webhook in effect');
      assert.equal(rewritten.code, 0, rewritten.describe());
      const review = hooks.reviews('/rewrite').at(-1)!;
      assert.equal(review.request.operation, 'CONNECT');
      assert.deepEqual(review.request.kind, { group: '', version: 'v1', kind: 'PodExecOptions' });
      assert.deepEqual(review.request.resource, { group: '', version: 'v1', resource: 'pods' });
      assert.equal(review.request.subResource, 'exec');
      assert.equal(review.request.name, 'web');
      assert.equal(review.request.namespace, 'default');
      assert.deepEqual(review.request.object, { kind: 'PodExecOptions', apiVersion: 'v1', stdout: true, stderr: true, container: 'app', command: ['ls'] });
      assert.equal(review.request.options, null);

      hooks.on('/deny', denied({ code: 403, message: 'no shells in production' }));
      await createConfiguration(t.client, domain, 'validating', 'connect-deny', [hook('deny')]);
      const refused = await pollUntil(() => t.client.withToken('x').get(`${ns}/pods/web/exec?command=ls&stdout=1&container=app`, { headers: { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==' } }),
        (r) => r.status === 403, 'the validating webhook in effect');
      assert.equal(refused.body.message, 'admission webhook "deny.hooks.test" denied the request: no shells in production');
      // Proxies are admitted too: a rule on pods/proxy sees PodProxyOptions with the path.
      await createConfiguration(t.client, domain, 'validating', 'connect-proxy', [hook('proxy', { rules: [{ operations: ['CONNECT'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods/proxy'] }] })]);
      await pollUntil(() => t.client.get(`${ns}/pods/web/proxy/a/b`), () => hooks.reviews('/proxy').length > 0, 'the proxy webhook called');
      assert.deepEqual(hooks.reviews('/proxy').at(-1)!.request.object, { kind: 'PodProxyOptions', apiVersion: 'v1', path: 'a/b' });
    } finally {
      for (const [kind, name] of [['mutating', 'connect-rewrite'], ['validating', 'connect-deny'], ['validating', 'connect-proxy']] as const) {
        await t.client.delete(configurationsPath(t.options.apiDomain, kind, name));
      }
      await hooks.close();
    }
  });

  test('discovery lists the CONNECT sub-resources with their kinds and verbs', async () => {
    const r = await t.client.get('/api/v1');
    const find = (name: string) => (r.body.resources as { name: string; kind: string; verbs: string[] }[]).find((x) => x.name === name);
    assert.deepEqual(find('pods/exec'), { name: 'pods/exec', singularName: '', namespaced: true, kind: 'PodExecOptions', verbs: ['create', 'get'] });
    assert.deepEqual(find('pods/portforward')?.kind, 'PodPortForwardOptions');
    assert.deepEqual(find('pods/proxy')?.verbs, ['create', 'delete', 'get', 'patch', 'update']);
    assert.deepEqual(find('nodes/proxy')?.kind, 'NodeProxyOptions');
    assert.deepEqual(find('services/proxy')?.kind, 'ServiceProxyOptions');
    const sub = await t.client.get(`${ns}/pods/web/status/extra`);
    assert.equal(sub.status, 404, 'only a proxy has a path below its sub-resource');
  });
});

describe('CONNECT authorization', () => {
  let t: TestServer;
  const files = tempFiles('orch-connect-rbac-');

  before(async () => {
    const tokens = files.write('tokens.csv', 'admin-token,admin,1,"system:masters"\nviewer-token,viewer,2\ncreator-token,creator,3\n');
    t = await startTestServer({
      authentication: { ...defaultAuthenticationOptions(), tokenAuthFile: tokens },
      authorization: { ...defaultAuthorizationOptions(), modes: ['RBAC'] },
    });
  });
  after(async () => {
    await t?.stop();
    files.remove();
  });

  test('a WebSocket exec (a GET) needs create on pods/exec as well as get', async () => {
    const admin = t.client.withToken('admin-token');
    const rules = (name: string, verbs: string[]) => ({ metadata: { name }, rules: [{ apiGroups: [''], resources: ['pods/exec'], verbs }] });
    const bind = (name: string, user: string) => ({ metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name }, subjects: [{ apiGroup: 'rbac.authorization.orch.io', kind: 'User', name: user }] });
    for (const [name, user, verbs] of [['exec-get', 'viewer', ['get']], ['exec-all', 'creator', ['get', 'create']]] as const) {
      assert.equal((await admin.post('/apis/rbac.authorization.orch.io/v1/clusterroles', rules(name, [...verbs]))).status, 201);
      assert.equal((await admin.post('/apis/rbac.authorization.orch.io/v1/clusterrolebindings', bind(name, user))).status, 201);
    }
    const ws = { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==' };
    const path = `${ns}/pods/nowhere/exec?command=ls&stdout=1`;
    // Once the binding is seen, `get` passes and the second check, `create`, refuses.
    const denied = await pollUntil(() => t.client.withToken('viewer-token').get(path, { headers: ws }),
      (r) => r.status === 403 && / cannot create /.test(String(r.body.message)), 'the viewer refused on create');
    assert.equal(denied.body.message, 'pods "nowhere" is forbidden: User "viewer" cannot create resource "pods/exec" in API group "" in the namespace "default"');
    // With both verbs the request gets past authorization (and finds no pod).
    await pollUntil(() => t.client.withToken('creator-token').get(path, { headers: ws }), (r) => r.status === 404, 'the creator let through');
  });
});
