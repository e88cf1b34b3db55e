// The namespace controller (upstream's `namespace`): watches namespaces and, for each one being
// deleted, empties it and removes the platform's finalizer so the API server can delete it.
import type { KubeObject } from '../../client/resource-client.js';
import { RateLimitingQueue } from '../../client/rate-limiting-queue.js';
import { deletedObject } from '../../client/shared-informer.js';
import type { Controller, ControllerContext } from '../controller.js';
import { runWorkers, waitForCaches } from '../queue-workers.js';
import { NamespacedResourcesDeleter, ResourcesRemainingError } from './deleter.js';

/** Upstream's namespace resync: a namespace whose deletion stalled is looked at again at least this often. */
const resyncMs = 5 * 60_000;

export class NamespaceController implements Controller {
  readonly name = 'namespace';

  async run(ctx: ControllerContext): Promise<void> {
    const queue = new RateLimitingQueue<string>();
    const informer = ctx.informers.forResource('', 'v1', 'namespaces', { resyncMs });
    const enqueue = (ns: KubeObject) => {
      if (ns.metadata.deletionTimestamp) queue.add(ns.metadata.name!);
    };
    const remove = informer.addEventHandler({
      onAdd: (ns) => enqueue(ns),
      onUpdate: (_old, ns) => enqueue(ns),
      onDelete: (o) => queue.forget(deletedObject(o).metadata.name!),
    });
    const deleter = new NamespacedResourcesDeleter(ctx.client, ctx.domain, ctx.logger);
    try {
      if (!(await waitForCaches(ctx.signal, [informer]))) return;
      const workers = ctx.concurrency('namespace');
      ctx.logger.info('starting the namespace controller', { workers });
      await runWorkers(this.name, queue, workers, ctx.signal, async (key) => {
        try {
          await deleter.delete(key);
        } catch (e) {
          // Content that is still going is not a failure: look again when it should be gone.
          if (e instanceof ResourcesRemainingError) return { requeueAfterMs: (Math.floor(e.estimateSeconds / 2) + 1) * 1000 };
          throw e;
        }
        return undefined;
      }, ctx.logger);
    } finally {
      remove();
      queue.shutDown();
    }
  }
}
