import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ClusterRole } from '../../../api/rbac/v1/cluster-role.js';
import { Role } from '../../../api/rbac/v1/role.js';
import { createErrors, has, summary, type KindUnderTest } from '../testing/kind-check.js';
import { clusterRoleValidation } from './cluster-role-validation.js';
import { roleValidation } from './role-validation.js';

const G = 'rbac.authorization.orch.io';
const roleKind: KindUnderTest<Role> = { schema: Role, validation: roleValidation };
const crKind: KindUnderTest<ClusterRole> = { schema: ClusterRole, validation: clusterRoleValidation };
const role = (...rules: unknown[]) => ({ apiVersion: `${G}/v1`, kind: 'Role', metadata: { name: 'dev', namespace: 'team' }, rules });
const clusterRole = (rules: unknown[], extra: Record<string, unknown> = {}) => ({ apiVersion: `${G}/v1`, kind: 'ClusterRole', metadata: { name: 'system:view' }, rules, ...extra });

test('valid rules are accepted', () => {
  assert.deepEqual(createErrors(roleKind, role({ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] })), []);
  assert.deepEqual(createErrors(crKind, clusterRole([{ verbs: ['get'], nonResourceURLs: ['/healthz', '/api/*'] }, { verbs: ['*'], apiGroups: ['*'], resources: ['*'] }])), []);
});

test('verbs are required and non-empty', () => {
  assert.ok(has(createErrors(roleKind, role({ apiGroups: [''], resources: ['pods'] })), 'FieldValueRequired', 'rules[0].verbs'));
  const errs = createErrors(roleKind, role({ verbs: [], apiGroups: [''], resources: ['pods'] }));
  assert.deepEqual(summary(errs), ['FieldValueRequired rules[0].verbs']);
  assert.equal(errs[0]!.detail, 'verbs must contain at least one value');
});

test('resource rules need apiGroups and resources', () => {
  assert.deepEqual(summary(createErrors(roleKind, role({ verbs: ['get'] }))), ['FieldValueRequired rules[0].apiGroups', 'FieldValueRequired rules[0].resources']);
  assert.deepEqual(summary(createErrors(crKind, clusterRole([{ verbs: ['get'], apiGroups: [''] }]))), ['FieldValueRequired rules[0].resources']);
});

test('non-resource URLs are cluster-wide only and not mixed with resources', () => {
  assert.deepEqual(summary(createErrors(roleKind, role({ verbs: ['get'], nonResourceURLs: ['/healthz'] }))), ['FieldValueInvalid rules[0].nonResourceURLs']);
  const mixed = createErrors(crKind, clusterRole([{ verbs: ['get'], nonResourceURLs: ['/healthz'], resources: ['pods'] }]));
  assert.deepEqual(summary(mixed), ['FieldValueInvalid rules[0].nonResourceURLs']);
  assert.equal(mixed[0]!.detail, 'rules cannot apply to both regular resources and non-resource URLs');
});

test('aggregation rules need valid selectors', () => {
  assert.deepEqual(createErrors(crKind, clusterRole([], { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'rbac.example.com/aggregate': 'true' } }] } })), []);
  assert.deepEqual(summary(createErrors(crKind, clusterRole([], { aggregationRule: {} }))), ['FieldValueRequired aggregationRule.clusterRoleSelectors']);
  const bad = createErrors(crKind, clusterRole([], { aggregationRule: { clusterRoleSelectors: [{ matchExpressions: [{ key: 'a', operator: 'In' }] }] } }));
  assert.deepEqual(summary(bad), ['FieldValueRequired aggregationRule.clusterRoleSelectors[0].matchExpressions[0].values']);
});

test('role names are path segments', () => {
  assert.deepEqual(clusterRoleValidation.name('system:controller:x', false), []);
  assert.ok(roleValidation.name('a/b', false).length > 0);
});
