// Rules shared by RoleBinding and ClusterRoleBinding (upstream ValidateRoleBinding,
// ValidateClusterRoleBinding, ValidateRoleBindingSubject).
import { isDeepStrictEqual } from 'node:util';
import type { RoleRef } from '../../../api/rbac/v1/role-ref.js';
import { SubjectKinds, type Subject } from '../../../api/rbac/v1/subject.js';
import { forbidden, invalid, notSupported, required, Path, type FieldError } from '../../runtime/field-errors.js';
import { isDNS1123Subdomain, isPathSegmentName } from '../validation/names.js';

/** The role reference: the RBAC group, one of `kinds`, and a name that fits a path segment. */
export function validateRoleRef(ref: RoleRef | undefined, kinds: readonly string[], rbacGroup: string): FieldError[] {
  if (!ref) return []; // a missing roleRef is reported by the schema
  const errs: FieldError[] = [];
  const path = Path.root('roleRef');
  if (ref.apiGroup !== rbacGroup) errs.push(notSupported(path.child('apiGroup'), ref.apiGroup, [rbacGroup]));
  if (!kinds.includes(ref.kind)) errs.push(notSupported(path.child('kind'), ref.kind, kinds));
  if (!ref.name) errs.push(required(path.child('name')));
  else for (const m of isPathSegmentName(ref.name)) errs.push(invalid(path.child('name'), ref.name, m));
  return errs;
}

/**
 * One subject. A ServiceAccount needs a namespace in a cluster binding; in a RoleBinding an
 * empty namespace means the binding's own. Users and groups are not namespaced.
 */
export function validateSubject(s: Subject, namespaced: boolean, path: Path, rbacGroup: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!s.name) errs.push(required(path.child('name')));
  switch (s.kind) {
    case 'ServiceAccount':
      if (s.name) for (const m of isDNS1123Subdomain(s.name)) errs.push(invalid(path.child('name'), s.name, m));
      if (s.apiGroup) errs.push(notSupported(path.child('apiGroup'), s.apiGroup, ['']));
      if (!namespaced && !s.namespace) errs.push(required(path.child('namespace')));
      break;
    case 'User':
    case 'Group':
      if (s.apiGroup !== rbacGroup) errs.push(notSupported(path.child('apiGroup'), s.apiGroup ?? '', [rbacGroup]));
      if (s.namespace) errs.push(forbidden(path.child('namespace'), `may not be set when \`kind\` is '${s.kind}'`));
      break;
    default:
      errs.push(notSupported(path.child('kind'), s.kind, SubjectKinds));
  }
  return errs;
}

export function validateSubjects(subjects: readonly Subject[] | undefined, namespaced: boolean, rbacGroup: string): FieldError[] {
  const path = Path.root('subjects');
  return (subjects ?? []).flatMap((s, i) => validateSubject(s, namespaced, path.index(i), rbacGroup));
}

/** The role a binding grants never changes; a new binding is needed for another role. */
export function validateRoleRefUnchanged(ref: RoleRef | undefined, old: RoleRef | undefined): FieldError[] {
  return isDeepStrictEqual(ref ?? null, old ?? null) ? [] : [invalid(Path.root('roleRef'), ref ?? null, 'cannot change roleRef')];
}
