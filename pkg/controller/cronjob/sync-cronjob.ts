// The reconciling half of the cronjob controller (upstream's syncCronJob and cleanupFinishedJobs):
// for one CronJob and the jobs it controls, the active list brought up to date, the oldest finished
// jobs past the history limits deleted, and the job due now started (or skipped, as suspend, the
// starting deadline and the concurrency policy say), with upstream's events.
import type { CronJob } from '../../../api/batch/v1/cron-job.js';
import type { BatchKeys } from '../../../api/batch/v1/well-known.js';
import { formatTime } from '../../../api/meta/v1/primitives.js';
import { isAlreadyExists, isNotFound, objectKey, type EventRecorder, type KubeObject, type ResourceClient } from '../../client/index.js';
import type { Logger } from '../../log/logger.js';
import { parseCronSchedule } from '../../util/cron/parse.js';
import { knownTimeZone, Zone } from '../../util/cron/zone.js';
import { controllerRefOf, newControllerRef } from '../controller-ref.js';
import { isJobFinished, type JobObject } from '../job/job-pods.js';
import { isNamespaceTerminating } from '../serviceaccount/serviceaccounts-controller.js';
import { mostRecentScheduleTime, nextScheduleDelay, type ScheduleState } from './schedule-times.js';

export type CronJobObject = CronJob & KubeObject;
type ObjectRef = NonNullable<NonNullable<CronJob['status']>['active']>[number];

export interface CronJobSyncDeps {
  cronJobs: ResourceClient<CronJobObject>;
  jobs: ResourceClient<JobObject>;
  recorder: EventRecorder;
  logger: Logger;
  keys: BatchKeys;
}

/** What one sync did: whether status changed, and when to look again. */
export interface CronJobSyncResult {
  requeueAfterMs?: number;
  changed: boolean;
}

export interface CronJobSyncer {
  event(cj: CronJobObject, type: 'Normal' | 'Warning', reason: string, message: string): void;
  /** The schedule as robfig reads it: the time zone as a TZ= prefix (a TZ already in the schedule warned about, when `warn`). */
  formatSchedule(cj: CronJobObject, warn: boolean): string;
  state(cj: CronJobObject): ScheduleState;
  /** Deletes the oldest finished jobs beyond the history limits; whether status changed. */
  cleanupFinishedJobs(cj: CronJobObject, owned: readonly JobObject[]): Promise<boolean>;
  /** Reconciles the active list and starts the job due, if any; `cj` is changed in place. */
  syncCronJob(cj: CronJobObject, owned: readonly JobObject[]): Promise<CronJobSyncResult>;
}

const errMessage = (e: unknown) => (e instanceof Error ? e.message : String(e));
const finishedType = (j: JobObject) => (j.status?.conditions ?? []).find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True')?.type;
const time = (s: string | undefined | null) => (s ? Date.parse(s) : undefined);
/** Go's time.RFC1123Z in UTC, as the MissSchedule event prints the missed time. */
const rfc1123z = (ms: number) => new Date(ms).toUTCString().replace('GMT', '+0000');

/** Upstream's byJobStartTime: jobs that started first come first, those that never started last, names break ties. */
function byStartTime(a: JobObject, b: JobObject): number {
  const as = time(a.status?.startTime);
  const bs = time(b.status?.startTime);
  if (as === undefined && bs !== undefined) return 1;
  if (as !== undefined && bs === undefined) return -1;
  if (as === bs) return (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1;
  return as! - bs!;
}

/** The steps of a CronJob's sync, over the controller's clients. */
export function cronJobSyncer({ cronJobs, jobs, recorder, logger, keys }: CronJobSyncDeps): CronJobSyncer {
  const event = (cj: CronJobObject, type: 'Normal' | 'Warning', reason: string, message: string) =>
    void recorder.event({ apiVersion: 'batch/v1', kind: 'CronJob', namespace: cj.metadata.namespace ?? '', name: cj.metadata.name ?? '', uid: cj.metadata.uid ?? '' }, type, reason, message);

  const formatSchedule = (cj: CronJobObject, warn: boolean): string => {
    const schedule = cj.spec?.schedule ?? '';
    if (schedule.includes('TZ')) {
      if (warn) {
        event(cj, 'Warning', 'UnsupportedSchedule',
          `CRON_TZ or TZ used in schedule ${JSON.stringify(schedule)} is not officially supported, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details`);
      }
      return schedule;
    }
    const tz = cj.spec?.timeZone;
    return tz !== undefined && tz !== null && knownTimeZone(tz) ? `TZ=${tz} ${schedule}` : schedule;
  };
  const state = (cj: CronJobObject): ScheduleState => ({
    creationTimestamp: time(cj.metadata.creationTimestamp) ?? Date.now(),
    ...(cj.status?.lastScheduleTime ? { lastScheduleTime: time(cj.status.lastScheduleTime)! } : {}),
    ...(cj.spec?.startingDeadlineSeconds !== undefined && cj.spec.startingDeadlineSeconds !== null ? { startingDeadlineSeconds: cj.spec.startingDeadlineSeconds } : {}),
  });

  const getJob = (ns: string, name: string) => jobs.namespace(ns).get(name);
  /** Deletes a job (its pods in the background) and takes it off the active list; whether it went. */
  const deleteJob = async (cj: CronJobObject, j: JobObject): Promise<boolean> => {
    try {
      await jobs.namespace(j.metadata.namespace ?? '').delete(j.metadata.name ?? '', { propagationPolicy: 'Background' });
    } catch (e) {
      event(cj, 'Warning', 'FailedDelete', `Deleted job: ${errMessage(e)}`);
      logger.error('Error deleting job from cronjob', { job: objectKey(j), cronjob: objectKey(cj), err: errMessage(e) });
      return false;
    }
    removeActive(cj, j.metadata.uid);
    event(cj, 'Normal', 'SuccessfulDelete', `Deleted job ${j.metadata.name}`);
    return true;
  };
  const removeActive = (cj: CronJobObject, uid: string | undefined) => {
    const status = (cj.status ??= {});
    status.active = (status.active ?? []).filter((r) => r.uid !== uid);
  };
  const inActive = (cj: CronJobObject, uid: string | undefined) => (cj.status?.active ?? []).some((r) => r.uid === uid);

  const cleanupFinishedJobs = async (cj: CronJobObject, owned: readonly JobObject[]): Promise<boolean> => {
    const spec = cj.spec!;
    let changed = false;
    for (const [type, limit] of [['Complete', spec.successfulJobsHistoryLimit], ['Failed', spec.failedJobsHistoryLimit]] as const) {
      if (limit === undefined || limit === null) continue;
      const finished = owned.filter((j) => finishedType(j) === type).sort(byStartTime);
      for (const j of finished.slice(0, Math.max(0, finished.length - limit))) {
        if (await deleteJob(cj, j)) changed = true;
      }
    }
    return changed;
  };

  const syncCronJob = async (cj: CronJobObject, owned: readonly JobObject[]): Promise<{ requeueAfterMs?: number; changed: boolean }> => {
    const now = Date.now();
    const ns = cj.metadata.namespace ?? '';
    const status = (cj.status ??= {});
    let changed = false;
    for (const j of owned) {
      const found = inActive(cj, j.metadata.uid);
      if (!found && !isJobFinished(j)) {
        // Perhaps our cache is behind our own status write: a fresh read decides.
        const fresh = await cronJobs.namespace(ns).get(cj.metadata.name ?? '');
        if (inActive(fresh, j.metadata.uid)) continue;
        event(cj, 'Warning', 'UnexpectedJob', `Saw a job that the controller did not create or forgot: ${j.metadata.name}`);
      } else if (found && isJobFinished(j)) {
        removeActive(cj, j.metadata.uid);
        event(cj, 'Normal', 'SawCompletedJob', `Saw completed job: ${j.metadata.name}, status: ${finishedType(j)}`);
        changed = true;
      } else if (finishedType(j) === 'Complete') {
        // Successes count whether or not the job was still listed.
        const done = time(j.status?.completionTime);
        if (!status.lastSuccessfulTime && j.status?.completionTime) {
          status.lastSuccessfulTime = j.status.completionTime;
          changed = true;
        } else if (done !== undefined && status.lastSuccessfulTime && done > time(status.lastSuccessfulTime)!) {
          status.lastSuccessfulTime = j.status!.completionTime!;
          changed = true;
        }
      }
    }
    // An active job that is gone for good (a fresh read, not a slow cache) leaves the list.
    const children = new Set(owned.map((j) => j.metadata.uid));
    for (const ref of [...(status.active ?? [])]) {
      if (children.has(ref.uid)) continue;
      try {
        await getJob(ref.namespace ?? ns, ref.name ?? '');
      } catch (e) {
        if (!isNotFound(e)) throw e;
        event(cj, 'Normal', 'MissingJob', `Active job went missing: ${ref.name}`);
        removeActive(cj, ref.uid);
        changed = true;
      }
    }
    if (cj.metadata.deletionTimestamp) return { changed };

    const tz = cj.spec?.timeZone;
    if (tz !== undefined && tz !== null && !knownTimeZone(tz)) {
      logger.v(4).info('Not starting job because timeZone is invalid', { cronjob: objectKey(cj), timeZone: tz });
      event(cj, 'Warning', 'UnknownTimeZone', `invalid timeZone: ${JSON.stringify(tz)}: unknown time zone ${tz}`);
      return { changed };
    }
    if (cj.spec?.suspend === true) {
      logger.v(4).info('Not starting job because the cron is suspended', { cronjob: objectKey(cj) });
      return { changed };
    }
    const parsed = parseCronSchedule(formatSchedule(cj, true));
    if (parsed.error !== undefined) {
      logger.v(2).info('Unparseable schedule', { cronjob: objectKey(cj), schedule: cj.spec?.schedule, err: parsed.error });
      event(cj, 'Warning', 'UnparseableSchedule', `unparseable schedule: ${JSON.stringify(cj.spec?.schedule)} : ${parsed.error}`);
      return { changed };
    }
    const schedule = parsed.schedule;
    const next = (): { requeueAfterMs?: number; changed: boolean } => {
      const delay = nextScheduleDelay(state(cj), now, schedule);
      return delay === undefined ? { changed } : { requeueAfterMs: delay, changed };
    };
    const recent = mostRecentScheduleTime(state(cj), now, schedule, true);
    if (recent.error) {
      logger.v(2).info('Invalid schedule', { cronjob: objectKey(cj), schedule: cj.spec?.schedule, err: recent.error });
      event(cj, 'Warning', 'InvalidSchedule', `invalid schedule: ${cj.spec?.schedule} : ${recent.error}`);
      return { changed };
    }
    const scheduled = recent.mostRecent;
    if (scheduled === undefined || scheduled > now) {
      logger.v(4).info('No unmet start times', { cronjob: objectKey(cj) });
      return next();
    }
    if (recent.missed === 'many') {
      event(cj, 'Warning', 'TooManyMissedTimes', 'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew');
      logger.info('too many missed times', { cronjob: objectKey(cj) });
    }
    const deadline = cj.spec?.startingDeadlineSeconds;
    if (deadline !== undefined && deadline !== null && scheduled + deadline * 1000 < now) {
      logger.v(4).info('Missed starting window', { cronjob: objectKey(cj) });
      event(cj, 'Warning', 'MissSchedule', `Missed scheduled time to start a job: ${rfc1123z(scheduled)}`);
      return next();
    }
    const jobName = `${cj.metadata.name}-${Math.floor(scheduled / 60_000)}`;
    const lastScheduled = time(status.lastScheduleTime);
    if ((status.active ?? []).some((r) => r.name === jobName && r.namespace === ns) || (lastScheduled !== undefined && Math.floor(lastScheduled / 1000) === Math.floor(scheduled / 1000))) {
      logger.v(4).info('Not starting job because the scheduled time is already processed', { cronjob: objectKey(cj), schedule: new Date(scheduled).toISOString() });
      return next();
    }
    const policy = cj.spec?.concurrencyPolicy ?? 'Allow';
    if (policy === 'Forbid' && (status.active ?? []).length > 0) {
      logger.v(4).info('Not starting job because prior execution is still running and concurrency policy is Forbid', { cronjob: objectKey(cj) });
      event(cj, 'Normal', 'JobAlreadyActive', 'Not starting job because prior execution is running and concurrency policy is Forbid');
      return next();
    }
    if (policy === 'Replace') {
      for (const ref of [...(status.active ?? [])]) {
        logger.v(4).info('Deleting job that was still running at next scheduled start time', { job: `${ref.namespace}/${ref.name}` });
        let j: JobObject;
        try {
          j = await getJob(ref.namespace ?? ns, ref.name ?? '');
        } catch (e) {
          event(cj, 'Warning', 'FailedGet', `Get job: ${errMessage(e)}`);
          throw e;
        }
        if (!(await deleteJob(cj, j))) throw new Error(`could not replace job ${j.metadata.namespace}/${j.metadata.name}`);
        changed = true;
      }
    }

    const template = cj.spec!.jobTemplate;
    const job = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: {
        name: jobName, namespace: ns,
        labels: { ...(template.metadata?.labels ?? {}) },
        annotations: { ...(template.metadata?.annotations ?? {}), [keys.cronJobScheduledTimestamp]: new Zone(tz ?? '').rfc3339(scheduled) },
        ownerReferences: [newControllerRef(cj, 'batch/v1', 'CronJob')],
      },
      spec: structuredClone(template.spec),
    } as JobObject;
    let created: JobObject;
    try {
      created = await jobs.namespace(ns).create(job);
      logger.v(4).info('Created Job', { job: objectKey(created), cronjob: objectKey(cj) });
      event(cj, 'Normal', 'SuccessfulCreate', `Created job ${created.metadata.name}`);
    } catch (e) {
      if (isNamespaceTerminating(e)) throw e;
      if (!isAlreadyExists(e)) {
        event(cj, 'Warning', 'FailedCreate', `Error creating job: ${errMessage(e)}`);
        throw e;
      }
      // Made before, but its listing in status was lost: list it now, if it is ours.
      created = await getJob(ns, jobName);
      if (controllerRefOf(created)?.uid !== cj.metadata.uid || inActive(cj, created.metadata.uid)) return { changed };
      logger.info('Job already exists', { cronjob: objectKey(cj), job: `${ns}/${jobName}` });
    }
    const ref: ObjectRef = {
      kind: 'Job', namespace: ns, name: created.metadata.name ?? '', uid: created.metadata.uid ?? '',
      apiVersion: 'batch/v1', resourceVersion: created.metadata.resourceVersion ?? '',
    };
    status.active = [...(status.active ?? []), ref];
    status.lastScheduleTime = formatTime(new Date(scheduled));
    changed = true;
    return next();
  };

  return { event, formatSchedule, state, cleanupFinishedJobs, syncCronJob };
}
