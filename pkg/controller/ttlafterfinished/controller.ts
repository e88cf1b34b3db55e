// The TTL-after-finished controller (upstream's ttlafterfinished.Controller, `ttl-after-finished`,
// --concurrent-ttl-after-finished-syncs): a finished Job with spec.ttlSecondsAfterFinished is
// deleted that many seconds after its Complete or Failed condition's transition, its pods with it
// (foreground propagation, as upstream). A Job not yet due is requeued for the moment it is, and a
// fresh read confirms the TTL before the deletion, in case it was changed meanwhile.
import { RateLimitingQueue, isNotFound, objectKey, splitKey } from '../../client/index.js';
import type { Controller, ControllerContext, ControllerFactory } from '../controller.js';
import { runWorkers, type Requeue } from '../queue-workers.js';
import { isJobFinished, type JobObject } from '../job/job-pods.js';

/** A finished job with a TTL (upstream's needsCleanup). */
const needsCleanup = (j: JobObject) => j.spec?.ttlSecondsAfterFinished !== undefined && j.spec.ttlSecondsAfterFinished !== null && isJobFinished(j);

/** When the job finished: its Complete or Failed condition's last transition; throws as upstream when it has none. */
function finishTime(j: JobObject): number {
  const c = (j.status?.conditions ?? []).find((x) => (x.type === 'Complete' || x.type === 'Failed') && x.status === 'True');
  const t = c?.lastTransitionTime ? Date.parse(c.lastTransitionTime) : NaN;
  if (!c) throw new Error(`unable to find the status of the finished Job ${j.metadata.namespace}/${j.metadata.name}`);
  if (Number.isNaN(t)) throw new Error(`unable to find the time when the Job ${j.metadata.namespace}/${j.metadata.name} finished`);
  return t;
}

class TTLAfterFinishedController implements Controller {
  readonly name = 'ttl-after-finished';

  async run(ctx: ControllerContext): Promise<void> {
    const { client, informers, logger, signal } = ctx;
    const queue = new RateLimitingQueue<string>();
    const informer = informers.forResource<JobObject>('batch', 'v1', 'jobs');
    const jobs = client.resource<JobObject>('batch', 'v1', 'jobs');

    const consider = (j: JobObject) => {
      if (!j.metadata.deletionTimestamp && needsCleanup(j)) {
        logger.v(4).info('Add job to cleanup', { job: objectKey(j) });
        queue.add(objectKey(j));
      }
    };
    informer.addEventHandler({ onAdd: consider, onUpdate: (_old, j) => consider(j) });

    /** How long until `j` expires (<= 0: it has), or undefined when it is not to be cleaned up. */
    const timeLeft = (j: JobObject): number | undefined => {
      if (j.metadata.deletionTimestamp || !needsCleanup(j)) return undefined;
      const finishedAt = finishTime(j);
      const now = Date.now();
      if (finishedAt > now) logger.info('Warning: Found Job finished in the future. This is likely due to time skew in the cluster. Job cleanup will be deferred.', { job: objectKey(j) });
      return finishedAt + j.spec!.ttlSecondsAfterFinished! * 1000 - now;
    };

    const sync = async (key: string): Promise<void | Requeue> => {
      const { namespace, name } = splitKey(key);
      logger.v(4).info('Checking if Job is ready for cleanup', { job: key });
      const cached = informer.indexer.getByKey(key);
      if (!cached) return undefined;
      const left = timeLeft(cached);
      if (left === undefined) return undefined;
      if (left > 0) return { requeueAfterMs: left };
      // The cache may be stale: the TTL must have expired on the job as it is now.
      let fresh: JobObject;
      try {
        fresh = await jobs.namespace(namespace).get(name);
      } catch (e) {
        if (isNotFound(e)) return undefined;
        throw e;
      }
      const freshLeft = timeLeft(fresh);
      if (freshLeft === undefined) return undefined;
      if (freshLeft > 0) return { requeueAfterMs: freshLeft };
      logger.v(4).info('Cleaning up Job', { job: key });
      await jobs.namespace(namespace).delete(name, { propagationPolicy: 'Foreground', preconditions: { uid: fresh.metadata.uid } });
      return undefined;
    };

    if (!(await informer.waitForSync(60_000))) logger.warn('TTL after finished controller caches have not synced; syncing anyway');
    if (signal.aborted) return;
    const workers = ctx.concurrency('ttl-after-finished');
    logger.info('Starting TTL after finished controller', { workers });
    await runWorkers(this.name, queue, workers, signal, sync, logger);
    logger.info('Shutting down TTL after finished controller');
  }
}

export const ttlAfterFinishedController: ControllerFactory = () => new TTLAfterFinishedController();
