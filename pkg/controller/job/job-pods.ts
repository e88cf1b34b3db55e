// What the job controller reads off a job and its pods (upstream's job_controller.go and
// indexed_job_utils.go helpers): finished jobs, the tracking finalizer, completion indexes, which
// pods count as failed or terminating, and which active pods go first when there are too many.
import type { Job } from '../../../api/batch/v1/job.js';
import type { BatchKeys } from '../../../api/batch/v1/well-known.js';
import type { KubeObject } from '../../client/index.js';
import { rankPodsForDeletion, type PodObject } from '../replicaset/pod-ranking.js';

export type JobObject = Job & KubeObject;
export type JobStatus = NonNullable<Job['status']>;
export type JobCondition = NonNullable<JobStatus['conditions']>[number];

export const unknownIndex = -1;

/** Complete or Failed (upstream's IsJobFinished). */
export function isJobFinished(job: Job): boolean {
  return (job.status?.conditions ?? []).some((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
}

export const isIndexed = (job: Job) => job.spec?.completionMode === 'Indexed';
export const isSuspended = (job: Job) => job.spec?.suspend === true;
/** backoffLimitPerIndex (beta, on in 1.30) applies. */
export const hasBackoffLimitPerIndex = (job: Job) => job.spec?.backoffLimitPerIndex !== undefined && job.spec.backoffLimitPerIndex !== null;
/** A replacement waits for the old pod to be Failed, not only terminating (podReplacementPolicy Failed, implied by a podFailurePolicy). */
export const onlyReplaceFailedPods = (job: Job) => job.spec?.podReplacementPolicy === 'Failed' || !!job.spec?.podFailurePolicy;

export const hasTrackingFinalizer = (p: PodObject, keys: BatchKeys) => (p.metadata.finalizers ?? []).includes(keys.trackingFinalizer);

const isTerminal = (p: PodObject) => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';

/** Being deleted but not yet finished (upstream's IsPodTerminating). */
export const isPodTerminating = (p: PodObject) => !!p.metadata.deletionTimestamp && !isTerminal(p);

/** Failed, or (unless only failed pods are replaced) deleted before it succeeded. */
export function isPodFailed(p: PodObject, job: Job): boolean {
  if (p.status?.phase === 'Failed') return true;
  if (onlyReplaceFailedPods(job)) return false;
  return !!p.metadata.deletionTimestamp && p.status?.phase !== 'Succeeded';
}

/** The index of an Indexed job's pod from its annotation, or unknownIndex. */
function completionIndex(p: PodObject, keys: BatchKeys): number {
  const v = p.metadata.annotations?.[keys.completionIndex];
  if (v === undefined || !/^\+?\d+$/.test(v)) return unknownIndex;
  const i = Number(v);
  return Number.isSafeInteger(i) ? i : unknownIndex;
}

/** The index of a pod when it is one of the job's (below completions), else unknownIndex. */
export function validIndex(p: PodObject, job: Job, keys: BatchKeys): number {
  const ix = completionIndex(p, keys);
  return ix !== unknownIndex && ix < (job.spec?.completions ?? 0) ? ix : unknownIndex;
}

/** A count annotation of a pod: 0 when missing, not a number, negative or past int32. */
export function countAnnotation(p: PodObject, key: string): number {
  const v = p.metadata.annotations?.[key];
  if (v === undefined || !/^[+-]?\d+$/.test(v)) return 0;
  const n = Number(v);
  return n < 0 || n > 2147483647 ? 0 : n;
}

/** Upstream's controller.ActivePods order: the pods to delete first come first. */
const byDeletionOrder = (pods: readonly PodObject[]): PodObject[] => rankPodsForDeletion(pods, '', []);

/**
 * The active pods to delete (upstream's activePodsForRemoval): for an Indexed job first every pod
 * without a valid index and all but one of each repeated index, then, to reach `atLeast`, the
 * others in deletion order.
 */
export function activePodsForRemoval(job: Job, pods: readonly PodObject[], atLeast: number, keys: BatchKeys): PodObject[] {
  const rm: PodObject[] = [];
  let left: PodObject[] = [...pods];
  if (isIndexed(job)) {
    left = [];
    const byIndex = new Map<number, PodObject[]>();
    for (const p of pods) {
      const ix = validIndex(p, job, keys);
      if (ix === unknownIndex) rm.push(p);
      else byIndex.set(ix, [...(byIndex.get(ix) ?? []), p]);
    }
    for (const ix of [...byIndex.keys()].sort((a, b) => a - b)) {
      const same = byDeletionOrder(byIndex.get(ix)!);
      rm.push(...same.slice(0, -1));
      left.push(same[same.length - 1]!);
    }
  }
  if (rm.length < atLeast) rm.push(...byDeletionOrder(left).slice(0, atLeast - rm.length));
  return rm;
}

/** The generateName of an index's pod: `<job>-<index>-`, the job name cut to fit 58 characters. */
export function indexedGenerateName(jobName: string, index: number): string {
  const suffix = `-${index}-`;
  const prefix = `${jobName}${suffix}`;
  const maxGenerated = 63 - 5;
  return prefix.length > maxGenerated ? `${prefix.slice(0, maxGenerated - suffix.length)}${suffix}` : prefix;
}
