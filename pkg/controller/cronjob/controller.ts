// The cronjob controller (upstream's ControllerV2, `cronjob`, --concurrent-cron-job-syncs): at
// each scheduled time a CronJob gets a Job named `<cronjob>-<minutes since the epoch>` (the name is
// the lock against running a time twice), subject to suspend, the starting deadline and the
// concurrency policy; finished jobs leave status.active and the oldest beyond the history limits
// are deleted. Each CronJob is requeued for its next scheduled time, never polled.
import { batchKeys } from '../../../api/batch/v1/well-known.js';
import { EventRecorder, RateLimitingQueue, deletedObject, objectKey, splitKey } from '../../client/index.js';
import { parseCronSchedule } from '../../util/cron/parse.js';
import type { Controller, ControllerContext, ControllerFactory } from '../controller.js';
import { controllerRefOf, type OwnerRef } from '../controller-ref.js';
import { runWorkers, type Requeue } from '../queue-workers.js';
import type { JobObject } from '../job/job-pods.js';
import { nextScheduleDelay } from './schedule-times.js';
import { cronJobSyncer, type CronJobObject, type CronJobSyncResult } from './sync-cronjob.js';

const errMessage = (e: unknown) => (e instanceof Error ? e.message : String(e));

class CronJobController implements Controller {
  readonly name = 'cronjob';

  async run(ctx: ControllerContext): Promise<void> {
    const { client, informers, logger, signal, domain } = ctx;
    const queue = new RateLimitingQueue<string>();
    const cronJobInformer = informers.forResource<CronJobObject>('batch', 'v1', 'cronjobs');
    const jobInformer = informers.forResource<JobObject>('batch', 'v1', 'jobs');
    const cronJobs = client.resource<CronJobObject>('batch', 'v1', 'cronjobs');
    const syncer = cronJobSyncer({
      cronJobs, jobs: client.resource<JobObject>('batch', 'v1', 'jobs'), logger, keys: batchKeys(domain),
      recorder: new EventRecorder(client, 'cronjob-controller', logger),
    });
    const { event, formatSchedule, state } = syncer;

    const resolve = (namespace: string, ref: OwnerRef | undefined): CronJobObject | undefined => {
      if (!ref || ref.kind !== 'CronJob') return undefined;
      const cj = cronJobInformer.indexer.get(namespace, ref.name);
      return cj && cj.metadata.uid === ref.uid ? cj : undefined;
    };
    const enqueueOwner = (j: JobObject) => {
      const cj = resolve(j.metadata.namespace ?? '', controllerRefOf(j));
      if (cj) queue.add(objectKey(cj));
    };

    jobInformer.addEventHandler({
      onAdd: (j) => enqueueOwner(j),
      onUpdate: (old, j) => {
        if (old.metadata.resourceVersion === j.metadata.resourceVersion) return;
        const oldRef = controllerRefOf(old);
        if (oldRef && JSON.stringify(oldRef) !== JSON.stringify(controllerRefOf(j))) enqueueOwner(old);
        enqueueOwner(j);
      },
      onDelete: (o) => enqueueOwner(deletedObject(o)),
    });
    cronJobInformer.addEventHandler({
      onAdd: (cj) => queue.add(objectKey(cj)),
      onUpdate: (old, cj) => {
        // A new schedule: the next look is at its next time (sooner times win in the queue).
        if (old.spec?.schedule !== cj.spec?.schedule || old.spec?.timeZone !== cj.spec?.timeZone) {
          const parsed = parseCronSchedule(formatSchedule(cj, false));
          if (parsed.error !== undefined) {
            logger.v(2).info('Unparseable schedule for cronjob', { cronjob: objectKey(cj), schedule: cj.spec?.schedule, err: parsed.error });
            event(cj, 'Warning', 'UnParseableCronJobSchedule', `unparseable schedule for cronjob: ${cj.spec?.schedule}`);
            return;
          }
          const delay = nextScheduleDelay(state(cj), Date.now(), parsed.schedule);
          if (delay !== undefined) queue.addAfter(objectKey(cj), delay);
          return;
        }
        queue.add(objectKey(cj));
      },
      onDelete: (o) => queue.add(objectKey(deletedObject(o))),
    });

    const sync = async (key: string): Promise<void | Requeue> => {
      const cached = cronJobInformer.indexer.getByKey(key);
      if (!cached) {
        logger.v(4).info('CronJob not found, may be it is deleted', { cronjob: key });
        return undefined;
      }
      const { namespace } = splitKey(key);
      // Jobs that no longer match the template still count while their controller reference names us.
      const owned = jobInformer.indexer.byNamespace(namespace).filter((j) => controllerRefOf(j)?.name === cached.metadata.name);
      const cj = structuredClone(cached);
      const cleaned = await syncer.cleanupFinishedJobs(cj, owned);
      let result: CronJobSyncResult = { changed: false };
      let syncError: unknown;
      try {
        result = await syncer.syncCronJob(cj, owned);
      } catch (e) {
        syncError = e;
        logger.v(2).info('Error reconciling cronjob', { cronjob: key, err: errMessage(e) });
      }
      if (cleaned || result.changed) {
        try {
          await cronJobs.namespace(namespace).updateStatus(cj);
        } catch (e) {
          logger.v(2).info('Unable to update status for cronjob', { cronjob: key, resourceVersion: cached.metadata.resourceVersion, err: errMessage(e) });
          throw e;
        }
      }
      if (result.requeueAfterMs !== undefined) {
        logger.v(4).info('Re-queuing cronjob', { cronjob: key, requeueAfter: `${result.requeueAfterMs}ms` });
        // Zero would mean "no requeue" to the workers: an overdue time is looked at again at once.
        return { requeueAfterMs: Math.max(1, result.requeueAfterMs) };
      }
      if (syncError !== undefined) throw syncError;
      return undefined;
    };

    if (!(await cronJobInformer.waitForSync(60_000)) || !(await jobInformer.waitForSync(60_000))) logger.warn('CronJob controller caches have not synced; syncing anyway');
    if (signal.aborted) return;
    const workers = ctx.concurrency('cron-job');
    logger.info('Starting cronjob controller v2', { workers });
    await runWorkers(this.name, queue, workers, signal, sync, logger);
    logger.info('Shutting down cronjob controller v2');
  }
}

export const cronjobController: ControllerFactory = () => new CronJobController();
