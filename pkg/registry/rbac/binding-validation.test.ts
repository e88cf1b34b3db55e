import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ClusterRoleBinding, defaultClusterRoleBinding } from '../../../api/rbac/v1/cluster-role-binding.js';
import { RoleBinding, defaultRoleBinding } from '../../../api/rbac/v1/role-binding.js';
import { createErrors, defaulted, has, summary, updateErrors, type KindUnderTest } from '../testing/kind-check.js';
import { clusterRoleBindingValidation } from './cluster-role-binding-validation.js';
import { roleBindingValidation } from './role-binding-validation.js';

const G = 'rbac.authorization.orch.io';
const crbKind: KindUnderTest<ClusterRoleBinding> = { schema: ClusterRoleBinding, validation: clusterRoleBindingValidation(G), defaulter: (b) => defaultClusterRoleBinding(b, G) };
const rbKind: KindUnderTest<RoleBinding> = { schema: RoleBinding, validation: roleBindingValidation(G), defaulter: (b) => defaultRoleBinding(b, G) };

const crb = (extra: Record<string, unknown> = {}) => ({
  apiVersion: `${G}/v1`, kind: 'ClusterRoleBinding', metadata: { name: 'admins' },
  roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'cluster-admin' },
  subjects: [{ kind: 'User', name: 'alice' }, { kind: 'Group', name: 'ops' }, { kind: 'ServiceAccount', name: 'builder', namespace: 'ci' }],
  ...extra,
});
const rb = (extra: Record<string, unknown> = {}) => ({
  apiVersion: `${G}/v1`, kind: 'RoleBinding', metadata: { name: 'devs', namespace: 'team' },
  roleRef: { apiGroup: G, kind: 'Role', name: 'dev' },
  subjects: [{ kind: 'ServiceAccount', name: 'builder' }],
  ...extra,
});

test('valid bindings are accepted', () => {
  assert.deepEqual(createErrors(crbKind, crb()), []);
  assert.deepEqual(createErrors(rbKind, rb()), []);
  assert.deepEqual(createErrors(rbKind, rb({ roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'view' } })), []);
});

test('subject apiGroup and roleRef apiGroup are defaulted by kind', () => {
  const b = defaulted(crbKind, crb({ roleRef: { apiGroup: '', kind: 'ClusterRole', name: 'view' } }));
  assert.equal(b.roleRef.apiGroup, G);
  assert.deepEqual(b.subjects!.map((s) => s.apiGroup), [G, G, '']);
  assert.equal(defaulted(rbKind, rb()).subjects![0]!.apiGroup, '');
});

test('roleRef is required', () => {
  const { roleRef: _omit, ...noRef } = crb();
  assert.ok(has(createErrors(crbKind, noRef), 'FieldValueRequired', 'roleRef'));
  const { roleRef: _omit2, ...noRef2 } = rb();
  assert.ok(has(createErrors(rbKind, noRef2), 'FieldValueRequired', 'roleRef'));
  assert.ok(has(createErrors(crbKind, crb({ roleRef: { apiGroup: G, kind: 'ClusterRole' } })), 'FieldValueRequired', 'roleRef.name'));
});

test('a cluster binding references a ClusterRole; a role binding a Role or ClusterRole', () => {
  const errs = createErrors(crbKind, crb({ roleRef: { apiGroup: G, kind: 'Role', name: 'dev' } }));
  assert.deepEqual(summary(errs), ['FieldValueNotSupported roleRef.kind']);
  assert.equal(errs[0]!.detail, 'supported values: "ClusterRole"');
  assert.deepEqual(summary(createErrors(rbKind, rb({ roleRef: { apiGroup: G, kind: 'Pod', name: 'x' } }))), ['FieldValueNotSupported roleRef.kind']);
});

test('roleRef.apiGroup is the RBAC group and its name a path segment', () => {
  assert.deepEqual(summary(createErrors(crbKind, crb({ roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'x' } }))), ['FieldValueNotSupported roleRef.apiGroup']);
  assert.deepEqual(summary(createErrors(crbKind, crb({ roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'a/b' } }))), ['FieldValueInvalid roleRef.name']);
});

test('roleRef cannot change', () => {
  const errs = updateErrors(crbKind, crb({ roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'view' } }), crb());
  assert.deepEqual(summary(errs), ['FieldValueInvalid roleRef']);
  assert.equal(errs[0]!.detail, 'cannot change roleRef');
  assert.deepEqual(summary(updateErrors(rbKind, rb({ roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'dev' } }), rb())), ['FieldValueInvalid roleRef']);
  assert.deepEqual(updateErrors(crbKind, crb({ subjects: [] }), crb()), []);
});

test('subjects need a known kind and a name', () => {
  assert.ok(has(createErrors(crbKind, crb({ subjects: [{ name: 'x' }] })), 'FieldValueRequired', 'subjects[0].kind'));
  assert.deepEqual(summary(createErrors(crbKind, crb({ subjects: [{ kind: 'Robot', name: 'x' }] }))), ['FieldValueNotSupported subjects[0].kind']);
  assert.deepEqual(summary(createErrors(crbKind, crb({ subjects: [{ kind: 'User', name: '' }] }))), ['FieldValueRequired subjects[0].name']);
});

test('users and groups are not namespaced and belong to the RBAC group', () => {
  assert.deepEqual(summary(createErrors(crbKind, crb({ subjects: [{ kind: 'User', name: 'alice', namespace: 'x' }] }))), ['FieldValueForbidden subjects[0].namespace']);
  assert.deepEqual(summary(createErrors(rbKind, rb({ subjects: [{ kind: 'Group', name: 'ops', namespace: 'x' }] }))), ['FieldValueForbidden subjects[0].namespace']);
  assert.deepEqual(summary(createErrors(crbKind, crb({ subjects: [{ kind: 'User', name: 'alice', apiGroup: 'example.com' }] }))), ['FieldValueNotSupported subjects[0].apiGroup']);
});

test('service account subjects', () => {
  // A cluster binding must say which namespace the account is in; a role binding defaults to its own.
  assert.deepEqual(summary(createErrors(crbKind, crb({ subjects: [{ kind: 'ServiceAccount', name: 'builder' }] }))), ['FieldValueRequired subjects[0].namespace']);
  assert.deepEqual(createErrors(rbKind, rb({ subjects: [{ kind: 'ServiceAccount', name: 'builder' }] })), []);
  assert.deepEqual(summary(createErrors(rbKind, rb({ subjects: [{ kind: 'ServiceAccount', name: 'Builder_1' }] }))), ['FieldValueInvalid subjects[0].name']);
  assert.deepEqual(summary(createErrors(rbKind, rb({ subjects: [{ kind: 'ServiceAccount', name: 'b', apiGroup: G }] }))), ['FieldValueNotSupported subjects[0].apiGroup']);
});

test('binding names are path segments', () => {
  assert.deepEqual(crbKind.validation.name('system:admins', false), []);
  assert.ok(crbKind.validation.name('a/b', false).length > 0);
  assert.ok(rbKind.validation.name('..', false).length > 0);
  assert.ok(rbKind.validation.name('a%2f', false).length > 0);
});
