// One sync of one Job (upstream's syncJob, as kube-controller-manager 1.30 runs it with its
// default feature gates: pod failure policy, backoffLimitPerIndex, podReplacementPolicy and the
// index label on; successPolicy and managedBy off). It counts the job's pods, decides whether the
// job has failed (backoff limit, deadline, failure policy, failed indexes) or completed, creates or
// deletes pods toward parallelism, and writes status through the pods' tracking finalizers: a
// finished pod is first listed in uncountedTerminatedPods, then its finalizer is removed, then it
// is counted, so no pod is counted twice or lost whatever the controller's restarts.
import { formatTime } from '../../../api/meta/v1/primitives.js';
import type { BatchKeys } from '../../../api/batch/v1/well-known.js';
import { isNotFound, objectKey, type EventRecorder, type RateLimitingQueue, type ResourceClient } from '../../client/index.js';
import type { Logger } from '../../log/logger.js';
import type { ControllerExpectations } from '../expectations.js';
import { isPodActive, isPodReady, type PodObject } from '../replicaset/pod-ranking.js';
import { isNamespaceTerminating } from '../serviceaccount/serviceaccounts-controller.js';
import { finishedTime, remainingBackoff, type BackoffRecord, type BackoffStore } from './backoff.js';
import type { FinalizerExpectations } from './finalizer-expectations.js';
import { IndexSet } from './indexes.js';
import {
  activePodsForRemoval, countAnnotation, hasBackoffLimitPerIndex, hasTrackingFinalizer, indexedGenerateName, isIndexed, isJobFinished, isPodFailed,
  isPodTerminating, isSuspended, onlyReplaceFailedPods, unknownIndex, validIndex, type JobCondition, type JobObject, type JobStatus,
} from './job-pods.js';
import { matchPodFailurePolicy } from './pod-failure-policy.js';

/** The most pods one sync creates or deletes, and the most finished pods it counts. */
const maxPodCreateDeletePerSync = 500;
const maxUncountedPods = 500;
/** Upstream's syncJobBatchPeriod: pod events are gathered this long before a sync. */
export const syncJobBatchPeriodMs = 1000;
const slowStartInitialBatchSize = 1;

export interface SyncDeps {
  jobs: ResourceClient<JobObject>;
  pods: ResourceClient<PodObject>;
  recorder: EventRecorder;
  logger: Logger;
  keys: BatchKeys;
  queue: RateLimitingQueue<string>;
  expectations: ControllerExpectations;
  finalizerExpectations: FinalizerExpectations;
  backoff: BackoffStore;
  /** The job's pods after adoption and release (upstream's getPodsForJob). */
  claimPods(job: JobObject): Promise<PodObject[]>;
  now?: () => number;
}

interface SyncCtx {
  key: string;
  job: JobObject;
  pods: PodObject[];
  activePods: PodObject[];
  finished?: JobCondition;
  succeeded: number;
  prevSucceededIndexes: IndexSet;
  succeededIndexes: IndexSet;
  failedIndexes?: IndexSet;
  newBackoff: BackoffRecord;
  expectedRemovals: ReadonlySet<string>;
  uncounted: { succeeded: Set<string>; failed: Set<string> };
  delayedDeletion: Map<number, PodObject>;
  terminating: number;
  ready: number;
}

const errMessage = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Upstream's ensureJobConditionStatus: sets the condition (a False one only when it exists); whether it changed. */
function ensureCondition(status: JobStatus, type: string, value: 'True' | 'False', reason: string, message: string, now: string): boolean {
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

export class JobSyncer {
  private readonly now: () => number;

  constructor(private readonly d: SyncDeps) {
    this.now = d.now ?? Date.now;
  }

  private stamp(): string {
    return formatTime(new Date(this.now()));
  }

  private condition(type: string, reason: string, message: string): JobCondition {
    const t = this.stamp();
    return { type, status: 'True', reason, message, lastProbeTime: t, lastTransitionTime: t };
  }

  private event(job: JobObject, type: 'Normal' | 'Warning', reason: string, message: string): void {
    const m = job.metadata;
    void this.d.recorder.event({ apiVersion: 'batch/v1', kind: 'Job', namespace: m.namespace ?? '', name: m.name ?? '', uid: m.uid ?? '' }, type, reason, message);
  }

  /** Syncs the job cached as `cached` under `key`. */
  async sync(key: string, cached: JobObject | undefined): Promise<void> {
    const { d } = this;
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
    const newSucceeded = this.uncountedPods(ctx, ctx.uncounted.succeeded, (p) => p.status?.phase === 'Succeeded');
    const newFailed = this.uncountedPods(ctx, ctx.uncounted.failed, (p) => isPodFailed(p, job));
    const counted = newFailed.filter((p) => matchPodFailurePolicy(spec.podFailurePolicy, p).countFailed).length;
    ctx.succeeded = (status.succeeded ?? 0) + newSucceeded.length + ctx.uncounted.succeeded.size;
    const failed = (status.failed ?? 0) + counted + ctx.uncounted.failed.size;

    if (!status.startTime && !isSuspended(job)) status.startTime = this.stamp();
    ctx.newBackoff = d.backoff.next(key, newSucceeded, newFailed);

    if (spec.podFailurePolicy) {
      const target = (status.conditions ?? []).find((c) => c.type === 'FailureTarget');
      if (target) ctx.finished = this.condition('Failed', target.reason ?? '', target.message ?? '');
      else {
        const message = pods.filter((p) => isPodFailed(p, job)).map((p) => matchPodFailurePolicy(spec.podFailurePolicy, p).failJobMessage).find((m) => m !== undefined);
        if (message !== undefined) ctx.finished = this.condition('FailureTarget', 'PodFailurePolicy', message);
      }
    }
    if (!ctx.finished) {
      if (failed > (spec.backoffLimit ?? 6) || this.pastBackoffLimitOnFailure(job, pods)) {
        ctx.finished = this.condition('Failed', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit');
      } else if (this.pastActiveDeadline(job)) {
        ctx.finished = this.condition('Failed', 'DeadlineExceeded', 'Job was active longer than specified deadline');
      } else if (spec.activeDeadlineSeconds !== undefined && !isSuspended(job) && status.startTime) {
        const left = spec.activeDeadlineSeconds * 1000 - (this.now() - Date.parse(status.startTime));
        d.logger.v(2).info('Job has activeDeadlineSeconds configuration. Will sync this job again', { key, nextSyncIn: `${Math.max(0, left)}ms` });
        d.queue.addAfter(key, left);
      }
    }

    if (isIndexed(job)) this.countIndexes(ctx);

    let manageError: unknown;
    let suspendChanged = false;
    if (ctx.finished) {
      // Stop what still runs; the job is declared finished once every pod is gone from the active set.
      const { deleted, deletedReady, error } = await this.deleteActivePods(job, activePods);
      if (deleted !== active || !satisfied) ctx.finished = undefined;
      active -= deleted;
      ctx.terminating += deleted;
      ctx.ready -= deletedReady;
      manageError = error;
    } else {
      let managed = false;
      if (satisfied && !job.metadata.deletionTimestamp) {
        ({ active, error: manageError } = await this.manageJob(ctx));
        managed = true;
      }
      const completions = spec.completions;
      const complete = completions === undefined || completions === null ? ctx.succeeded > 0 && active === 0 : ctx.succeeded >= completions && active === 0;
      if (complete) {
        ctx.finished = this.condition('Complete', '', '');
      } else if (managed) {
        // Only a sync that managed the pods reports suspension, so the condition follows what was done.
        const now = this.stamp();
        if (isSuspended(job)) {
          suspendChanged = ensureCondition(status, 'Suspended', 'True', 'JobSuspended', 'Job suspended', now);
          if (suspendChanged) this.event(job, 'Normal', 'Suspended', 'Job suspended');
        } else {
          suspendChanged = ensureCondition(status, 'Suspended', 'False', 'JobResumed', 'Job resumed', now);
          if (suspendChanged) {
            this.event(job, 'Normal', 'Resumed', 'Job resumed');
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
    await this.trackStatusAndRemoveFinalizers(ctx, needsUpdate);
    if (manageError !== undefined) throw manageError;
  }

  /** Finished pods not yet counted (upstream's getValidPodsWithFilter): with the finalizer, not listed, of a valid index. */
  private uncountedPods(ctx: SyncCtx, listed: ReadonlySet<string> | undefined, filter: (p: PodObject) => boolean): PodObject[] {
    const { keys } = this.d;
    return ctx.pods.filter((p) => {
      const uid = p.metadata.uid ?? '';
      if (!hasTrackingFinalizer(p, keys) || listed?.has(uid) || ctx.expectedRemovals.has(uid)) return false;
      if (isIndexed(ctx.job) && validIndex(p, ctx.job, keys) === unknownIndex) return false;
      return filter(p);
    });
  }

  /** restartPolicy OnFailure: the restarts of the running pods reach backoffLimit (any restart, for a limit of 0). */
  private pastBackoffLimitOnFailure(job: JobObject, pods: readonly PodObject[]): boolean {
    if (job.spec?.template?.spec?.restartPolicy !== 'OnFailure') return false;
    let restarts = 0;
    for (const p of pods) {
      if (p.status?.phase !== 'Running' && p.status?.phase !== 'Pending') continue;
      for (const c of [...(p.status?.initContainerStatuses ?? []), ...(p.status?.containerStatuses ?? [])]) restarts += c.restartCount ?? 0;
    }
    const limit = job.spec.backoffLimit ?? 6;
    return limit === 0 ? restarts > 0 : restarts >= limit;
  }

  private pastActiveDeadline(job: JobObject): boolean {
    const ads = job.spec?.activeDeadlineSeconds;
    const start = job.status?.startTime;
    if (ads === undefined || !start || isSuspended(job)) return false;
    return this.now() - Date.parse(start) >= ads * 1000;
  }

  /** Succeeded and (with backoffLimitPerIndex) failed indexes, and the failures that end an Indexed job. */
  private countIndexes(ctx: SyncCtx): void {
    const { job } = ctx;
    const { keys } = this.d;
    const completions = job.spec?.completions ?? 0;
    ctx.prevSucceededIndexes = IndexSet.parse(job.status?.completedIndexes, completions);
    const newlySucceeded = ctx.pods.filter((p) => p.status?.phase === 'Succeeded' && hasTrackingFinalizer(p, keys)).map((p) => validIndex(p, job, keys));
    ctx.succeededIndexes = ctx.prevSucceededIndexes.with(newlySucceeded.filter((i) => i !== unknownIndex));
    ctx.succeeded = ctx.succeededIndexes.total();
    if (!hasBackoffLimitPerIndex(job)) return;
    const newlyFailed = ctx.pods.filter((p) => hasTrackingFinalizer(p, keys) && this.isIndexFailed(job, p)).map((p) => validIndex(p, job, keys));
    const failedIndexes = IndexSet.parse(job.status?.failedIndexes, completions).with(newlyFailed.filter((i) => i !== unknownIndex));
    ctx.failedIndexes = failedIndexes;
    if (!ctx.finished) {
      const max = job.spec?.maxFailedIndexes;
      if (max !== undefined && max !== null && failedIndexes.total() > max) {
        ctx.finished = this.condition('Failed', 'MaxFailedIndexesExceeded', 'Job has exceeded the specified maximal number of failed indexes');
      } else if (failedIndexes.total() > 0 && failedIndexes.total() + ctx.succeededIndexes.total() >= completions) {
        ctx.finished = this.condition('Failed', 'FailedIndexes', 'Job has failed indexes');
      }
    }
    ctx.delayedDeletion = this.podsWithDelayedDeletion(ctx);
  }

  /** The pod's failure fails its index: a FailIndex rule, or a counted failure with the index out of retries. */
  private isIndexFailed(job: JobObject, p: PodObject): boolean {
    if (!isPodFailed(p, job)) return false;
    const m = matchPodFailurePolicy(job.spec?.podFailurePolicy, p);
    if (m.action === 'FailIndex') return true;
    return m.countFailed && countAnnotation(p, this.d.keys.indexFailureCount) >= (job.spec?.backoffLimitPerIndex ?? 0);
  }

  /**
   * Per index, the last failed pod to keep (its finalizer stays) until its replacement exists, so
   * the replacement can carry the index's failure count (upstream's getPodsWithDelayedDeletionPerIndex).
   */
  private podsWithDelayedDeletion(ctx: SyncCtx): Map<number, PodObject> {
    const { keys } = this.d;
    const activeIndexes = new Set(ctx.activePods.map((p) => validIndex(p, ctx.job, keys)));
    const out = new Map<number, PodObject>();
    const absolute = (p: PodObject) => countAnnotation(p, keys.indexFailureCount) + countAnnotation(p, keys.indexIgnoredFailureCount);
    for (const p of this.uncountedPods(ctx, undefined, (x) => isPodFailed(x, ctx.job))) {
      const ix = validIndex(p, ctx.job, keys);
      if (ctx.succeededIndexes.has(ix) || ctx.failedIndexes?.has(ix) || activeIndexes.has(ix)) continue;
      const last = out.get(ix);
      if (!last || (absolute(last) <= absolute(p) && finishedTime(p) >= finishedTime(last))) out.set(ix, p);
    }
    return out;
  }

  /** Deletes the active pods of a finished job, keeping their finalizers for the counting that follows. */
  private async deleteActivePods(job: JobObject, pods: readonly PodObject[]): Promise<{ deleted: number; deletedReady: number; error?: unknown }> {
    let deleted = 0;
    let deletedReady = 0;
    let error: unknown;
    await Promise.all(pods.map(async (p) => {
      try {
        await this.deletePod(job, p);
      } catch (e) {
        if (!isNotFound(e)) {
          error ??= e;
          return;
        }
      }
      deleted++;
      if (isPodReady(p)) deletedReady++;
    }));
    return { deleted, deletedReady, ...(error !== undefined ? { error } : {}) };
  }

  /** Deletes a pod with upstream's podControl events; a NotFound is thrown without an event. */
  private async deletePod(job: JobObject, p: PodObject): Promise<void> {
    const name = p.metadata.name ?? '';
    try {
      await this.d.pods.namespace(p.metadata.namespace ?? '').delete(name);
    } catch (e) {
      if (!isNotFound(e)) this.event(job, 'Warning', 'FailedDelete', `Error deleting: ${errMessage(e)}`);
      throw e;
    }
    this.event(job, 'Normal', 'SuccessfulDelete', `Deleted pod: ${name}`);
  }

  private removeFinalizer(p: PodObject): Promise<PodObject> {
    return this.d.pods.namespace(p.metadata.namespace ?? '').patch(p.metadata.name ?? '', 'strategic', {
      metadata: { [`$deleteFromPrimitiveList/finalizers`]: [this.d.keys.trackingFinalizer] },
    });
  }

  /** Removes the pods' finalizers and deletes them (surplus pods, or a suspended job's). */
  private async deleteJobPods(ctx: SyncCtx, pods: readonly PodObject[]): Promise<{ deleted: number; deletedReady: number; error?: unknown }> {
    const { d } = this;
    d.expectations.expectDeletions(ctx.key, pods.map(objectKey));
    let deleted = 0;
    let deletedReady = 0;
    let error: unknown;
    await Promise.all(pods.map(async (p) => {
      try {
        if (hasTrackingFinalizer(p, d.keys)) await this.removeFinalizer(p);
        await this.deletePod(ctx.job, p);
        deleted++;
        if (isPodReady(p)) deletedReady++;
      } catch (e) {
        // The informer will not see this deletion.
        d.expectations.deletionObserved(ctx.key, objectKey(p));
        if (isNotFound(e)) {
          deleted++;
          return;
        }
        d.logger.v(2).info('Failed to delete Pod', { job: ctx.key, pod: p.metadata.name, err: errMessage(e) });
        error ??= e;
      }
    }));
    return { deleted, deletedReady, ...(error !== undefined ? { error } : {}) };
  }

  /**
   * Creates or deletes pods toward the wanted number of active ones (upstream's manageJob): the
   * active count it reached, and the first failure, if any.
   */
  private async manageJob(ctx: SyncCtx): Promise<{ active: number; error?: unknown }> {
    const { d } = this;
    const { job, key } = ctx;
    const spec = job.spec!;
    let active = ctx.activePods.length;
    const removeSome = async (victims: PodObject[]) => {
      const r = await this.deleteJobPods(ctx, victims);
      active -= r.deleted;
      ctx.terminating += r.deleted;
      ctx.ready -= r.deletedReady;
      return { active, error: r.error };
    };
    if (isSuspended(job)) {
      d.logger.v(4).info('Deleting all active pods in suspended job', { job: key, active });
      return removeSome(activePodsForRemoval(job, ctx.activePods, active, d.keys));
    }
    const parallelism = spec.parallelism ?? 1;
    let wantActive: number;
    if (spec.completions === undefined || spec.completions === null) {
      // Without completions, once one pod succeeded the others are left to finish.
      wantActive = ctx.succeeded > 0 ? active : parallelism;
    } else {
      wantActive = Math.max(0, Math.min(spec.completions - ctx.succeeded, parallelism));
    }
    const victims = activePodsForRemoval(job, ctx.activePods, Math.max(0, active - wantActive), d.keys).slice(0, maxPodCreateDeletePerSync);
    if (victims.length > 0) {
      d.logger.v(4).info('Too many pods running for job', { job: key, deleted: victims.length, target: wantActive });
      return removeSome(victims);
    }
    const terminating = onlyReplaceFailedPods(job) ? ctx.terminating : 0;
    let diff = wantActive - terminating - active;
    if (diff <= 0) return { active };
    if (!hasBackoffLimitPerIndex(job)) {
      const wait = remainingBackoff(this.now(), ctx.newBackoff.failuresAfterLastSuccess, ctx.newBackoff.lastFailureTime);
      if (wait > 0) {
        d.queue.addAfter(key, Math.max(wait, syncJobBatchPeriodMs));
        return { active };
      }
    }
    diff = Math.min(diff, maxPodCreateDeletePerSync);
    let indexes: number[] = [];
    if (isIndexed(job)) {
      indexes = this.firstPendingIndexes(ctx, diff);
      if (hasBackoffLimitPerIndex(job)) {
        const waits = indexes.map((ix) => {
          const last = ctx.delayedDeletion.get(ix);
          return last ? remainingBackoff(this.now(), countAnnotation(last, d.keys.indexFailureCount) + countAnnotation(last, d.keys.indexIgnoredFailureCount) + 1, finishedTime(last)) : 0;
        });
        const now = indexes.filter((_, i) => waits[i] === 0);
        if (now.length === 0 && indexes.length > 0) {
          d.queue.addAfter(key, Math.max(Math.min(...waits), syncJobBatchPeriodMs));
          return { active };
        }
        indexes = now;
      }
      diff = indexes.length;
    }
    if (diff === 0) return { active };
    d.expectations.expectCreations(key, diff);
    d.logger.v(4).info('Too few pods running', { key, need: wantActive, creating: diff });
    active += diff;
    let firstError: unknown;
    let remaining = diff;
    // Slow start: batches of 1, 2, 4, ... so a job that cannot create pods stops after one failure.
    for (let batch = Math.min(remaining, slowStartInitialBatchSize); remaining > 0; batch = Math.min(2 * batch, remaining)) {
      const batchIndexes = indexes.splice(0, batch);
      const results = await Promise.allSettled(Array.from({ length: batch }, (_, i) => this.createPod(ctx, batchIndexes[i] ?? unknownIndex)));
      let failedNow = false;
      for (const r of results) {
        if (r.status === 'fulfilled') continue;
        if (isNamespaceTerminating(r.reason)) continue;
        d.logger.v(2).info('Failed creation, decrementing expectations', { job: key });
        d.expectations.creationObserved(key);
        active--;
        firstError ??= r.reason;
        failedNow = true;
      }
      remaining -= batch;
      if (failedNow && remaining > 0) {
        d.logger.v(2).info('Slow-start failure. Skipping creating pods, decrementing expectations', { skippedCount: remaining, job: key });
        active -= remaining;
        for (let i = 0; i < remaining; i++) d.expectations.creationObserved(key);
        break;
      }
    }
    return { active, error: firstError };
  }

  /** The first `count` indexes neither succeeded, failed, running nor (when only failed pods are replaced) terminating. */
  private firstPendingIndexes(ctx: SyncCtx, count: number): number[] {
    const { job } = ctx;
    const { keys } = this.d;
    const indexesOf = (pods: readonly PodObject[]) => pods.map((p) => validIndex(p, job, keys)).filter((i) => i !== unknownIndex);
    let taken = ctx.succeededIndexes.with(indexesOf(ctx.activePods));
    if (onlyReplaceFailedPods(job)) taken = taken.with(indexesOf(ctx.pods.filter(isPodTerminating)));
    if (ctx.failedIndexes) taken = taken.merge(ctx.failedIndexes);
    return taken.firstMissing(count, job.spec?.completions ?? 0);
  }

  /** Creates one pod from the template (upstream's CreatePodsWithGenerateName), of `index` for an Indexed job. */
  private async createPod(ctx: SyncCtx, index: number): Promise<void> {
    const { d } = this;
    const { job } = ctx;
    const ns = job.metadata.namespace ?? '';
    const template = structuredClone(job.spec!.template);
    const meta = template.metadata ?? {};
    const spec = template.spec!;
    const labels = { ...(meta.labels ?? {}) };
    const annotations = { ...(meta.annotations ?? {}) };
    let generateName = `${job.metadata.name}-`;
    if (index !== unknownIndex) {
      for (const c of [...(spec.initContainers ?? []), ...spec.containers]) {
        if ((c.env ?? []).some((e) => e.name === 'JOB_COMPLETION_INDEX')) continue;
        c.env = [...(c.env ?? []), { name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { fieldPath: `metadata.annotations['${d.keys.completionIndex}']` } } }];
      }
      annotations[d.keys.completionIndex] = String(index);
      labels[d.keys.completionIndex] = String(index);
      spec.hostname = `${job.metadata.name}-${index}`;
      generateName = indexedGenerateName(job.metadata.name ?? '', index);
      if (hasBackoffLimitPerIndex(job)) {
        const replaced = ctx.delayedDeletion.get(index);
        let failures = 0;
        let ignored = 0;
        if (replaced) {
          failures = countAnnotation(replaced, d.keys.indexFailureCount);
          ignored = countAnnotation(replaced, d.keys.indexIgnoredFailureCount);
          if (matchPodFailurePolicy(job.spec?.podFailurePolicy, replaced).countFailed) failures++;
          else ignored++;
        }
        annotations[d.keys.indexFailureCount] = String(failures);
        if (ignored > 0) annotations[d.keys.indexIgnoredFailureCount] = String(ignored);
      }
    }
    const finalizers = [...(meta.finalizers ?? [])];
    if (!finalizers.includes(d.keys.trackingFinalizer)) finalizers.push(d.keys.trackingFinalizer);
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        generateName, namespace: ns, labels, annotations, finalizers,
        ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: job.metadata.name ?? '', uid: job.metadata.uid ?? '', controller: true, blockOwnerDeletion: true }],
      },
      spec,
    } as PodObject;
    let created: PodObject;
    try {
      created = await d.pods.namespace(ns).create(pod);
    } catch (e) {
      if (!isNamespaceTerminating(e)) this.event(job, 'Warning', 'FailedCreate', `Error creating: ${errMessage(e)}`);
      throw e;
    }
    d.logger.v(4).info('Controller created pod', { job: ctx.key, pod: created.metadata.name });
    this.event(job, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name}`);
  }

  /** Whether a pod's finalizer may go now (upstream's canRemoveFinalizer). */
  private canRemoveFinalizer(ctx: SyncCtx, p: PodObject, failed: boolean): boolean {
    if (ctx.job.metadata.deletionTimestamp || ctx.finished || p.status?.phase === 'Succeeded') return true;
    if (!failed) return false;
    if (hasBackoffLimitPerIndex(ctx.job)) {
      const ix = validIndex(p, ctx.job, this.d.keys);
      if (ix !== unknownIndex && ctx.delayedDeletion.get(ix)?.metadata.uid === p.metadata.uid) {
        this.d.logger.v(3).info('Delaying pod finalizer removal to await for pod recreation within the index', { pod: objectKey(p) });
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
  private async trackStatusAndRemoveFinalizers(ctx: SyncCtx, needsFlush: boolean): Promise<void> {
    const { d } = this;
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
      if (!this.canRemoveFinalizer(ctx, p, failed)) continue;
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
      ctx.finished = this.condition('Failed', ctx.finished.reason ?? '', ctx.finished.message ?? '');
    }

    if (needsFlush) {
      ctx.job = await this.updateStatus(ctx.job, 'adding uncounted pods to status');
      d.backoff.update(ctx.newBackoff);
      needsFlush = false;
    }
    let removeError: unknown;
    if (toRemove.length > 0) {
      d.finalizerExpectations.expectRemoved(ctx.key, toRemove.map((p) => p.metadata.uid ?? ''));
      await Promise.all(toRemove.map(async (p) => {
        const uid = p.metadata.uid ?? '';
        try {
          await this.removeFinalizer(p);
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
      if (needsFlush) await this.updateStatus(ctx.job, 'removing uncounted pods from status');
      throw removeError;
    }
    const finished = !reachedMax && this.enactFinished(ctx);
    if (finished || needsFlush) {
      ctx.job = await this.updateStatus(ctx.job, 'removing uncounted pods from status');
      if (finished) this.recordFinished(ctx.job, ctx.finished!);
    }
  }

  private async updateStatus(job: JobObject, what: string): Promise<JobObject> {
    try {
      return await this.d.jobs.namespace(job.metadata.namespace ?? '').updateStatus(job);
    } catch (e) {
      throw Object.assign(e instanceof Error ? e : new Error(String(e)), { message: `${what}: ${errMessage(e)}` });
    }
  }

  /** Adds the Complete or Failed condition once nothing is left uncounted; whether it did. */
  private enactFinished(ctx: SyncCtx): boolean {
    const f = ctx.finished;
    if (!f) return false;
    const status = ctx.job.status!;
    const u = status.uncountedTerminatedPods;
    if ((u?.succeeded ?? []).length + (u?.failed ?? []).length > 0) {
      this.d.logger.v(4).info('Delaying marking the Job as finished, because there are still uncounted pod(s)', { job: ctx.key, condition: f.type });
      return false;
    }
    ensureCondition(status, f.type, 'True', f.reason ?? '', f.message ?? '', this.stamp());
    if (f.type === 'Complete') status.completionTime = f.lastTransitionTime;
    return true;
  }

  private recordFinished(job: JobObject, f: JobCondition): void {
    if (f.type === 'Complete') {
      const completions = job.spec?.completions;
      if (completions !== undefined && completions !== null && (job.status?.succeeded ?? 0) > completions) {
        this.event(job, 'Warning', 'TooManySucceededPods', 'Too many succeeded pods running after completion count reached');
      }
      this.event(job, 'Normal', 'Completed', 'Job completed');
    } else {
      this.event(job, 'Warning', f.reason ?? '', f.message ?? '');
    }
  }
}
