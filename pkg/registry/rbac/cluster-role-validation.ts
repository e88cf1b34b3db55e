// Rules of ClusterRole: every rule well-formed, and an aggregation rule with valid selectors.
import type { ClusterRole } from '../../../api/rbac/v1/cluster-role.js';
import { Path, required, type FieldError } from '../../runtime/field-errors.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { validateLabelSelector } from '../validation/label-selector.js';
import { nameIsPathSegment } from '../validation/names.js';
import { validatePolicyRule } from './policy-rule.js';

function validate(r: ClusterRole): FieldError[] {
  const errs: FieldError[] = [];
  const rules = Path.root('rules');
  (r.rules ?? []).forEach((rule, i) => errs.push(...validatePolicyRule(rule, false, rules.index(i))));
  if (r.aggregationRule) {
    const path = Path.root('aggregationRule').child('clusterRoleSelectors');
    const selectors = r.aggregationRule.clusterRoleSelectors ?? [];
    if (selectors.length === 0) errs.push(required(path, 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
    selectors.forEach((sel, i) => errs.push(...validateLabelSelector(sel, path.index(i))));
  }
  return errs;
}

export const clusterRoleValidation: KindValidation<ClusterRole> = {
  name: nameIsPathSegment,
  validate,
  validateUpdate: (r) => validate(r),
};
