import { type Static } from '@sinclair/typebox';
import { field, list, opt } from '../../schema.js';
import { topLevel } from '../../meta/v1/types.js';
import { RoleRef } from './role-ref.js';
import { Subject, defaultSubject } from './subject.js';

export const RoleBinding = topLevel('io.orch.api.rbac.v1.RoleBinding', {
  subjects: opt(list(2, Subject, { listType: 'atomic' })),
  roleRef: field(3, RoleRef),
}, { required: ['roleRef'] });
export type RoleBinding = Static<typeof RoleBinding>;

/** Upstream SetDefaults_RoleBinding and SetDefaults_Subject. */
export function defaultRoleBinding(b: RoleBinding, rbacGroup: string): void {
  if (b.roleRef && !b.roleRef.apiGroup) b.roleRef.apiGroup = rbacGroup;
  for (const s of b.subjects ?? []) defaultSubject(s, rbacGroup);
}
