import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ClusterRole } from '../../../api/rbac/v1/cluster-role.js';
import type { ClusterRoleBinding } from '../../../api/rbac/v1/cluster-role-binding.js';
import type { Role } from '../../../api/rbac/v1/role.js';
import type { RoleBinding } from '../../../api/rbac/v1/role-binding.js';
import type { Subject } from '../../../api/rbac/v1/subject.js';
import { RbacAuthorizer } from './authorizer.js';
import { RbacIndex } from './index.js';
import type { RbacAttributes } from './rules.js';

const G = 'rbac.authorization.orch.io';
const clusterRole = (name: string, rules: ClusterRole['rules']): ClusterRole => ({ metadata: { name }, rules });
const role = (namespace: string, name: string, rules: Role['rules']): Role => ({ metadata: { namespace, name }, rules });
const crb = (name: string, roleName: string, subjects: Subject[], kind = 'ClusterRole'): ClusterRoleBinding =>
  ({ metadata: { name }, roleRef: { apiGroup: G, kind, name: roleName }, subjects });
const rb = (namespace: string, name: string, kind: string, roleName: string, subjects: Subject[]): RoleBinding =>
  ({ metadata: { namespace, name }, roleRef: { apiGroup: G, kind, name: roleName }, subjects });
const user = (name: string, ...groups: string[]) => ({ name, groups });
const get = (u: { name: string; groups: string[] }, resource: string, namespace = '', name = ''): RbacAttributes =>
  ({ user: u, verb: 'get', apiGroup: '', resource, namespace, name, isResourceRequest: true });

function fixture(): { index: RbacIndex; authz: RbacAuthorizer } {
  const index = new RbacIndex(G);
  index.apply('ClusterRole', 'ADDED', clusterRole('pod-reader', [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }]));
  index.apply('ClusterRole', 'ADDED', clusterRole('discovery', [{ verbs: ['get'], nonResourceURLs: ['/apis', '/apis/*'] }]));
  index.apply('Role', 'ADDED', role('ns1', 'secret-reader', [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['s1'] }]));
  index.apply('ClusterRoleBinding', 'ADDED', crb('readers', 'pod-reader', [
    { kind: 'User', apiGroup: G, name: 'alice' }, { kind: 'Group', apiGroup: G, name: 'devs' }]));
  index.apply('ClusterRoleBinding', 'ADDED', crb('disco', 'discovery', [{ kind: 'Group', apiGroup: G, name: 'system:authenticated' }]));
  index.apply('RoleBinding', 'ADDED', rb('ns1', 'sec', 'Role', 'secret-reader', [{ kind: 'ServiceAccount', name: 'ci' }]));
  index.apply('RoleBinding', 'ADDED', rb('ns1', 'pods-here', 'ClusterRole', 'pod-reader', [{ kind: 'User', apiGroup: G, name: 'bob' }]));
  return { index, authz: new RbacAuthorizer(index) };
}

test('allows by ClusterRoleBinding with upstream reason naming the first subject that applies', () => {
  const { authz } = fixture();
  assert.deepEqual(authz.authorize(get(user('alice', 'devs'), 'pods', 'ns9')),
    { decision: 'allow', reason: 'RBAC: allowed by ClusterRoleBinding "readers" of ClusterRole "pod-reader" to User "alice"' });
  assert.deepEqual(authz.authorize(get(user('carol', 'devs'), 'pods')),
    { decision: 'allow', reason: 'RBAC: allowed by ClusterRoleBinding "readers" of ClusterRole "pod-reader" to Group "devs"' });
  assert.deepEqual(authz.authorize(get(user('carol'), 'pods')), { decision: 'noOpinion', reason: '' });
  assert.equal(authz.authorize({ user: user('x', 'system:authenticated'), verb: 'get', path: '/apis/apps', isResourceRequest: false }).decision, 'allow');
  assert.equal(authz.authorize({ user: user('x'), verb: 'get', path: '/apis/apps', isResourceRequest: false }).decision, 'noOpinion');
});

test('RoleBindings apply in their namespace only; a service account subject without namespace means the binding\'s', () => {
  const { authz } = fixture();
  const ci = user('system:serviceaccount:ns1:ci', 'system:serviceaccounts');
  assert.deepEqual(authz.authorize(get(ci, 'secrets', 'ns1', 's1')),
    { decision: 'allow', reason: 'RBAC: allowed by RoleBinding "sec/ns1" of Role "secret-reader" to ServiceAccount "ci/ns1"' });
  assert.equal(authz.authorize(get(ci, 'secrets', 'ns1', 's2')).decision, 'noOpinion');
  assert.equal(authz.authorize(get(ci, 'secrets', 'ns2', 's1')).decision, 'noOpinion');
  assert.equal(authz.authorize(get(ci, 'secrets', '', 's1')).decision, 'noOpinion', 'cluster-wide requests see no RoleBinding');
  assert.equal(authz.authorize(get(user('system:serviceaccount:ns2:ci'), 'secrets', 'ns1', 's1')).decision, 'noOpinion');
  assert.equal(authz.authorize(get(user('bob'), 'pods', 'ns1')).decision, 'allow');
  assert.equal(authz.authorize(get(user('bob'), 'pods', 'ns2')).decision, 'noOpinion');
});

test('change events: MODIFIED replaces subjects, DELETED removes roles and bindings', () => {
  const { index, authz } = fixture();
  index.apply('ClusterRoleBinding', 'MODIFIED', crb('readers', 'pod-reader', [{ kind: 'User', apiGroup: G, name: 'dave' }]));
  assert.equal(authz.authorize(get(user('alice'), 'pods')).decision, 'noOpinion');
  assert.equal(authz.authorize(get(user('dave'), 'pods')).decision, 'allow');
  index.apply('RoleBinding', 'DELETED', rb('ns1', 'pods-here', 'ClusterRole', 'pod-reader', []));
  assert.equal(authz.authorize(get(user('bob'), 'pods', 'ns1')).decision, 'noOpinion');
  index.apply('ClusterRole', 'DELETED', clusterRole('pod-reader', []));
  assert.deepEqual(authz.authorize(get(user('dave'), 'pods')),
    { decision: 'noOpinion', reason: `RBAC: clusterrole.${G} "pod-reader" not found` });
});

test('unresolvable roleRefs, unknown subject kinds and namespaced users are errors that grant nothing', () => {
  const { index, authz } = fixture();
  index.apply('ClusterRoleBinding', 'ADDED', crb('bad-kind', 'pod-reader', [{ kind: 'User', apiGroup: G, name: 'eve' }], 'Thing'));
  index.apply('ClusterRoleBinding', 'ADDED', crb('role-in-crb', 'secret-reader', [{ kind: 'User', apiGroup: G, name: 'eve' }], 'Role'));
  index.apply('ClusterRoleBinding', 'ADDED', crb('ns-user', 'pod-reader', [{ kind: 'User', apiGroup: G, name: 'eve', namespace: 'ns1' }]));
  index.apply('RoleBinding', 'ADDED', rb('ns1', 'robot', 'ClusterRole', 'pod-reader', [{ kind: 'Robot', name: 'r2' }]));
  const d = authz.authorize(get(user('eve'), 'pods', 'ns1'));
  assert.equal(d.decision, 'noOpinion');
  assert.equal(d.reason, 'RBAC: [' + [
    'unsupported role reference kind: "Thing"',
    'ClusterRoleBinding "ns-user": User subject "eve" must not have a namespace (found "ns1")',
    `role.${G} "secret-reader" not found`,
    'RoleBinding "robot/ns1": unsupported subject kind: "Robot"',
  ].join(', ') + ']');
  // the unknown kind is reported to anyone evaluated in that namespace, but does not stop an allow
  assert.equal(authz.authorize(get(user('bob'), 'pods', 'ns1')).decision, 'allow');
  assert.equal(authz.authorize(get(user('zed'), 'pods', 'ns1')).reason, 'RBAC: RoleBinding "robot/ns1": unsupported subject kind: "Robot"');
});

test('rulesFor lists cluster and namespace rules split by kind, with evaluation errors', () => {
  const { index, authz } = fixture();
  const ci = user('system:serviceaccount:ns1:ci', 'system:authenticated');
  assert.deepEqual(authz.rulesFor(ci, 'ns1'), {
    resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['s1'] }],
    nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/apis', '/apis/*'] }],
    incomplete: false,
  });
  index.apply('RoleBinding', 'ADDED', rb('ns1', 'dangling', 'Role', 'gone', [{ kind: 'ServiceAccount', name: 'ci', namespace: 'ns1' }]));
  assert.equal(authz.rulesFor(ci, 'ns1').evaluationError, `role.${G} "gone" not found`);
});

test('the index looks only at bindings naming the user: thousands of unrelated bindings are skipped', () => {
  const index = new RbacIndex(G);
  index.apply('ClusterRole', 'ADDED', clusterRole('r', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]));
  for (let i = 0; i < 20000; i++) index.apply('ClusterRoleBinding', 'ADDED', crb(`b${i}`, 'r', [{ kind: 'User', apiGroup: G, name: `u${i}` }]));
  let visited = 0;
  index.visitRulesFor(user('u123'), '', (_s, rule) => { if (rule) visited++; return true; });
  assert.equal(visited, 1);
  const authz = new RbacAuthorizer(index);
  const start = process.hrtime.bigint();
  for (let i = 0; i < 10000; i++) authz.authorize(get(user(`u${i}`), 'pods'));
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  assert.ok(ms < 2000, `10000 decisions over 20000 bindings took ${ms} ms`);
});
