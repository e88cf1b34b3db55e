// Rules of Pod (upstream ValidatePodCreate, ValidatePodUpdate and
// ValidatePodEphemeralContainersUpdate): the shared PodSpec rules, plus what may change on an
// update of a running pod.
import { isDeepStrictEqual } from 'node:util';
import { Pod as PodSchema, type Pod } from '../../../api/core/v1/pod.js';
import type { Container } from '../../../api/core/v1/container.js';
import type { Toleration } from '../../../api/core/v1/toleration.js';
import { forbidden, invalid, Path, required, type FieldError } from '../../runtime/field-errors.js';
import { sameOnWire } from '../../runtime/wire-shape.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { nameIsDNSSubdomain } from '../validation/names.js';
import { validatePodSpec, validateTolerations, type PodSpecPolicy } from './pod-template-validation.js';
import { inclusiveRangeError } from './volume-validation.js';

const specPath = Path.root('spec');
const specSchema = PodSchema.properties.spec;
const maxInt32 = 2147483647;

export const podUpdateForbiddenMessage = 'pod updates may not change fields other than `spec.containers[*].image`,' +
  '`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),' +
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

function validateSpec(pod: Pod, policy: PodSpecPolicy): FieldError[] {
  if (!pod.spec) return []; // the schema reports a missing spec's required fields
  return validatePodSpec(pod.spec, specPath, { ...policy, pod: true });
}

function validateCreate(pod: Pod, policy: PodSpecPolicy): FieldError[] {
  const errs = validateSpec(pod, policy);
  if ((pod.spec?.ephemeralContainers ?? []).length > 0) {
    errs.push(forbidden(specPath.child('ephemeralContainers'), 'cannot be set on create'));
  }
  return errs;
}

/** Upstream ValidateContainerUpdates: same number of containers, each with a trimmed image; `stop` ends the checks. */
function validateContainerUpdates(next: Container[], old: Container[], path: Path): { errs: FieldError[]; stop: boolean } {
  if (next.length !== old.length) return { errs: [forbidden(path, 'pod updates may not add or remove containers')], stop: true };
  const errs: FieldError[] = [];
  next.forEach((c, i) => {
    const image = c.image ?? '';
    if (image.length === 0) errs.push(required(path.index(i).child('image'), ''));
    if (image.trim() !== image) errs.push(invalid(path.index(i).child('image'), image, 'must not have leading or trailing whitespace'));
  });
  return { errs, stop: false };
}

/** Existing tolerations stay (only their tolerationSeconds may change); new ones may be added. */
function validateOnlyAddedTolerations(next: Toleration[], old: Toleration[], path: Path): FieldError[] {
  for (const o of old) {
    const found = next.some((n) => isDeepStrictEqual({ ...o, tolerationSeconds: n.tolerationSeconds }, { ...n }) ||
      isDeepStrictEqual(withoutUndefined({ ...o, tolerationSeconds: n.tolerationSeconds }), withoutUndefined(n)));
    if (!found) return [forbidden(path, 'existing toleration can not be modified except its tolerationSeconds')];
  }
  return validateTolerations(next, path);
}

const withoutUndefined = (o: object) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/** Scheduling gates may only be removed. */
function validateOnlyDeletedSchedulingGates(next: Pod['spec'], old: Pod['spec'], path: Path): FieldError[] {
  const oldGates = new Set((old?.schedulingGates ?? []).map((g) => g.name));
  const errs: FieldError[] = [];
  (next?.schedulingGates ?? []).forEach((g, i) => {
    if (!oldGates.has(g.name)) errs.push(forbidden(path.index(i).child('name'), `only deletion is allowed, but found new scheduling gate '${g.name}'`));
  });
  return errs;
}

/** A short diff of the top-level spec fields that differ, standing in for upstream's cmp.Diff. */
function specDiff(old: Record<string, unknown>, next: Record<string, unknown>): string {
  const keys = [...new Set([...Object.keys(old), ...Object.keys(next)])].sort();
  const lines: string[] = [];
  for (const k of keys) {
    if (isDeepStrictEqual(old[k], next[k])) continue;
    if (old[k] !== undefined) lines.push(`-\t${k}: ${JSON.stringify(old[k])}`);
    if (next[k] !== undefined) lines.push(`+\t${k}: ${JSON.stringify(next[k])}`);
  }
  return lines.join('\n');
}

function validateUpdate(pod: Pod, old: Pod, policy: PodSpecPolicy): FieldError[] {
  const errs = validateSpec(pod, policy);
  const next = pod.spec;
  const prev = old.spec;
  if (!next || !prev) return errs;
  for (const key of ['containers', 'initContainers'] as const) {
    const r = validateContainerUpdates(next[key] ?? [], prev[key] ?? [], specPath.child(key));
    errs.push(...r.errs);
    if (r.stop) return errs;
  }
  const deadlinePath = specPath.child('activeDeadlineSeconds');
  if (next.activeDeadlineSeconds !== undefined) {
    const v = next.activeDeadlineSeconds;
    if (v < 0 || v > maxInt32) return [...errs, invalid(deadlinePath, v, inclusiveRangeError(0, maxInt32))];
    if (prev.activeDeadlineSeconds !== undefined && prev.activeDeadlineSeconds < v) {
      return [...errs, invalid(deadlinePath, v, 'must be less than or equal to previous value')];
    }
  } else if (prev.activeDeadlineSeconds !== undefined) {
    errs.push(invalid(deadlinePath, null, 'must not update from a positive integer to nil value'));
  }
  errs.push(...validateOnlyAddedTolerations(next.tolerations ?? [], prev.tolerations ?? [], specPath.child('tolerations')));
  errs.push(...validateOnlyDeletedSchedulingGates(next, prev, specPath.child('schedulingGates')));
  if (sameOnWire(specSchema, next, prev)) return errs;

  // The fields that may change take their old values; anything else left different is refused.
  const munged = structuredClone(next) as Record<string, unknown> & typeof next;
  for (const key of ['containers', 'initContainers'] as const) {
    const oldList = prev[key] ?? [];
    if (munged[key]) munged[key] = munged[key].map((c, i) => ({ ...c, image: oldList[i]?.image ?? c.image }));
  }
  setOrDelete(munged, 'activeDeadlineSeconds', prev.activeDeadlineSeconds);
  setOrDelete(munged, 'schedulingGates', prev.schedulingGates);
  setOrDelete(munged, 'tolerations', prev.tolerations);
  const oldGrace = prev.terminationGracePeriodSeconds;
  if (oldGrace !== undefined && oldGrace < 0 && munged.terminationGracePeriodSeconds === 1) munged.terminationGracePeriodSeconds = oldGrace;
  if (!sameOnWire(specSchema, munged, prev)) {
    errs.push(forbidden(specPath, `${podUpdateForbiddenMessage}\n${specDiff(prev as Record<string, unknown>, munged)}`));
  }
  return errs;
}

function setOrDelete(o: Record<string, unknown>, key: string, value: unknown): void {
  if (value === undefined) delete o[key];
  else o[key] = structuredClone(value);
}

/** Upstream ValidatePodEphemeralContainersUpdate: the spec stays valid; existing ephemeral containers stay as they are. */
function validateEphemeralContainersUpdate(pod: Pod, old: Pod, policy: PodSpecPolicy): FieldError[] {
  const errs = validateSpec(pod, policy);
  if (old.metadata?.annotations?.['kubernetes.io/config.mirror'] !== undefined) {
    return [forbidden('', 'static pods do not support ephemeral containers')];
  }
  const path = specPath.child('ephemeralContainers');
  const byName = new Map((pod.spec?.ephemeralContainers ?? []).map((c) => [c.name, c]));
  for (const o of old.spec?.ephemeralContainers ?? []) {
    const n = byName.get(o.name);
    if (!n) errs.push(forbidden(path, `existing ephemeral containers ${JSON.stringify(o.name)} may not be removed\n`));
    else if (!isDeepStrictEqual(withoutUndefined(o), withoutUndefined(n))) {
      errs.push(forbidden(path, `existing ephemeral containers ${JSON.stringify(o.name)} may not be changed\n`));
    }
  }
  return errs;
}

/** Pod rules under the server's pod spec policy. */
export const podValidation = (policy: PodSpecPolicy): KindValidation<Pod> => ({
  name: nameIsDNSSubdomain,
  validate: (pod) => validateCreate(pod, policy),
  validateUpdate: (pod, old) => validateUpdate(pod, old, policy),
  validateStatusUpdate: () => [],
  validateSubresourceUpdate: {
    ephemeralcontainers: (pod, old) => validateEphemeralContainersUpdate(pod, old, policy),
  },
});
