// Rules of ClusterRoleBinding: a ClusterRole in the RBAC group, well-formed subjects, and a
// roleRef that never changes.
import type { ClusterRoleBinding } from '../../../api/rbac/v1/cluster-role-binding.js';
import type { FieldError } from '../../runtime/field-errors.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { nameIsPathSegment } from '../validation/names.js';
import { validateRoleRef, validateRoleRefUnchanged, validateSubjects } from './binding.js';

function validate(b: ClusterRoleBinding): FieldError[] {
  return [...validateRoleRef(b.roleRef, ['ClusterRole']), ...validateSubjects(b.subjects, false)];
}

export const clusterRoleBindingValidation: KindValidation<ClusterRoleBinding> = {
  name: nameIsPathSegment,
  validate,
  validateUpdate: (b, old) => [...validate(b), ...validateRoleRefUnchanged(b.roleRef, old.roleRef)],
};
