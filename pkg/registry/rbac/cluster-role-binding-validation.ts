// Rules of ClusterRoleBinding: a ClusterRole in the RBAC group, well-formed subjects, and a
// roleRef that never changes.
import type { ClusterRoleBinding } from '../../../api/rbac/v1/cluster-role-binding.js';
import type { FieldError } from '../../runtime/field-errors.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { nameIsPathSegment } from '../validation/names.js';
import { validateRoleRef, validateRoleRefUnchanged, validateSubjects } from './binding.js';

function validate(b: ClusterRoleBinding, rbacGroup: string): FieldError[] {
  return [...validateRoleRef(b.roleRef, ['ClusterRole'], rbacGroup), ...validateSubjects(b.subjects, false, rbacGroup)];
}

/** ClusterRoleBinding rules; roles and users are named in `rbacGroup` (rbac.authorization.<domain>). */
export const clusterRoleBindingValidation = (rbacGroup: string): KindValidation<ClusterRoleBinding> => ({
  name: nameIsPathSegment,
  validate: (b) => validate(b, rbacGroup),
  validateUpdate: (b, old) => [...validate(b, rbacGroup), ...validateRoleRefUnchanged(b.roleRef, old.roleRef)],
});
