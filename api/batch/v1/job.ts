import { Type, type Static } from '@sinclair/typebox';
import { bool, enumOf, field, int32, int64, list, object, opt, str, stringList } from '../../schema.js';
import { time } from '../../meta/v1/primitives.js';
import { LabelSelector, ObjectMeta, topLevel } from '../../meta/v1/types.js';
import { PodTemplateSpec, defaultPodTemplateSpec } from '../../core/v1/pod-template.js';

const P = 'io.orch.api.batch.v1';

export const CompletionModes = ['NonIndexed', 'Indexed'] as const;
export const PodReplacementPolicies = ['TerminatingOrFailed', 'Failed'] as const;
export const PodFailurePolicyActions = ['FailJob', 'FailIndex', 'Ignore', 'Count'] as const;
export const PodFailurePolicyOperators = ['In', 'NotIn'] as const;
/** The largest completions (and parallelism) of an Indexed job, and the largest maxFailedIndexes. */
export const MaxIndexedJobCompletions = 100000;

export const PodFailurePolicyOnExitCodesRequirement = object(`${P}.PodFailurePolicyOnExitCodesRequirement`, {
  containerName: opt(str(1, {
    'x-orch-emit': 'pointer',
    description: 'Only the exit code of this container (regular or init) is checked; unset checks every container.',
  })),
  operator: enumOf(2, PodFailurePolicyOperators, {
    description: 'In: a container exit code is one of values. NotIn: a container exit code (other than 0) is none of values.',
  }),
  values: list(3, Type.Integer({ format: 'int32' }), { listType: 'set' }, {
    description: 'Exit codes, sorted and without duplicates; at most 255. 0 is not allowed with In.',
  }),
}, { required: ['operator', 'values'], description: 'Exit codes of a failed pod\'s containers that match a pod failure policy rule.' });

export const PodFailurePolicyOnPodConditionsPattern = object(`${P}.PodFailurePolicyOnPodConditionsPattern`, {
  type: str(1, { description: 'Type of the pod condition to match.' }),
  status: opt(str(2, { description: 'Status of the pod condition to match: True, False or Unknown. Defaults to True.' })),
}, { required: ['type'], description: 'A condition of a failed pod that matches a pod failure policy rule.' });

export const PodFailurePolicyRule = object(`${P}.PodFailurePolicyRule`, {
  action: enumOf(1, PodFailurePolicyActions, {
    description: 'What happens when the rule matches: FailJob, FailIndex (needs backoffLimitPerIndex), Ignore (not counted against backoffLimit) or Count.',
  }),
  onExitCodes: opt(field(2, PodFailurePolicyOnExitCodesRequirement, { description: 'Exit codes the rule matches; not together with onPodConditions.' })),
  onPodConditions: opt(list(3, PodFailurePolicyOnPodConditionsPattern, { listType: 'atomic' }, {
    description: 'Pod conditions the rule matches (any of them); not together with onExitCodes. At most 20.',
  })),
}, { required: ['action'], description: 'A rule that decides what a pod failure means for its job.' });

export const PodFailurePolicy = object(`${P}.PodFailurePolicy`, {
  rules: list(1, PodFailurePolicyRule, { listType: 'atomic' }, {
    description: 'Rules checked in order against each failed pod; the first that matches applies. At most 20.',
  }),
}, { required: ['rules'], description: 'How pod failures are handled, by the exit codes and conditions of the failed pods.' });

export const SuccessPolicyRule = object(`${P}.SuccessPolicyRule`, {
  succeededIndexes: opt(str(1, {
    'x-orch-emit': 'pointer',
    description: 'Indexes that must all succeed, as a list of numbers and ranges such as "1,3-5,7".',
  })),
  succeededCount: opt(int32(2, {
    'x-orch-emit': 'pointer',
    description: 'How many indexes (of succeededIndexes when given) must succeed; at most completions.',
  })),
}, { description: 'A rule that declares an Indexed job succeeded; needs succeededIndexes, succeededCount or both.' });

export const SuccessPolicy = object(`${P}.SuccessPolicy`, {
  rules: list(1, SuccessPolicyRule, { listType: 'atomic' }, {
    description: 'Rules of which any one met makes the job succeed. Between 1 and 20.',
  }),
}, { required: ['rules'], description: 'When an Indexed job counts as succeeded before all its indexes are done.' });

export const JobSpec = object(`${P}.JobSpec`, {
  parallelism: opt(int32(1, {
    'x-orch-emit': 'pointer',
    description: 'Most pods running at once. Defaults to 1; 0 pauses the job.',
  })),
  completions: opt(int32(2, {
    'x-orch-emit': 'pointer',
    description: 'Number of pods that must succeed. Unset means any one success ends the job (and all pods then stop). Defaults to 1 when parallelism is unset too.',
  })),
  activeDeadlineSeconds: opt(int64(3, {
    'x-orch-emit': 'pointer',
    description: 'Seconds after the job starts (or resumes) before the system stops its pods and marks it failed.',
  })),
  podFailurePolicy: opt(field(11, PodFailurePolicy, {
    description: 'How failed pods are handled; needs template restartPolicy Never.',
  })),
  successPolicy: opt(field(16, SuccessPolicy, {
    description: 'When the job succeeds before all its indexes are done; only for Indexed jobs.',
  })),
  backoffLimit: opt(int32(7, {
    'x-orch-emit': 'pointer',
    description: 'Retries before the job is marked failed. Defaults to 6, or to the largest int32 with backoffLimitPerIndex.',
  })),
  backoffLimitPerIndex: opt(int32(12, {
    'x-orch-emit': 'pointer',
    description: 'Retries of each index of an Indexed job before that index is marked failed.',
  })),
  maxFailedIndexes: opt(int32(13, {
    'x-orch-emit': 'pointer',
    description: 'Most failed indexes before the whole job fails; needs backoffLimitPerIndex.',
  })),
  selector: opt(field(4, LabelSelector, {
    description: 'Label query over the pods of the job. Generated from the job\'s uid unless manualSelector is true; cannot be changed.',
  })),
  manualSelector: opt(bool(5, {
    'x-orch-emit': 'pointer',
    description: 'When true, selector is taken as given instead of being generated; the selector must then not match the pods of another job.',
  })),
  template: field(6, PodTemplateSpec, {
    description: 'The pod the job runs. Its restartPolicy must be OnFailure or Never.',
  }),
  ttlSecondsAfterFinished: opt(int32(8, {
    'x-orch-emit': 'pointer',
    description: 'Seconds after the job finishes (Complete or Failed) before it is deleted; unset keeps it.',
  })),
  completionMode: opt(enumOf(9, CompletionModes, {
    'x-orch-emit': 'pointer',
    description: 'NonIndexed (the default): the job is done after completions successes. Indexed: each pod gets an index from 0 to completions-1 and each index must succeed once.',
  })),
  suspend: opt(bool(10, {
    'x-orch-emit': 'pointer',
    description: 'When true, no pods are created and running ones are stopped. Defaults to false.',
  })),
  podReplacementPolicy: opt(enumOf(14, PodReplacementPolicies, {
    'x-orch-emit': 'pointer',
    description: 'When a replacement pod is made: TerminatingOrFailed (the default) once the old one is terminating, Failed only once it has fully failed (the default, and the only choice, with a podFailurePolicy).',
  })),
  managedBy: opt(str(15, {
    'x-orch-emit': 'pointer',
    description: 'The controller that reconciles the job, as a domain-prefixed path; unset means the built-in job controller. Cannot be changed.',
  })),
}, { required: ['template'], description: 'The desired state of a job.' });
export type JobSpec = Static<typeof JobSpec>;

export const JobCondition = object(`${P}.JobCondition`, {
  type: str(1, { description: 'Type of the condition: Suspended, Complete, Failed, FailureTarget or SuccessCriteriaMet.' }),
  status: enumOf(2, ['True', 'False', 'Unknown'] as const, { description: 'True, False or Unknown.' }),
  lastProbeTime: opt(time(3, { 'x-orch-emit': 'always', description: 'When the condition was last checked.' })),
  lastTransitionTime: opt(time(4, { 'x-orch-emit': 'always', description: 'When the condition last changed status.' })),
  reason: opt(str(5, { description: 'Machine-readable reason for the last transition.' })),
  message: opt(str(6, { description: 'Human-readable details about the last transition.' })),
}, { required: ['type', 'status'], description: 'One aspect of the state of a job at a point in time.' });

export const UncountedTerminatedPods = object(`${P}.UncountedTerminatedPods`, {
  succeeded: opt(stringList(1, { listType: 'set' }, { description: 'UIDs of succeeded pods not yet counted in status.succeeded.' })),
  failed: opt(stringList(2, { listType: 'set' }, { description: 'UIDs of failed pods not yet counted in status.failed.' })),
}, { description: 'Pods that finished but that the job controller has not yet counted in the status.' });

export const JobStatus = object(`${P}.JobStatus`, {
  conditions: opt(list(1, JobCondition, { listType: 'atomic', patchStrategy: 'merge', patchMergeKey: 'type' }, {
    description: 'Latest observations of the state of the job; a finished job has a Complete or a Failed condition.',
  })),
  startTime: opt(time(2, { 'x-orch-emit': 'pointer', description: 'When the job controller started the job (or last resumed it).' })),
  completionTime: opt(time(3, { 'x-orch-emit': 'pointer', description: 'When the job completed successfully; unset while running or after a failure.' })),
  active: opt(int32(4, { description: 'Number of pods pending or running (not terminating).' })),
  succeeded: opt(int32(5, { description: 'Number of pods that succeeded.' })),
  failed: opt(int32(6, { description: 'Number of pods that failed.' })),
  terminating: opt(int32(11, { 'x-orch-emit': 'pointer', description: 'Number of pods that are terminating.' })),
  completedIndexes: opt(str(7, { description: 'Indexes of an Indexed job that succeeded, as a list of numbers and ranges such as "1,3-5,7".' })),
  failedIndexes: opt(str(10, {
    'x-orch-emit': 'pointer',
    description: 'Indexes of an Indexed job that failed (with backoffLimitPerIndex), as a list of numbers and ranges.',
  })),
  uncountedTerminatedPods: opt(field(8, UncountedTerminatedPods, {
    description: 'Finished pods the job controller has not yet counted.',
  })),
  ready: opt(int32(9, { 'x-orch-emit': 'pointer', description: 'Number of active pods with a Ready condition.' })),
}, { description: 'The observed state of a job, written by the job controller.' });
export type JobStatus = Static<typeof JobStatus>;

export const Job = topLevel(`${P}.Job`, {
  spec: opt(field(2, JobSpec, { 'x-orch-emit': 'always', description: 'The desired state: the pod to run and how many must succeed.' })),
  status: opt(field(3, JobStatus, {
    'x-orch-emit': 'always',
    description: 'The observed state, written by the job controller through the status sub-resource; may lag behind.',
  })),
}, { description: 'Runs pods until a given number of them succeed (a finite task, or a batch of them).' });
export type Job = Static<typeof Job>;

export const JobTemplateSpec = object(`${P}.JobTemplateSpec`, {
  metadata: opt(field(1, ObjectMeta, { 'x-orch-emit': 'always', description: 'Metadata of the jobs made from the template.' })),
  spec: opt(field(2, JobSpec, { 'x-orch-emit': 'always', description: 'The desired state of the jobs made from the template.' })),
}, { description: 'The job a CronJob creates: its metadata and spec.' });
export type JobTemplateSpec = Static<typeof JobTemplateSpec>;

/**
 * Upstream SetDefaults_Job: completions and parallelism 1 when both are unset, parallelism 1
 * otherwise; backoffLimit 6 (the largest int32 with backoffLimitPerIndex); the template's labels
 * lent to the job's own empty labels; completionMode NonIndexed; suspend false; a pod condition
 * pattern's status True; podReplacementPolicy Failed with a podFailurePolicy, else
 * TerminatingOrFailed. The pod template gets its own defaults.
 */
export function defaultJob(job: Job): void {
  const spec = job.spec;
  if (!spec || typeof spec !== 'object') return;
  if (spec.completions === undefined && spec.parallelism === undefined) spec.completions = 1;
  spec.parallelism ??= 1;
  spec.backoffLimit ??= spec.backoffLimitPerIndex !== undefined ? 2147483647 : 6;
  const labels = spec.template?.metadata?.labels;
  if (labels && job.metadata && Object.keys(job.metadata.labels ?? {}).length === 0) job.metadata.labels = { ...labels };
  spec.completionMode ??= 'NonIndexed';
  spec.suspend ??= false;
  for (const rule of spec.podFailurePolicy?.rules ?? []) {
    for (const pattern of rule.onPodConditions ?? []) if (!pattern.status) pattern.status = 'True';
  }
  spec.podReplacementPolicy ??= spec.podFailurePolicy ? 'Failed' : 'TerminatingOrFailed';
  if (spec.template) defaultPodTemplateSpec(spec.template);
}
