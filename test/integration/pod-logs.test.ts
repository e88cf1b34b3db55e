// pods/log end to end: a container's log is read from a real node agent over HTTPS (the server's
// kubelet client certificate, the agent's own CA) and streamed to raw HTTPS clients, stock kubectl,
// the Python client and @kubernetes/client-node, `follow` for as long as the client stays; the
// options reach the agent, and the refusals (bad options, container choice, no such pod, the
// agent's own) and the empty answer for a pod not yet on a node are upstream's. It is a `get` on
// pods/log for RBAC, and discovery and OpenAPI list it as upstream does.
import assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { Log, type LogOptions } from '@kubernetes/client-node';
import { TestCA } from '../../pkg/authentication/testing/ca.js';
import { tempFiles } from '../../pkg/authentication/testing/signing-keys.js';
import { defaultKubeletOptions } from '../../cmd/apiserver/app/kubelet-options.js';
import { defaultAuthenticationOptions } from '../../cmd/apiserver/app/authentication-options.js';
import { defaultAuthorizationOptions } from '../../pkg/authorization/modes.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { assertStatus } from './framework/assertions.js';
import { pollUntil } from './framework/authentication.js';
import type { Client } from './framework/client.js';
import { proxyableAddress, startFakeKubelet, type FakeKubelet } from './framework/fake-kubelet.js';
import { writeKubeconfig, type Kubeconfig } from './framework/kubeconfig.js';
import { Kubectl } from './framework/kubectl.js';
import { describeError, loadKubeConfig } from './framework/node-client.js';
import { runPython } from './framework/python.js';

const ns = 'logs';

/** A port on this machine nothing listens on (just freed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
const pods = `/api/v1/namespaces/${ns}/pods`;
const RBAC = '/apis/rbac.authorization.orch.io/v1';

describe('pods/log', () => {
  let t: TestServer;
  let admin: Client;
  let kubelet: FakeKubelet;
  let rogue: FakeKubelet;
  let kc: Kubeconfig;
  let kubectl: Kubectl;
  const files = tempFiles('orch-pod-logs-');
  const host = proxyableAddress();
  const kubeletCA = TestCA.root({ commonName: 'kubelet-ca' });
  const rogueCA = TestCA.root({ commonName: 'not-the-kubelet-ca' });
  const clientCA = TestCA.root({ commonName: 'kubelet-client-ca' });
  const started = Date.now();
  const at = (msAgo: number) => new Date(started - msAgo);

  before(async () => {
    kubelet = await startFakeKubelet(kubeletCA, clientCA, [host]);
    // An agent whose serving certificate the server's --kubelet-certificate-authority did not sign.
    rogue = await startFakeKubelet(rogueCA, clientCA, [host]);
    const clientCert = clientCA.client('kube-apiserver-kubelet-client', ['system:masters']);
    const tokens = files.write('tokens.csv', 'admin-token,admin,1,"system:masters"\nreader-token,reader,2\n');
    t = await startTestServer({
      authentication: { ...defaultAuthenticationOptions(), tokenAuthFile: tokens },
      authorization: { ...defaultAuthorizationOptions(), modes: ['RBAC'] },
      kubelet: {
        ...defaultKubeletOptions(),
        clientCertificate: files.write('client.crt', clientCert.chainPem),
        clientKey: files.write('client.key', clientCert.keyPem),
        certificateAuthority: files.write('ca.crt', kubeletCA.certPem),
        preferredAddressTypes: ['InternalIP'],
      },
    });
    admin = t.client.withToken('admin-token');
    await pollUntil(() => admin.get('/readyz'), (r) => r.status === 200, 'the bootstrap policy', 30_000);
    kc = writeKubeconfig(t, 'admin-token');
    kubectl = new Kubectl(kc);
    for (const [name, port] of [['node-1', kubelet.port], ['node-rogue', rogue.port], ['node-gone', await closedPort()]] as const) {
      const status = { addresses: [{ type: 'InternalIP', address: host }], daemonEndpoints: { kubeletEndpoint: { Port: port } } };
      assert.equal((await admin.post('/api/v1/nodes', { metadata: { name } })).status, 201);
      assert.equal((await admin.patch(`/api/v1/nodes/${name}/status`, { status })).status, 200);
    }
    for (const namespace of [ns, 'dump']) {
      assert.equal((await admin.post('/api/v1/namespaces', { metadata: { name: namespace } })).status, 201);
      assert.equal((await admin.post(`/api/v1/namespaces/${namespace}/serviceaccounts`, { metadata: { name: 'default' } })).status, 201);
    }
    const container = (name: string) => ({ name, image: `registry.example/${name}:1` });
    const pod = (namespace: string, name: string, nodeName: string | undefined, containers: string[], initContainers: string[] = []) => admin.post(`/api/v1/namespaces/${namespace}/pods`, {
      metadata: { name },
      spec: { ...(nodeName ? { nodeName } : {}), containers: containers.map(container), ...(initContainers.length ? { initContainers: initContainers.map(container) } : {}) },
    });
    for (const created of [
      await pod(ns, 'solo', 'node-1', ['app']),
      await pod(ns, 'web', 'node-1', ['app', 'sidecar'], ['setup']),
      await pod(ns, 'pending', undefined, ['app']),
      await pod(ns, 'ghost', 'node-1', ['app']),
      await pod(ns, 'rogue', 'node-rogue', ['app']),
      await pod(ns, 'stranded', 'node-gone', ['app']),
      await pod(ns, 'orphan', 'node-nowhere', ['app']),
      await pod('dump', 'solo', 'node-1', ['app']),
      await pod('dump', 'pending', undefined, ['app']),
    ]) {
      assert.equal(created.status, 201, created.text);
    }
    kubelet.logs.write(`${ns}/solo/app`, 'line one', at(2 * 3600_000));
    kubelet.logs.write(`${ns}/solo/app`, 'line two', at(30 * 60_000));
    kubelet.logs.write(`${ns}/solo/app`, 'line three', at(1_000));
    kubelet.logs.setPrevious(`${ns}/solo/app`, ['before the restart']);
    kubelet.logs.write(`${ns}/web/app`, 'web app');
    kubelet.logs.write(`${ns}/web/sidecar`, 'web sidecar');
    kubelet.logs.write('dump/solo/app', 'hello from dump');
    rogue.logs.write(`${ns}/rogue/app`, 'unverified but here');
  });

  after(async () => {
    kc?.remove();
    await t?.stop();
    await kubelet?.stop();
    await rogue?.stop();
    files.remove();
  });

  /** The query the node agent got on its last log request for `pod`. */
  const agentQuery = (agent: FakeKubelet, pod: string) => {
    const seen = agent.requests.filter((r) => r.url.startsWith(`/containerLogs/${ns}/${pod}/`)).at(-1);
    assert.ok(seen, `the agent was asked for ${pod}'s log`);
    return seen;
  };

  test('a raw GET streams the log from the node agent as text/plain, the options passed through', async () => {
    const r = await admin.get(`${pods}/solo/log`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers['content-type'], 'text/plain');
    assert.equal(r.text, 'line one\nline two\nline three\n');
    const seen = agentQuery(kubelet, 'solo');
    assert.equal(seen.url, `/containerLogs/${ns}/solo/app`);
    assert.equal(seen.clientCN, 'kube-apiserver-kubelet-client');
    assert.equal(seen.authorization, false, 'the client\'s credentials end at the API server');

    const some = await admin.get(`${pods}/solo/log?container=app&tailLines=2&timestamps=true&limitBytes=40&sinceSeconds=3600&follow=false&previous=0`);
    assert.equal(some.status, 200, some.text);
    assert.match(some.text, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z line two\n\d{4}-\d/);
    assert.equal(Buffer.byteLength(some.text), 40);
    assert.equal(agentQuery(kubelet, 'solo').url, `/containerLogs/${ns}/solo/app?limitBytes=40&sinceSeconds=3600&tailLines=2&timestamps=true`,
      'only what is set, in the order Go encodes a query');

    const sinceTime = at(3600_000);
    const since = await admin.get(`${pods}/solo/log?sinceTime=${encodeURIComponent(sinceTime.toISOString())}`);
    assert.equal(since.text, 'line two\nline three\n');
    const whole = new Date(Math.floor(sinceTime.getTime() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
    assert.equal(agentQuery(kubelet, 'solo').url, `/containerLogs/${ns}/solo/app?sinceTime=${encodeURIComponent(whole)}`, 'sinceTime as RFC 3339 in whole seconds');

    const previous = await admin.get(`${pods}/solo/log?previous=true`);
    assert.equal(previous.text, 'before the restart\n');
    const sidecar = await admin.get(`${pods}/web/log?container=sidecar`);
    assert.equal(sidecar.text, 'web sidecar\n');
  });

  test('follow streams each line as the node agent writes it, and a client that leaves closes the agent\'s request', async () => {
    const key = `${ns}/solo/app`;
    const res = await admin.openStream(`${pods}/solo/log?follow=true&tailLines=1`);
    try {
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'text/plain');
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => { text += c; });
      res.resume();
      await pollUntil(async () => text, (s) => s === 'line three\n', 'the tail of the log');
      assert.equal(kubelet.logs.following(key), 1);
      kubelet.logs.write(key, 'line four');
      await pollUntil(async () => text, (s) => s === 'line three\nline four\n', 'a line written while following');
      kubelet.logs.write(key, 'line five');
      await pollUntil(async () => text, (s) => s.endsWith('line four\nline five\n'), 'the next line');
    } finally {
      res.destroy();
    }
    await pollUntil(async () => kubelet.logs.following(key), (n) => n === 0, 'the agent\'s follow request closed');
  });

  test('upstream\'s refusals: bad options, the container choice, no such pod, the agent\'s own; a pod on no node has an empty log', async () => {
    const invalid = async (query: string, message: string, causes: { reason: string; field: string }[]) => {
      const r = await admin.get(`${pods}/solo/log?${query}`);
      assertStatus(r, 422, 'Invalid', query);
      assert.equal(r.body.message, message, query);
      assert.deepEqual(r.body.details.causes.map((c: { reason: string; field: string }) => ({ reason: c.reason, field: c.field })), causes, query);
      assert.equal(r.body.details.kind, 'PodLogOptions');
    };
    await invalid('tailLines=-1', 'PodLogOptions "solo" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0', [{ reason: 'FieldValueInvalid', field: 'tailLines' }]);
    await invalid('limitBytes=0', 'PodLogOptions "solo" is invalid: limitBytes: Invalid value: 0: must be greater than 0', [{ reason: 'FieldValueInvalid', field: 'limitBytes' }]);
    await invalid('sinceSeconds=0', 'PodLogOptions "solo" is invalid: sinceSeconds: Invalid value: 0: must be greater than 0', [{ reason: 'FieldValueInvalid', field: 'sinceSeconds' }]);
    await invalid('sinceSeconds=10&sinceTime=2026-01-01T00:00:00Z', 'PodLogOptions "solo" is invalid: []: Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified',
      [{ reason: 'FieldValueForbidden', field: '[]' }]);
    await invalid('tailLines=-1&limitBytes=-1', 'PodLogOptions "solo" is invalid: [tailLines: Invalid value: -1: must be greater than or equal to 0, limitBytes: Invalid value: -1: must be greater than 0]',
      [{ reason: 'FieldValueInvalid', field: 'tailLines' }, { reason: 'FieldValueInvalid', field: 'limitBytes' }]);

    const badRequest = async (path: string, message: string) => {
      const r = await admin.get(path);
      assertStatus(r, 400, 'BadRequest', path);
      assert.equal(r.body.message, message, path);
    };
    await badRequest(`${pods}/solo/log?tailLines=ten`, 'strconv.ParseInt: parsing "ten": invalid syntax');
    await badRequest(`${pods}/solo/log?limitBytes=`, 'strconv.ParseInt: parsing "": invalid syntax');
    await badRequest(`${pods}/solo/log?sinceTime=yesterday`, 'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"');
    await badRequest(`${pods}/web/log`, 'a container name must be specified for pod web, choose one of: [setup app sidecar]');
    await badRequest(`${pods}/web/log?container=nope`, 'container nope is not valid for pod web');
    await badRequest(`${pods}/web/log?previous=true&container=sidecar`, 'previous terminated container "sidecar" in pod "web" not found');

    const missing = await admin.get(`${pods}/missing/log`);
    assertStatus(missing, 404, 'NotFound');
    assert.equal(missing.body.message, 'pods "missing" not found');
    const unknown = await admin.get(`${pods}/ghost/log`);
    assertStatus(unknown, 404, 'NotFound', 'the agent knows no such pod');
    assert.equal(unknown.body.message, 'the server could not find the requested resource ( pods/log ghost)');
    assert.deepEqual(unknown.body.details, { name: 'ghost', group: '', kind: 'pods/log' });

    const unreachable = await admin.get(`${pods}/stranded/log`);
    assert.equal(unreachable.status, 500, unreachable.text);
    assert.equal(unreachable.body.reason, undefined);
    assert.match(unreachable.body.message, new RegExp(`^Get "https://${host.replaceAll('.', '\\.')}:\\d+/containerLogs/${ns}/stranded/app": dial tcp ${host.replaceAll('.', '\\.')}:\\d+: connect: connection refused$`));
    const orphan = await admin.get(`${pods}/orphan/log`);
    assertStatus(orphan, 404, 'NotFound', 'a pod bound to a node that does not exist');
    assert.equal(orphan.body.message, 'nodes "node-nowhere" not found');

    const pending = await admin.get(`${pods}/pending/log`);
    assert.equal(pending.status, 204, 'nothing to stream yet');
    assert.equal(pending.text, '');
    assert.equal(pending.headers['content-type'], undefined);

    const put = await admin.request('PUT', `${pods}/solo/log`, { body: {} });
    assertStatus(put, 405, 'MethodNotAllowed');
  });

  test('insecureSkipTLSVerifyBackend reads from an agent whose certificate is not trusted; without it the read fails', async () => {
    const refused = await admin.get(`${pods}/rogue/log`);
    assert.equal(refused.status, 500, refused.text);
    assert.equal(refused.body.reason, undefined, 'upstream gives an error that is no Status no reason');
    assert.equal(refused.body.message, `Get "https://${host}:${rogue.port}/containerLogs/${ns}/rogue/app": tls: failed to verify certificate: x509: certificate signed by unknown authority`);
    const r = await admin.get(`${pods}/rogue/log?insecureSkipTLSVerifyBackend=true`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.text, 'unverified but here\n');
    assert.equal(agentQuery(rogue, 'rogue').clientCN, 'kube-apiserver-kubelet-client', 'the server still presents its client certificate');
  });

  test('stock kubectl logs: -c, --tail, --since, --since-time, --timestamps, --limit-bytes, --previous, and a pod on no node', async () => {
    const logs = async (...args: string[]) => (await kubectl.ok(['logs', '-n', ns, ...args])).stdout;
    assert.equal(await logs('solo'), 'line one\nline two\nline three\nline four\nline five\n');
    assert.equal(await logs('web', '-c', 'sidecar'), 'web sidecar\n');
    assert.equal(await logs('solo', '--tail=1'), 'line five\n');
    assert.equal(await logs('solo', '--since=1h', '--tail=2'), 'line four\nline five\n');
    assert.equal(await logs('solo', '--since-time', at(3600_000).toISOString(), '--limit-bytes=8'), 'line two');
    assert.equal(agentQuery(kubelet, 'solo').url.includes('limitBytes=8&sinceTime='), true);
    assert.match(await logs('solo', '--timestamps', '--tail=1'), /^\d{4}-\d\d-\d\dT[\d:.]+Z line five\n$/);
    assert.equal(await logs('solo', '--previous'), 'before the restart\n');
    const pending = await kubectl.run(['logs', '-n', ns, 'pending']);
    assert.equal(pending.code, 0, pending.describe());
    assert.equal(pending.stdout, '', 'a pod on no node has nothing to print yet');
    const ghost = await kubectl.run(['logs', '-n', ns, 'ghost']);
    assert.notEqual(ghost.code, 0);
    assert.match(ghost.stderr, /Error from server \(NotFound\): the server could not find the requested resource \( pods\/log ghost\)/);
  });

  test('kubectl logs -f prints lines as the node agent writes them', async () => {
    const key = `${ns}/web/app`;
    const follow = kubectl.background(['logs', '-n', ns, '-f', 'web', '-c', 'app']);
    try {
      await follow.waitForOutput((out) => out === 'web app\n', 15_000, 'the log so far');
      await pollUntil(async () => kubelet.logs.following(key), (n) => n === 1, 'kubectl following');
      kubelet.logs.write(key, 'web app again');
      await follow.waitForOutput((out) => out === 'web app\nweb app again\n', 15_000, 'a line written while following');
    } finally {
      await follow.stop();
    }
    await pollUntil(async () => kubelet.logs.following(key), (n) => n === 0, 'the agent\'s follow request closed with kubectl');
  });

  test('python3-kubernetes read_namespaced_pod_log', async () => {
    const r = await runPython(kc, 'pod_log.py', [ns, 'web',
      JSON.stringify({ container: 'sidecar' }),
      JSON.stringify({ container: 'app', tail_lines: 1, timestamps: true }),
      JSON.stringify({ container: 'nope' }),
      JSON.stringify({ container: 'app', limit_bytes: 0 }),
    ]);
    const [sidecar, tail, nope, zero] = r.report as { log?: string; status?: number; message?: string }[];
    assert.equal(sidecar!.log, 'web sidecar\n');
    assert.match(tail!.log ?? '', /^\d{4}-\d\d-\d\dT\S+Z web app again\n$/);
    assert.deepEqual(nope, { status: 400, message: 'container nope is not valid for pod web' });
    assert.deepEqual(zero, { status: 422, message: 'PodLogOptions "web" is invalid: limitBytes: Invalid value: 0: must be greater than 0' });
    const pending = await runPython(kc, 'pod_log.py', [ns, 'pending', '{}']);
    assert.deepEqual(pending.report, [{ log: '' }]);
  });

  test('@kubernetes/client-node Log, once and following', async () => {
    const log = new Log(loadKubeConfig(kc));
    const read = (pod: string, container: string, options: LogOptions) => {
      const out = new PassThrough();
      const state = { text: '', ended: false, error: '' };
      out.setEncoding('utf8').on('data', (c: string) => { state.text += c; });
      out.on('end', () => { state.ended = true; });
      // client-node 2.x pipes the response body into `out` from a stream of its own, which errors
      // with the AbortError when the caller aborts and has no listener there: unheard, it would be
      // an uncaught exception. The one place a caller can hear it is the source `out` is piped from.
      out.on('pipe', (source: NodeJS.ReadableStream) => source.on('error', (e: Error) => { state.error = e.name; }));
      return { state, started: log.log(ns, pod, container, out, options).catch((e: unknown) => assert.fail(describeError(e))) };
    };
    const once = read('web', 'sidecar', { tailLines: 5 });
    await once.started;
    await pollUntil(async () => once.state, (s) => s.ended, 'the whole log read');
    assert.equal(once.state.text, 'web sidecar\n');

    const key = `${ns}/web/sidecar`;
    const followed = read('web', 'sidecar', { follow: true });
    const controller = await followed.started;
    await pollUntil(async () => kubelet.logs.following(key), (n) => n === 1, 'client-node following');
    kubelet.logs.write(key, 'sidecar again');
    await pollUntil(async () => followed.state.text, (s) => s === 'web sidecar\nsidecar again\n', 'a line written while following');
    controller.abort();
    await pollUntil(async () => kubelet.logs.following(key), (n) => n === 0, 'the agent\'s follow request closed with the client');
    assert.equal(followed.state.error, 'AbortError');
  });

  test('kubectl cluster-info dump prints each container\'s log, no errors', async () => {
    const r = await kubectl.ok(['cluster-info', 'dump', '--namespaces', 'dump']);
    assert.doesNotMatch(r.stdout, /log error/);
    assert.match(r.stdout, /==== START logs for container app of pod dump\/solo ====\nhello from dump\n==== END logs for container app of pod dump\/solo ====/);
    assert.match(r.stdout, /==== START logs for container app of pod dump\/pending ====\n==== END logs for container app of pod dump\/pending ====/);
  });

  test('RBAC: reading a log is `get` on pods/log', async () => {
    const reader = t.client.withToken('reader-token');
    const refused = await reader.get(`${pods}/solo/log?tailLines=1`);
    assertStatus(refused, 403, 'Forbidden');
    assert.equal(refused.body.message, `pods "solo" is forbidden: User "reader" cannot get resource "pods/log" in API group "" in the namespace "${ns}"`);
    const role = await admin.post(`${RBAC}/namespaces/${ns}/roles`, { metadata: { name: 'log-reader' }, rules: [{ apiGroups: [''], resources: ['pods/log'], verbs: ['get'] }] });
    assert.equal(role.status, 201, role.text);
    const binding = await admin.post(`${RBAC}/namespaces/${ns}/rolebindings`, {
      metadata: { name: 'log-reader' },
      roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'Role', name: 'log-reader' },
      subjects: [{ apiGroup: 'rbac.authorization.orch.io', kind: 'User', name: 'reader' }],
    });
    assert.equal(binding.status, 201, binding.text);
    const allowed = await pollUntil(() => reader.get(`${pods}/solo/log?tailLines=1`), (r) => r.status === 200, 'the binding in effect');
    assert.equal(allowed.text, 'line five\n');
    assertStatus(await reader.get(`${pods}/solo`), 403, 'Forbidden', 'the pod itself stays unreadable');
  });

  test('discovery lists pods/log as upstream does; kubectl api-resources shows no sub-resource; OpenAPI publishes the operation', async () => {
    const list = await admin.get('/api/v1');
    const found = (list.body.resources as { name: string }[]).find((x) => x.name === 'pods/log');
    assert.deepEqual(found, { name: 'pods/log', singularName: '', namespaced: true, kind: 'Pod', verbs: ['get'] });
    const resources = await kubectl.ok(['api-resources', '--api-group=', '-o', 'name']);
    assert.ok(resources.stdout.split('\n').includes('pods'));
    assert.doesNotMatch(resources.stdout, /log/);

    const doc = await admin.get('/openapi/v2');
    const item = doc.body.paths[`/api/v1/namespaces/{namespace}/pods/{name}/log`];
    assert.equal(item.get.operationId, 'readCoreV1NamespacedPodLog');
    assert.equal(item.get.produces[0], 'text/plain');
    assert.deepEqual(item.get.responses['200'].schema, { type: 'string' });
    assert.deepEqual(item.get['x-kubernetes-group-version-kind'], { group: '', kind: 'Pod', version: 'v1' });
    // Shared parameters are named `<name>-<8 characters of digest>`.
    const names = (params: { $ref: string }[] = []) => params.map((p) => p.$ref.slice('#/parameters/'.length, -9));
    const params = [...names(item.parameters), ...names(item.get.parameters)];
    for (const p of ['container', 'follow', 'insecureSkipTLSVerifyBackend', 'limitBytes', 'previous', 'sinceSeconds', 'tailLines', 'timestamps']) {
      assert.ok(params.includes(p), `parameter ${p}: ${params.join(' ')}`);
    }
    assert.ok(!params.includes('sinceTime'), 'upstream publishes no parameter for a time');
  });
});
