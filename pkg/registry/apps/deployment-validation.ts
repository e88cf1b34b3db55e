// Rules of Deployment (upstream ValidateDeployment, ValidateDeploymentUpdate with the apps/v1
// strategy's immutable selector, and ValidateDeploymentStatusUpdate).
import type { Deployment, DeploymentSpec } from '../../../api/apps/v1/deployment.js';
import { forbidden, invalid, Path, required, type FieldError } from '../../runtime/field-errors.js';
import type { PodSpecPolicy } from '../core/pod-template-validation.js';
import { validateImmutableField } from '../validation/immutable.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { nameIsDNSSubdomain } from '../validation/names.js';
import { intOrPercentValue, isNotMoreThan100Percent, validateNonnegativeField, validatePositiveIntOrPercent } from '../validation/numeric.js';
import { validateSelectorAndTemplate } from './replicated-template.js';
import { validateReplicaCounts } from './status-counts.js';

const specPath = Path.root('spec');

function validateStrategy(spec: DeploymentSpec): FieldError[] {
  const errs: FieldError[] = [];
  const strategy = spec.strategy ?? {};
  const path = specPath.child('strategy');
  const rolling = strategy.rollingUpdate;
  // An unknown type is reported by the schema; an unset one is defaulted.
  if (strategy.type === 'Recreate') {
    if (rolling) errs.push(forbidden(path.child('rollingUpdate'), "may not be specified when strategy `type` is 'Recreate'"));
  } else if (strategy.type === 'RollingUpdate') {
    if (!rolling) {
      errs.push(required(path.child('rollingUpdate'), 'this should be defaulted and never be nil'));
      return errs;
    }
    const p = path.child('rollingUpdate');
    const maxUnavailable = rolling.maxUnavailable ?? 0;
    const maxSurge = rolling.maxSurge ?? 0;
    const unavailableErrs = validatePositiveIntOrPercent(maxUnavailable, p.child('maxUnavailable'));
    errs.push(...unavailableErrs);
    errs.push(...validatePositiveIntOrPercent(maxSurge, p.child('maxSurge')));
    // One cause per field: a malformed maxUnavailable is not also reported as zero or too large.
    if (unavailableErrs.length === 0) {
      if (intOrPercentValue(maxUnavailable) === 0 && intOrPercentValue(maxSurge) === 0) {
        errs.push(invalid(p.child('maxUnavailable'), maxUnavailable, 'may not be 0 when `maxSurge` is 0'));
      } else {
        errs.push(...isNotMoreThan100Percent(maxUnavailable, p.child('maxUnavailable')));
      }
    }
  }
  return errs;
}

function validateSpec(d: Deployment, policy: PodSpecPolicy): FieldError[] {
  const spec = d.spec;
  if (!spec) return []; // the schema reports a missing spec's required fields
  const errs: FieldError[] = [];
  errs.push(...validateNonnegativeField(spec.replicas, specPath.child('replicas')));
  errs.push(...validateSelectorAndTemplate(spec.selector, spec.template ?? {}, specPath, policy));
  errs.push(...validateStrategy(spec));
  errs.push(...validateNonnegativeField(spec.minReadySeconds, specPath.child('minReadySeconds')));
  errs.push(...validateNonnegativeField(spec.revisionHistoryLimit, specPath.child('revisionHistoryLimit')));
  const deadline = spec.progressDeadlineSeconds;
  if (deadline !== undefined && deadline !== null) {
    const p = specPath.child('progressDeadlineSeconds');
    const negative = validateNonnegativeField(deadline, p);
    errs.push(...negative);
    if (negative.length === 0 && deadline <= (spec.minReadySeconds ?? 0)) errs.push(invalid(p, deadline, 'must be greater than minReadySeconds'));
  }
  return errs;
}

function validateUpdate(d: Deployment, old: Deployment, policy: PodSpecPolicy): FieldError[] {
  const errs = validateSpec(d, policy);
  errs.push(...validateImmutableField(d.spec?.selector, old.spec?.selector, specPath.child('selector')));
  return errs;
}

function validateStatusUpdate(d: Deployment, old: Deployment): FieldError[] {
  const errs: FieldError[] = [];
  const s = d.status;
  if (!s) return errs;
  errs.push(...validateReplicaCounts(s,
    ['observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas', 'collisionCount'],
    ['updatedReplicas', 'readyReplicas', 'availableReplicas'], 'readyReplicas'));
  const path = Path.root('status');
  const oldCount = old.status?.collisionCount;
  if (s.collisionCount !== undefined && oldCount !== undefined && s.collisionCount < oldCount) {
    errs.push(invalid(path.child('collisionCount'), s.collisionCount, 'cannot be decremented'));
  }
  return errs;
}

/** Deployment rules under the server's pod spec policy. */
export const deploymentValidation = (policy: PodSpecPolicy): KindValidation<Deployment> => ({
  name: nameIsDNSSubdomain,
  validate: (d) => validateSpec(d, policy),
  validateUpdate: (d, old) => validateUpdate(d, old, policy),
  validateStatusUpdate,
});
