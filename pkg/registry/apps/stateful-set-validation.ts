// Rules of StatefulSet (upstream ValidateStatefulSet, ValidateStatefulSetUpdate and
// ValidateStatefulSetStatusUpdate), plus the pod template and claim templates validated as the
// pods and claims made from them will be.
import { isDeepStrictEqual } from 'node:util';
import { StatefulSetSpec, type StatefulSet } from '../../../api/apps/v1/stateful-set.js';
import { forbidden, invalid, notSupported, Path, type FieldError } from '../../runtime/field-errors.js';
import { validatePersistentVolumeClaimTemplate } from '../core/persistent-volume-claim-validation.js';
import { validatePodTemplateSpec } from '../core/pod-template-validation.js';
import type { PodSpecPolicy } from '../core/pod-template-validation.js';
import { shapedCopy } from '../../runtime/wire-shape.js';
import { normalized } from '../validation/immutable.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { validateLabelSelector } from '../validation/label-selector.js';
import { nameIsDNSLabel } from '../validation/names.js';
import { intOrPercentValue, isNotMoreThan100Percent, validateNonnegativeField, validatePositiveIntOrPercent } from '../validation/numeric.js';
import { isEmptySelector, selectorMatches } from '../../runtime/label-selector-match.js';
import { validateReplicaCounts } from './status-counts.js';

const specPath = Path.root('spec');

function validateUpdateStrategy(spec: StatefulSetSpec): FieldError[] {
  const errs: FieldError[] = [];
  const strategy = spec.updateStrategy;
  const rolling = strategy?.rollingUpdate;
  const path = specPath.child('updateStrategy').child('rollingUpdate');
  if (!rolling) return errs;
  if (strategy?.type === 'OnDelete') {
    errs.push(invalid(path, rolling, "only allowed for updateStrategy 'RollingUpdate'"));
  } else if (strategy?.type === 'RollingUpdate') {
    errs.push(...validateNonnegativeField(rolling.partition, path.child('partition')));
    const max = rolling.maxUnavailable;
    if (max !== undefined && max !== null) {
      const p = path.child('maxUnavailable');
      errs.push(...validatePositiveIntOrPercent(max, p));
      if (intOrPercentValue(max) === 0) errs.push(invalid(p, max, 'cannot be 0'));
      errs.push(...isNotMoreThan100Percent(max, p));
    }
  }
  return errs;
}

/** Names of the volumes containers of the template mount (or attach as devices). */
function mountedVolumeNames(spec: StatefulSetSpec): Set<string> {
  const names = new Set<string>();
  const podSpec = spec.template?.spec;
  for (const c of [...(podSpec?.containers ?? []), ...(podSpec?.initContainers ?? [])]) {
    for (const m of c.volumeMounts ?? []) names.add(m.name);
    for (const d of c.volumeDevices ?? []) names.add(d.name);
  }
  return names;
}

function validateTemplates(spec: StatefulSetSpec, policy: PodSpecPolicy): FieldError[] {
  const errs: FieldError[] = [];
  const claims = spec.volumeClaimTemplates ?? [];
  const claimNames = new Set(claims.map((c) => c.metadata?.name).filter((n): n is string => !!n));
  const templatePath = specPath.child('template');
  if (spec.template) {
    errs.push(...validatePodTemplateSpec(spec.template, templatePath, { ...policy, extraVolumeNames: claimNames }));
    const podSpec = spec.template.spec;
    const restartPolicy = podSpec?.restartPolicy ?? 'Always';
    if (restartPolicy !== 'Always') {
      errs.push(notSupported(templatePath.child('spec', 'restartPolicy'), restartPolicy, ['Always']));
    }
    if (podSpec?.activeDeadlineSeconds !== undefined && podSpec.activeDeadlineSeconds !== null) {
      errs.push(forbidden(templatePath.child('spec', 'activeDeadlineSeconds'), 'activeDeadlineSeconds in StatefulSet is not Supported'));
    }
  }
  const mounted = mountedVolumeNames(spec);
  claims.forEach((claim, i) => {
    const p = specPath.child('volumeClaimTemplates').index(i);
    errs.push(...validatePersistentVolumeClaimTemplate(claim, p));
    const name = claim.metadata?.name;
    if (name && !mounted.has(name)) {
      errs.push(invalid(p.child('metadata', 'name'), name, 'must match the name of a volumeMount in a container of the template'));
    }
  });
  return errs;
}

function validateSpec(sts: StatefulSet, policy: PodSpecPolicy): FieldError[] {
  const spec = sts.spec;
  if (!spec) return []; // the schema reports a missing spec's required fields
  const errs: FieldError[] = [];
  errs.push(...validateUpdateStrategy(spec));
  errs.push(...validateNonnegativeField(spec.replicas, specPath.child('replicas')));
  errs.push(...validateNonnegativeField(spec.minReadySeconds, specPath.child('minReadySeconds')));
  if (spec.ordinals) errs.push(...validateNonnegativeField(spec.ordinals.start, specPath.child('ordinals', 'start')));
  const selector = spec.selector;
  if (selector) {
    errs.push(...validateLabelSelector(selector, specPath.child('selector')));
    if (isEmptySelector(selector)) {
      errs.push(invalid(specPath.child('selector'), selector, 'empty selector is invalid for statefulset'));
    } else if (spec.template && !selectorMatches(selector, spec.template.metadata?.labels)) {
      errs.push(invalid(specPath.child('template', 'metadata', 'labels'), spec.template.metadata?.labels ?? null,
        '`selector` does not match template `labels`'));
    }
  }
  errs.push(...validateTemplates(spec, policy));
  return errs;
}

/** Fields of the spec a client may change after creation. */
const mutableSpecFields = ['replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy', 'minReadySeconds'] as const;

function validateUpdate(sts: StatefulSet, old: StatefulSet, policy: PodSpecPolicy): FieldError[] {
  const errs = validateSpec(sts, policy);
  const frozen = (s: StatefulSetSpec | undefined): Record<string, unknown> => {
    const copy: Record<string, unknown> = { ...(s ?? {}) };
    for (const f of mutableSpecFields) delete copy[f];
    return copy;
  };
  // Both as written: the stored spec carries zero values filled in at write that a client may leave out.
  const comparable = (s: StatefulSetSpec | undefined) => normalized(shapedCopy(StatefulSetSpec, frozen(s)));
  if (!isDeepStrictEqual(comparable(sts.spec), comparable(old.spec))) {
    errs.push(forbidden(specPath,
      "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"));
  }
  return errs;
}

function validateStatusUpdate(sts: StatefulSet, old: StatefulSet): FieldError[] {
  const errs: FieldError[] = [];
  const s = sts.status;
  if (!s) return errs;
  errs.push(...validateReplicaCounts(s,
    ['replicas', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas', 'observedGeneration', 'collisionCount'],
    ['readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas'], 'status.readyReplicas'));
  const path = Path.root('status');
  const oldCount = old.status?.collisionCount;
  if (oldCount !== undefined && (s.collisionCount === undefined || s.collisionCount < oldCount)) {
    errs.push(invalid(path.child('collisionCount'), s.collisionCount ?? 0, 'cannot be decremented'));
  }
  return errs;
}

/** StatefulSet rules under the server's pod spec policy. */
export const statefulSetValidation = (policy: PodSpecPolicy): KindValidation<StatefulSet> => ({
  name: nameIsDNSLabel,
  validate: (sts) => validateSpec(sts, policy),
  validateUpdate: (sts, old) => validateUpdate(sts, old, policy),
  validateStatusUpdate,
});
