// Rules of Role: every rule well-formed; namespaced rules cannot name non-resource URLs.
import type { Role } from '../../../api/rbac/v1/role.js';
import { Path, type FieldError } from '../../runtime/field-errors.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { nameIsPathSegment } from '../validation/names.js';
import { validatePolicyRule } from './policy-rule.js';

function validate(r: Role): FieldError[] {
  const path = Path.root('rules');
  return (r.rules ?? []).flatMap((rule, i) => validatePolicyRule(rule, true, path.index(i)));
}

export const roleValidation: KindValidation<Role> = {
  name: nameIsPathSegment,
  validate,
  validateUpdate: (r) => validate(r),
};
