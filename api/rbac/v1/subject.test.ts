import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultClusterRoleBinding, type ClusterRoleBinding } from './cluster-role-binding.js';
import { defaultRoleBinding, type RoleBinding } from './role-binding.js';
import { defaultSubject, type Subject } from './subject.js';

test('subject apiGroup defaults by kind', () => {
  const cases: [string, string | undefined][] = [['ServiceAccount', ''], ['User', 'rbac.authorization.orch.io'], ['Group', 'rbac.authorization.orch.io'], ['Robot', undefined]];
  for (const [kind, want] of cases) {
    const s: Subject = { kind, name: 'n' };
    defaultSubject(s, 'rbac.authorization.orch.io');
    assert.equal(s.apiGroup, want, kind);
  }
  const explicit: Subject = { kind: 'User', name: 'n', apiGroup: 'example.com' };
  defaultSubject(explicit, 'rbac.authorization.orch.io');
  assert.equal(explicit.apiGroup, 'example.com');
});

test('bindings default roleRef.apiGroup and their subjects', () => {
  const crb: ClusterRoleBinding = { roleRef: { apiGroup: '', kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'Group', name: 'g' }] };
  defaultClusterRoleBinding(crb, 'rbac.authorization.orch.io');
  assert.equal(crb.roleRef.apiGroup, 'rbac.authorization.orch.io');
  assert.equal(crb.subjects![0]!.apiGroup, 'rbac.authorization.orch.io');
  const rb: RoleBinding = { roleRef: { apiGroup: '', kind: 'Role', name: 'dev' }, subjects: [{ kind: 'ServiceAccount', name: 'sa' }] };
  defaultRoleBinding(rb, 'rbac.authorization.orch.io');
  assert.equal(rb.roleRef.apiGroup, 'rbac.authorization.orch.io');
  assert.equal(rb.subjects![0]!.apiGroup, '');
});
