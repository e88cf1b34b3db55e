// The pod garbage collector (upstream's pkg/controller/podgc): every check period, from the
// informers' view,
//  - terminated pods (neither Pending, Running nor Unknown) beyond --terminated-pod-gc-threshold
//    are deleted, evicted ones first, then the oldest;
//  - terminating pods on a not-Ready node tainted out-of-service are deleted;
//  - pods bound to a Node that does not exist are deleted once the node has been missing for the
//    quarantine period and a fresh read confirms it, with a DisruptionTarget condition saying so;
//  - terminating pods never bound to a node are deleted (no node agent will ever finish them).
// A pod not yet terminal is first marked Failed (an orphan's agent is gone and never will), then
// deleted at once (grace period 0).
import type { Node } from '../../../api/core/v1/node.js';
import { isNotFound, type KubeObject } from '../../client/index.js';
import type { Controller, ControllerContext, ControllerFactory } from '../controller.js';
import { patchPodStatus, withPodCondition, disruptionTarget, type PodCondition, type PodObject } from '../pod-conditions.js';
import { aborted, waitForCaches } from '../queue-workers.js';
import { hasTaint } from '../taints.js';
import { isNodeReady } from '../node-conditions.js';
import { gcOrder, isPodTerminated } from './pod-order.js';

type NodeObject = Node & KubeObject;

export interface PodGCOptions {
  /** --terminated-pod-gc-threshold: terminated pods kept; <= 0 keeps them all. */
  terminatedPodThreshold: number;
  /** How often podgc looks (upstream's gcCheckPeriod, 20 s); not a flag. */
  checkPeriodMs: number;
  /** How long a missing node is waited for before its pods are orphans (upstream's quarantineTime, 40 s); not a flag. */
  quarantineMs: number;
}

const errText = (e: unknown) => (e instanceof Error ? e.message : String(e));

class PodGCController implements Controller {
  readonly name = 'podgc';

  constructor(private readonly options: PodGCOptions) {}

  async run(ctx: ControllerContext): Promise<void> {
    const { client, informers, logger, signal, domain } = ctx;
    const { terminatedPodThreshold, checkPeriodMs, quarantineMs } = this.options;
    const pods = informers.forResource<PodObject>('', 'v1', 'pods');
    const nodes = informers.forResource<NodeObject>('', 'v1', 'nodes');
    const podClient = client.resource<PodObject>('', 'v1', 'pods');
    const nodeClient = client.resource<NodeObject>('', 'v1', 'nodes');
    const outOfService = { key: domain.key('out-of-service', 'node'), effect: 'NoExecute' as const };
    /** Upstream's nodeQueue: when each missing node name was first seen on a pod. */
    const missingSince = new Map<string, number>();

    /** Marks a pod that is not yet terminal Failed (with `condition`), then deletes it at once. */
    const markFailedAndDelete = async (pod: PodObject, condition?: PodCondition) => {
      logger.info('PodGC is force deleting Pod', { pod: `${pod.metadata.namespace}/${pod.metadata.name}` });
      const phase = pod.status?.phase;
      if (phase !== 'Succeeded' && phase !== 'Failed') {
        const changes: Record<string, unknown> = { phase: 'Failed' };
        if (condition) changes.conditions = withPodCondition(pod.status, condition).status.conditions!.filter((c) => c.type === condition.type);
        await patchPodStatus(podClient, pod, changes);
      }
      await podClient.namespace(pod.metadata.namespace ?? '').delete(pod.metadata.name ?? '', { gracePeriodSeconds: 0 });
    };
    /** Runs the deletions together; a pod already gone is not a failure. */
    const deleteAll = (victims: PodObject[], condition?: PodCondition) => Promise.all(victims.map(async (p) => {
      try {
        await markFailedAndDelete(p, condition);
        return true;
      } catch (e) {
        if (!isNotFound(e)) logger.error('Failed to delete pod', { pod: `${p.metadata.namespace}/${p.metadata.name}`, err: errText(e) });
        return false;
      }
    }));

    const gcTerminated = async (all: PodObject[]) => {
      const terminated = all.filter(isPodTerminated);
      const excess = terminated.length - terminatedPodThreshold;
      if (excess <= 0) return;
      logger.info('Garbage collecting pods', { numPods: excess });
      await deleteAll(terminated.sort(gcOrder).slice(0, excess));
    };

    const gcTerminating = async (all: PodObject[]) => {
      const victims = all.filter((p) => {
        if (!p.metadata.deletionTimestamp || !p.spec?.nodeName) return false;
        const node = nodes.indexer.getByKey(p.spec.nodeName);
        return !!node && !isNodeReady(node) && hasTaint(node.spec?.taints, outOfService);
      });
      if (victims.length === 0) return;
      logger.v(4).info('Garbage collecting pods that are terminating on node tainted with out-of-service', { numPods: victims.length, taint: outOfService.key });
      await deleteAll(victims.sort(gcOrder));
    };

    const gcOrphaned = async (all: PodObject[]) => {
      const existing = new Set(nodes.indexer.listKeys());
      const now = Date.now();
      for (const p of all) {
        const node = p.spec?.nodeName;
        if (node && !existing.has(node) && !missingSince.has(node)) missingSince.set(node, now);
      }
      // Nodes missing for the whole quarantine are read once more: the informer may only be late.
      const deleted = new Set<string>();
      for (const [node, since] of missingSince) {
        if (now - since < quarantineMs) continue;
        missingSince.delete(node);
        if (existing.has(node)) continue;
        try {
          await nodeClient.get(node);
        } catch (e) {
          if (isNotFound(e)) deleted.add(node);
          else logger.error('Error while getting node', { node, err: errText(e) });
        }
      }
      for (const p of all) {
        if (!deleted.has(p.spec?.nodeName ?? '')) continue;
        logger.v(2).info('Found orphaned Pod assigned to the Node, deleting', { pod: `${p.metadata.namespace}/${p.metadata.name}`, node: p.spec?.nodeName });
        const [ok] = await deleteAll([p], { type: disruptionTarget, status: 'True', reason: 'DeletionByPodGC', message: 'PodGC: node no longer exists' });
        if (ok) logger.info('Forced deletion of orphaned Pod succeeded', { pod: `${p.metadata.namespace}/${p.metadata.name}` });
      }
    };

    const gcUnscheduledTerminating = async (all: PodObject[]) => {
      for (const p of all) {
        if (!p.metadata.deletionTimestamp || p.spec?.nodeName) continue;
        logger.v(2).info('Found unscheduled terminating Pod not assigned to any Node, deleting', { pod: `${p.metadata.namespace}/${p.metadata.name}` });
        const [ok] = await deleteAll([p]);
        if (ok) logger.info('Forced deletion of unscheduled terminating Pod succeeded', { pod: `${p.metadata.namespace}/${p.metadata.name}` });
      }
    };

    if (!(await waitForCaches(signal, [pods, nodes]))) return;
    logger.info('Starting controller', { controller: 'pod-garbage-collector-controller' });
    const stop = aborted(signal);
    while (!signal.aborted) {
      const all = pods.indexer.list();
      if (terminatedPodThreshold > 0) await gcTerminated(all);
      await gcTerminating(all);
      await gcOrphaned(all);
      await gcUnscheduledTerminating(all);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([stop, new Promise((r) => (timer = setTimeout(r, checkPeriodMs)))]);
      clearTimeout(timer);
    }
    logger.info('Shutting down controller', { controller: 'pod-garbage-collector-controller' });
  }
}

/** podgc with its threshold and timings. */
export function newPodGCController(options: PodGCOptions): ControllerFactory {
  return () => new PodGCController(options);
}
