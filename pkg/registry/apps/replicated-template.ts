// The selector and pod-template rules Deployments, ReplicaSets, DaemonSets and ReplicationControllers share (upstream
// ValidatePodTemplateSpecForReplicaSet and the selector checks before it).
import type { LabelSelector } from '../../../api/meta/v1/types.js';
import type { PodTemplateSpec } from '../../../api/core/v1/pod-template.js';
import { forbidden, invalid, notSupported, type FieldError, type Path } from '../../runtime/field-errors.js';
import type { PodSpecPolicy } from '../core/pod-template-validation.js';
import { validatePodTemplateSpec } from '../core/pod-template-validation.js';
import { validateLabelSelector } from '../validation/label-selector.js';
import { isEmptySelector, selectorMatches } from '../../runtime/label-selector-match.js';

/** How a kind words the rules below; the defaults are those of Deployments and ReplicaSets. */
export interface ReplicatedTemplateWording {
  /** The kind named by the empty-selector message ("empty selector is invalid for <kind>"). */
  emptySelectorKind?: string;
  /** The cause for a template with activeDeadlineSeconds. */
  activeDeadline?: (path: Path, value: number) => FieldError;
}

const replicaSetDeadline = (path: Path): FieldError => forbidden(path, 'activeDeadlineSeconds in ReplicaSet is not Supported');

/**
 * The selector (when given: the schema reports a missing one) and the template made to match
 * it. A malformed selector is reported once, by the selector rules, and then not matched.
 */
export function validateSelectorAndTemplate(
  selector: LabelSelector | undefined, template: PodTemplateSpec, specPath: Path, policy: PodSpecPolicy,
  wording: ReplicatedTemplateWording = {},
): FieldError[] {
  const errs: FieldError[] = [];
  const templatePath = specPath.child('template');
  if (selector) {
    const selectorErrs = validateLabelSelector(selector, specPath.child('selector'));
    errs.push(...selectorErrs);
    // Upstream words this the same for ReplicaSets.
    if (isEmptySelector(selector)) {
      errs.push(invalid(specPath.child('selector'), selector, `empty selector is invalid for ${wording.emptySelectorKind ?? 'deployment'}`));
    } else if (selectorErrs.length === 0 && !selectorMatches(selector, template.metadata?.labels)) {
      errs.push(invalid(templatePath.child('metadata', 'labels'), template.metadata?.labels ?? null,
        '`selector` does not match template `labels`'));
    }
  }
  errs.push(...validateRestartingTemplate(template, templatePath, policy, wording.activeDeadline ?? replicaSetDeadline));
  return errs;
}

/**
 * A template of pods that run forever: the pod template rules, restartPolicy Always and no
 * activeDeadlineSeconds (reported by `activeDeadline`).
 */
export function validateRestartingTemplate(
  template: PodTemplateSpec, templatePath: Path, policy: PodSpecPolicy, activeDeadline: (path: Path, value: number) => FieldError,
): FieldError[] {
  const errs = validatePodTemplateSpec(template, templatePath, policy);
  const podSpec = template.spec;
  const restartPolicy = podSpec?.restartPolicy ?? 'Always';
  // Other unknown values are already reported by the template's own rules.
  if (restartPolicy === 'OnFailure' || restartPolicy === 'Never') {
    errs.push(notSupported(templatePath.child('spec', 'restartPolicy'), restartPolicy, ['Always']));
  }
  if (podSpec?.activeDeadlineSeconds !== undefined && podSpec.activeDeadlineSeconds !== null) {
    errs.push(activeDeadline(templatePath.child('spec', 'activeDeadlineSeconds'), podSpec.activeDeadlineSeconds));
  }
  return errs;
}
