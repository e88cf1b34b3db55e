// The garbagecollector controller (spec 000 section 3.1; upstream's garbagecollector): one informer
// per resource that can be listed, watched and deleted feeds a graph of ownerReferences; two
// rate-limited queues act on it. attemptToDelete collects dependents whose owners are all gone and
// drives foreground deletions; attemptToOrphan strips references to an owner deleted with the
// `orphan` finalizer. Discovery is re-read every 30 s, so kinds served later are watched too.
import { EventRecorder, RateLimitingQueue, deletedObject, type KubeObject } from '../../client/index.js';
import type { Controller, ControllerContext, ControllerFactory } from '../controller.js';
import { Collector, NamespacedOwnerOfClusterScopedObject, RestMappingError, VirtualDeleteEnqueued, describe } from './collector.js';
import { Graph, type GraphNode } from './graph.js';
import { RestMapper } from './rest-mapper.js';

/** Upstream's resync of the monitored resources. */
const discoveryResyncMs = 30_000;
/** The verbs a resource must serve to be garbage collected (upstream's GetDeletableResources). */
const deletableVerbs = ['delete', 'list', 'watch'];

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

class GarbageCollector implements Controller {
  readonly name = 'garbagecollector';

  async run(ctx: ControllerContext): Promise<void> {
    const { logger, signal } = ctx;
    // Upstream ignores events: they are many, short-lived and never owners.
    const ignored = new Set([`/events`, `${ctx.domain.group('events')}/events`]);
    const mapper = new RestMapper(ctx.client);
    const attemptToDelete = new RateLimitingQueue<GraphNode>();
    const attemptToOrphan = new RateLimitingQueue<GraphNode>();
    const recorder = new EventRecorder(ctx.client, 'garbage-collector-controller', logger);
    let collector: Collector | undefined;
    const graph = new Graph({
      attemptToDelete: (n) => attemptToDelete.add(n),
      attemptToOrphan: (n) => attemptToOrphan.add(n),
      invalidNamespaceOwnerRef: (dep, ownerUID) => collector?.reportInvalidNamespace(dep, { uid: ownerUID }),
    });
    collector = new Collector(ctx.client, mapper, graph, recorder, logger, (n) => attemptToDelete.add(n));
    const monitored = new Set<string>();

    /** Watches every deletable resource not watched yet; resolves once their caches are synced. */
    const syncMonitors = async (): Promise<void> => {
      await mapper.refresh();
      const started = [];
      for (const r of mapper.resourcesWith(deletableVerbs)) {
        const key = `${r.group}/${r.name}`;
        if (ignored.has(key) || monitored.has(key)) continue;
        monitored.add(key);
        const apiVersion = r.group ? `${r.group}/${r.version}` : r.version;
        // Items of a kind the client's scheme does not know may come without their type.
        const typed = (o: KubeObject): KubeObject => (o.apiVersion && o.kind ? o : { ...o, apiVersion: o.apiVersion ?? apiVersion, kind: o.kind ?? r.kind });
        const inf = ctx.informers.forResource(r.group, r.version, r.name);
        inf.addEventHandler({
          onAdd: (o) => graph.process('add', typed(o)),
          onUpdate: (old, o) => graph.process('update', typed(o), typed(old)),
          onDelete: (o) => graph.process('delete', typed(deletedObject(o))),
        });
        // The manager starts the factory once; resources found later are started here (run() is idempotent).
        inf.run();
        started.push(inf);
        logger.v(2).info('Garbage collector monitoring resource', { resource: key, version: r.version });
      }
      await Promise.all(started.map((i) => i.waitForSync(60_000)));
    };

    for (;;) {
      if (signal.aborted) return;
      try {
        await syncMonitors();
        break;
      } catch (e) {
        logger.error('Garbage collector could not discover resources; retrying', { err: e instanceof Error ? e.message : String(e) });
        await sleep(5_000, signal);
      }
    }
    logger.info('Garbage collector: all resource monitors have synced; proceeding to collect garbage', { resources: monitored.size });

    const deleteWorker = async (): Promise<void> => {
      for (;;) {
        const n = await attemptToDelete.get();
        if (n === undefined) return;
        try {
          // A virtual node retried after its uid was observed, or after it left the graph, is done with.
          const inGraph = graph.uidToNode.get(n.identity.uid);
          if (!n.observed && (!inGraph || (inGraph !== n && inGraph.observed))) {
            attemptToDelete.forget(n);
            continue;
          }
          await collector!.attemptToDelete(n);
          if (!n.observed) attemptToDelete.addRateLimited(n); // not seen through an informer yet: check again
          else attemptToDelete.forget(n);
        } catch (e) {
          if (e instanceof VirtualDeleteEnqueued || e instanceof NamespacedOwnerOfClusterScopedObject) {
            attemptToDelete.forget(n);
          } else {
            const msg = e instanceof Error ? e.message : String(e);
            if (e instanceof RestMappingError) logger.v(5).info('error syncing item', { item: describe(n.identity), err: msg });
            else logger.error('error syncing item', { item: describe(n.identity), err: msg });
            attemptToDelete.addRateLimited(n);
          }
        } finally {
          attemptToDelete.done(n);
        }
      }
    };
    const orphanWorker = async (): Promise<void> => {
      for (;;) {
        const n = await attemptToOrphan.get();
        if (n === undefined) return;
        try {
          await collector!.attemptToOrphan(n);
          attemptToOrphan.forget(n);
        } catch (e) {
          logger.error('error orphaning dependents', { owner: describe(n.identity), err: e instanceof Error ? e.message : String(e) });
          attemptToOrphan.addRateLimited(n);
        } finally {
          attemptToOrphan.done(n);
        }
      }
    };

    const resync = async (): Promise<void> => {
      while (!signal.aborted) {
        await sleep(discoveryResyncMs, signal);
        if (signal.aborted) return;
        try {
          await syncMonitors();
        } catch (e) {
          logger.warn('Garbage collector could not re-read discovery', { err: e instanceof Error ? e.message : String(e) });
        }
      }
    };

    const workers = Math.max(1, ctx.concurrency('gc'));
    signal.addEventListener('abort', () => {
      attemptToDelete.shutDown();
      attemptToOrphan.shutDown();
    }, { once: true });
    if (signal.aborted) return;
    await Promise.all([
      ...Array.from({ length: workers }, () => deleteWorker()),
      ...Array.from({ length: workers }, () => orphanWorker()),
      resync(),
    ]);
  }
}

export const garbagecollectorController: ControllerFactory = () => new GarbageCollector();
