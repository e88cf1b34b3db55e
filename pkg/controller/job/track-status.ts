// Counting a Job's finished pods through their tracking finalizers (upstream's
// trackJobStatusAndRemoveFinalizers): a finished pod is first listed in
// status.uncountedTerminatedPods (written before anything else), then its finalizer is removed,
// then it moves into the counters, so no pod is counted twice or lost whatever the controller's
// restarts; the job is marked finished once nothing is left uncounted.
import { isNotFound, objectKey } from '../../client/index.js';
import type { PodObject } from '../replicaset/pod-ranking.js';
import { hasBackoffLimitPerIndex, hasTrackingFinalizer, isIndexed, isPodFailed, unknownIndex, validIndex, type JobCondition, type JobObject, type JobStatus } from './job-pods.js';
import { removeFinalizer } from './manage-pods.js';
import { matchPodFailurePolicy } from './pod-failure-policy.js';
import { errMessage, jobEvent, newCondition, stamp, type SyncCtx, type SyncDeps } from './sync-context.js';

/** The most finished pods one sync lists as uncounted: keeps status under about 20 KB. */
const maxUncountedPods = 500;

/** Upstream's ensureJobConditionStatus: sets the condition (a False one only when it exists); whether it changed. */
export function ensureCondition(status: JobStatus, type: string, value: 'True' | 'False', reason: string, message: string, now: string): boolean {
  const conditions = status.conditions ?? [];
  const i = conditions.findIndex((c) => c.type === type);
  const fresh: JobCondition = { type, status: value, reason, message, lastProbeTime: now, lastTransitionTime: now };
  if (i >= 0) {
    const c = conditions[i]!;
    if (c.status === value && (c.reason ?? '') === reason && (c.message ?? '') === message) return false;
    conditions[i] = fresh;
    status.conditions = conditions;
    return true;
  }
  if (value === 'False') return false;
  status.conditions = [...conditions, fresh];
  return true;
}

/** Moves the uncounted pods whose finalizer is gone into the counters; whether anything moved. */
function countPodsWithoutFinalizers(status: JobStatus, withFinalizer: ReadonlySet<string>): boolean {
  const u = (status.uncountedTerminatedPods ??= {});
  let changed = false;
  for (const k of ['succeeded', 'failed'] as const) {
    const list = u[k] ?? [];
    const kept = list.filter((uid) => withFinalizer.has(uid));
    if (kept.length === list.length) continue;
    changed = true;
    status[k] = (status[k] ?? 0) + list.length - kept.length;
    if (kept.length > 0) u[k] = kept;
    else delete u[k];
  }
  return changed;
}

/** Whether a pod's finalizer may go now (upstream's canRemoveFinalizer). */
function canRemoveFinalizer(d: SyncDeps, ctx: SyncCtx, p: PodObject, failed: boolean): boolean {
  if (ctx.job.metadata.deletionTimestamp || ctx.finished || p.status?.phase === 'Succeeded') return true;
  if (!failed) return false;
  if (hasBackoffLimitPerIndex(ctx.job)) {
    const ix = validIndex(p, ctx.job, d.keys);
    if (ix !== unknownIndex && ctx.delayedDeletion.get(ix)?.metadata.uid === p.metadata.uid) {
      d.logger.v(3).info('Delaying pod finalizer removal to await for pod recreation within the index', { pod: objectKey(p) });
      return false;
    }
  }
  return true;
}

/**
 * Upstream's trackJobStatusAndRemoveFinalizers: lists finished pods in uncountedTerminatedPods
 * (flushing that first), removes their finalizers, counts those whose finalizer went, and marks
 * the job finished once nothing is left uncounted. At most maxUncountedPods per sync.
 */
export async function trackStatusAndRemoveFinalizers(d: SyncDeps, ctx: SyncCtx, needsFlush: boolean): Promise<void> {
  const { keys } = d;
  const job = ctx.job;
  const status = job.status!;
  const uncounted = (status.uncountedTerminatedPods ??= {});
  const indexed = isIndexed(job);
  if (indexed) ctx.pods.sort((a, b) => validIndex(a, job, keys) - validIndex(b, job, keys));
  const withFinalizer = new Set(ctx.pods.filter((p) => hasTrackingFinalizer(p, keys) && !ctx.expectedRemovals.has(p.metadata.uid ?? '')).map((p) => p.metadata.uid ?? ''));
  if (countPodsWithoutFinalizers(status, withFinalizer)) needsFlush = true;
  const toRemove: PodObject[] = [];
  const newSucceededIndexes: number[] = [];
  let reachedMax = false;
  for (const p of ctx.pods) {
    const uid = p.metadata.uid ?? '';
    if (!hasTrackingFinalizer(p, keys) || ctx.expectedRemovals.has(uid)) continue;
    const failed = isPodFailed(p, job);
    if (!canRemoveFinalizer(d, ctx, p, failed)) continue;
    toRemove.push(p);
    if (p.status?.phase === 'Succeeded' && !ctx.uncounted.failed.has(uid)) {
      if (indexed) {
        const ix = validIndex(p, job, keys);
        if (ix !== unknownIndex && !ctx.prevSucceededIndexes.has(ix)) {
          newSucceededIndexes.push(ix);
          needsFlush = true;
        }
      } else if (!ctx.uncounted.succeeded.has(uid)) {
        needsFlush = true;
        uncounted.succeeded = [...(uncounted.succeeded ?? []), uid];
      }
    } else if (failed || ctx.finished) {
      // A job that finished counts every pod it stops as failed.
      if (!ctx.uncounted.failed.has(uid) && (!indexed || validIndex(p, job, keys) !== unknownIndex)) {
        if (matchPodFailurePolicy(job.spec?.podFailurePolicy, p).countFailed) {
          needsFlush = true;
          uncounted.failed = [...(uncounted.failed ?? []), uid];
        }
      }
    }
    if (newSucceededIndexes.length + (uncounted.succeeded ?? []).length + (uncounted.failed ?? []).length >= maxUncountedPods) {
      // Keep status small and leave time to other jobs: the status and pod updates bring this one back.
      reachedMax = true;
      break;
    }
  }
  if (indexed) {
    ctx.succeededIndexes = ctx.succeededIndexes.with(newSucceededIndexes);
    const completed = ctx.succeededIndexes.toString();
    if (completed !== (status.completedIndexes ?? '')) needsFlush = true;
    status.succeeded = ctx.succeededIndexes.total();
    status.completedIndexes = completed;
    const failedIndexes = ctx.failedIndexes?.toString();
    if (failedIndexes !== status.failedIndexes) {
      if (failedIndexes === undefined) delete status.failedIndexes;
      else status.failedIndexes = failedIndexes;
      needsFlush = true;
    }
  }
  if (ctx.finished?.type === 'FailureTarget') {
    // Recorded before the finalizers go, so the reason survives the pods; Failed follows once they are counted.
    status.conditions = [...(status.conditions ?? []), ctx.finished];
    needsFlush = true;
    ctx.finished = newCondition(d, 'Failed', ctx.finished.reason ?? '', ctx.finished.message ?? '');
  }

  if (needsFlush) {
    ctx.job = await updateStatus(d, ctx.job, 'adding uncounted pods to status');
    d.backoff.update(ctx.newBackoff);
    needsFlush = false;
  }
  let removeError: unknown;
  if (toRemove.length > 0) {
    d.finalizerExpectations.expectRemoved(ctx.key, toRemove.map((p) => p.metadata.uid ?? ''));
    await Promise.all(toRemove.map(async (p) => {
      const uid = p.metadata.uid ?? '';
      try {
        await removeFinalizer(d, p);
      } catch (e) {
        // No update will show the finalizer gone.
        d.finalizerExpectations.observed(ctx.key, uid);
        if (!isNotFound(e)) {
          removeError ??= e;
          return;
        }
      }
      withFinalizer.delete(uid);
    }));
  }
  const current = ctx.job.status ??= {};
  if (countPodsWithoutFinalizers(current, withFinalizer)) needsFlush = true;
  if (removeError !== undefined) {
    if (needsFlush) await updateStatus(d, ctx.job, 'removing uncounted pods from status');
    throw removeError;
  }
  const finished = !reachedMax && enactFinished(d, ctx);
  if (finished || needsFlush) {
    ctx.job = await updateStatus(d, ctx.job, 'removing uncounted pods from status');
    if (finished) recordFinished(d, ctx.job, ctx.finished!);
  }
}

async function updateStatus(d: SyncDeps, job: JobObject, what: string): Promise<JobObject> {
  try {
    return await d.jobs.namespace(job.metadata.namespace ?? '').updateStatus(job);
  } catch (e) {
    throw Object.assign(e instanceof Error ? e : new Error(String(e)), { message: `${what}: ${errMessage(e)}` });
  }
}

/** Adds the Complete or Failed condition once nothing is left uncounted; whether it did. */
function enactFinished(d: SyncDeps, ctx: SyncCtx): boolean {
  const f = ctx.finished;
  if (!f) return false;
  const status = ctx.job.status!;
  const u = status.uncountedTerminatedPods;
  if ((u?.succeeded ?? []).length + (u?.failed ?? []).length > 0) {
    d.logger.v(4).info('Delaying marking the Job as finished, because there are still uncounted pod(s)', { job: ctx.key, condition: f.type });
    return false;
  }
  ensureCondition(status, f.type, 'True', f.reason ?? '', f.message ?? '', stamp(d));
  if (f.type === 'Complete') status.completionTime = f.lastTransitionTime;
  return true;
}

function recordFinished(d: SyncDeps, job: JobObject, f: JobCondition): void {
  if (f.type === 'Complete') {
    const completions = job.spec?.completions;
    if (completions !== undefined && completions !== null && (job.status?.succeeded ?? 0) > completions) {
      jobEvent(d, job, 'Warning', 'TooManySucceededPods', 'Too many succeeded pods running after completion count reached');
    }
    jobEvent(d, job, 'Normal', 'Completed', 'Job completed');
  } else {
    jobEvent(d, job, 'Warning', f.reason ?? '', f.message ?? '');
  }
}
