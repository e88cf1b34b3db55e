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
import { writeKubeconfig } from './framework/kubeconfig.js';
import { Kubectl } from './framework/kubectl.js';
import { stringify } from 'yaml';
import { TestCA } from '../../pkg/authentication/testing/ca.js';
import { sendJSON, startTestHttpsServer, type TestHttpsServer } from '../../pkg/authentication/testing/https-server.js';

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

  test('health, version, discovery and OpenAPI are readable as the bootstrap policy says', async () => {
    for (const path of ['/healthz', '/livez', '/readyz', '/version']) assert.equal((await anonymous.get(path)).status, 200, `anonymous ${path}`);
    for (const path of ['/api', '/apis', '/api/v1', '/apis/apps/v1', '/openapi/v2', '/openapi/v3']) {
      assert.equal((await jane.get(path)).status, 200, `authenticated ${path}`);
      assertStatus(await anonymous.get(path), 403, 'Forbidden', `anonymous ${path}`);
    }
  });

  test('reconciliation at start: a deleted bootstrap role comes back, extra rules stay, autoupdate "false" is left alone', async () => {
    assert.equal((await admin.delete(`${RBAC}/clusterroles/view`)).status, 200);
    const edit = (await admin.get(`${RBAC}/clusterroles/system:basic-user`)).body;
    const extra = { apiGroups: ['example.com'], resources: ['widgets'], verbs: ['get'] };
    assert.equal((await admin.put(`${RBAC}/clusterroles/system:basic-user`, { ...edit, rules: [...edit.rules, extra] })).status, 200);
    const delegator = (await admin.get(`${RBAC}/clusterroles/system:auth-delegator`)).body;
    const optedOut = { ...delegator, metadata: { ...delegator.metadata, annotations: { ...delegator.metadata.annotations, 'rbac.authorization.orch.io/autoupdate': 'false' } }, rules: [] };
    assert.equal((await admin.put(`${RBAC}/clusterroles/system:auth-delegator`, optedOut)).status, 200);
    await t.restart();
    await eventually('the bootstrap policy after the restart', async () => (await t.client.get('/readyz')).status === 200);
    const view = await admin.get(`${RBAC}/clusterroles/view`);
    assert.equal(view.status, 200, 'view was re-created');
    assert.ok(view.body.rules.length > 0);
    const basic = (await admin.get(`${RBAC}/clusterroles/system:basic-user`)).body;
    assert.ok(basic.rules.some((r: { apiGroups?: string[] }) => r.apiGroups?.includes('example.com')), 'the extra rule is kept');
    assert.ok(basic.rules.length > 1, 'the bootstrap rules are there too');
    assert.deepEqual((await admin.get(`${RBAC}/clusterroles/system:auth-delegator`)).body.rules, [], 'an opted-out role is not touched');
  });

  test('access reviews are answered by the configured chain', async () => {
    const review = (c: Client, path: string, body: Record<string, unknown>) =>
      c.post(`/apis/authorization.orch.io/v1${path}`, { apiVersion: 'authorization.orch.io/v1', ...body });
    const mine = await review(jane, '/selfsubjectaccessreviews', { kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { namespace: 'team', verb: 'list', resource: 'configmaps' } } });
    assert.equal(mine.status, 201, mine.text);
    assert.equal(mine.body.status.allowed, true);
    assert.match(mine.body.status.reason, /RBAC: allowed by RoleBinding "devs-edit\/team" of ClusterRole "edit" to Group "devs"/);
    const not = await review(jane, '/selfsubjectaccessreviews', { kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { namespace: 'default', verb: 'list', resource: 'secrets' } } });
    assert.equal(not.body.status.allowed, false);
    const rules = await review(jane, '/selfsubjectrulesreviews', { kind: 'SelfSubjectRulesReview', spec: { namespace: 'team' } });
    assert.equal(rules.status, 201, rules.text);
    assert.ok(rules.body.status.resourceRules.some((r: { resources: string[] }) => r.resources.includes('configmaps')));
    assert.ok(rules.body.status.nonResourceRules.some((r: { nonResourceURLs: string[] }) => r.nonResourceURLs.includes('/api')));
    const sar = { kind: 'SubjectAccessReview', spec: { user: 'jane', groups: ['devs'], resourceAttributes: { namespace: 'team', verb: 'delete', resource: 'configmaps' } } };
    const asAdmin = await review(admin, '/subjectaccessreviews', sar);
    assert.equal(asAdmin.body.status.allowed, true, asAdmin.text);
    assertStatus(await review(jane, '/subjectaccessreviews', sar), 403, 'Forbidden');
  });

  test('each rule form, through real requests: resourceNames, sub-resources, wildcards and non-resource URLs', async () => {
    await admin.post('/api/v1/namespaces', { metadata: { name: 'forms' } });
    await admin.post('/api/v1/namespaces/forms/configmaps', { metadata: { name: 'one' } });
    await admin.post('/api/v1/namespaces/forms/configmaps', { metadata: { name: 'two' } });
    await admin.post('/apis/apps/v1/namespaces/forms/statefulsets', {
      metadata: { name: 'web' }, spec: { serviceName: 'web', selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
    });
    const role = (name: string, rules: unknown[]) => admin.post(`${RBAC}/namespaces/forms/roles`, { metadata: { name }, rules });
    assert.equal((await role('forms', [
      { apiGroups: [''], resources: ['configmaps'], resourceNames: ['one'], verbs: ['get'] },
      { apiGroups: ['apps'], resources: ['statefulsets/scale'], verbs: ['get', 'update'] },
    ])).status, 201);
    assert.equal((await admin.post(`${RBAC}/namespaces/forms/rolebindings`, { metadata: { name: 'forms' }, roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'Role', name: 'forms' }, subjects: [{ kind: 'User', name: 'jane' }] })).status, 201);
    assert.equal((await admin.post(`${RBAC}/clusterroles`, { metadata: { name: 'metrics-reader' }, rules: [{ nonResourceURLs: ['/metrics', '/livez/*'], verbs: ['get'] }] })).status, 201);
    assert.equal((await admin.post(`${RBAC}/clusterrolebindings`, { metadata: { name: 'jane-metrics' }, roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: 'metrics-reader' }, subjects: [{ kind: 'User', name: 'jane' }] })).status, 201);
    await eventually('the grants', async () => (await jane.get('/api/v1/namespaces/forms/configmaps/one')).status === 200);
    assertStatus(await jane.get('/api/v1/namespaces/forms/configmaps/two'), 403, 'Forbidden', 'another name');
    assertStatus(await jane.get('/api/v1/namespaces/forms/configmaps'), 403, 'Forbidden', 'a list has no name');
    assert.equal((await jane.get('/apis/apps/v1/namespaces/forms/statefulsets/web/scale')).status, 200, 'the sub-resource');
    assertStatus(await jane.get('/apis/apps/v1/namespaces/forms/statefulsets/web'), 403, 'Forbidden', 'not the resource itself');
    assert.equal((await jane.get('/metrics')).status, 200, 'a non-resource URL');
    assert.equal((await jane.get('/livez/etcd')).status, 200, 'a trailing * prefix');
    assertStatus(await jane.get('/api/v1/namespaces/forms/secrets'), 403, 'Forbidden', 'nothing else');
  });

  test('the bootstrap roles mean what upstream means: view reads no secrets, edit touches no roles, admin manages its namespace', async () => {
    const bind = async (role: string, user: string) => {
      const r = await admin.post(`${RBAC}/namespaces/forms/rolebindings`, { metadata: { name: `${user}-${role}` }, roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: role }, subjects: [{ kind: 'User', name: user }] });
      assert.equal(r.status, 201, r.text);
    };
    await admin.post('/api/v1/namespaces/forms/secrets', { metadata: { name: 's' }, stringData: { k: 'v' } });
    await bind('view', 'viewer');
    await bind('edit', 'editor');
    await bind('admin', 'nsadmin');
    const as = (user: string) => admin.withCredentials({ headers: { Authorization: 'Bearer admin-token', 'Impersonate-User': user } });
    await eventually('the bindings', async () => (await as('viewer').get('/api/v1/namespaces/forms/configmaps')).status === 200);
    assertStatus(await as('viewer').get('/api/v1/namespaces/forms/secrets'), 403, 'Forbidden', 'view reads no secrets');
    assertStatus(await as('viewer').post('/api/v1/namespaces/forms/configmaps', { metadata: { name: 'x' } }), 403, 'Forbidden', 'view writes nothing');
    assert.equal((await as('editor').post('/api/v1/namespaces/forms/configmaps', { metadata: { name: 'by-editor' } })).status, 201);
    assert.equal((await as('editor').get('/api/v1/namespaces/forms/secrets')).status, 200, 'edit reads secrets');
    assertStatus(await as('editor').get(`${RBAC}/namespaces/forms/roles`), 403, 'Forbidden', 'edit touches no roles');
    assert.equal((await as('nsadmin').get(`${RBAC}/namespaces/forms/roles`)).status, 200, 'admin reads roles');
    assert.equal((await as('nsadmin').post(`${RBAC}/namespaces/forms/roles`, { metadata: { name: 'by-admin' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }] })).status, 201, 'admin writes roles in its namespace');
    assertStatus(await as('nsadmin').get('/api/v1/namespaces/default/configmaps'), 403, 'Forbidden', 'but only there');
  });

  test('impersonation with and without each right: users, groups, uids, extras and service accounts', async () => {
    assert.equal((await admin.post(`${RBAC}/clusterroles`, { metadata: { name: 'impersonator' }, rules: [
      { apiGroups: [''], resources: ['users'], resourceNames: ['kim'], verbs: ['impersonate'] },
      { apiGroups: [''], resources: ['groups'], resourceNames: ['qa'], verbs: ['impersonate'] },
      { apiGroups: ['authentication.orch.io'], resources: ['uids'], resourceNames: ['u-1'], verbs: ['impersonate'] },
      { apiGroups: ['authentication.orch.io'], resources: ['userextras/scopes'], resourceNames: ['read'], verbs: ['impersonate'] },
    ] })).status, 201);
    assert.equal((await admin.post(`${RBAC}/clusterrolebindings`, { metadata: { name: 'jane-impersonates' }, roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: 'impersonator' }, subjects: [{ kind: 'User', name: 'jane' }] })).status, 201);
    assert.equal((await admin.post(`${RBAC}/namespaces/forms/roles`, { metadata: { name: 'sa-impersonator' }, rules: [{ apiGroups: [''], resources: ['serviceaccounts'], resourceNames: ['bot'], verbs: ['impersonate'] }] })).status, 201);
    assert.equal((await admin.post(`${RBAC}/namespaces/forms/rolebindings`, { metadata: { name: 'jane-sa' }, roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'Role', name: 'sa-impersonator' }, subjects: [{ kind: 'User', name: 'jane' }] })).status, 201);
    const whoami = (headers: Record<string, string | string[]>) =>
      jane.request('POST', '/apis/authentication.orch.io/v1/selfsubjectreviews', { body: { apiVersion: 'authentication.orch.io/v1', kind: 'SelfSubjectReview' }, headers });
    await eventually('the impersonation grants', async () => (await whoami({ 'Impersonate-User': 'kim' })).status === 201);
    const full = await whoami({ 'Impersonate-User': 'kim', 'Impersonate-Group': 'qa', 'Impersonate-Uid': 'u-1', 'Impersonate-Extra-Scopes': 'read' });
    assert.equal(full.status, 201, full.text);
    assert.deepEqual(full.body.status.userInfo, { username: 'kim', uid: 'u-1', groups: ['qa', 'system:authenticated'], extra: { scopes: ['read'] } });
    const refusals: [Record<string, string>, string][] = [
      [{ 'Impersonate-User': 'bob' }, 'users "bob" is forbidden: User "jane" cannot impersonate resource "users" in API group "" at the cluster scope'],
      [{ 'Impersonate-User': 'kim', 'Impersonate-Group': 'ops' }, 'groups "ops" is forbidden: User "jane" cannot impersonate resource "groups" in API group "" at the cluster scope'],
      [{ 'Impersonate-User': 'kim', 'Impersonate-Uid': 'u-2' }, 'uids.authentication.orch.io "u-2" is forbidden: User "jane" cannot impersonate resource "uids" in API group "authentication.orch.io" at the cluster scope'],
      [{ 'Impersonate-User': 'kim', 'Impersonate-Extra-Scopes': 'write' }, 'userextras.authentication.orch.io "write" is forbidden: User "jane" cannot impersonate resource "userextras/scopes" in API group "authentication.orch.io" at the cluster scope'],
      [{ 'Impersonate-User': 'system:serviceaccount:forms:other' }, 'serviceaccounts "other" is forbidden: User "jane" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "forms"'],
    ];
    for (const [headers, message] of refusals) {
      const r = await whoami(headers);
      assertStatus(r, 403, 'Forbidden', JSON.stringify(headers));
      assert.equal(r.body.message, message);
    }
    const sa = await whoami({ 'Impersonate-User': 'system:serviceaccount:forms:bot' });
    assert.equal(sa.status, 201, sa.text);
    assert.deepEqual(sa.body.status.userInfo.groups, ['system:serviceaccounts', 'system:serviceaccounts:forms', 'system:authenticated']);
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

describe('--authorization-mode=Webhook,RBAC', () => {
  let t: TestServer;
  let dir: string;
  let webhook: TestHttpsServer;
  const reviews: Record<string, any>[] = [];
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'orch-authz-webhook-'));
    const write = (name: string, content: string) => {
      writeFileSync(join(dir, name), content);
      return join(dir, name);
    };
    writeFileSync(join(dir, 'tokens.csv'), 'alice-token,alice,3,"ops"\nbob-token,bob,4\nbroken-token,broken,5\n');
    const ca = TestCA.root({ commonName: 'authz-webhook-ca' });
    const serving = ca.server(['127.0.0.1']);
    // A remote policy: alice may read configmaps, bob is denied outright, broken gets a 500.
    webhook = await startTestHttpsServer({
      cert: serving.certPem, key: serving.keyPem,
      handler: (req, res) => {
        const review = JSON.parse(req.body) as Record<string, any>;
        reviews.push(review);
        const user = review.spec.user as string;
        if (user === 'broken') {
          res.writeHead(500);
          res.end('policy engine down');
          return;
        }
        const attrs = review.spec.resourceAttributes ?? {};
        const allowed = user === 'alice' && attrs.resource === 'configmaps' && ['get', 'list'].includes(attrs.verb);
        sendJSON(res, 200, { apiVersion: review.apiVersion, kind: 'SubjectAccessReview', status: { allowed, ...(user === 'bob' ? { denied: true, reason: 'bob is on leave' } : {}) } });
      },
    });
    const kubeconfig = write('authz.kubeconfig', stringify({
      apiVersion: 'v1', kind: 'Config',
      clusters: [{ name: 'authz', cluster: { server: `${webhook.url}/authorize`, 'certificate-authority': write('ca.pem', ca.certPem) } }],
      users: [{ name: 'apiserver', user: {} }],
      contexts: [{ name: 'authz', context: { cluster: 'authz', user: 'apiserver' } }],
      'current-context': 'authz',
    }));
    t = await startTestServer({
      authentication: { ...defaultAuthenticationOptions(), tokenAuthFile: join(dir, 'tokens.csv') },
      authorization: { ...defaultAuthorizationOptions(), modes: ['Webhook', 'RBAC'], webhookConfigFile: kubeconfig, webhookCacheAuthorizedTTLMs: 0, webhookCacheUnauthorizedTTLMs: 0 },
    });
  });
  after(async () => {
    await t?.stop();
    await webhook?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the webhook is asked first with a SubjectAccessReview; its allow and deny decide, no opinion falls through to RBAC', async () => {
    const alice = t.client.withToken('alice-token');
    assert.equal((await alice.get('/api/v1/namespaces/default/configmaps')).status, 200);
    const review = reviews.find((r) => r.spec.user === 'alice')!;
    assert.equal(review.apiVersion, 'authorization.orch.io/v1');
    assert.equal(review.kind, 'SubjectAccessReview');
    assert.deepEqual(review.spec.resourceAttributes, { namespace: 'default', verb: 'list', version: 'v1', resource: 'configmaps' });
    assert.deepEqual(review.spec.groups, ['ops', 'system:authenticated']);
    assertStatus(await alice.get('/api/v1/namespaces/default/secrets'), 403, 'Forbidden');
    const bob = await t.client.withToken('bob-token').get('/api/v1/namespaces/default/configmaps');
    assertStatus(bob, 403, 'Forbidden');
    assert.equal(bob.body.message, 'configmaps is forbidden: User "bob" cannot list resource "configmaps" in API group "" in the namespace "default": bob is on leave');
    // RBAC after the webhook: discovery is granted to every authenticated user by the bootstrap policy.
    await eventually('the bootstrap policy', async () => (await t.client.get('/readyz')).status === 200);
    assert.equal((await t.client.withToken('bob-token').get('/apis')).status, 403, 'an explicit deny from the webhook stops the chain');
    assert.equal((await alice.get('/apis')).status, 200, 'no opinion from the webhook falls through to RBAC');
  });

  test('a webhook that fails is no opinion with an error: nothing allows, so the request fails with 500 as upstream answers', async () => {
    const r = await t.client.withToken('broken-token').get('/api/v1/namespaces/default/configmaps');
    assertStatus(r, 500, 'InternalError');
    assert.ok(t.logs.some((l) => l.includes('authorization failed with an error') && l.includes('user="broken"')), 'the operator is told');
  });
});

describe('stock kubectl against --api-domain=k8s.io with RBAC', () => {
  let t: TestServer;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'orch-kubectl-rbac-'));
    writeFileSync(join(dir, 'tokens.csv'), 'admin-token,admin,1,"system:masters"\nkim-token,kim,2\n');
    t = await startTestServer({
      apiDomain: 'k8s.io',
      authentication: { ...defaultAuthenticationOptions(), tokenAuthFile: join(dir, 'tokens.csv') },
      authorization: { ...defaultAuthorizationOptions(), modes: ['RBAC'] },
    });
    await eventually('the bootstrap policy', async () => (await t.client.get('/readyz')).status === 200);
  });
  after(async () => {
    await t?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('auth can-i (with --list and --as), create role and create rolebinding', async () => {
    const admin = new Kubectl(writeKubeconfig(t, 'admin-token'));
    const kim = new Kubectl(writeKubeconfig(t, 'kim-token'));
    const no = await kim.run(['auth', 'can-i', 'list', 'configmaps', '-n', 'default']);
    assert.equal(no.stdout.trim(), 'no', no.describe());
    assert.equal((await admin.run(['auth', 'can-i', 'list', 'configmaps', '-n', 'default', '--as', 'kim'])).stdout.trim(), 'no', 'impersonated by the admin');
    await admin.ok(['create', 'role', 'cm-reader', '--verb=get,list', '--resource=configmaps', '-n', 'default']);
    await admin.ok(['create', 'rolebinding', 'kim-reads', '--role=cm-reader', '--user=kim', '-n', 'default']);
    await eventually('kim may list configmaps', async () => (await kim.run(['auth', 'can-i', 'list', 'configmaps', '-n', 'default'])).stdout.trim() === 'yes');
    assert.equal((await admin.run(['auth', 'can-i', 'list', 'configmaps', '-n', 'default', '--as', 'kim'])).stdout.trim(), 'yes');
    assert.equal((await admin.run(['auth', 'can-i', 'delete', 'configmaps', '-n', 'default', '--as', 'kim'])).stdout.trim(), 'no');
    const list = await kim.ok(['auth', 'can-i', '--list', '-n', 'default']);
    assert.match(list.stdout, /configmaps\s+\[\]\s+\[\]\s+\[get list\]/, list.describe());
    assert.match(list.stdout, /selfsubjectaccessreviews\.authorization\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]/, list.describe());
  });
});

describe('--authorization-mode=AlwaysDeny', () => {
  let t: TestServer;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'orch-deny-'));
    writeFileSync(join(dir, 'tokens.csv'), 'admin-token,admin,1,"system:masters"\nsam-token,sam,2\n');
    t = await startTestServer({
      authentication: { ...defaultAuthenticationOptions(), tokenAuthFile: join(dir, 'tokens.csv') },
      authorization: { ...defaultAuthorizationOptions(), modes: ['AlwaysDeny'] },
    });
  });
  after(async () => {
    await t?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('refuses everyone but system:masters, with upstream\'s reason', async () => {
    assert.equal((await t.client.withToken('admin-token').get('/api/v1/namespaces')).status, 200);
    const r = await t.client.withToken('sam-token').get('/api/v1/namespaces');
    assertStatus(r, 403, 'Forbidden');
    assert.equal(r.body.message, 'namespaces is forbidden: User "sam" cannot list resource "namespaces" in API group "" at the cluster scope: Everything is forbidden.');
    assertStatus(await t.client.get('/healthz'), 403, 'Forbidden');
  });
});
