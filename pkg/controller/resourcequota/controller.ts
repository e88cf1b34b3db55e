// The resourcequota controller (upstream's resource quota controller): keeps every ResourceQuota's
// status.hard equal to spec.hard and status.used equal to what the objects of its namespace use, as
// the API server's quota admission computes it (pkg/quota). A quota is synced when it changes, when
// an object it counts is added, deleted or changes its usage, and on a full resync
// (--resource-quota-sync-period, 5m); admission charges creates in between, this corrects drift
// and releases what deletes freed.
import type { ResourceQuota } from '../../../api/core/v1/resource-quota.js';
import {
  RateLimitingQueue, deletedObject, isNotFound, objectKey, type DiscoveredResource, type KubeObject, type SharedIndexInformer,
} from '../../client/index.js';
import { calculateUsage, desiredQuotaStatus, sameResourceList, type EvaluatedObjects } from '../../quota/calculate-usage.js';
import { quotaEvaluatorFor } from '../../quota/evaluators.js';
import { fromUsage } from '../../quota/resource-list.js';
import type { Controller, ControllerContext, ControllerFactory } from '../controller.js';
import { groupResourceKey, resourcesCountedBy, type GroupResource } from './tracked-resources.js';
import { runWorkers } from '../queue-workers.js';

type Quota = ResourceQuota & KubeObject;

export interface ResourceQuotaOptions {
  /** --resource-quota-sync-period: every quota is recalculated this often. */
  resyncPeriodMs?: number;
}

/** Upstream's quota monitor re-reads discovery this often. */
const discoveryResyncMs = 30_000;

class ResourceQuotaController implements Controller {
  readonly name = 'resourcequota';
  constructor(private readonly options: ResourceQuotaOptions) {}

  async run(ctx: ControllerContext): Promise<void> {
    const { logger, signal, informers, client } = ctx;
    const queue = new RateLimitingQueue<string>();
    const quotas = informers.forResource<Quota>('', 'v1', 'resourcequotas');
    const tracked = new Map<string, SharedIndexInformer<KubeObject>>();
    let preferred: DiscoveredResource[] | undefined;
    let preferredAt = -Infinity;
    const evaluatorOf = (gr: GroupResource) => quotaEvaluatorFor(gr.resource, gr.group, ctx.domain);

    const enqueueNamespace = (ns: string) => {
      for (const q of quotas.indexer.byNamespace(ns)) queue.add(objectKey(q));
    };
    const enqueueAll = () => {
      for (const q of quotas.indexer.list()) queue.add(objectKey(q));
    };

    /** The informer of a counted resource, made and started on first use; undefined when the server does not serve it. */
    const informerOf = async (gr: GroupResource): Promise<SharedIndexInformer<KubeObject> | undefined> => {
      const key = groupResourceKey(gr);
      let inf = tracked.get(key);
      if (!inf) {
        let version = gr.group === '' ? 'v1' : undefined;
        if (!version) {
          const find = () => preferred?.find((r) => r.group === gr.group && r.name === gr.resource);
          // A quota naming a resource nobody serves must not re-read discovery on every sync (every
          // pod change in its namespace): at most once per upstream's discovery resync.
          if (!find() && Date.now() - preferredAt >= discoveryResyncMs) {
            preferred = await client.discovery.serverPreferredResources();
            preferredAt = Date.now();
          }
          version = find()?.version;
          if (!version) return undefined;
        }
        inf = informers.forResource(gr.group, version, gr.resource);
        const evaluator = evaluatorOf(gr);
        const usageOf = (o: KubeObject) => JSON.stringify(fromUsage(evaluator.usage(o, new Date())));
        inf.addEventHandler({
          onAdd: (o) => enqueueNamespace(o.metadata.namespace ?? ''),
          // Only a change of what the object uses matters (a pod turning terminal frees its resources).
          onUpdate: (old, o) => {
            if (usageOf(old) !== usageOf(o)) enqueueNamespace(o.metadata.namespace ?? '');
          },
          onDelete: (o) => enqueueNamespace(deletedObject(o).metadata.namespace ?? ''),
        });
        tracked.set(key, inf);
        inf.run();
      }
      if (!inf.hasSynced()) await inf.waitForSync(60_000);
      return inf;
    };

    quotas.addEventHandler({
      onAdd: (q) => queue.add(objectKey(q)),
      onUpdate: (old, q) => {
        // Our own status writes come back as updates: only a spec change, or a status out of step, needs a sync.
        if (JSON.stringify(old.spec) !== JSON.stringify(q.spec) || !sameResourceList(q.spec?.hard, q.status?.hard) || !q.status?.used) queue.add(objectKey(q));
      },
    });

    const sync = async (key: string): Promise<void> => {
      const q = quotas.indexer.getByKey(key);
      if (!q) return;
      const ns = q.metadata.namespace ?? '';
      const sources: EvaluatedObjects[] = [];
      for (const gr of resourcesCountedBy(Object.keys(q.spec?.hard ?? {}))) {
        const evaluator = evaluatorOf(gr);
        if (evaluator.matchingResources(Object.keys(q.spec?.hard ?? {})).length === 0) continue;
        const inf = await informerOf(gr);
        if (!inf) {
          logger.v(2).info('Quota names a resource the server does not serve', { quota: key, resource: groupResourceKey(gr) });
          continue;
        }
        sources.push({ evaluator, objects: inf.indexer.byNamespace(ns) });
      }
      const desired = desiredQuotaStatus(q, calculateUsage(q, sources, new Date()));
      const dirty = !q.status?.hard || !q.status?.used || !sameResourceList(desired.hard, q.status.hard) || !sameResourceList(desired.used, q.status.used);
      if (!dirty) return;
      logger.info('Updating quota status', { quota: key, hard: desired.hard, used: desired.used });
      try {
        await client.resource<Quota>('', 'v1', 'resourcequotas').namespace(ns).updateStatus({ ...q, status: desired });
      } catch (e) {
        if (isNotFound(e)) return;
        throw e;
      }
    };

    // The baseline resources are watched from the start, so their caches fill while quotas sync.
    const baseline = resourcesCountedBy([]);
    for (const gr of baseline) void informerOf(gr).catch(() => undefined);
    if (!(await quotas.waitForSync(60_000))) logger.warn('Resource quota informer has not synced; syncing anyway');
    const resync = setInterval(enqueueAll, this.options.resyncPeriodMs ?? 5 * 60_000);
    logger.info('Starting resource quota controller', { workers: ctx.concurrency('resource-quota') });
    try {
      await runWorkers('resourcequota', queue, ctx.concurrency('resource-quota'), signal, sync, logger);
    } finally {
      clearInterval(resync);
    }
  }
}

/** The controller with an explicit --resource-quota-sync-period. */
export function newResourceQuotaController(options: ResourceQuotaOptions = {}): ControllerFactory {
  return () => new ResourceQuotaController(options);
}

export const resourcequotaController: ControllerFactory = newResourceQuotaController();

