// Rules of RoleBinding: a Role or ClusterRole in the RBAC group, well-formed subjects, and a
// roleRef that never changes.
import type { RoleBinding } from '../../../api/rbac/v1/role-binding.js';
import type { FieldError } from '../../runtime/field-errors.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { nameIsPathSegment } from '../validation/names.js';
import { validateRoleRef, validateRoleRefUnchanged, validateSubjects } from './binding.js';

function validate(b: RoleBinding, rbacGroup: string): FieldError[] {
  return [...validateRoleRef(b.roleRef, ['Role', 'ClusterRole'], rbacGroup), ...validateSubjects(b.subjects, true, rbacGroup)];
}

/** RoleBinding rules; roles and users are named in `rbacGroup` (rbac.authorization.<domain>). */
export const roleBindingValidation = (rbacGroup: string): KindValidation<RoleBinding> => ({
  name: nameIsPathSegment,
  validate: (b) => validate(b, rbacGroup),
  validateUpdate: (b, old) => [...validate(b, rbacGroup), ...validateRoleRefUnchanged(b.roleRef, old.roleRef)],
});
