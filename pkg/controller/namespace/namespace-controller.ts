// The namespace controller (upstream's `namespace`): watches namespaces and, for each one being
// deleted, empties it and removes the platform's finalizer so the API server can delete it. As
// upstream: a namespace event is acted on 5 s later (other API servers and etcd members catch up
// with the deletion first), content that remains is looked at again after half its estimate, and
// a failed pass is retried with a backoff of its own (5 ms doubling to 60 s).
import { BucketRateLimiter, ItemExponentialFailureRateLimiter, MaxOfRateLimiter } from '../../client/rate-limiters.js';
import { RateLimitingQueue } from '../../client/rate-limiting-queue.js';
import type { DiscoveredResource } from '../../client/discovery.js';
import type { SharedInformerFactory } from '../../client/informer-factory.js';
import type { KubeObject } from '../../client/resource-client.js';
import { deletedObject } from '../../client/shared-informer.js';
import type { Controller, ControllerContext } from '../controller.js';
import { runWorkers, waitForCaches } from '../queue-workers.js';
import { NamespacedResourcesDeleter, ResourcesRemainingError, type ContentCache } from './deleter.js';

/** Upstream's --namespace-sync-period: every Terminating namespace is looked at again at least this often. */
const resyncMs = 5 * 60_000;
/** Upstream's namespaceDeletionGracePeriod. */
const deletionGracePeriodMs = 5_000;

/** Upstream's nsControllerRateLimiter: a failed namespace is retried at least every minute, 10 qps (burst 100) overall. */
function namespaceRateLimiter() {
  return new MaxOfRateLimiter<string>(new ItemExponentialFailureRateLimiter(5, 60_000), new BucketRateLimiter(10, 100));
}

/**
 * The shared informers as the deleter's cache: one per namespaced resource (the garbage collector
 * watches the same ones), made on first use and used once synced. Events are never watched, as
 * the garbage collector does not: they are many and short-lived, and listed instead.
 */
function informerCache(informers: SharedInformerFactory): ContentCache {
  return {
    list: (r: DiscoveredResource, ns: string) => {
      if (r.name === 'events' || !r.verbs.includes('watch')) return undefined;
      const inf = informers.forResource(r.group, r.version, r.name);
      inf.run();
      return inf.hasSynced() ? inf.indexer.byNamespace(ns) : undefined;
    },
  };
}

export class NamespaceController implements Controller {
  readonly name = 'namespace';

  async run(ctx: ControllerContext): Promise<void> {
    const queue = new RateLimitingQueue<string>(namespaceRateLimiter());
    const informer = ctx.informers.forResource('', 'v1', 'namespaces', { resyncMs });
    const enqueue = (ns: KubeObject) => {
      if (ns.metadata.deletionTimestamp) queue.addAfter(ns.metadata.name!, deletionGracePeriodMs);
    };
    const remove = informer.addEventHandler({
      onAdd: (ns) => enqueue(ns),
      onUpdate: (_old, ns) => enqueue(ns),
      onDelete: (o) => queue.forget(deletedObject(o).metadata.name!),
    });
    const deleter = new NamespacedResourcesDeleter(ctx.client, ctx.domain, ctx.logger, informerCache(ctx.informers));
    try {
      if (!(await waitForCaches(ctx.signal, [informer]))) return;
      const workers = ctx.concurrency('namespace');
      ctx.logger.info('starting the namespace controller', { workers });
      await runWorkers(this.name, queue, workers, ctx.signal, async (key) => {
        try {
          await deleter.delete(key);
        } catch (e) {
          if (!(e instanceof ResourcesRemainingError)) throw e;
          // Content that is still going is not a failure: look again when half of it should be gone.
          const waitSeconds = Math.floor(e.estimateSeconds / 2) + 1;
          ctx.logger.v(4).info('Content remaining in namespace', { namespace: key, waitSeconds });
          return { requeueAfterMs: waitSeconds * 1000, keepFailures: true };
        }
        return undefined;
      }, ctx.logger);
    } finally {
      remove();
      queue.shutDown();
    }
  }
}
