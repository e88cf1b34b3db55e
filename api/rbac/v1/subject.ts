import { type Static } from '@sinclair/typebox';
import { object, opt, str } from '../../schema.js';

export const SubjectKinds = ['ServiceAccount', 'User', 'Group'] as const;

export const Subject = object('io.orch.api.rbac.v1.Subject', {
  kind: str(1, { description: 'User, Group or ServiceAccount.' }),
  apiGroup: opt(str(2, {
    description: 'API group of the subject: empty for ServiceAccount, the RBAC group for User and Group (the defaults).',
  })),
  name: str(3, { description: 'Name of the user, group or service account.' }),
  namespace: opt(str(4, { description: 'Namespace of a ServiceAccount subject; must be empty for users and groups.' })),
}, { required: ['kind', 'name'], 'x-orch-map-type': 'atomic', description: 'Who a binding grants its role to: a user, a group or a service account.' });
export type Subject = Static<typeof Subject>;

/** Upstream SetDefaults_Subject: apiGroup "" for ServiceAccount, the RBAC group for User and Group. */
export function defaultSubject(subject: Subject, rbacGroup: string): void {
  if (subject.apiGroup) return;
  switch (subject.kind) {
    case 'ServiceAccount':
      subject.apiGroup = '';
      break;
    case 'User':
    case 'Group':
      subject.apiGroup = rbacGroup;
      break;
  }
}
