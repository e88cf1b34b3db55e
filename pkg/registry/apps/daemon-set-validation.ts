// Rules of DaemonSet (upstream ValidateDaemonSet, ValidateDaemonSetUpdate with the apps/v1
// strategy's immutable selector, and ValidateDaemonSetStatusUpdate).
import type { DaemonSet, DaemonSetSpec } from '../../../api/apps/v1/daemon-set.js';
import { invalid, Path, required, type FieldError } from '../../runtime/field-errors.js';
import type { PodSpecPolicy } from '../core/pod-template-validation.js';
import { validateImmutableField } from '../validation/immutable.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { nameIsDNSSubdomain } from '../validation/names.js';
import { intOrPercentValue, isNotMoreThan100Percent, validateNonnegativeField, validatePositiveIntOrPercent } from '../validation/numeric.js';
import { validateSelectorAndTemplate } from './replicated-template.js';

const specPath = Path.root('spec');

function validateUpdateStrategy(spec: DaemonSetSpec): FieldError[] {
  const strategy = spec.updateStrategy ?? {};
  const path = specPath.child('updateStrategy');
  if (strategy.type === 'OnDelete') return [];
  // An unknown type is reported by the schema; an unset one is defaulted.
  if (strategy.type !== 'RollingUpdate') return [];
  const rolling = strategy.rollingUpdate;
  if (!rolling) return [required(path.child('rollingUpdate'), '')];
  const p = path.child('rollingUpdate');
  const maxUnavailable = rolling.maxUnavailable ?? 0;
  const maxSurge = rolling.maxSurge ?? 0;
  const errs: FieldError[] = [];
  errs.push(...validatePositiveIntOrPercent(maxUnavailable, p.child('maxUnavailable')));
  errs.push(...validatePositiveIntOrPercent(maxSurge, p.child('maxSurge')));
  errs.push(...isNotMoreThan100Percent(maxUnavailable, p.child('maxUnavailable')));
  errs.push(...isNotMoreThan100Percent(maxSurge, p.child('maxSurge')));
  const hasUnavailable = intOrPercentValue(maxUnavailable) !== 0;
  const hasSurge = intOrPercentValue(maxSurge) !== 0;
  if (hasUnavailable && hasSurge) {
    errs.push(invalid(p.child('maxSurge'), maxSurge, 'may not be set when maxUnavailable is non-zero'));
  } else if (!hasUnavailable && !hasSurge) {
    errs.push(required(p.child('maxUnavailable'), 'cannot be 0 when maxSurge is 0'));
  }
  return errs;
}

function validateSpec(ds: DaemonSet, policy: PodSpecPolicy): FieldError[] {
  const spec = ds.spec;
  if (!spec) return []; // the schema reports a missing spec's required fields
  const errs: FieldError[] = [];
  errs.push(...validateSelectorAndTemplate(spec.selector, spec.template ?? {}, specPath, policy, {
    emptySelectorKind: 'daemonset',
    activeDeadline: (path, value) => invalid(path, value, 'activeDeadlineSeconds must be nil for daemons'),
  }));
  errs.push(...validateNonnegativeField(spec.minReadySeconds, specPath.child('minReadySeconds')));
  errs.push(...validateUpdateStrategy(spec));
  errs.push(...validateNonnegativeField(spec.revisionHistoryLimit, specPath.child('revisionHistoryLimit')));
  return errs;
}

function validateUpdate(ds: DaemonSet, old: DaemonSet, policy: PodSpecPolicy): FieldError[] {
  const errs = validateSpec(ds, policy);
  errs.push(...validateImmutableField(ds.spec?.selector, old.spec?.selector, specPath.child('selector')));
  return errs;
}

const counts = ['currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady', 'observedGeneration',
  'updatedNumberScheduled', 'numberAvailable', 'numberUnavailable', 'collisionCount'] as const;

function validateStatusUpdate(ds: DaemonSet, old: DaemonSet): FieldError[] {
  const s = ds.status;
  if (!s) return [];
  const path = Path.root('status');
  const errs = counts.flatMap((f) => validateNonnegativeField(s[f], path.child(f)));
  const oldCount = old.status?.collisionCount;
  if (s.collisionCount !== undefined && oldCount !== undefined && s.collisionCount < oldCount) {
    errs.push(invalid(path.child('collisionCount'), s.collisionCount, 'cannot be decremented'));
  }
  return errs;
}

/** DaemonSet rules under the server's pod spec policy. */
export const daemonSetValidation = (policy: PodSpecPolicy): KindValidation<DaemonSet> => ({
  name: nameIsDNSSubdomain,
  validate: (ds) => validateSpec(ds, policy),
  validateUpdate: (ds, old) => validateUpdate(ds, old, policy),
  validateStatusUpdate,
});
