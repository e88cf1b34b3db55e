// Discovery under the Accept headers real clients send: kubectl 1.30 to 1.33 list aggregated
// discovery first with plain JSON last. Aggregated discovery is served in the platform's
// apidiscovery group (apidiscovery.orch.io here; discovery-aggregated.test.ts runs stock kubectl
// under k8s.io), so kubectl's apidiscovery.k8s.io gets the plain documents here, with a plain JSON
// Content-Type, which is how client-go tells them from aggregated ones; lists that end in JSON or
// a wildcard never get 406.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { assertStatus } from './framework/assertions.js';

/** kubectl 1.30, 1.32 and 1.33 (client-go's aggregated discovery) for /api and /apis. */
const kubectlRootAccept = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,'
  + 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';
/** kubectl for /api/v1, /apis/<group>/<version> and `get --raw`. */
const kubectlGroupVersionAccept = 'application/json, */*';

const documents: [string, string][] = [
  ['/api', 'APIVersions'],
  ['/apis', 'APIGroupList'],
  ['/apis/apps', 'APIGroup'],
  ['/api/v1', 'APIResourceList'],
  ['/apis/apps/v1', 'APIResourceList'],
];

describe('discovery Accept negotiation', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t?.stop());

  test('the aggregated document is served on /api and /apis in the domain\'s apidiscovery group only', async () => {
    for (const path of ['/api', '/apis']) {
      for (const v of ['v2', 'v2beta1']) {
        const ours = `application/json;g=apidiscovery.orch.io;v=${v};as=APIGroupDiscoveryList`;
        const r = await t.client.get(path, { headers: { Accept: `${ours},application/json` } });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers['content-type'], ours);
        assert.equal(r.body.kind, 'APIGroupDiscoveryList');
        assert.equal(r.body.apiVersion, `apidiscovery.orch.io/${v}`);
      }
    }
    // The per-group documents have no aggregated form: the JSON after it is taken.
    const ours = 'application/json;g=apidiscovery.orch.io;v=v2;as=APIGroupDiscoveryList';
    for (const path of ['/apis/apps', '/apis/apps/v1', '/api/v1']) {
      const r = await t.client.get(path, { headers: { Accept: `${ours},application/json` } });
      assert.equal(r.headers['content-type'], 'application/json', path);
    }
  });

  test('kubectl aggregated-discovery lists (upstream\'s group) get the plain documents as application/json', async () => {
    for (const [path, kind] of documents) {
      for (const accept of [kubectlRootAccept, kubectlGroupVersionAccept]) {
        const r = await t.client.get(path, { headers: { Accept: accept } });
        assert.equal(r.status, 200, `${path} ${accept}: ${r.text}`);
        assert.equal(r.headers['content-type'], 'application/json', path);
        assert.equal(r.body.kind, kind, path);
      }
    }
  });

  test('JSON after media types or conversions discovery does not serve, or a wildcard, is answered with JSON', async () => {
    const accepts = [
      // client-go's protobuf clients list upstream's protobuf type with a JSON fall-back
      'application/vnd.kubernetes.protobuf, application/json',
      'application/vnd.orch.protobuf;q=1, application/json;q=0.5',
      'application/json;as=Table;g=meta.k8s.io;v=v1, application/json',
      'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList;q=0.9, */*;q=0.1',
      'text/html, application/xhtml+xml, */*;q=0.8',
      'application/*',
    ];
    for (const accept of accepts) {
      for (const [path, kind] of documents) {
        const r = await t.client.get(path, { headers: { Accept: accept } });
        assert.equal(r.status, 200, `${path} ${accept}: ${r.text}`);
        assert.equal(r.headers['content-type'], 'application/json', `${path} ${accept}`);
        assert.equal(r.body.kind, kind);
      }
    }
    const none = await t.client.getRaw('/apis', {});
    assert.equal(none.status, 200);
    assert.equal(JSON.parse(none.body.toString('utf8')).kind, 'APIGroupList');
  });

  test('an Accept with nothing discovery serves is 406 with a Status', async () => {
    // Another group's aggregated discovery, an unknown version of ours, or a Table conversion are not plain JSON.
    const accepts = ['text/html', 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
      'application/json;g=apidiscovery.orch.io;v=v3;as=APIGroupDiscoveryList', 'application/json;as=Table;g=meta.k8s.io;v=v1'];
    for (const accept of accepts) {
      assertStatus(await t.client.get('/apis', { headers: { Accept: accept } }), 406, 'NotAcceptable', accept);
    }
    // Ours alone, on a document that has no aggregated form.
    assertStatus(await t.client.get('/apis/apps', { headers: { Accept: 'application/json;g=apidiscovery.orch.io;v=v2;as=APIGroupDiscoveryList' } }), 406, 'NotAcceptable');
  });
});
