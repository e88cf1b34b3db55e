// batch/v1: run-to-completion workloads, once (Job) or on a schedule (CronJob).
import { ageColumn, formatLabelSelector, humanDuration, nameColumn, timestampSince } from '../../printer-column.js';
import { podTemplateColumns } from '../../pod-template-columns.js';
import { defineKind, type GroupVersionRegistration } from '../../registration.js';
import { CronJob, defaultCronJob } from './cron-job.js';
import { Job, defaultJob } from './job.js';

type JobConditions = NonNullable<NonNullable<Job['status']>['conditions']>;

const hasCondition = (conditions: JobConditions | undefined, type: string) =>
  (conditions ?? []).some((c) => c.type === type && c.status === 'True');

/** Upstream's job status cell: the first condition that holds, in its order of precedence. */
function jobStatus(job: Job): string {
  const conditions = job.status?.conditions;
  if (hasCondition(conditions, 'Complete')) return 'Complete';
  if (hasCondition(conditions, 'Failed')) return 'Failed';
  if (job.metadata?.deletionTimestamp) return 'Terminating';
  if (hasCondition(conditions, 'Suspended')) return 'Suspended';
  if (hasCondition(conditions, 'FailureTarget')) return 'FailureTarget';
  if (hasCondition(conditions, 'SuccessCriteriaMet')) return 'SuccessCriteriaMet';
  return 'Running';
}

/** `succeeded/completions`; without completions `succeeded/1`, with `of <parallelism>` when above 1. */
function jobCompletions(job: Job): string {
  const succeeded = job.status?.succeeded ?? 0;
  const completions = job.spec?.completions;
  if (completions !== undefined && completions !== null) return `${succeeded}/${completions}`;
  const parallelism = job.spec?.parallelism ?? 0;
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

/** From start to completion, or to now while running; empty before the job starts. */
function jobDuration(job: Job, now: Date): string {
  const start = job.status?.startTime ? Date.parse(job.status.startTime) : Number.NaN;
  if (Number.isNaN(start)) return '';
  const end = job.status?.completionTime ? Date.parse(job.status.completionTime) : Number.NaN;
  return humanDuration((Number.isNaN(end) ? now.getTime() : end) - start);
}

export const batchV1: GroupVersionRegistration = {
  group: 'batch',
  version: 'v1',
  stability: 'stable',
  kinds: [
    defineKind({
      kind: 'CronJob', resource: 'cronjobs', singular: 'cronjob', namespaced: true,
      shortNames: ['cj'], categories: ['all'], subresources: ['status'], schema: CronJob, defaulter: defaultCronJob,
      printerColumns: [
        nameColumn,
        { name: 'Schedule', type: 'string', description: 'When jobs are run, in cron format.', priority: 0, cell: (c) => c.spec?.schedule ?? '' },
        { name: 'Timezone', type: 'string', description: 'Time zone the schedule is read in.', priority: 0, cell: (c) => c.spec?.timeZone ?? '<none>' },
        { name: 'Suspend', type: 'boolean', description: 'Whether later runs are suspended.', priority: 0,
          cell: (c) => (c.spec?.suspend === undefined || c.spec.suspend === null ? '<unset>' : c.spec.suspend ? 'True' : 'False') },
        { name: 'Active', type: 'integer', description: 'Number of jobs currently running.', priority: 0, cell: (c) => (c.status?.active ?? []).length },
        { name: 'Last Schedule', type: 'string', description: 'How long ago a job was last scheduled.', priority: 0,
          cell: (c, now) => (c.status?.lastScheduleTime ? timestampSince(c.status.lastScheduleTime, now) : '<none>') },
        ageColumn,
        ...podTemplateColumns<CronJob>((c) => c.spec?.jobTemplate?.spec?.template, {
          description: 'Label query over the pods of the jobs.',
          cell: (c) => formatLabelSelector(c.spec?.jobTemplate?.spec?.selector),
        }),
      ],
    }),
    defineKind({
      kind: 'Job', resource: 'jobs', singular: 'job', namespaced: true,
      categories: ['all'], subresources: ['status'], schema: Job, defaulter: defaultJob,
      printerColumns: [
        nameColumn,
        { name: 'Status', type: 'string', description: 'Status of the job: Complete, Failed, Running, Suspended and the like.', priority: 0, cell: jobStatus },
        { name: 'Completions', type: 'string', description: 'Succeeded pods out of the desired completions.', priority: 0, cell: jobCompletions },
        { name: 'Duration', type: 'string', description: 'How long the job ran (or has been running).', priority: 0, cell: jobDuration },
        ageColumn,
        ...podTemplateColumns<Job>((j) => j.spec?.template, {
          description: 'Label query over the pods of the job.',
          cell: (j) => formatLabelSelector(j.spec?.selector),
        }),
      ],
    }),
  ],
};
