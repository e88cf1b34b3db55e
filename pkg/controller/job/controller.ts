// The job controller (upstream's job.Controller, `job`, --concurrent-job-syncs): runs each Job's
// pods to completion (see sync.ts). Pod events are gathered for a second before a sync; a Job's
// creation, deletion or spec change syncs at once. Pods that keep the tracking finalizer after
// their Job is gone or finished, or that lost their owner, have it removed by a worker of their own.
import { batchKeys } from '../../../api/batch/v1/well-known.js';
import {
  EventRecorder, ItemExponentialFailureRateLimiter, RateLimitingQueue, deletedObject, isNotFound, objectKey, splitKey,
} from '../../client/index.js';
import type { Controller, ControllerContext, ControllerFactory } from '../controller.js';
import { claimObjects, controllerRefOf, type OwnerRef } from '../controller-ref.js';
import { ControllerExpectations } from '../expectations.js';
import { selectorMatches } from '../label-selector.js';
import { runWorkers } from '../queue-workers.js';
import type { PodObject } from '../replicaset/pod-ranking.js';
import { BackoffStore } from './backoff.js';
import { FinalizerExpectations } from './finalizer-expectations.js';
import { hasTrackingFinalizer, isJobFinished, type JobObject } from './job-pods.js';
import { syncJobBatchPeriodMs, type SyncDeps } from './sync-context.js';
import { syncJob } from './sync.js';

/** Upstream's DefaultJobApiBackOff and MaxJobApiBackOff: a failed sync is retried after 1 s doubling to a minute. */
const apiBackoffMs = 1000;
const maxApiBackoffMs = 60_000;

class JobController implements Controller {
  readonly name = 'job';

  async run(ctx: ControllerContext): Promise<void> {
    const { client, informers, logger, signal, domain } = ctx;
    const keys = batchKeys(domain);
    const queue = new RateLimitingQueue<string>(new ItemExponentialFailureRateLimiter(apiBackoffMs, maxApiBackoffMs));
    const orphanQueue = new RateLimitingQueue<string>(new ItemExponentialFailureRateLimiter(apiBackoffMs, maxApiBackoffMs));
    const expectations = new ControllerExpectations();
    const finalizerExpectations = new FinalizerExpectations();
    const jobInformer = informers.forResource<JobObject>('batch', 'v1', 'jobs');
    const podInformer = informers.forResource<PodObject>('', 'v1', 'pods');
    const jobs = client.resource<JobObject>('batch', 'v1', 'jobs');
    const pods = client.resource<PodObject>('', 'v1', 'pods');

    /** The Job a controller reference names, if it is one we have with that uid. */
    const resolve = (namespace: string, ref: OwnerRef | undefined): JobObject | undefined => {
      if (!ref || ref.kind !== 'Job') return undefined;
      const job = jobInformer.indexer.get(namespace, ref.name);
      return job && job.metadata.uid === ref.uid ? job : undefined;
    };
    const hasFinalizer = (p: PodObject) => hasTrackingFinalizer(p, keys);
    const batched = (job: JobObject) => queue.addAfter(objectKey(job), syncJobBatchPeriodMs);
    const enqueueSelecting = (p: PodObject) => {
      for (const job of jobInformer.indexer.byNamespace(p.metadata.namespace ?? '')) {
        if (selectorMatches(job.spec?.selector, p.metadata.labels)) batched(job);
      }
    };
    /** A finished or deleted Job's pods still holding the finalizer go to the orphan worker. */
    const cleanupPodFinalizers = (job: JobObject) => {
      for (const p of podInformer.indexer.byNamespace(job.metadata.namespace ?? '')) {
        if (controllerRefOf(p)?.uid === job.metadata.uid && hasFinalizer(p)) orphanQueue.add(objectKey(p));
      }
    };

    const podDeleted = (p: PodObject, final: boolean) => {
      const ns = p.metadata.namespace ?? '';
      const ref = controllerRefOf(p);
      const job = resolve(ns, ref);
      if (!job || isJobFinished(job)) {
        // No sync will remove this finalizer.
        if (hasFinalizer(p)) orphanQueue.add(objectKey(p));
        return;
      }
      const key = objectKey(job);
      expectations.deletionObserved(key, objectKey(p));
      if (final || !hasFinalizer(p)) finalizerExpectations.observed(key, p.metadata.uid ?? '');
      batched(job);
    };

    jobInformer.addEventHandler({
      onAdd: (job) => queue.add(objectKey(job)),
      onUpdate: (old, job) => {
        const key = objectKey(job);
        // A spec change syncs at once; status changes (mostly ours) are batched with the pod events.
        if (old.metadata.generation === job.metadata.generation) queue.addAfter(key, syncJobBatchPeriodMs);
        else queue.add(key);
        if (isJobFinished(job)) cleanupPodFinalizers(job);
        const ads = job.spec?.activeDeadlineSeconds;
        if (job.status?.startTime && ads !== undefined && ads !== old.spec?.activeDeadlineSeconds) {
          queue.addAfter(key, ads * 1000 - (Date.now() - Date.parse(job.status.startTime)));
        }
      },
      onDelete: (o) => {
        const job = deletedObject(o);
        queue.add(objectKey(job));
        cleanupPodFinalizers(job);
      },
    });
    podInformer.addEventHandler({
      onAdd: (p) => {
        if (p.metadata.deletionTimestamp) {
          // Seen already deleted (after a relist): a deletion, not a creation.
          podDeleted(p, false);
          return;
        }
        const ref = controllerRefOf(p);
        if (ref) {
          const job = resolve(p.metadata.namespace ?? '', ref);
          if (!job) return;
          expectations.creationObserved(objectKey(job));
          batched(job);
          return;
        }
        if (hasFinalizer(p)) orphanQueue.add(objectKey(p));
        enqueueSelecting(p);
      },
      onUpdate: (old, p) => {
        if (old.metadata.resourceVersion === p.metadata.resourceVersion) return;
        if (p.metadata.deletionTimestamp) {
          podDeleted(p, false);
          return;
        }
        const ns = p.metadata.namespace ?? '';
        const finalizerRemoved = !hasFinalizer(p);
        const ref = controllerRefOf(p);
        const oldRef = controllerRefOf(old);
        const refChanged = JSON.stringify(ref) !== JSON.stringify(oldRef);
        const touch = (job: JobObject) => {
          if (finalizerRemoved) finalizerExpectations.observed(objectKey(job), p.metadata.uid ?? '');
          batched(job);
        };
        if (refChanged && oldRef) {
          const oldJob = resolve(ns, oldRef);
          if (oldJob) touch(oldJob);
        }
        if (ref) {
          const job = resolve(ns, ref);
          if (job) touch(job);
          return;
        }
        if (hasFinalizer(p)) orphanQueue.add(objectKey(p));
        if (refChanged || JSON.stringify(p.metadata.labels ?? {}) !== JSON.stringify(old.metadata.labels ?? {})) enqueueSelecting(p);
      },
      onDelete: (o) => podDeleted(deletedObject(o), true),
    });

    const deps: SyncDeps = {
      jobs, pods, logger, keys, queue, expectations, finalizerExpectations, now: Date.now,
      recorder: new EventRecorder(client, 'job-controller', logger),
      backoff: new BackoffStore(),
      claimPods: (job) => {
        const ns = job.metadata.namespace ?? '';
        return claimObjects(podInformer.indexer.byNamespace(ns), {
          owner: job, ownerApiVersion: 'batch/v1', ownerKind: 'Job', selector: job.spec?.selector,
          client: pods.namespace(ns), logger, what: 'pod', adoptionFinalizers: [keys.trackingFinalizer],
          canAdopt: async () => {
            try {
              const fresh = await jobs.namespace(ns).get(job.metadata.name ?? '');
              return fresh.metadata.uid === job.metadata.uid && !fresh.metadata.deletionTimestamp;
            } catch (e) {
              if (isNotFound(e)) return false;
              throw e;
            }
          },
        });
      },
    };

    /** Removes the tracking finalizer of a pod no unfinished Job of ours owns (upstream's syncOrphanPod). */
    const syncOrphanPod = async (key: string) => {
      const p = podInformer.indexer.getByKey(key);
      if (!p || !hasFinalizer(p)) return;
      const ref = controllerRefOf(p);
      if (ref) {
        // Not a Job's: its owner's finalizer is not ours to remove.
        if (ref.kind !== 'Job' || ref.apiVersion !== 'batch/v1') return;
        const job = resolve(p.metadata.namespace ?? '', ref);
        if (job && !isJobFinished(job)) return;
      }
      const { namespace, name } = splitKey(key);
      try {
        await pods.namespace(namespace).patch(name, 'strategic', { metadata: { '$deleteFromPrimitiveList/finalizers': [keys.trackingFinalizer] } });
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
    };

    if (!(await jobInformer.waitForSync(60_000)) || !(await podInformer.waitForSync(60_000))) logger.warn('Job controller caches have not synced; syncing anyway');
    if (signal.aborted) return;
    const workers = ctx.concurrency('job');
    logger.info('Starting job controller', { workers });
    await Promise.all([
      runWorkers(this.name, queue, workers, signal, (key) => syncJob(deps, key, jobInformer.indexer.getByKey(key)), logger),
      runWorkers(`${this.name}-orphan-pods`, orphanQueue, 1, signal, syncOrphanPod, logger),
    ]);
    logger.info('Shutting down job controller');
  }
}

export const jobController: ControllerFactory = () => new JobController();
