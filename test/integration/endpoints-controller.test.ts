// The endpoints controller against the real server, and what it means for a service's proxy: a
// Service with a selector has its Endpoints at once, empty until a pod backs it, so its proxy
// answers upstream's 503 "no endpoints available" (not a NotFound); pods that are not ready are
// listed apart and not proxied to; a ready pod is. The refusals are upstream's for each case (no
// Endpoints object, no subsets, no ready address for the port, a port the service lacks).
// Endpoints carry the service's labels, go with the service, and ones left without a service are
// deleted when the controller starts.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { endpointController } from '../../pkg/controller/endpoint/controller.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { assertStatus } from './framework/assertions.js';
import { pollUntil } from './framework/authentication.js';
import { proxyableAddress } from './framework/fake-kubelet.js';
import { runControllers, type RunningControllers } from './framework/in-process-controller.js';

const ns = '/api/v1/namespaces/default';

describe('endpoints controller and the service proxy', () => {
  let t: TestServer;
  let controllers: RunningControllers;
  let podServer: Server;
  let podPort: number;
  const ip = proxyableAddress();

  before(async () => {
    podServer = createServer((req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end(`pod answered ${req.url}`);
    });
    await new Promise<void>((resolve) => podServer.listen(0, '0.0.0.0', resolve));
    podPort = (podServer.address() as { port: number }).port;
    t = await startTestServer();
    // Left behind by a service deleted while no controller ran.
    assert.equal((await t.client.post(`${ns}/endpoints`, { metadata: { name: 'leftover' }, subsets: [{ addresses: [{ ip }], ports: [{ port: 1 }] }] })).status, 201);
    controllers = await runControllers(t, [endpointController]);
  });

  after(async () => {
    await controllers?.stop();
    await t?.stop();
    podServer?.close();
  });

  const endpoints = (name: string) => t.client.get(`${ns}/endpoints/${name}`);

  test('Endpoints without a service are deleted at start; a selector-less service keeps none, and its proxy finds none', async () => {
    await pollUntil(() => endpoints('leftover'), (r) => r.status === 404, 'the leftover Endpoints deleted');
    assert.equal((await t.client.post(`${ns}/services`, { metadata: { name: 'manual' }, spec: { ports: [{ port: 80 }] } })).status, 201);
    const r = await t.client.get(`${ns}/services/manual/proxy/`);
    assertStatus(r, 404, 'NotFound', 'no Endpoints object: the endpoints registry\'s NotFound, as upstream');
    assert.equal(r.body.message, 'endpoints "manual" not found');
  });

  test('a service with no pods answers 503; a pod not ready is listed apart and not proxied to; a ready one is', async () => {
    const svc = await t.client.post(`${ns}/services`, {
      metadata: { name: 'web', labels: { tier: 'front' } },
      spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 'web' }] },
    });
    assert.equal(svc.status, 201, svc.text);
    const empty = await pollUntil(() => endpoints('web'), (r) => r.status === 200, 'the Endpoints made for the service');
    assert.equal(empty.body.subsets, undefined, 'no pods: no subsets');
    assert.deepEqual(empty.body.metadata.labels, { tier: 'front' });
    let r = await t.client.get(`${ns}/services/web/proxy/`);
    assertStatus(r, 503, 'ServiceUnavailable');
    assert.equal(r.body.message, 'no endpoints available for service "web"');

    const pod = await t.client.post(`${ns}/pods`, {
      metadata: { name: 'web-1', labels: { app: 'web' } },
      spec: { nodeName: 'node-1', containers: [{ name: 'app', image: 'registry.example/app:1', ports: [{ name: 'web', containerPort: podPort }] }] },
    });
    assert.equal(pod.status, 201, pod.text);
    const status = (ready: boolean) => t.client.patch(`${ns}/pods/web-1/status`, {
      status: { phase: 'Running', podIP: ip, podIPs: [{ ip }], conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
    });
    assert.equal((await status(false)).status, 200);
    const notReady = await pollUntil(() => endpoints('web'), (e) => e.body.subsets?.length === 1, 'the pod listed');
    assert.deepEqual(notReady.body.subsets, [{
      notReadyAddresses: [{ ip, nodeName: 'node-1', targetRef: { kind: 'Pod', namespace: 'default', name: 'web-1', uid: pod.body.metadata.uid } }],
      ports: [{ name: 'http', port: podPort, protocol: 'TCP' }],
    }]);
    r = await t.client.get(`${ns}/services/web:http/proxy/`);
    assertStatus(r, 503, 'ServiceUnavailable', 'no ready address');
    assert.equal(r.body.message, 'no endpoints available for service "web:http"');

    assert.equal((await status(true)).status, 200);
    await pollUntil(() => endpoints('web'), (e) => e.body.subsets?.[0]?.addresses?.length === 1, 'the pod ready');
    r = await t.client.get(`${ns}/services/web:http/proxy/hello`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.text, 'pod answered /hello');
    r = await t.client.get(`${ns}/services/web:nope/proxy/`);
    assertStatus(r, 503, 'ServiceUnavailable', 'a port name the endpoints lack');
    assert.equal(r.body.message, 'no endpoints available for service "web:nope"');
    r = await t.client.get(`${ns}/services/web:81/proxy/`);
    assertStatus(r, 503, 'ServiceUnavailable', 'a port number the service lacks');
    assert.equal(r.body.message, 'no service port 81 found for service "web"');
  });

  test('a headless service\'s Endpoints are marked so; Endpoints go with their service', async () => {
    assert.equal((await t.client.post(`${ns}/services`, { metadata: { name: 'db' }, spec: { clusterIP: 'None', selector: { app: 'db' }, ports: [{ port: 5432 }] } })).status, 201);
    const made = await pollUntil(() => endpoints('db'), (r) => r.status === 200, 'the headless service\'s Endpoints');
    assert.deepEqual(made.body.metadata.labels, { 'service.orch.io/headless': '' });
    assert.equal((await t.client.delete(`${ns}/services/db`)).status, 200);
    await pollUntil(() => endpoints('db'), (r) => r.status === 404, 'the Endpoints deleted with the service');
  });
});
