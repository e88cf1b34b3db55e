// Creating and deleting a Job's pods (upstream's manageJob and podControl): toward the wanted
// number of active pods, in slow-start batches, respecting the pod failure backoff, each pod made
// from the template with the tracking finalizer (and, for an Indexed job, its index); surplus pods
// lose the finalizer before they are deleted. Events as upstream's podControl records them.
import { isNotFound, objectKey } from '../../client/index.js';
import { isPodReady, type PodObject } from '../replicaset/pod-ranking.js';
import { isNamespaceTerminating } from '../serviceaccount/serviceaccounts-controller.js';
import { finishedTime, remainingBackoff } from './backoff.js';
import {
  activePodsForRemoval, countAnnotation, hasBackoffLimitPerIndex, hasTrackingFinalizer, indexedGenerateName, isIndexed, isPodTerminating, isSuspended,
  onlyReplaceFailedPods, unknownIndex, validIndex, type JobObject,
} from './job-pods.js';
import { matchPodFailurePolicy } from './pod-failure-policy.js';
import { errMessage, jobEvent, syncJobBatchPeriodMs, type SyncCtx, type SyncDeps } from './sync-context.js';

/** The most pods one sync creates or deletes. */
const maxPodCreateDeletePerSync = 500;
const slowStartInitialBatchSize = 1;

interface Deleted {
  deleted: number;
  deletedReady: number;
  error?: unknown;
}

/** Deletes a pod with upstream's podControl events; a NotFound is thrown without an event. */
async function deletePod(d: SyncDeps, job: JobObject, p: PodObject): Promise<void> {
  const name = p.metadata.name ?? '';
  try {
    await d.pods.namespace(p.metadata.namespace ?? '').delete(name);
  } catch (e) {
    if (!isNotFound(e)) jobEvent(d, job, 'Warning', 'FailedDelete', `Error deleting: ${errMessage(e)}`);
    throw e;
  }
  jobEvent(d, job, 'Normal', 'SuccessfulDelete', `Deleted pod: ${name}`);
}

export function removeFinalizer(d: SyncDeps, p: PodObject): Promise<PodObject> {
  return d.pods.namespace(p.metadata.namespace ?? '').patch(p.metadata.name ?? '', 'strategic', {
    metadata: { [`$deleteFromPrimitiveList/finalizers`]: [d.keys.trackingFinalizer] },
  });
}

/**
 * Deletes pods, counting those gone. With `removeFinalizers` (surplus pods, a suspended job's) they
 * go at once, awaited as expected deletions; without (a finished job's active pods) they keep the
 * finalizer until track-status.ts has counted them.
 */
export async function deletePods(d: SyncDeps, ctx: SyncCtx, pods: readonly PodObject[], removeFinalizers: boolean): Promise<Deleted> {
  if (removeFinalizers) d.expectations.expectDeletions(ctx.key, pods.map(objectKey));
  let deleted = 0;
  let deletedReady = 0;
  let error: unknown;
  await Promise.all(pods.map(async (p) => {
    try {
      if (removeFinalizers && hasTrackingFinalizer(p, d.keys)) await removeFinalizer(d, p);
      await deletePod(d, ctx.job, p);
    } catch (e) {
      // The informer will not see this deletion.
      if (removeFinalizers) d.expectations.deletionObserved(ctx.key, objectKey(p));
      if (!isNotFound(e)) {
        d.logger.v(2).info('Failed to delete Pod', { job: ctx.key, pod: p.metadata.name, err: errMessage(e) });
        error ??= e;
        return;
      }
    }
    deleted++;
    if (isPodReady(p)) deletedReady++;
  }));
  return { deleted, deletedReady, ...(error !== undefined ? { error } : {}) };
}

/**
 * Creates or deletes pods toward the wanted number of active ones (upstream's manageJob): the
 * active count it reached, and the first failure, if any.
 */
export async function manageJob(d: SyncDeps, ctx: SyncCtx): Promise<{ active: number; error?: unknown }> {
  const { job, key } = ctx;
  const spec = job.spec!;
  let active = ctx.activePods.length;
  const removeSome = async (victims: PodObject[]) => {
    const r = await deletePods(d, ctx, victims, true);
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
    const wait = remainingBackoff(d.now(), ctx.newBackoff.failuresAfterLastSuccess, ctx.newBackoff.lastFailureTime);
    if (wait > 0) {
      d.queue.addAfter(key, Math.max(wait, syncJobBatchPeriodMs));
      return { active };
    }
  }
  diff = Math.min(diff, maxPodCreateDeletePerSync);
  let indexes: number[] = [];
  if (isIndexed(job)) {
    indexes = firstPendingIndexes(d, ctx, diff);
    if (hasBackoffLimitPerIndex(job)) {
      const waits = indexes.map((ix) => {
        const last = ctx.delayedDeletion.get(ix);
        return last ? remainingBackoff(d.now(), countAnnotation(last, d.keys.indexFailureCount) + countAnnotation(last, d.keys.indexIgnoredFailureCount) + 1, finishedTime(last)) : 0;
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
    const results = await Promise.allSettled(Array.from({ length: batch }, (_, i) => createPod(d, ctx, batchIndexes[i] ?? unknownIndex)));
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
function firstPendingIndexes(d: SyncDeps, ctx: SyncCtx, count: number): number[] {
  const { job } = ctx;
  const { keys } = d;
  const indexesOf = (pods: readonly PodObject[]) => pods.map((p) => validIndex(p, job, keys)).filter((i) => i !== unknownIndex);
  let taken = ctx.succeededIndexes.with(indexesOf(ctx.activePods));
  if (onlyReplaceFailedPods(job)) taken = taken.with(indexesOf(ctx.pods.filter(isPodTerminating)));
  if (ctx.failedIndexes) taken = taken.merge(ctx.failedIndexes);
  return taken.firstMissing(count, job.spec?.completions ?? 0);
}

/** Creates one pod from the template (upstream's CreatePodsWithGenerateName), of `index` for an Indexed job. */
async function createPod(d: SyncDeps, ctx: SyncCtx, index: number): Promise<void> {
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
    if (!isNamespaceTerminating(e)) jobEvent(d, job, 'Warning', 'FailedCreate', `Error creating: ${errMessage(e)}`);
    throw e;
  }
  d.logger.v(4).info('Controller created pod', { job: ctx.key, pod: created.metadata.name });
  jobEvent(d, job, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name}`);
}
