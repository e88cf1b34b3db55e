import { type Static } from '@sinclair/typebox';
import { bool, enumOf, field, int32, int64, list, object, opt, str } from '../../schema.js';
import { time } from '../../meta/v1/primitives.js';
import { topLevel } from '../../meta/v1/types.js';
import { ObjectReference } from '../../core/v1/object-reference.js';
import { defaultPodTemplateSpec } from '../../core/v1/pod-template.js';
import { JobTemplateSpec } from './job.js';

const P = 'io.orch.api.batch.v1';

export const ConcurrencyPolicies = ['Allow', 'Forbid', 'Replace'] as const;

export const CronJobSpec = object(`${P}.CronJobSpec`, {
  schedule: str(1, { description: 'When to run, in cron format: five fields (minute hour day-of-month month day-of-week) or a macro such as @hourly.' }),
  timeZone: opt(str(8, {
    'x-orch-emit': 'pointer',
    description: 'Time zone the schedule is read in, as an IANA name such as Europe/Paris; unset means the time zone of the controller manager.',
  })),
  startingDeadlineSeconds: opt(int64(2, {
    'x-orch-emit': 'pointer',
    description: 'Seconds after a missed scheduled time during which the job may still be started; later it counts as failed.',
  })),
  concurrencyPolicy: opt(enumOf(3, ConcurrencyPolicies, {
    default: 'Allow',
    description: 'What to do when a run is due while the previous one still runs: Allow (the default) runs both, Forbid skips the new run, Replace stops the old one.',
  })),
  suspend: opt(bool(4, {
    default: false,
    'x-orch-emit': 'pointer',
    description: 'When true, later runs are not started (running ones continue). Defaults to false.',
  })),
  jobTemplate: field(5, JobTemplateSpec, { description: 'The job created at every scheduled time.' }),
  successfulJobsHistoryLimit: opt(int32(6, {
    default: 3,
    'x-orch-emit': 'pointer',
    description: 'Number of finished successful jobs kept. Defaults to 3.',
  })),
  failedJobsHistoryLimit: opt(int32(7, {
    default: 1,
    'x-orch-emit': 'pointer',
    description: 'Number of failed jobs kept. Defaults to 1.',
  })),
}, { required: ['schedule', 'jobTemplate'], description: 'The desired state of a CronJob: when to run and which job.' });
export type CronJobSpec = Static<typeof CronJobSpec>;

export const CronJobStatus = object(`${P}.CronJobStatus`, {
  active: opt(list(1, ObjectReference, { listType: 'atomic' }, { description: 'References to the jobs of this CronJob currently running.' })),
  lastScheduleTime: opt(time(4, { 'x-orch-emit': 'pointer', description: 'When a job was last scheduled.' })),
  lastSuccessfulTime: opt(time(5, { 'x-orch-emit': 'pointer', description: 'When a job last finished successfully.' })),
}, { description: 'The observed state of a CronJob, written by its controller.' });
export type CronJobStatus = Static<typeof CronJobStatus>;

export const CronJob = topLevel(`${P}.CronJob`, {
  spec: opt(field(2, CronJobSpec, { 'x-orch-emit': 'always', description: 'The desired state: the schedule and the job to run.' })),
  status: opt(field(3, CronJobStatus, {
    'x-orch-emit': 'always',
    description: 'The observed state, written by the controller through the status sub-resource; may lag behind.',
  })),
}, { description: 'Creates a job on a repeating schedule, in cron format.' });
export type CronJob = Static<typeof CronJob>;

/** Upstream SetDefaults_CronJob sets only what the schema states; the job's pod template gets its own defaults. */
export function defaultCronJob(cj: CronJob): void {
  const template = cj.spec?.jobTemplate?.spec?.template;
  if (template) defaultPodTemplateSpec(template);
}
