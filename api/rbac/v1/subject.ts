import { type Static } from '@sinclair/typebox';
import { object, opt, str } from '../../schema.js';

export const SubjectKinds = ['ServiceAccount', 'User', 'Group'] as const;

export const Subject = object('io.orch.api.rbac.v1.Subject', {
  kind: str(1),
  apiGroup: opt(str(2)),
  name: str(3),
  namespace: opt(str(4)),
}, { required: ['kind', 'name'], 'x-orch-map-type': 'atomic' });
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
