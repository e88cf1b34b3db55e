// rbac.authorization.orch.io/v1: roles, cluster roles and their bindings.
import { defineKind, type GroupVersionRegistration } from '../../registration.js';
import { ClusterRole } from './cluster-role.js';
import { ClusterRoleBinding, defaultClusterRoleBinding } from './cluster-role-binding.js';
import { RbacGroupName } from './group.js';
import { Role } from './role.js';
import { RoleBinding, defaultRoleBinding } from './role-binding.js';

export const rbacV1: GroupVersionRegistration = {
  group: RbacGroupName,
  version: 'v1',
  stability: 'stable',
  kinds: [
    defineKind({ kind: 'ClusterRole', resource: 'clusterroles', singular: 'clusterrole', namespaced: false, schema: ClusterRole }),
    defineKind({
      kind: 'ClusterRoleBinding', resource: 'clusterrolebindings', singular: 'clusterrolebinding', namespaced: false,
      schema: ClusterRoleBinding, defaulter: defaultClusterRoleBinding,
    }),
    defineKind({ kind: 'Role', resource: 'roles', singular: 'role', namespaced: true, schema: Role }),
    defineKind({
      kind: 'RoleBinding', resource: 'rolebindings', singular: 'rolebinding', namespaced: true,
      schema: RoleBinding, defaulter: defaultRoleBinding,
    }),
  ],
};
