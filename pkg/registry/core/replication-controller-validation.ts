// Rules of ReplicationController (upstream ValidateReplicationController, its Update, which adds
// no immutable field, and ValidateReplicationControllerStatusUpdate).
import type { ReplicationController } from '../../../api/core/v1/replication-controller.js';
import { forbidden, invalid, Path, required, type FieldError } from '../../runtime/field-errors.js';
import { validateRestartingTemplate } from '../apps/replicated-template.js';
import { validateReplicaCounts } from '../apps/status-counts.js';
import { validateLabels } from '../validation/label-selector.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { nameIsDNSSubdomain } from '../validation/names.js';
import { validateNonnegativeField } from '../validation/numeric.js';
import { selectorMatches } from '../../runtime/label-selector-match.js';
import type { PodSpecPolicy } from './pod-template-validation.js';

const specPath = Path.root('spec');

const rcDeadline = (path: Path): FieldError => forbidden(path, 'activeDeadlineSeconds in ReplicationController is not Supported');

function validateSpec(rc: ReplicationController, policy: PodSpecPolicy): FieldError[] {
  const spec = rc.spec ?? {};
  const errs: FieldError[] = [];
  errs.push(...validateNonnegativeField(spec.minReadySeconds, specPath.child('minReadySeconds')));
  const selector = spec.selector ?? {};
  const selectorPath = specPath.child('selector');
  const selectorErrs = validateLabels(selector, selectorPath);
  errs.push(...selectorErrs);
  const emptySelector = Object.keys(selector).length === 0;
  if (emptySelector) errs.push(required(selectorPath, ''));
  errs.push(...validateNonnegativeField(spec.replicas, specPath.child('replicas')));
  const templatePath = specPath.child('template');
  const template = spec.template;
  if (!template) {
    errs.push(required(templatePath, ''));
    return errs;
  }
  if (!emptySelector && selectorErrs.length === 0 && !selectorMatches({ matchLabels: selector }, template.metadata?.labels)) {
    errs.push(invalid(templatePath.child('metadata', 'labels'), template.metadata?.labels ?? null, '`selector` does not match template `labels`'));
  }
  errs.push(...validateRestartingTemplate(template, templatePath, policy, rcDeadline));
  return errs;
}

function validateStatusUpdate(rc: ReplicationController): FieldError[] {
  const s = rc.status;
  if (!s) return [];
  return validateReplicaCounts(s,
    ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration'],
    ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas'], 'readyReplicas');
}

/** ReplicationController rules under the server's pod spec policy. */
export const replicationControllerValidation = (policy: PodSpecPolicy): KindValidation<ReplicationController> => ({
  name: nameIsDNSSubdomain,
  validate: (rc) => validateSpec(rc, policy),
  validateUpdate: (rc) => validateSpec(rc, policy),
  validateStatusUpdate,
});
