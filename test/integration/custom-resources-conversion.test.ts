// Webhook conversion of custom resources through the real server and a real HTTPS conversion
// webhook with its own CA: objects written in one version are stored in the storage version and
// read, listed and watched in any served version, each crossing by a ConversionReview v1; a
// webhook that fails the conversion fails the request as upstream's does. A webhook named by a
// Service is reached through the Service's Endpoints and verified as `<service>.<namespace>.svc`.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ServerResponse } from 'node:http';
import { sendJSON, startTestHttpsServer, type TestHttpsServer, type TestRequest } from '../../pkg/authentication/testing/https-server.js';
import { createTestCA, issueLoopbackServerCert } from '../../pkg/authentication/testing/pki.js';
import { putLoopbackEndpoints } from './framework/admission-webhook.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { pollUntil } from './framework/authentication.js';
import { establish, group, type Json } from './framework/custom-resources.js';

interface Review {
  apiVersion: string;
  kind: string;
  request: { uid: string; desiredAPIVersion: string; objects: Json[] };
}

/** v1 keeps spec.name, v2 spec.fullName: the webhook moves the value between them. */
function convert(o: Json, desired: string): Json {
  const spec = { ...(o.spec as Json) };
  if (desired.endsWith('/v2') && 'name' in spec) {
    spec.fullName = spec.name;
    delete spec.name;
  } else if (desired.endsWith('/v1') && 'fullName' in spec) {
    spec.name = spec.fullName;
    delete spec.fullName;
  }
  return { ...o, apiVersion: desired, spec };
}

describe('custom resources with Webhook conversion', () => {
  let t: TestServer;
  let hook: TestHttpsServer;
  let serviceHook: TestHttpsServer;
  let caBundle: string;
  const reviews: Review[] = [];
  let failing = false;
  const ns = 'default';
  const path = (v: string, name = '', plural = 'converts') => `/apis/${group}/${v}/namespaces/${ns}/${plural}${name ? `/${name}` : ''}`;
  const handler = (req: TestRequest, res: ServerResponse) => {
    const review = JSON.parse(req.body) as Review;
    reviews.push(review);
    const { uid, desiredAPIVersion, objects } = review.request;
    const response = failing
      ? { uid, result: { status: 'Failure', message: 'the converter is down for maintenance' } }
      : { uid, result: { status: 'Success' }, convertedObjects: objects.map((o) => convert(o, desiredAPIVersion)) };
    sendJSON(res, 200, { apiVersion: review.apiVersion, kind: 'ConversionReview', response });
  };
  const schema = (field: string) => ({
    openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { [field]: { type: 'string' } } } } },
  });
  /** A definition of `plural` in v1 (stored) and v2, converted by the webhook at `clientConfig`. */
  const definition = (plural: string, kind: string, clientConfig: Json) => ({
    apiVersion: 'apiextensions.orch.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `${plural}.${group}` },
    spec: {
      group, scope: 'Namespaced', names: { plural, kind },
      versions: [{ name: 'v1', served: true, storage: true, schema: schema('name') }, { name: 'v2', served: true, storage: false, schema: schema('fullName') }],
      conversion: { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { ...clientConfig, caBundle } } },
    },
  });

  before(async () => {
    const ca = createTestCA('conversion-webhook-ca');
    caBundle = Buffer.from(ca.cert).toString('base64');
    hook = await startTestHttpsServer({ ...issueLoopbackServerCert(ca), handler });
    // The Service's webhook holds only the Service's DNS name, which the server must verify it by.
    serviceHook = await startTestHttpsServer({ ...ca.issue({ commonName: `converter.${ns}.svc`, hosts: [`converter.${ns}.svc`], usages: ['serverAuth'] }), handler });
    t = await startTestServer();
    await establish(t, definition('converts', 'Convert', { url: `${hook.url}/convert` }));
  });
  after(async () => {
    await t?.stop();
    await hook?.close();
    await serviceHook?.close();
  });

  test('written in v2, stored in v1, read, listed and watched in either', async () => {
    const watch = await t.client.watch(`${path('v2')}?watch=true`);
    const created = await t.client.post(path('v2'), { apiVersion: `${group}/v2`, kind: 'Convert', metadata: { name: 'c1' }, spec: { fullName: 'Ada Lovelace' } });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual({ apiVersion: (created.body as Json).apiVersion, spec: (created.body as Json).spec }, { apiVersion: `${group}/v2`, spec: { fullName: 'Ada Lovelace' } });
    const toStorage = reviews.find((r) => r.request.desiredAPIVersion === `${group}/v1`);
    assert.ok(toStorage, 'the object was converted to the storage version');
    assert.equal(toStorage.apiVersion, 'apiextensions.orch.io/v1');
    assert.equal(toStorage.kind, 'ConversionReview');

    const v1 = await t.client.get(path('v1', 'c1'));
    assert.equal(v1.status, 200, v1.text);
    assert.deepEqual((v1.body as Json).spec, { name: 'Ada Lovelace' });
    const listed = await t.client.get(path('v2'));
    assert.deepEqual(((listed.body as Json).items as Json[]).map((i) => [i.apiVersion, i.spec]), [[`${group}/v2`, { fullName: 'Ada Lovelace' }]]);
    const added = await watch.next();
    assert.equal(added?.type, 'ADDED');
    assert.deepEqual(added?.object.spec, { fullName: 'Ada Lovelace' });
    const patched = await t.client.patch(path('v1', 'c1'), { spec: { name: 'Grace Hopper' } });
    assert.equal(patched.status, 200, patched.text);
    const modified = await watch.next();
    assert.deepEqual([modified?.type, modified?.object.spec], ['MODIFIED', { fullName: 'Grace Hopper' }]);
    watch.close();
  });

  test('a failed conversion fails the request as upstream', async () => {
    failing = true;
    try {
      const r = await t.client.get(path('v2', 'c1'));
      assert.equal(r.status, 500, r.text);
      assert.equal((r.body as Json).reason, 'InternalError');
      assert.match(String((r.body as Json).message), /conversion webhook for stable.example.com\/v1, Kind=Convert failed: the converter is down for maintenance/);
    } finally {
      failing = false;
    }
    const again = await t.client.get(path('v2', 'c1'));
    assert.equal(again.status, 200, again.text);
  });

  test('a webhook named by a Service is reached through its Endpoints and verified as <service>.<namespace>.svc', async () => {
    const svc = await t.client.post(`/api/v1/namespaces/${ns}/services`, { metadata: { name: 'converter' }, spec: { ports: [{ name: 'https', port: 8443, targetPort: 9443 }] } });
    assert.equal(svc.status, 201, svc.text);
    // Endpoints validation refuses loopback addresses; the webhook listens only on loopback, so its
    // Endpoints are stored as an endpoints controller would have left them.
    await putLoopbackEndpoints(t.etcd.endpoint, ns, 'converter', 'https', Number(new URL(serviceHook.url).port));
    await establish(t, definition('renames', 'Rename', { service: { namespace: ns, name: 'converter', port: 8443, path: '/rename' } }));
    const created = await pollUntil(
      () => t.client.post(path('v2', '', 'renames'), { apiVersion: `${group}/v2`, kind: 'Rename', metadata: { name: 'r1' }, spec: { fullName: 'Ada Lovelace' } }),
      (r) => r.status !== 500, 'the Endpoints to be cached');
    assert.equal(created.status, 201, created.text);
    const seen = serviceHook.requests.filter((r) => r.url.startsWith('/rename'));
    assert.ok(seen.length > 0, 'the webhook behind the Service converted the object');
    assert.equal(seen.at(-1)!.headers.host, `converter.${ns}.svc:8443`);
    assert.equal(seen.at(-1)!.url, '/rename?timeout=30s');
    const v1 = await t.client.get(path('v1', 'r1', 'renames'));
    assert.equal(v1.status, 200, v1.text);
    assert.deepEqual((v1.body as Json).spec, { name: 'Ada Lovelace' }, 'stored in v1 as the webhook converted it');
    assert.equal(hook.requests.filter((r) => r.url.startsWith('/rename')).length, 0, 'the URL webhook was not asked');
  });
});
