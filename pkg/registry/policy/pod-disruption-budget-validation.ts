// Rules of PodDisruptionBudget (upstream ValidatePodDisruptionBudget and its status update):
// one of minAvailable and maxUnavailable, each a non-negative int or a percentage up to 100%,
// a valid selector, and non-negative status counts.
import type { PodDisruptionBudget } from '../../../api/policy/v1/pod-disruption-budget.js';
import { invalid, Path, type FieldError } from '../../runtime/field-errors.js';
import { validateConditions } from '../validation/conditions.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { validateLabelSelector } from '../validation/label-selector.js';
import { nameIsDNSSubdomain } from '../validation/names.js';
import { isNotMoreThan100Percent, validateNonnegativeField, validatePositiveIntOrPercent } from '../validation/numeric.js';

function validateSpec(pdb: PodDisruptionBudget): FieldError[] {
  const spec = pdb.spec;
  if (!spec) return [];
  const errs: FieldError[] = [];
  const path = Path.root('spec');
  if (spec.minAvailable !== undefined && spec.maxUnavailable !== undefined) {
    errs.push(invalid(path, spec, 'minAvailable and maxUnavailable cannot be both set'));
  }
  for (const f of ['minAvailable', 'maxUnavailable'] as const) {
    const v = spec[f];
    if (v === undefined) continue;
    errs.push(...validatePositiveIntOrPercent(v, path.child(f)), ...isNotMoreThan100Percent(v, path.child(f)));
  }
  errs.push(...validateLabelSelector(spec.selector, path.child('selector')));
  return errs;
}

function validateStatus(pdb: PodDisruptionBudget): FieldError[] {
  const status = pdb.status;
  if (!status) return [];
  const path = Path.root('status');
  return [
    ...validateConditions(status.conditions, path.child('conditions')),
    ...validateNonnegativeField(status.disruptionsAllowed, path.child('disruptionsAllowed')),
    ...validateNonnegativeField(status.currentHealthy, path.child('currentHealthy')),
    ...validateNonnegativeField(status.desiredHealthy, path.child('desiredHealthy')),
    ...validateNonnegativeField(status.expectedPods, path.child('expectedPods')),
  ];
}

export const podDisruptionBudgetValidation: KindValidation<PodDisruptionBudget> = {
  name: nameIsDNSSubdomain,
  validate: validateSpec,
  validateUpdate: (pdb) => validateSpec(pdb),
  validateStatusUpdate: (pdb) => validateStatus(pdb),
};
