// --api-domain: every domain-derived name follows the one flag. With k8s.io the server speaks
// upstream's names; whatever the domain, stock clients' protobuf type is understood.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiDomain, defaultApiDomain } from '../../api/domain.js';
import { groupVersions } from '../../api/index.js';
import { ProtobufCodec } from '../../pkg/runtime/protobuf/codec.js';
import { Scheme } from '../../pkg/runtime/scheme.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { assertStatus } from './framework/assertions.js';
import { writeKubeconfig } from './framework/kubeconfig.js';
import { Kubectl } from './framework/kubectl.js';

const UPSTREAM_PROTOBUF = 'application/vnd.kubernetes.protobuf';

function groupNames(list: { groups: { name: string }[] }): string[] {
  return list.groups.map((g) => g.name);
}

describe('--api-domain=k8s.io', () => {
  let t: TestServer;
  const domain = apiDomain('k8s.io');
  const scheme = new Scheme(groupVersions(domain), domain);
  const codec = new ProtobufCodec(scheme);
  before(async () => {
    t = await startTestServer({ apiDomain: 'k8s.io' });
  });
  after(async () => t?.stop());

  test('groups, discovery and OpenAPI carry upstream group names', async () => {
    const groups = await t.client.get('/apis');
    assert.equal(groups.status, 200);
    const names = groupNames(groups.body);
    for (const g of ['rbac.authorization.k8s.io', 'storage.k8s.io', 'networking.k8s.io', 'apps', 'policy']) assert.ok(names.includes(g), `${g} in ${names.join(',')}`);
    assert.ok(!names.some((n) => n.endsWith('orch.io')), names.join(','));
    assert.equal((await t.client.get('/apis/rbac.authorization.orch.io/v1/clusterroles')).status, 404);
    const v3 = await t.client.get('/openapi/v3');
    assert.ok(Object.keys(v3.body.paths).includes('apis/rbac.authorization.k8s.io/v1'), Object.keys(v3.body.paths).join(','));
    const v2 = await t.client.get('/openapi/v2');
    const op = v2.body.paths['/apis/rbac.authorization.k8s.io/v1/clusterroles'].get;
    assert.equal(op.operationId, 'listRbacAuthorizationV1ClusterRole', 'operation ids drop the domain as upstream drops .k8s.io');
    assert.ok(op.produces.includes(UPSTREAM_PROTOBUF), op.produces.join(','));
  });

  test('RBAC defaults and validation use the domain\'s group', async () => {
    const crb = await t.client.post('/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
      metadata: { name: 'viewers' },
      roleRef: { kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'Group', name: 'devs' }, { kind: 'ServiceAccount', name: 'ci', namespace: 'default' }],
    });
    assert.equal(crb.status, 201, crb.text);
    assert.equal(crb.body.roleRef.apiGroup, 'rbac.authorization.k8s.io');
    assert.equal(crb.body.subjects[0].apiGroup, 'rbac.authorization.k8s.io');
    const wrong = await t.client.post('/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
      metadata: { name: 'wrong' }, roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: 'view' },
    });
    assertStatus(wrong, 422, 'Invalid');
    assert.equal(wrong.body.details.causes[0].field, 'roleRef.apiGroup');
    assert.match(wrong.body.details.causes[0].message, /supported values: "rbac\.authorization\.k8s\.io"/);
  });

  test('namespaces carry kubernetes.io/metadata.name and the kubernetes finalizer', async () => {
    const ns = await t.client.post('/api/v1/namespaces', { metadata: { name: 'team-a' } });
    assert.equal(ns.status, 201, ns.text);
    assert.equal(ns.body.metadata.labels['kubernetes.io/metadata.name'], 'team-a');
    assert.deepEqual(ns.body.spec.finalizers, ['kubernetes']);
  });

  test('typed secrets are named in kubernetes.io', async () => {
    const tls = await t.client.post('/api/v1/namespaces/default/secrets', { metadata: { name: 'tls' }, type: 'kubernetes.io/tls', data: {} });
    assertStatus(tls, 422, 'Invalid');
    assert.deepEqual(tls.body.details.causes.map((c: { field: string }) => c.field).sort(), ['data[tls.crt]', 'data[tls.key]']);
    const ours = await t.client.post('/api/v1/namespaces/default/secrets', { metadata: { name: 'ours' }, type: 'orch.io/tls', data: {} });
    assert.equal(ours.status, 201, 'orch.io/tls is just another opaque type here');
  });

  test('protobuf is application/vnd.kubernetes.protobuf, in and out', async () => {
    const cm = scheme.resource('', 'v1', 'configmaps')!;
    const body = codec.encodeObject(cm, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'pb' }, data: { k: 'v' } });
    const created = await t.client.request('POST', '/api/v1/namespaces/default/configmaps', { raw: body, contentType: UPSTREAM_PROTOBUF });
    assert.equal(created.status, 201, created.text);
    const got = await t.client.getRaw('/api/v1/namespaces/default/configmaps/pb', { Accept: `${UPSTREAM_PROTOBUF}, application/json` });
    assert.equal(got.status, 200);
    assert.equal(got.headers['content-type'], UPSTREAM_PROTOBUF);
    assert.deepEqual((codec.decodeObject(cm, got.body) as { data: unknown }).data, { k: 'v' });
    const ours = await t.client.request('POST', '/api/v1/namespaces/default/configmaps', { raw: body, contentType: defaultApiDomain.protobufMediaType });
    assertStatus(ours, 415, 'UnsupportedMediaType');
  });

  test('Tables and continue tokens are in meta.k8s.io', async () => {
    for (const n of ['a', 'b', 'c']) await t.client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: `page-${n}` } });
    const table = await t.client.get('/api/v1/namespaces/default/configmaps', { headers: { Accept: 'application/json;as=Table;g=meta.k8s.io;v=v1' } });
    assert.equal(table.body.apiVersion, 'meta.k8s.io/v1');
    assert.equal(table.body.rows[0].object.apiVersion, 'meta.k8s.io/v1');
    const page = await t.client.get('/api/v1/namespaces/default/configmaps?limit=1');
    const token = JSON.parse(Buffer.from(page.body.metadata.continue, 'base64').toString('utf8'));
    assert.equal(token.v, 'meta.k8s.io/v1');
    const next = await t.client.get(`/api/v1/namespaces/default/configmaps?limit=1&continue=${encodeURIComponent(page.body.metadata.continue)}`);
    assert.equal(next.status, 200, next.text);
  });
});

describe('the default domain understands stock clients', () => {
  let t: TestServer;
  const scheme = new Scheme(groupVersions(defaultApiDomain));
  const codec = new ProtobufCodec(scheme);
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t?.stop());

  test('kubectl\'s application/vnd.kubernetes.protobuf bodies and Accept are served, answered in that type', async () => {
    const ns = scheme.resource('', 'v1', 'namespaces')!;
    const created = await t.client.request('POST', '/api/v1/namespaces', {
      raw: codec.encodeObject(ns, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'typed' } }),
      contentType: UPSTREAM_PROTOBUF,
      headers: { Accept: `${UPSTREAM_PROTOBUF}, application/json` },
    });
    assert.equal(created.status, 201);
    assert.equal(created.headers['content-type'], UPSTREAM_PROTOBUF);
    const got = await t.client.get('/api/v1/namespaces/typed');
    assert.equal(got.body.metadata.labels['orch.io/metadata.name'], 'typed');
    assert.deepEqual(got.body.spec.finalizers, ['orch']);
    const watch = await t.client.getRaw('/api/v1/namespaces?watch=true&timeoutSeconds=1&fieldSelector=metadata.name%3Dtyped', { Accept: `${UPSTREAM_PROTOBUF};stream=watch` });
    assert.equal(watch.status, 200);
    assert.equal(watch.headers['content-type'], `${UPSTREAM_PROTOBUF};stream=watch`);
    assert.ok(watch.body.length > 4, 'the ADDED event came as a protobuf frame');
  });
});

// What the README says of stock kubectl and the domain: typed commands that compile in a `*.k8s.io`
// group work against a k8s.io server and fail against the default one; discovery-driven ones work
// against both.
describe('stock kubectl\'s typed commands and the API domain', () => {
  const typed: readonly (readonly string[])[] = [
    ['create', 'role', 'reader', '--verb=get', '--resource=pods'],
    ['create', 'clusterrolebinding', 'readers', '--clusterrole=view', '--group=readers'],
    ['auth', 'can-i', 'list', 'pods'],
    ['auth', 'whoami'],
  ];
  for (const domain of ['k8s.io', 'orch.io']) {
    test(`--api-domain=${domain}`, async () => {
      const t = await startTestServer({ apiDomain: domain });
      const kc = writeKubeconfig(t);
      try {
        const kubectl = new Kubectl(kc);
        for (const args of typed) {
          const r = await kubectl.run(args);
          if (domain === 'k8s.io') assert.equal(r.code, 0, r.describe());
          else {
            assert.notEqual(r.code, 0, r.describe());
            assert.match(r.stderr, /the server could not find the requested resource|no matches for kind|API is not enabled in the cluster/, r.describe());
          }
        }
        // Discovery-driven commands find the domain's groups whatever it is.
        const roles = await kubectl.run(['get', `roles.rbac.authorization.${domain}`, '-A']);
        assert.equal(roles.code, 0, roles.describe());
      } finally {
        kc.remove();
        await t.stop();
      }
    });
  }
});
