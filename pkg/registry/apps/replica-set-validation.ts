// Rules of ReplicaSet (upstream ValidateReplicaSet, ValidateReplicaSetUpdate with the apps/v1
// strategy's immutable selector, and ValidateReplicaSetStatusUpdate).
import type { ReplicaSet } from '../../../api/apps/v1/replica-set.js';
import { Path, type FieldError } from '../../runtime/field-errors.js';
import type { PodSpecPolicy } from '../core/pod-template-validation.js';
import { validateImmutableField } from '../validation/immutable.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { nameIsDNSSubdomain } from '../validation/names.js';
import { validateNonnegativeField } from '../validation/numeric.js';
import { validateSelectorAndTemplate } from './replicated-template.js';
import { validateReplicaCounts } from './status-counts.js';

const specPath = Path.root('spec');

function validateSpec(rs: ReplicaSet, policy: PodSpecPolicy): FieldError[] {
  const spec = rs.spec;
  if (!spec) return []; // the schema reports a missing spec's required fields
  const errs: FieldError[] = [];
  errs.push(...validateNonnegativeField(spec.replicas, specPath.child('replicas')));
  errs.push(...validateNonnegativeField(spec.minReadySeconds, specPath.child('minReadySeconds')));
  // A missing template is validated as the empty one upstream's non-pointer field holds.
  errs.push(...validateSelectorAndTemplate(spec.selector, spec.template ?? {}, specPath, policy));
  return errs;
}

function validateUpdate(rs: ReplicaSet, old: ReplicaSet, policy: PodSpecPolicy): FieldError[] {
  const errs = validateSpec(rs, policy);
  errs.push(...validateImmutableField(rs.spec?.selector, old.spec?.selector, specPath.child('selector')));
  return errs;
}

function validateStatusUpdate(rs: ReplicaSet): FieldError[] {
  const s = rs.status;
  if (!s) return [];
  return validateReplicaCounts(s,
    ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration'],
    ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas'], 'readyReplicas');
}

/** ReplicaSet rules under the server's pod spec policy. */
export const replicaSetValidation = (policy: PodSpecPolicy): KindValidation<ReplicaSet> => ({
  name: nameIsDNSSubdomain,
  validate: (rs) => validateSpec(rs, policy),
  validateUpdate: (rs, old) => validateUpdate(rs, old, policy),
  validateStatusUpdate,
});
