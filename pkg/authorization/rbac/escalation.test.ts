import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Subject } from '../../../api/rbac/v1/subject.js';
import { isStatusError } from '../../runtime/errors.js';
import { RbacAuthorizer } from './authorizer.js';
import { checkBindingWrite, checkRoleWrite, confirmNoEscalation, isOnlyMutatingGCFields } from './escalation.js';
import { RbacIndex } from './index.js';

const G = 'rbac.authorization.orch.io';
const alice = { name: 'alice', groups: ['devs', 'system:authenticated'] };
const userSubject = (name: string): Subject => ({ kind: 'User', apiGroup: G, name });

function setup() {
  const index = new RbacIndex(G);
  index.apply('ClusterRole', 'ADDED', { metadata: { name: 'pod-admin' }, rules: [{ verbs: ['*'], apiGroups: [''], resources: ['pods'] }] });
  index.apply('ClusterRole', 'ADDED', { metadata: { name: 'secret-reader' }, rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['secrets'] }] });
  index.apply('ClusterRole', 'ADDED', { metadata: { name: 'binder' }, rules: [{ verbs: ['bind'], apiGroups: [G], resources: ['clusterroles'], resourceNames: ['secret-reader'] }] });
  index.apply('ClusterRole', 'ADDED', { metadata: { name: 'escalator' }, rules: [{ verbs: ['escalate'], apiGroups: [G], resources: ['roles'] }] });
  index.apply('RoleBinding', 'ADDED', { metadata: { namespace: 'ns1', name: 'a' }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'pod-admin' }, subjects: [userSubject('alice')] });
  const authz = new RbacAuthorizer(index);
  const authorize = (a: Parameters<RbacAuthorizer['authorize']>[0]) => authz.authorize(a).decision === 'allow';
  return { index, authorize };
}

async function rejection(p: Promise<void>): Promise<{ code: number; reason: string; message: string }> {
  try {
    await p;
  } catch (e) {
    assert.ok(isStatusError(e));
    return { code: e.code, reason: e.reason, message: e.message };
  }
  assert.fail('expected a rejection');
}

test('a Role within held permissions may be written in that namespace only', async () => {
  const { index, authorize } = setup();
  const object = { metadata: { name: 'r' }, rules: [{ verbs: ['get', 'delete'], apiGroups: [''], resources: ['pods'] }] };
  await checkRoleWrite({ index, authorize, user: alice, apiGroup: G, resource: 'roles', namespace: 'ns1', object });
  const err = await rejection(checkRoleWrite({ index, authorize, user: alice, apiGroup: G, resource: 'roles', namespace: 'ns2', object }));
  assert.equal(err.code, 403);
  assert.equal(err.reason, 'Forbidden');
  assert.equal(err.message, `roles.${G} "r" is forbidden: user "alice" (groups=["devs" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n` +
    '{APIGroups:[""], Resources:["pods"], Verbs:["get" "delete"]}');
});

test('the missing permissions are listed compacted and sorted, with resolution errors', async () => {
  const { index } = setup();
  index.apply('RoleBinding', 'ADDED', { metadata: { namespace: 'ns1', name: 'dangling' }, roleRef: { apiGroup: G, kind: 'Role', name: 'gone' }, subjects: [userSubject('alice')] });
  const msg = confirmNoEscalation(index, alice, 'ns1', [
    { verbs: ['get', 'list'], apiGroups: ['', 'apps'], resources: ['pods', 'secrets'] },
    { verbs: ['get'], nonResourceURLs: ['/metrics'] },
  ]);
  assert.equal(msg, 'user "alice" (groups=["devs" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' + [
    '{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list"]}',
    '{APIGroups:["apps"], Resources:["pods"], Verbs:["get" "list"]}',
    '{APIGroups:["apps"], Resources:["secrets"], Verbs:["get" "list"]}',
    '{NonResourceURLs:["/metrics"], Verbs:["get"]}',
  ].join('\n') + `; resolution errors: [role.${G} "gone" not found]`);
  assert.equal(confirmNoEscalation(index, alice, 'ns1', [{ verbs: ['list'], apiGroups: [''], resources: ['pods'] }]), undefined);
});

test('escalate on roles, or system:masters, skips the check; aggregationRule needs everything', async () => {
  const { index, authorize } = setup();
  const big = { metadata: { name: 'big' }, rules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }] };
  await rejection(checkRoleWrite({ index, authorize, user: alice, apiGroup: G, resource: 'roles', namespace: 'ns1', object: big }));
  index.apply('RoleBinding', 'ADDED', { metadata: { namespace: 'ns1', name: 'esc' }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'escalator' }, subjects: [userSubject('alice')] });
  await checkRoleWrite({ index, authorize, user: alice, apiGroup: G, resource: 'roles', namespace: 'ns1', object: big });
  await checkRoleWrite({ index, authorize, user: { name: 'root', groups: ['system:masters'] }, apiGroup: G, resource: 'clusterroles', namespace: '', object: big });
  const agg = { metadata: { name: 'agg' }, rules: [], aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] } };
  const err = await rejection(checkRoleWrite({ index, authorize, user: alice, apiGroup: G, resource: 'clusterroles', namespace: '', object: agg }));
  assert.equal(err.message, `clusterroles.${G} "agg" is forbidden: must have cluster-admin privileges to use the aggregationRule`);
  // removing the rule from an aggregated role is checked too
  const err2 = await rejection(checkRoleWrite({ index, authorize, user: alice, apiGroup: G, resource: 'clusterroles', namespace: '',
    object: { metadata: { name: 'agg' }, rules: [] }, old: { metadata: { name: 'agg' }, aggregationRule: agg.aggregationRule } }));
  assert.equal(err2.code, 403);
});

test('bindings: allowed with bind on the role, or when every permission of the role is held; 404 for a missing role', async () => {
  const { index, authorize } = setup();
  const binding = (kind: string, name: string) => ({ metadata: { name: 'b' }, roleRef: { apiGroup: G, kind, name } });
  await checkBindingWrite({ index, authorize, user: alice, apiGroup: G, resource: 'rolebindings', namespace: 'ns1', object: binding('ClusterRole', 'pod-admin') });
  const err = await rejection(checkBindingWrite({ index, authorize, user: alice, apiGroup: G, resource: 'rolebindings', namespace: 'ns1', object: binding('ClusterRole', 'secret-reader') }));
  assert.equal(err.message, `rolebindings.${G} "b" is forbidden: user "alice" (groups=["devs" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n` +
    '{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list"]}');
  await rejection(checkBindingWrite({ index, authorize, user: alice, apiGroup: G, resource: 'clusterrolebindings', namespace: '', object: binding('ClusterRole', 'pod-admin') }));
  index.apply('RoleBinding', 'ADDED', { metadata: { namespace: 'ns1', name: 'bind' }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'binder' }, subjects: [{ kind: 'Group', apiGroup: G, name: 'devs' }] });
  await checkBindingWrite({ index, authorize, user: alice, apiGroup: G, resource: 'rolebindings', namespace: 'ns1', object: binding('ClusterRole', 'secret-reader') });
  await rejection(checkBindingWrite({ index, authorize, user: alice, apiGroup: G, resource: 'rolebindings', namespace: 'ns2', object: binding('ClusterRole', 'secret-reader') }));
  const nf = await rejection(checkBindingWrite({ index, authorize, user: alice, apiGroup: G, resource: 'rolebindings', namespace: 'ns1', object: binding('Role', 'nope') }));
  assert.deepEqual(nf, { code: 404, reason: 'NotFound', message: `roles.${G} "nope" not found` });
});

test('updates touching only owner references and finalizers skip the check', async () => {
  const { index, authorize } = setup();
  const old = { metadata: { name: 'b', namespace: 'ns2', resourceVersion: '5' }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'secret-reader' }, subjects: [] };
  const gcOnly = { ...old, metadata: { ...old.metadata, finalizers: ['x'], ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'c', uid: 'u' }] } };
  assert.equal(isOnlyMutatingGCFields(gcOnly, old), true);
  await checkBindingWrite({ index, authorize, user: alice, apiGroup: G, resource: 'rolebindings', namespace: 'ns2', object: gcOnly, old });
  const more = { ...gcOnly, subjects: [userSubject('bob')] };
  assert.equal(isOnlyMutatingGCFields(more, old), false);
  await rejection(checkBindingWrite({ index, authorize, user: alice, apiGroup: G, resource: 'rolebindings', namespace: 'ns2', object: more, old }));
});
