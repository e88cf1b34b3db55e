// One sync of one Job (upstream's syncJob, as kube-controller-manager 1.30 runs it with its
// default feature gates: pod failure policy, backoffLimitPerIndex, podReplacementPolicy and the
// index label on; successPolicy and managedBy off). It counts the job's pods, decides whether the
// job has failed (backoff limit, deadline, failure policy, failed indexes) or completed, reports
// suspension, then lets manage-pods.ts create or delete pods and track-status.ts count them.
import { isPodActive, isPodReady, type PodObject } from '../replicaset/pod-ranking.js';
import { finishedTime } from './backoff.js';
import { IndexSet } from './indexes.js';
import {
  countAnnotation, hasBackoffLimitPerIndex, hasTrackingFinalizer, isIndexed, isJobFinished, isPodFailed, isPodTerminating, isSuspended,
  unknownIndex, validIndex, type JobObject, type JobStatus,
} from './job-pods.js';
import { deletePods, manageJob } from './manage-pods.js';
import { matchPodFailurePolicy } from './pod-failure-policy.js';
import { newCondition, jobEvent, stamp, type SyncCtx, type SyncDeps } from './sync-context.js';
import { ensureCondition, trackStatusAndRemoveFinalizers } from './track-status.js';

/** Syncs the job cached as `cached` under `key`. */
export async function syncJob(d: SyncDeps, key: string, cached: JobObject | undefined): Promise<void> {
  if (!cached) {
    d.expectations.delete(key);
    d.finalizerExpectations.delete(key);
    d.backoff.remove(key);
    return;
  }
  if (isJobFinished(cached)) {
    d.backoff.remove(key);
    return;
  }
  const job = structuredClone(cached);
  const spec = job.spec!;
  const status: JobStatus = (job.status ??= {});
  status.uncountedTerminatedPods ??= {};
  // Read before the pods: a pod that appears later is seen by the next sync.
  const satisfied = d.expectations.satisfied(key);
  const pods = await d.claimPods(job);
  const activePods = pods.filter(isPodActive);
  const ctx: SyncCtx = {
    key, job, pods, activePods,
    succeeded: 0,
    prevSucceededIndexes: IndexSet.empty(),
    succeededIndexes: IndexSet.empty(),
    newBackoff: { key, failuresAfterLastSuccess: 0 },
    expectedRemovals: d.finalizerExpectations.expected(key),
    uncounted: {
      succeeded: new Set(status.uncountedTerminatedPods.succeeded ?? []),
      failed: new Set(status.uncountedTerminatedPods.failed ?? []),
    },
    delayedDeletion: new Map(),
    terminating: pods.filter(isPodTerminating).length,
    ready: activePods.filter(isPodReady).length,
  };
  let active = activePods.length;
  const newSucceeded = uncountedPods(d, ctx, ctx.uncounted.succeeded, (p) => p.status?.phase === 'Succeeded');
  const newFailed = uncountedPods(d, ctx, ctx.uncounted.failed, (p) => isPodFailed(p, job));
  const counted = newFailed.filter((p) => matchPodFailurePolicy(spec.podFailurePolicy, p).countFailed).length;
  ctx.succeeded = (status.succeeded ?? 0) + newSucceeded.length + ctx.uncounted.succeeded.size;
  const failed = (status.failed ?? 0) + counted + ctx.uncounted.failed.size;

  if (!status.startTime && !isSuspended(job)) status.startTime = stamp(d);
  ctx.newBackoff = d.backoff.next(key, newSucceeded, newFailed);

  if (spec.podFailurePolicy) {
    const target = (status.conditions ?? []).find((c) => c.type === 'FailureTarget');
    if (target) ctx.finished = newCondition(d, 'Failed', target.reason ?? '', target.message ?? '');
    else {
      const message = pods.filter((p) => isPodFailed(p, job)).map((p) => matchPodFailurePolicy(spec.podFailurePolicy, p).failJobMessage).find((m) => m !== undefined);
      if (message !== undefined) ctx.finished = newCondition(d, 'FailureTarget', 'PodFailurePolicy', message);
    }
  }
  if (!ctx.finished) {
    if (failed > (spec.backoffLimit ?? 6) || pastBackoffLimitOnFailure(job, pods)) {
      ctx.finished = newCondition(d, 'Failed', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit');
    } else if (pastActiveDeadline(d, job)) {
      ctx.finished = newCondition(d, 'Failed', 'DeadlineExceeded', 'Job was active longer than specified deadline');
    } else if (spec.activeDeadlineSeconds !== undefined && !isSuspended(job) && status.startTime) {
      const left = spec.activeDeadlineSeconds * 1000 - (d.now() - Date.parse(status.startTime));
      d.logger.v(2).info('Job has activeDeadlineSeconds configuration. Will sync this job again', { key, nextSyncIn: `${Math.max(0, left)}ms` });
      d.queue.addAfter(key, left);
    }
  }

  if (isIndexed(job)) countIndexes(d, ctx);

  let manageError: unknown;
  let suspendChanged = false;
  if (ctx.finished) {
    // Stop what still runs; the job is declared finished once every pod is gone from the active set.
    const { deleted, deletedReady, error } = await deletePods(d, ctx, activePods, false);
    if (deleted !== active || !satisfied) ctx.finished = undefined;
    active -= deleted;
    ctx.terminating += deleted;
    ctx.ready -= deletedReady;
    manageError = error;
  } else {
    let managed = false;
    if (satisfied && !job.metadata.deletionTimestamp) {
      ({ active, error: manageError } = await manageJob(d, ctx));
      managed = true;
    }
    const completions = spec.completions;
    const complete = completions === undefined || completions === null ? ctx.succeeded > 0 && active === 0 : ctx.succeeded >= completions && active === 0;
    if (complete) {
      ctx.finished = newCondition(d, 'Complete', '', '');
    } else if (managed) {
      // Only a sync that managed the pods reports suspension, so the condition follows what was done.
      const now = stamp(d);
      if (isSuspended(job)) {
        suspendChanged = ensureCondition(status, 'Suspended', 'True', 'JobSuspended', 'Job suspended', now);
        if (suspendChanged) jobEvent(d, job, 'Normal', 'Suspended', 'Job suspended');
      } else {
        suspendChanged = ensureCondition(status, 'Suspended', 'False', 'JobResumed', 'Job resumed', now);
        if (suspendChanged) {
          jobEvent(d, job, 'Normal', 'Resumed', 'Job resumed');
          // activeDeadlineSeconds counts the time the job is continuously active.
          status.startTime = now;
        }
      }
    }
  }

  const needsUpdate = suspendChanged || active !== (status.active ?? 0) || ctx.ready !== status.ready || ctx.terminating !== status.terminating;
  status.active = active;
  status.ready = ctx.ready;
  status.terminating = ctx.terminating;
  await trackStatusAndRemoveFinalizers(d, ctx, needsUpdate);
  if (manageError !== undefined) throw manageError;
}

/** Finished pods not yet counted (upstream's getValidPodsWithFilter): with the finalizer, not listed, of a valid index. */
function uncountedPods(d: SyncDeps, ctx: SyncCtx, listed: ReadonlySet<string> | undefined, filter: (p: PodObject) => boolean): PodObject[] {
  const { keys } = d;
  return ctx.pods.filter((p) => {
    const uid = p.metadata.uid ?? '';
    if (!hasTrackingFinalizer(p, keys) || listed?.has(uid) || ctx.expectedRemovals.has(uid)) return false;
    if (isIndexed(ctx.job) && validIndex(p, ctx.job, keys) === unknownIndex) return false;
    return filter(p);
  });
}

/** restartPolicy OnFailure: the restarts of the running pods reach backoffLimit (any restart, for a limit of 0). */
function pastBackoffLimitOnFailure(job: JobObject, pods: readonly PodObject[]): boolean {
  if (job.spec?.template?.spec?.restartPolicy !== 'OnFailure') return false;
  let restarts = 0;
  for (const p of pods) {
    if (p.status?.phase !== 'Running' && p.status?.phase !== 'Pending') continue;
    for (const c of [...(p.status?.initContainerStatuses ?? []), ...(p.status?.containerStatuses ?? [])]) restarts += c.restartCount ?? 0;
  }
  const limit = job.spec.backoffLimit ?? 6;
  return limit === 0 ? restarts > 0 : restarts >= limit;
}

function pastActiveDeadline(d: SyncDeps, job: JobObject): boolean {
  const ads = job.spec?.activeDeadlineSeconds;
  const start = job.status?.startTime;
  if (ads === undefined || !start || isSuspended(job)) return false;
  return d.now() - Date.parse(start) >= ads * 1000;
}

/** Succeeded and (with backoffLimitPerIndex) failed indexes, and the failures that end an Indexed job. */
function countIndexes(d: SyncDeps, ctx: SyncCtx): void {
  const { job } = ctx;
  const { keys } = d;
  const completions = job.spec?.completions ?? 0;
  ctx.prevSucceededIndexes = IndexSet.parse(job.status?.completedIndexes, completions);
  const newlySucceeded = ctx.pods.filter((p) => p.status?.phase === 'Succeeded' && hasTrackingFinalizer(p, keys)).map((p) => validIndex(p, job, keys));
  ctx.succeededIndexes = ctx.prevSucceededIndexes.with(newlySucceeded.filter((i) => i !== unknownIndex));
  ctx.succeeded = ctx.succeededIndexes.total();
  if (!hasBackoffLimitPerIndex(job)) return;
  const newlyFailed = ctx.pods.filter((p) => hasTrackingFinalizer(p, keys) && isIndexFailed(d, job, p)).map((p) => validIndex(p, job, keys));
  const failedIndexes = IndexSet.parse(job.status?.failedIndexes, completions).with(newlyFailed.filter((i) => i !== unknownIndex));
  ctx.failedIndexes = failedIndexes;
  if (!ctx.finished) {
    const max = job.spec?.maxFailedIndexes;
    if (max !== undefined && max !== null && failedIndexes.total() > max) {
      ctx.finished = newCondition(d, 'Failed', 'MaxFailedIndexesExceeded', 'Job has exceeded the specified maximal number of failed indexes');
    } else if (failedIndexes.total() > 0 && failedIndexes.total() + ctx.succeededIndexes.total() >= completions) {
      ctx.finished = newCondition(d, 'Failed', 'FailedIndexes', 'Job has failed indexes');
    }
  }
  ctx.delayedDeletion = podsWithDelayedDeletion(d, ctx);
}

/** The pod's failure fails its index: a FailIndex rule, or a counted failure with the index out of retries. */
function isIndexFailed(d: SyncDeps, job: JobObject, p: PodObject): boolean {
  if (!isPodFailed(p, job)) return false;
  const m = matchPodFailurePolicy(job.spec?.podFailurePolicy, p);
  if (m.action === 'FailIndex') return true;
  return m.countFailed && countAnnotation(p, d.keys.indexFailureCount) >= (job.spec?.backoffLimitPerIndex ?? 0);
}

/**
 * Per index, the last failed pod to keep (its finalizer stays) until its replacement exists, so
 * the replacement can carry the index's failure count (upstream's getPodsWithDelayedDeletionPerIndex).
 */
function podsWithDelayedDeletion(d: SyncDeps, ctx: SyncCtx): Map<number, PodObject> {
  const { keys } = d;
  const activeIndexes = new Set(ctx.activePods.map((p) => validIndex(p, ctx.job, keys)));
  const out = new Map<number, PodObject>();
  const absolute = (p: PodObject) => countAnnotation(p, keys.indexFailureCount) + countAnnotation(p, keys.indexIgnoredFailureCount);
  for (const p of uncountedPods(d, ctx, undefined, (x) => isPodFailed(x, ctx.job))) {
    const ix = validIndex(p, ctx.job, keys);
    if (ctx.succeededIndexes.has(ix) || ctx.failedIndexes?.has(ix) || activeIndexes.has(ix)) continue;
    const last = out.get(ix);
    if (!last || (absolute(last) <= absolute(p) && finishedTime(p) >= finishedTime(last))) out.set(ix, p);
  }
  return out;
}
