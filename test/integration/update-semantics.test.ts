// Update semantics as upstream's: a PUT keeps the stored creationTimestamp whatever the client
// sends, a differing uid is a precondition failure, a PUT creates a missing object only for the
// kinds upstream allows it, and a dry-run create answers exactly like the real one.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { assertStatus } from './framework/assertions.js';

describe('update semantics', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t?.stop());

  test('a PUT keeps the stored creationTimestamp, however the client spells or drops it', async () => {
    const c = t.client;
    const path = '/api/v1/namespaces/default/configmaps/stamped';
    const created = await c.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'stamped' }, data: { a: '1' } });
    assert.equal(created.status, 201);
    const stamp: string = created.body.metadata.creationTimestamp;
    const respellings = [
      stamp.replace(/Z$/, '.000Z'), // client-node
      stamp.replace(/Z$/, '+00:00'), // python3-kubernetes
      undefined,
      '1999-01-01T00:00:00Z', // an entirely different instant: the server's record still wins, as upstream
    ];
    let current = created.body;
    for (const [i, ts] of respellings.entries()) {
      const body = structuredClone(current);
      if (ts === undefined) delete body.metadata.creationTimestamp;
      else body.metadata.creationTimestamp = ts;
      body.data = { a: String(i + 2) };
      const r = await c.put(path, body);
      assert.equal(r.status, 200, `${ts}: ${r.text}`);
      assert.equal(r.body.metadata.creationTimestamp, stamp);
      assert.equal(r.body.data.a, String(i + 2));
      current = r.body;
    }
    assert.equal((await c.get(path)).body.metadata.creationTimestamp, stamp);
  });

  test('a PUT with another uid is a 409 precondition failure', async () => {
    const c = t.client;
    const created = await c.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'uid-check' } });
    const r = await c.put('/api/v1/namespaces/default/configmaps/uid-check', { ...created.body, metadata: { ...created.body.metadata, uid: '6b1f6d10-0000-4000-8000-000000000000' } });
    assertStatus(r, 409, 'Conflict');
    assert.match(r.body.message, /Precondition failed: UID in precondition: 6b1f6d10-0000-4000-8000-000000000000, UID in object meta: /);
  });

  const creatable: [string, string, Record<string, unknown>][] = [
    ['LimitRange', '/api/v1/namespaces/default/limitranges', { spec: { limits: [{ type: 'Container', max: { cpu: '2' } }] } }],
    ['Role', '/apis/rbac.authorization.orch.io/v1/namespaces/default/roles', { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] }],
    ['RoleBinding', '/apis/rbac.authorization.orch.io/v1/namespaces/default/rolebindings', { roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'Role', name: 'r' }, subjects: [{ kind: 'User', name: 'jane' }] }],
    ['ClusterRole', '/apis/rbac.authorization.orch.io/v1/clusterroles', { rules: [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }] }],
    ['ClusterRoleBinding', '/apis/rbac.authorization.orch.io/v1/clusterrolebindings', { roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'Group', name: 'devs' }] }],
  ];
  for (const [kind, collection, rest] of creatable) {
    test(`${kind}: a PUT of a missing object creates it (201); with dryRun nothing is stored`, async () => {
      const c = t.client;
      const dry = await c.put(`${collection}/by-put-dry?dryRun=All`, { metadata: { name: 'by-put-dry' }, ...rest });
      assert.equal(dry.status, 201, dry.text);
      assert.equal(dry.body.kind, kind);
      assertStatus(await c.get(`${collection}/by-put-dry`), 404, 'NotFound');
      const r = await c.put(`${collection}/by-put`, { metadata: { name: 'by-put' }, ...rest });
      assert.equal(r.status, 201, r.text);
      assert.ok(r.body.metadata.uid && r.body.metadata.creationTimestamp && r.body.metadata.resourceVersion);
      const got = await c.get(`${collection}/by-put`);
      assert.equal(got.status, 200);
      assert.equal(got.body.metadata.uid, r.body.metadata.uid);
      const again = await c.put(`${collection}/by-put`, { ...got.body, metadata: { ...got.body.metadata, labels: { second: 'yes' } } });
      assert.equal(again.status, 200, 'the next PUT updates');
    });
  }

  test('a PUT of a missing object of any other kind is 404', async () => {
    const c = t.client;
    for (const [path, body] of [
      ['/api/v1/namespaces/default/configmaps/nope', { metadata: { name: 'nope' } }],
      ['/api/v1/namespaces/default/secrets/nope', { metadata: { name: 'nope' } }],
      ['/apis/storage.orch.io/v1/csidrivers/nope.example.com', { metadata: { name: 'nope.example.com' }, spec: {} }],
    ] as const) {
      assertStatus(await c.put(path, body), 404, 'NotFound', path);
    }
  });

  test('a dry-run create of an existing name is 409 AlreadyExists, like the real one', async () => {
    const c = t.client;
    await c.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'taken' } });
    const dry = await c.post('/api/v1/namespaces/default/configmaps?dryRun=All', { metadata: { name: 'taken' } });
    assertStatus(dry, 409, 'AlreadyExists');
    assert.equal(dry.body.message, 'configmaps "taken" already exists');
    const fresh = await c.post('/api/v1/namespaces/default/configmaps?dryRun=All', { metadata: { name: 'free' } });
    assert.equal(fresh.status, 201);
    assertStatus(await c.get('/api/v1/namespaces/default/configmaps/free'), 404, 'NotFound');
  });
});
