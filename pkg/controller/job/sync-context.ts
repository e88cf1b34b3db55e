// What one sync of one Job works with: the controller's clients, queues and expectations
// (SyncDeps), and what the sync learned of the job and its pods so far (SyncCtx), shared by the
// steps in sync.ts, manage-pods.ts and track-status.ts.
import { formatTime } from '../../../api/meta/v1/primitives.js';
import type { BatchKeys } from '../../../api/batch/v1/well-known.js';
import type { EventRecorder, RateLimitingQueue, ResourceClient } from '../../client/index.js';
import type { Logger } from '../../log/logger.js';
import type { ControllerExpectations } from '../expectations.js';
import type { PodObject } from '../replicaset/pod-ranking.js';
import type { BackoffRecord, BackoffStore } from './backoff.js';
import type { FinalizerExpectations } from './finalizer-expectations.js';
import type { IndexSet } from './indexes.js';
import type { JobCondition, JobObject } from './job-pods.js';

/** Upstream's syncJobBatchPeriod: pod events are gathered this long before a sync. */
export const syncJobBatchPeriodMs = 1000;

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
  now: () => number;
}

export interface SyncCtx {
  key: string;
  /** The working copy of the job; replaced by the server's answer after each status write. */
  job: JobObject;
  pods: PodObject[];
  activePods: PodObject[];
  /** The condition the job finishes with (FailureTarget first for a FailJob rule), once decided. */
  finished?: JobCondition;
  succeeded: number;
  prevSucceededIndexes: IndexSet;
  succeededIndexes: IndexSet;
  failedIndexes?: IndexSet;
  newBackoff: BackoffRecord;
  /** Pods whose finalizer removal the informer has not shown yet. */
  expectedRemovals: ReadonlySet<string>;
  uncounted: { succeeded: Set<string>; failed: Set<string> };
  /** With backoffLimitPerIndex: per index, the failed pod kept until its replacement exists. */
  delayedDeletion: Map<number, PodObject>;
  terminating: number;
  ready: number;
}

export const errMessage = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The time now as status fields carry it. */
export const stamp = (d: SyncDeps): string => formatTime(new Date(d.now()));

/** A True condition of the job, as of now. */
export function newCondition(d: SyncDeps, type: string, reason: string, message: string): JobCondition {
  const t = stamp(d);
  return { type, status: 'True', reason, message, lastProbeTime: t, lastTransitionTime: t };
}

/** Records an event about the job as the job-controller. */
export function jobEvent(d: SyncDeps, job: JobObject, type: 'Normal' | 'Warning', reason: string, message: string): void {
  const m = job.metadata;
  void d.recorder.event({ apiVersion: 'batch/v1', kind: 'Job', namespace: m.namespace ?? '', name: m.name ?? '', uid: m.uid ?? '' }, type, reason, message);
}
