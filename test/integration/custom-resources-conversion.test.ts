// Webhook conversion of custom resources through the real server and a real HTTPS conversion
// webhook with its own CA: objects written in one version are stored in the storage version and
// read, listed and watched in any served version, each crossing by a ConversionReview v1; a
// webhook that fails the conversion fails the request as upstream's does.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sendJSON, startTestHttpsServer, type TestHttpsServer } from '../../pkg/authentication/testing/https-server.js';
import { createTestCA, issueLoopbackServerCert } from '../../pkg/authentication/testing/pki.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
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
  const reviews: Review[] = [];
  let failing = false;
  const ns = 'default';
  const path = (v: string, name = '') => `/apis/${group}/${v}/namespaces/${ns}/converts${name ? `/${name}` : ''}`;

  before(async () => {
    const ca = createTestCA('conversion-webhook-ca');
    hook = await startTestHttpsServer({
      ...issueLoopbackServerCert(ca),
      handler: (req, res) => {
        const review = JSON.parse(req.body) as Review;
        reviews.push(review);
        const { uid, desiredAPIVersion, objects } = review.request;
        const response = failing
          ? { uid, result: { status: 'Failure', message: 'the converter is down for maintenance' } }
          : { uid, result: { status: 'Success' }, convertedObjects: objects.map((o) => convert(o, desiredAPIVersion)) };
        sendJSON(res, 200, { apiVersion: review.apiVersion, kind: 'ConversionReview', response });
      },
    });
    t = await startTestServer();
    const schema = (field: string) => ({
      openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { [field]: { type: 'string' } } } } },
    });
    await establish(t, {
      apiVersion: 'apiextensions.orch.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `converts.${group}` },
      spec: {
        group, scope: 'Namespaced', names: { plural: 'converts', kind: 'Convert' },
        versions: [{ name: 'v1', served: true, storage: true, schema: schema('name') }, { name: 'v2', served: true, storage: false, schema: schema('fullName') }],
        conversion: {
          strategy: 'Webhook',
          webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: `${hook.url}/convert`, caBundle: Buffer.from(ca.cert).toString('base64') } },
        },
      },
    });
  });
  after(async () => {
    await t?.stop();
    await hook?.close();
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
});
