// Rules shared by Role and ClusterRole (upstream ValidatePolicyRule).
import type { PolicyRule } from '../../../api/rbac/v1/policy-rule.js';
import { invalid, required, type FieldError, type Path } from '../../runtime/field-errors.js';

/** A rule names verbs, and either resources (with API groups) or, cluster-wide only, URLs. */
export function validatePolicyRule(rule: PolicyRule, namespaced: boolean, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  if ((rule.verbs ?? []).length === 0) errs.push(required(path.child('verbs'), 'verbs must contain at least one value'));
  const urls = rule.nonResourceURLs ?? [];
  if (urls.length > 0) {
    if (namespaced) errs.push(invalid(path.child('nonResourceURLs'), urls, 'namespaced rules cannot apply to non-resource URLs'));
    if ((rule.apiGroups ?? []).length > 0 || (rule.resources ?? []).length > 0 || (rule.resourceNames ?? []).length > 0) {
      errs.push(invalid(path.child('nonResourceURLs'), urls, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errs;
  }
  if ((rule.apiGroups ?? []).length === 0) errs.push(required(path.child('apiGroups'), 'resource rules must supply at least one api group'));
  if ((rule.resources ?? []).length === 0) errs.push(required(path.child('resources'), 'resource rules must supply at least one resource'));
  return errs;
}
