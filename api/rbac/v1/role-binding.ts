import { type Static } from '@sinclair/typebox';
import { field, list, opt } from '../../schema.js';
import { topLevel } from '../../meta/v1/types.js';
import { RoleRef } from './role-ref.js';
import { Subject, defaultSubject } from './subject.js';

export const RoleBinding = topLevel('io.orch.api.rbac.v1.RoleBinding', {
  subjects: opt(list(2, Subject, { listType: 'atomic' }, { description: 'The users, groups and service accounts granted the role.' })),
  roleRef: field(3, RoleRef, {
    description: 'The Role in the same namespace, or a ClusterRole, granted. Cannot be changed: delete and recreate the binding instead.',
  }),
}, { required: ['roleRef'], description: 'Grants the permissions of a Role or ClusterRole to subjects within one namespace.' });
export type RoleBinding = Static<typeof RoleBinding>;

/** Upstream SetDefaults_RoleBinding and SetDefaults_Subject. */
export function defaultRoleBinding(b: RoleBinding, rbacGroup: string): void {
  if (b.roleRef && !b.roleRef.apiGroup) b.roleRef.apiGroup = rbacGroup;
  for (const s of b.subjects ?? []) defaultSubject(s, rbacGroup);
}
