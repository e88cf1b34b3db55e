// --authorization-mode=RBAC through the real server: real users (static tokens) are allowed what
// the bootstrap policy and their bindings grant, refused with upstream's 403 otherwise.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { defaultAuthenticationOptions } from '../../cmd/apiserver/app/authentication-options.js';
import { defaultAuthorizationOptions } from '../../pkg/authorization/modes.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { assertStatus } from './framework/assertions.js';
import type { Client } from './framework/client.js';

const RBAC = '/apis/rbac.authorization.orch.io/v1';

async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('RBAC authorization', () => {
  let t: TestServer;
  let dir: string;
  let admin: Client;
  let jane: Client;
  let anonymous: Client;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'orch-rbac-'));
    writeFileSync(join(dir, 'tokens.csv'), 'admin-token,admin,1,"system:masters"\njane-token,jane,2,"devs"\n');
    t = await startTestServer({
      authentication: { ...defaultAuthenticationOptions(), tokenAuthFile: join(dir, 'tokens.csv') },
      authorization: { ...defaultAuthorizationOptions(), modes: ['RBAC'] },
    });
    admin = t.client.withToken('admin-token');
    jane = t.client.withToken('jane-token');
    anonymous = t.client;
    await eventually('the bootstrap policy', async () => (await t.client.get('/readyz')).status === 200);
  });
  after(async () => {
    await t?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the bootstrap policy is in place, and system:masters may do anything', async () => {
    for (const name of ['cluster-admin', 'admin', 'edit', 'view', 'system:discovery', 'system:basic-user', 'system:public-info-viewer']) {
      assert.equal((await admin.get(`${RBAC}/clusterroles/${name}`)).status, 200, name);
    }
    const binding = await admin.get(`${RBAC}/clusterrolebindings/cluster-admin`);
    assert.deepEqual(binding.body.subjects, [{ kind: 'Group', apiGroup: 'rbac.authorization.orch.io', name: 'system:masters' }]);
    const view = await admin.get(`${RBAC}/clusterroles/view`);
    assert.ok(view.body.rules.some((r: { resources?: string[] }) => r.resources?.includes('configmaps')), 'view aggregates its rules');
    assert.equal((await admin.get('/api/v1/namespaces')).status, 200);
  });

  test('a user without a binding is refused with upstream\'s 403; anonymous may read what public-info-viewer grants', async () => {
    const r = await jane.get('/api/v1/namespaces/default/configmaps');
    assertStatus(r, 403, 'Forbidden');
    assert.equal(r.body.message, 'configmaps is forbidden: User "jane" cannot list resource "configmaps" in API group "" in the namespace "default"');
    assert.deepEqual(r.body.details, { kind: 'configmaps' });
    const cluster = await jane.get('/apis/apps/v1/statefulsets');
    assert.equal(cluster.body.message, 'statefulsets.apps is forbidden: User "jane" cannot list resource "statefulsets" in API group "apps" at the cluster scope');
    assert.equal((await jane.get('/api')).status, 200, 'discovery is for every authenticated user');
    assert.equal((await anonymous.get('/healthz')).status, 200);
    assert.equal((await anonymous.get('/version')).status, 200);
    const metrics = await anonymous.get('/metrics');
    assertStatus(metrics, 403, 'Forbidden');
    assert.equal(metrics.body.message, 'forbidden: User "system:anonymous" cannot get path "/metrics"');
    assertStatus(await anonymous.get('/api/v1/namespaces'), 403, 'Forbidden');
  });

  test('a RoleBinding grants a role in its namespace, and only there', async () => {
    assert.equal((await admin.post('/api/v1/namespaces', { metadata: { name: 'team' } })).status, 201);
    const rb = await admin.post(`${RBAC}/namespaces/team/rolebindings`, {
      metadata: { name: 'devs-edit' }, roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: 'edit' },
      subjects: [{ kind: 'Group', name: 'devs' }],
    });
    assert.equal(rb.status, 201, rb.text);
    await eventually('the binding to take effect', async () => (await jane.get('/api/v1/namespaces/team/configmaps')).status === 200);
    assert.equal((await jane.post('/api/v1/namespaces/team/configmaps', { metadata: { name: 'x' } })).status, 201);
    assertStatus(await jane.get('/api/v1/namespaces/default/configmaps'), 403, 'Forbidden');
    assert.equal((await jane.get('/api/v1/namespaces/team/secrets')).status, 200, 'edit reads secrets');
  });

  test('escalation: a namespace admin may grant only what she holds, unless she may escalate or bind', async () => {
    assert.equal((await admin.post('/api/v1/namespaces', { metadata: { name: 'esc' } })).status, 201);
    assert.equal((await admin.post(`${RBAC}/namespaces/esc/rolebindings`, {
      metadata: { name: 'jane-admin' }, roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: 'admin' },
      subjects: [{ kind: 'User', name: 'jane' }],
    })).status, 201);
    await eventually('jane is admin in esc', async () => (await jane.get(`${RBAC}/namespaces/esc/roles`)).status === 200);
    const held = await jane.post(`${RBAC}/namespaces/esc/roles`, { metadata: { name: 'cm-reader' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }] });
    assert.equal(held.status, 201, held.text);
    const everything = await jane.post(`${RBAC}/namespaces/esc/roles`, { metadata: { name: 'all' }, rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] });
    assertStatus(everything, 403, 'Forbidden');
    assert.match(everything.body.message, /^roles\.rbac\.authorization\.orch\.io "all" is forbidden: user "jane" \(groups=\["devs" "system:authenticated"\]\) is attempting to grant RBAC permissions not currently held:\n/);
    const bindAdmin = { metadata: { name: 'jane-cluster-admin' }, roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: 'cluster-admin' }, subjects: [{ kind: 'User', name: 'jane' }] };
    assertStatus(await jane.post(`${RBAC}/namespaces/esc/rolebindings`, bindAdmin), 403, 'Forbidden');
    // Granted `bind` on cluster-admin in esc, she may bind it there.
    assert.equal((await admin.post(`${RBAC}/namespaces/esc/roles`, { metadata: { name: 'may-bind' }, rules: [{ apiGroups: ['rbac.authorization.orch.io'], resources: ['clusterroles'], resourceNames: ['cluster-admin'], verbs: ['bind'] }] })).status, 201);
    assert.equal((await admin.post(`${RBAC}/namespaces/esc/rolebindings`, { metadata: { name: 'jane-may-bind' }, roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'Role', name: 'may-bind' }, subjects: [{ kind: 'User', name: 'jane' }] })).status, 201);
    await eventually('the bind grant', async () => (await jane.post(`${RBAC}/namespaces/esc/rolebindings?dryRun=All`, bindAdmin)).status === 201);
    // Granted `escalate` on roles, she may write any role.
    assert.equal((await admin.post(`${RBAC}/namespaces/esc/roles`, { metadata: { name: 'may-escalate' }, rules: [{ apiGroups: ['rbac.authorization.orch.io'], resources: ['roles'], verbs: ['escalate'] }] })).status, 201);
    assert.equal((await admin.post(`${RBAC}/namespaces/esc/rolebindings`, { metadata: { name: 'jane-may-escalate' }, roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'Role', name: 'may-escalate' }, subjects: [{ kind: 'User', name: 'jane' }] })).status, 201);
    await eventually('the escalate grant', async () => (await jane.post(`${RBAC}/namespaces/esc/roles`, { metadata: { name: 'all' }, rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] })).status === 201);
  });

  test('impersonation: allowed for system:masters, refused without the impersonate verb, 400 for groups without a user', async () => {
    const whoami = (c: Client, headers: Record<string, string | string[]>) =>
      c.request('POST', '/apis/authentication.orch.io/v1/selfsubjectreviews', { body: { apiVersion: 'authentication.orch.io/v1', kind: 'SelfSubjectReview' }, headers });
    const as = await whoami(admin, { 'Impersonate-User': 'jane', 'Impersonate-Group': ['devs', 'qa'], 'Impersonate-Extra-Scopes': 'read' });
    assert.equal(as.status, 201, as.text);
    assert.deepEqual(as.body.status.userInfo, { username: 'jane', groups: ['devs', 'qa', 'system:authenticated'], extra: { scopes: ['read'] } });
    const refused = await whoami(jane, { 'Impersonate-User': 'admin' });
    assertStatus(refused, 403, 'Forbidden');
    assert.equal(refused.body.message, 'users "admin" is forbidden: User "jane" cannot impersonate resource "users" in API group "" at the cluster scope');
    assertStatus(await whoami(admin, { 'Impersonate-Group': 'devs' }), 400, 'BadRequest');
    // The impersonated identity is what authorization sees.
    assertStatus(await admin.request('GET', '/api/v1/namespaces/default/configmaps', { headers: { 'Impersonate-User': 'nobody' } }), 403, 'Forbidden');
  });
});
