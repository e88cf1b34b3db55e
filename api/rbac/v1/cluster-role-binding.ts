import { type Static } from '@sinclair/typebox';
import { field, list, opt } from '../../schema.js';
import { topLevel } from '../../meta/v1/types.js';
import { RoleRef } from './role-ref.js';
import { Subject, defaultSubject } from './subject.js';

export const ClusterRoleBinding = topLevel('io.orch.api.rbac.v1.ClusterRoleBinding', {
  subjects: opt(list(2, Subject, { listType: 'atomic' }, { description: 'The users, groups and service accounts granted the role.' })),
  roleRef: field(3, RoleRef, { description: 'The ClusterRole granted. Cannot be changed: delete and recreate the binding instead.' }),
}, { required: ['roleRef'], description: 'Grants the permissions of a ClusterRole to subjects across the whole cluster.' });
export type ClusterRoleBinding = Static<typeof ClusterRoleBinding>;

/** Upstream SetDefaults_ClusterRoleBinding and SetDefaults_Subject. */
export function defaultClusterRoleBinding(b: ClusterRoleBinding, rbacGroup: string): void {
  if (b.roleRef && !b.roleRef.apiGroup) b.roleRef.apiGroup = rbacGroup;
  for (const s of b.subjects ?? []) defaultSubject(s, rbacGroup);
}
