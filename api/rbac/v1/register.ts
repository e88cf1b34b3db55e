// rbac.authorization.<domain>/v1: roles, cluster roles and their bindings.
import { ageColumn, nameColumn, type PrinterColumn } from '../../printer-column.js';
import type { ApiDomain } from '../../domain.js';
import { defineKind, type GroupVersionRegistration } from '../../registration.js';
import { ClusterRole } from './cluster-role.js';
import { ClusterRoleBinding, defaultClusterRoleBinding } from './cluster-role-binding.js';
import { Role } from './role.js';
import { RoleBinding, defaultRoleBinding } from './role-binding.js';

/** Names of the subjects of one kind, as upstream's printers list them (service accounts as namespace/name). */
function subjectNames(b: RoleBinding | ClusterRoleBinding, kind: 'User' | 'Group' | 'ServiceAccount'): string {
  return (b.subjects ?? [])
    .filter((s) => s.kind === kind)
    .map((s) => (kind === 'ServiceAccount' ? `${s.namespace ?? ''}/${s.name}` : s.name))
    .join(', ');
}

/** Columns of RoleBinding and ClusterRoleBinding. */
const bindingColumns: PrinterColumn<RoleBinding | ClusterRoleBinding>[] = [
  nameColumn,
  { name: 'Role', type: 'string', description: 'The role bound, as Kind/name.', priority: 0,
    // Required, yet absent from the object of a watch-list's end mark, which is printed too.
    cell: (b) => `${b.roleRef?.kind ?? ''}/${b.roleRef?.name ?? ''}` },
  ageColumn,
  { name: 'Users', type: 'string', description: 'Users the binding grants the role to.', priority: 1, cell: (b) => subjectNames(b, 'User') },
  { name: 'Groups', type: 'string', description: 'Groups the binding grants the role to.', priority: 1, cell: (b) => subjectNames(b, 'Group') },
  { name: 'ServiceAccounts', type: 'string', description: 'Service accounts the binding grants the role to.', priority: 1,
    cell: (b) => subjectNames(b, 'ServiceAccount') },
];

/** The RBAC group of a platform domain: rbac.authorization.<domain>. */
export const rbacGroup = (d: ApiDomain) => d.group('rbac.authorization');

export const rbacV1 = (d: ApiDomain): GroupVersionRegistration => ({
  group: rbacGroup(d),
  version: 'v1',
  stability: 'stable',
  kinds: [
    defineKind({ kind: 'ClusterRole', resource: 'clusterroles', singular: 'clusterrole', namespaced: false, schema: ClusterRole }),
    defineKind({
      kind: 'ClusterRoleBinding', resource: 'clusterrolebindings', singular: 'clusterrolebinding', namespaced: false,
      schema: ClusterRoleBinding, defaulter: (b) => defaultClusterRoleBinding(b, rbacGroup(d)),
      printerColumns: bindingColumns,
    }),
    defineKind({ kind: 'Role', resource: 'roles', singular: 'role', namespaced: true, schema: Role }),
    defineKind({
      kind: 'RoleBinding', resource: 'rolebindings', singular: 'rolebinding', namespaced: true,
      schema: RoleBinding, defaulter: (b) => defaultRoleBinding(b, rbacGroup(d)),
      printerColumns: bindingColumns,
    }),
  ],
});
