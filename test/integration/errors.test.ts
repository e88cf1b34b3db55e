// Bad input of every sort gets a 4xx Status and changes nothing; never a 500.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertStatus } from './framework/assertions.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';

const cm = (name: string, extra: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v' }, ...extra });

describe('errors are Status objects with the right codes', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t?.stop());


  test('unknown paths, groups, versions, resources and sub-resources are 404', async () => {
    for (const p of ['/nothing', '/apis/nope.orch.io/v1/things', '/apis/apps/v9/statefulsets', '/api/v1/widgets', '/apis/apps/v1/namespaces/default/statefulsets/x/scale2', '/api/v1/namespaces/default/configmaps/x/status', '/apis/nope.orch.io']) {
      const r = await t.client.get(p);
      assertStatus(r, 404, 'NotFound');
    }
  });

  test('a cluster-scoped kind under a namespace path and a namespaced item without namespace are 404', async () => {
    assertStatus(await t.client.get('/apis/storage.orch.io/v1/namespaces/default/csidrivers'), 404, 'NotFound');
    assertStatus(await t.client.get('/apis/apps/v1/statefulsets/web'), 404, 'NotFound');
  });

  test('wrong methods are 405', async () => {
    assertStatus(await t.client.post('/api/v1/namespaces/default/configmaps/x', cm('x')), 405, 'MethodNotAllowed');
    assertStatus(await t.client.put('/api/v1/namespaces/default/configmaps', cm('x')), 405, 'MethodNotAllowed');
    assertStatus(await t.client.post('/api/v1/configmaps', cm('x')), 405, 'MethodNotAllowed');
    assertStatus(await t.client.delete('/apis/apps/v1/namespaces/default/statefulsets/x/status'), 405, 'MethodNotAllowed');
    assertStatus(await t.client.post('/apis', {}), 405, 'MethodNotAllowed');
  });

  test('malformed bodies are 400 and change nothing', async () => {
    const bodies = ['{', '[]', '"text"', '{"metadata": "nope"}', 'null', '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"bad"},"data":{"k":1}}',
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"bad","labels":"x"}}', '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"bad"},"data":[]}'];
    for (const raw of bodies) {
      const r = await t.client.request('POST', '/api/v1/namespaces/default/configmaps', { raw });
      assertStatus(r, 400, 'BadRequest');
    }
    const list = await t.client.get('/api/v1/namespaces/default/configmaps');
    assert.deepEqual(list.body.items, []);
  });

  test('a body of another kind or version is 400', async () => {
    assertStatus(await t.client.post('/api/v1/namespaces/default/configmaps', { ...cm('x'), kind: 'Secret' }), 400, 'BadRequest');
    assertStatus(await t.client.post('/api/v1/namespaces/default/configmaps', { ...cm('x'), apiVersion: 'apps/v1' }), 400, 'BadRequest');
  });

  test('wrong types deep in a body are 400 naming the field', async () => {
    const r = await t.client.post('/apis/apps/v1/namespaces/default/statefulsets', {
      apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'typed' },
      spec: { replicas: 'three', serviceName: 'x', selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
    });
    assertStatus(r, 400, 'BadRequest');
    assert.match(r.body.message, /spec\.replicas/);
  });

  test('bodies over 3 MiB are 413', async () => {
    const big = cm('big', { data: { k: 'x'.repeat(3 * 1024 * 1024 + 10) } });
    const r = await t.client.post('/api/v1/namespaces/default/configmaps', big);
    assertStatus(r, 413, 'RequestEntityTooLarge');
    assert.equal((await t.client.get('/api/v1/namespaces/default/configmaps/big')).status, 404);
  });

  test('an object larger than etcd accepts is 413, not a server error', async () => {
    const r = await t.client.post('/apis/apps/v1/namespaces/default/statefulsets', {
      apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'huge' },
      spec: { serviceName: 'x', selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i', env: [{ name: 'BIG', value: 'x'.repeat(2 * 1024 * 1024) }] }] } } },
    });
    assertStatus(r, 413, 'RequestEntityTooLarge');
    assert.equal((await t.client.get('/apis/apps/v1/namespaces/default/statefulsets/huge')).status, 404);
  });

  test('unsupported content types are 415, unsupported Accept is 406', async () => {
    // Upstream's message names the media types accepted (here the domain's protobuf type beside
    // upstream's, both served), never the one sent.
    const accepted = 'application/json, application/yaml, application/vnd.orch.protobuf, application/vnd.kubernetes.protobuf';
    const r = await t.client.request('POST', '/api/v1/namespaces/default/configmaps', { raw: '<xml/>', contentType: 'application/xml' });
    assertStatus(r, 415, 'UnsupportedMediaType');
    assert.equal(r.body.message, `the body of the request was in an unknown format - accepted media types include: ${accepted}`);
    const d = await t.client.request('DELETE', '/api/v1/namespaces/default/configmaps/x', { raw: '{}', contentType: 'text/plain' });
    assertStatus(d, 415, 'UnsupportedMediaType');
    assert.equal(d.body.message, `the body of the request was in an unknown format - accepted media types include: ${accepted}`);
    const p = await t.client.request('PATCH', '/api/v1/namespaces/default/configmaps/x', { raw: '{}', contentType: 'text/plain' });
    assertStatus(p, 415, 'UnsupportedMediaType');
    assert.equal(p.body.message, 'the body of the request was in an unknown format - accepted media types include: '
      + 'application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml');
    const a = await t.client.get('/api/v1/namespaces', { headers: { Accept: 'text/html' } });
    assertStatus(a, 406, 'NotAcceptable');
  });

  test('creating in a missing namespace is 404 naming the namespace', async () => {
    const r = await t.client.post('/api/v1/namespaces/ghost/configmaps', cm('x'));
    assertStatus(r, 404, 'NotFound');
    assert.equal(r.body.message, 'namespaces "ghost" not found');
    assert.equal(r.body.details.kind, 'namespaces');
  });

  test('a namespace in the body that differs from the path is 400', async () => {
    const r = await t.client.post('/api/v1/namespaces/default/configmaps', { ...cm('x'), metadata: { name: 'x', namespace: 'other' } });
    assertStatus(r, 400, 'BadRequest');
  });

  test('a name in the body that differs from the URL is 400 on update', async () => {
    assert.equal((await t.client.post('/api/v1/namespaces/default/configmaps', cm('named'))).status, 201);
    const r = await t.client.put('/api/v1/namespaces/default/configmaps/named', cm('other-name'));
    assertStatus(r, 400, 'BadRequest');
  });

  test('update and patch of a missing object are 404', async () => {
    assertStatus(await t.client.put('/api/v1/namespaces/default/configmaps/absent', cm('absent')), 404, 'NotFound');
    assertStatus(await t.client.patch('/api/v1/namespaces/default/configmaps/absent', { data: { a: 'b' } }), 404, 'NotFound');
  });

  test('resourceVersion set on create is 400', async () => {
    const r = await t.client.post('/api/v1/namespaces/default/configmaps', { ...cm('rv'), metadata: { name: 'rv', resourceVersion: '5' } });
    assertStatus(r, 400, 'BadRequest');
  });

  test('malformed query parameters are 400', async () => {
    assertStatus(await t.client.get('/api/v1/namespaces/default/configmaps?limit=abc'), 400, 'BadRequest');
    assertStatus(await t.client.get('/api/v1/namespaces/default/configmaps?labelSelector=a%20in%20(b'), 400, 'BadRequest');
    assertStatus(await t.client.get('/api/v1/namespaces/default/configmaps?fieldSelector=spec.foo%3Dbar'), 400, 'BadRequest');
    assertStatus(await t.client.get('/api/v1/namespaces/default/configmaps?resourceVersion=abc'), 400, 'BadRequest');
    assertStatus(await t.client.post('/api/v1/namespaces/default/configmaps?dryRun=Maybe', cm('dry')), 400, 'BadRequest');
  });

  test('hostile headers and paths do not break the server', async () => {
    const weird = await t.client.get('/api/v1/namespaces/%ZZ/configmaps');
    assert.ok(weird.status >= 400 && weird.status < 500, weird.text);
    const r = await t.client.get('/api/v1/namespaces', { headers: { Accept: ';;;,,q=abc' } });
    assert.ok(r.status === 200 || r.status === 406, r.text);
    const ok = await t.client.get('/api/v1/namespaces/default');
    assert.equal(ok.status, 200);
  });
});
