// Rules of RoleBinding: a Role or ClusterRole in the RBAC group, well-formed subjects, and a
// roleRef that never changes.
import type { RoleBinding } from '../../../api/rbac/v1/role-binding.js';
import type { FieldError } from '../../runtime/field-errors.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { nameIsPathSegment } from '../validation/names.js';
import { validateRoleRef, validateRoleRefUnchanged, validateSubjects } from './binding.js';

function validate(b: RoleBinding): FieldError[] {
  return [...validateRoleRef(b.roleRef, ['Role', 'ClusterRole']), ...validateSubjects(b.subjects, true)];
}

export const roleBindingValidation: KindValidation<RoleBinding> = {
  name: nameIsPathSegment,
  validate,
  validateUpdate: (b, old) => [...validate(b), ...validateRoleRefUnchanged(b.roleRef, old.roleRef)],
};
