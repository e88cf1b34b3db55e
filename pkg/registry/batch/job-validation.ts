// Rules of Job (upstream ValidateJob with ValidateGeneratedSelector, ValidateJobUpdate and
// ValidateJobStatusUpdate) and of the job spec a CronJob's template holds (validateJobSpec).
import { isDeepStrictEqual } from 'node:util';
import type { ApiDomain } from '../../../api/domain.js';
import { MaxIndexedJobCompletions, type Job, type JobSpec } from '../../../api/batch/v1/job.js';
import { PodTemplateSpec } from '../../../api/core/v1/pod-template.js';
import { batchKeys, type BatchKeys } from '../../../api/batch/v1/well-known.js';
import { forbidden, invalid, notSupported, Path, required, tooLong, tooMany, type FieldError } from '../../runtime/field-errors.js';
import { validatePodTemplateSpec, type PodSpecPolicy } from '../core/pod-template-validation.js';
import { validateDomainPrefixedPath } from '../validation/domain-prefixed-path.js';
import { validateImmutableField, validateImmutableShaped } from '../validation/immutable.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { validateLabelSelector } from '../validation/label-selector.js';
import { nameIsDNSSubdomain } from '../validation/names.js';
import { validateNonnegativeField } from '../validation/numeric.js';
import { selectorMatches } from '../../runtime/label-selector-match.js';

const maxRules = 20;
const maxExitCodeValues = 255;
const maxManagedByLength = 63;

function validatePodFailurePolicy(spec: JobSpec, path: Path): FieldError[] {
  const policy = spec.podFailurePolicy;
  if (!policy) return [];
  const errs: FieldError[] = [];
  const rulesPath = path.child('rules');
  const rules = policy.rules ?? [];
  if (rules.length > maxRules) errs.push(tooMany(rulesPath, rules.length, maxRules));
  const restartPolicy = spec.template?.spec?.restartPolicy;
  if (restartPolicy !== 'Never') {
    errs.push(invalid(Path.root('spec').child('template', 'spec', 'restartPolicy'), restartPolicy ?? '', 'only "Never" is supported when podFailurePolicy is specified'));
  }
  rules.forEach((rule, i) => {
    const p = rulesPath.index(i);
    if (rule.action === 'FailIndex' && spec.backoffLimitPerIndex === undefined) {
      errs.push(forbidden(p.child('action'), 'requires the backoffLimitPerIndex to be set'));
    }
    const hasCodes = rule.onExitCodes !== undefined && rule.onExitCodes !== null;
    const hasConditions = (rule.onPodConditions ?? []).length > 0;
    if (hasCodes && hasConditions) errs.push(invalid(p, 'specifying both OnExitCodes and OnPodConditions is not supported', 'specifying both OnExitCodes and OnPodConditions is not supported'));
    else if (!hasCodes && !hasConditions) errs.push(invalid(p, 'specifying one of OnExitCodes and OnPodConditions is required', 'specifying one of OnExitCodes and OnPodConditions is required'));
    if (hasCodes) {
      const codes = rule.onExitCodes!;
      const cp = p.child('onExitCodes');
      const values = codes.values ?? [];
      const vp = cp.child('values');
      if (values.length === 0) errs.push(required(vp, 'at least one value is required'));
      else if (values.length > maxExitCodeValues) errs.push(tooMany(vp, values.length, maxExitCodeValues));
      values.forEach((v, j) => {
        if (codes.operator === 'In' && v === 0) errs.push(invalid(vp.index(j), v, 'must not be 0 for the In operator'));
        if (j > 0 && values[j - 1]! === v) errs.push(invalid(vp.index(j), v, 'must not contain duplicates'));
        else if (j > 0 && values[j - 1]! > v) errs.push(invalid(vp.index(j), v, 'must be ordered'));
      });
    }
    (rule.onPodConditions ?? []).forEach((pattern, j) => {
      const status = pattern.status ?? 'True';
      if (!['True', 'False', 'Unknown'].includes(status)) {
        errs.push(notSupported(p.child('onPodConditions').index(j).child('status'), status, ['False', 'True', 'Unknown']));
      }
    });
  });
  return errs;
}

function validateSuccessPolicy(spec: JobSpec, path: Path, specPath: Path): FieldError[] {
  const policy = spec.successPolicy;
  if (!policy) return [];
  const errs: FieldError[] = [];
  if (spec.completionMode !== 'Indexed') {
    errs.push(invalid(specPath.child('completionMode'), spec.completionMode ?? null, 'requires indexed completion mode'));
    return errs;
  }
  const rulesPath = path.child('rules');
  const rules = policy.rules ?? [];
  if (rules.length === 0) errs.push(required(rulesPath, 'at least one rules must be specified when the successPolicy is specified'));
  if (rules.length > maxRules) errs.push(tooMany(rulesPath, rules.length, maxRules));
  rules.forEach((rule, i) => {
    const p = rulesPath.index(i);
    if (rule.succeededIndexes === undefined && rule.succeededCount === undefined) {
      errs.push(required(p, 'at least one of succeededCount or succeededIndexes must be specified'));
    }
    if (rule.succeededCount !== undefined) {
      const cp = p.child('succeededCount');
      if (rule.succeededCount < 0) errs.push(invalid(cp, rule.succeededCount, 'must be greater than or equal to 0'));
      else if (spec.completions !== undefined && rule.succeededCount > spec.completions) {
        errs.push(invalid(cp, rule.succeededCount, `must be less than or equal to ${spec.completions} (the number of specified completions)`));
      }
    }
  });
  return errs;
}

/**
 * Upstream validateJobSpec: the rules a Job's spec and a CronJob's job template share (not the
 * selector's presence). `path` points at the spec.
 */
export function validateJobSpecCommon(spec: JobSpec, path: Path, policy: PodSpecPolicy): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...validateNonnegativeField(spec.parallelism, path.child('parallelism')));
  errs.push(...validateNonnegativeField(spec.completions, path.child('completions')));
  errs.push(...validateNonnegativeField(spec.activeDeadlineSeconds, path.child('activeDeadlineSeconds')));
  errs.push(...validateNonnegativeField(spec.backoffLimit, path.child('backoffLimit')));
  errs.push(...validateNonnegativeField(spec.ttlSecondsAfterFinished, path.child('ttlSecondsAfterFinished')));
  if (spec.backoffLimitPerIndex !== undefined) {
    errs.push(...validateNonnegativeField(spec.backoffLimitPerIndex, path.child('backoffLimitPerIndex')));
    if (spec.completionMode !== 'Indexed') {
      errs.push(forbidden(path.child('backoffLimitPerIndex'), 'requires indexed completion mode'));
    }
  }
  if (spec.maxFailedIndexes !== undefined) {
    const p = path.child('maxFailedIndexes');
    errs.push(...validateNonnegativeField(spec.maxFailedIndexes, p));
    if (spec.backoffLimitPerIndex === undefined) {
      errs.push(required(path.child('backoffLimitPerIndex'), 'when maxFailedIndexes is specified'));
    }
    if (spec.completionMode === 'Indexed') {
      if (spec.completions !== undefined && spec.maxFailedIndexes > spec.completions) {
        errs.push(invalid(p, spec.maxFailedIndexes, 'must be less than or equal to completions'));
      }
      if (spec.maxFailedIndexes > MaxIndexedJobCompletions) {
        errs.push(invalid(p, spec.maxFailedIndexes, `must be less than or equal to ${MaxIndexedJobCompletions}`));
      }
    }
  }
  if (spec.completionMode === 'Indexed') {
    if (spec.completions === undefined) errs.push(required(path.child('completions'), 'when completion mode is Indexed'));
    else if (spec.completions > MaxIndexedJobCompletions) {
      errs.push(invalid(path.child('completions'), spec.completions, `must be less than or equal to ${MaxIndexedJobCompletions} when completion mode is Indexed`));
    }
    if (spec.parallelism !== undefined && spec.parallelism > MaxIndexedJobCompletions) {
      errs.push(invalid(path.child('parallelism'), spec.parallelism, `must be less than or equal to ${MaxIndexedJobCompletions} when completion mode is Indexed`));
    }
  }
  if (spec.managedBy !== undefined && spec.managedBy !== null) {
    const p = path.child('managedBy');
    errs.push(...validateDomainPrefixedPath(spec.managedBy, p));
    if (spec.managedBy.length > maxManagedByLength) errs.push(tooLong(p, spec.managedBy, maxManagedByLength));
  }
  if (spec.podFailurePolicy && spec.podReplacementPolicy !== undefined && spec.podReplacementPolicy !== 'Failed') {
    errs.push(notSupported(path.child('podReplacementPolicy'), spec.podReplacementPolicy, ['Failed']));
  }
  errs.push(...validatePodFailurePolicy(spec, path.child('podFailurePolicy')));
  errs.push(...validateSuccessPolicy(spec, path.child('successPolicy'), path));
  const templatePath = path.child('template');
  const template: PodTemplateSpec = spec.template ?? {};
  errs.push(...validatePodTemplateSpec(template, templatePath, policy));
  const restartPolicy = template.spec?.restartPolicy;
  // Other unknown values are reported by the template's own rules.
  if (restartPolicy === 'Always') {
    errs.push(notSupported(templatePath.child('spec', 'restartPolicy'), restartPolicy, ['OnFailure', 'Never']));
  }
  return errs;
}

const specPath = Path.root('spec');

/** Upstream ValidateJobSpec: the shared rules plus a selector that exists and matches the template. */
function validateJobSpec(spec: JobSpec, policy: PodSpecPolicy): FieldError[] {
  const errs = validateJobSpecCommon(spec, specPath, policy);
  if (!spec.selector) {
    errs.push(required(specPath.child('selector'), ''));
    return errs;
  }
  const selectorErrs = validateLabelSelector(spec.selector, specPath.child('selector'));
  errs.push(...selectorErrs);
  const labels = spec.template?.metadata?.labels;
  if (selectorErrs.length === 0 && !selectorMatches(spec.selector, labels)) {
    errs.push(invalid(specPath.child('template', 'metadata', 'labels'), labels ?? null, '`selector` does not match template `labels`'));
  }
  return errs;
}

/** The label `key` of the template must be `expected` (upstream ValidateHasLabel). */
function hasLabel(labels: Record<string, string> | undefined, path: Path, key: string, expected: string): FieldError[] {
  const p = path.child('labels').key(key);
  const actual = labels?.[key];
  if (actual === undefined) return [required(p, expected)];
  return actual === expected ? [] : [invalid(p, labels, `must be '${expected}'`)];
}

/** Upstream ValidateGeneratedSelector: without manualSelector the selector is the generated one. */
function validateGeneratedSelector(job: Job, labels: BatchKeys): FieldError[] {
  const spec = job.spec;
  if (!spec || spec.manualSelector === true) return [];
  const errs: FieldError[] = [];
  const uid = job.metadata?.uid ?? '';
  const name = job.metadata?.name ?? '';
  if (uid === '') errs.push(required(Path.root('metadata').child('uid'), ''));
  const metaPath = specPath.child('template', 'metadata');
  const templateLabels = spec.template?.metadata?.labels;
  errs.push(...hasLabel(templateLabels, metaPath, labels.controllerUid, uid));
  errs.push(...hasLabel(templateLabels, metaPath, labels.jobName, name));
  errs.push(...hasLabel(templateLabels, metaPath, labels.legacyControllerUid, uid));
  errs.push(...hasLabel(templateLabels, metaPath, labels.legacyJobName, name));
  const expected = { [labels.controllerUid]: uid };
  const sel = spec.selector;
  if (sel && (!isDeepStrictEqual(sel.matchLabels ?? {}, expected) || (sel.matchExpressions ?? []).length > 0)) {
    errs.push(invalid(specPath.child('selector'), sel, '`selector` not auto-generated'));
  }
  return errs;
}

/** The scheduling directives a suspended job that never started may change in its template. */
function withoutSchedulingDirectives(t: PodTemplateSpec | undefined): PodTemplateSpec | undefined {
  if (!t) return t;
  const { labels: _l, annotations: _a, ...meta } = t.metadata ?? {};
  const { nodeSelector: _n, affinity: _af, tolerations: _t, schedulingGates: _s, ...spec } = t.spec ?? { containers: [] };
  return { metadata: meta, spec } as PodTemplateSpec;
}

function validateUpdate(job: Job, old: Job, policy: PodSpecPolicy): FieldError[] {
  const spec = job.spec ?? ({} as JobSpec);
  const oldSpec = old.spec ?? ({} as JobSpec);
  const errs = validateJobSpec(spec, policy);
  errs.push(...validateImmutableField(spec.selector, oldSpec.selector, specPath.child('selector')));
  const mutableScheduling = oldSpec.suspend === true && !old.status?.startTime;
  const comparable = mutableScheduling ? withoutSchedulingDirectives : (t: PodTemplateSpec | undefined) => t;
  const templateErrs = validateImmutableShaped(PodTemplateSpec, comparable(spec.template), comparable(oldSpec.template), specPath.child('template'));
  // The cause names the template as sent, not the comparable copy.
  errs.push(...templateErrs.map((e) => ({ ...e, badValue: spec.template ?? null })));
  if (spec.completions !== oldSpec.completions) {
    const p = specPath.child('completions');
    if (spec.completionMode === 'Indexed' && oldSpec.completionMode === 'Indexed') {
      if (spec.completions === undefined || spec.completions !== spec.parallelism) {
        errs.push(invalid(p, spec.completions ?? null, 'can only be modified in tandem with spec.parallelism'));
      }
    } else {
      errs.push(...validateImmutableField(spec.completions, oldSpec.completions, p));
    }
  }
  errs.push(...validateImmutableField(spec.completionMode, oldSpec.completionMode, specPath.child('completionMode')));
  errs.push(...validateImmutableField(spec.podFailurePolicy, oldSpec.podFailurePolicy, specPath.child('podFailurePolicy')));
  errs.push(...validateImmutableField(spec.backoffLimitPerIndex, oldSpec.backoffLimitPerIndex, specPath.child('backoffLimitPerIndex')));
  errs.push(...validateImmutableField(spec.managedBy, oldSpec.managedBy, specPath.child('managedBy')));
  return errs;
}

function validateStatusUpdate(job: Job): FieldError[] {
  const s = job.status;
  if (!s) return [];
  const path = Path.root('status');
  const errs: FieldError[] = [];
  for (const f of ['active', 'succeeded', 'failed', 'ready', 'terminating'] as const) errs.push(...validateNonnegativeField(s[f], path.child(f)));
  return errs;
}

/** Job rules; the generated selector's labels are spelled in the platform's domain. */
export const jobValidation = (domain: ApiDomain, policy: PodSpecPolicy): KindValidation<Job> => {
  const labels = batchKeys(domain);
  return {
    name: nameIsDNSSubdomain,
    validate: (job) => [...validateGeneratedSelector(job, labels), ...validateJobSpec(job.spec ?? ({} as JobSpec), policy)],
    validateUpdate: (job, old) => validateUpdate(job, old, policy),
    validateStatusUpdate,
  };
};
