// The node lifecycle controller (upstream's pkg/controller/nodelifecycle, 1.30, taint-based
// eviction; the evicting itself is the taint eviction controller's). Every --node-monitor-period it
// looks at each Node: one silent (no Ready heartbeat, no renewal of its Lease in the node lease
// namespace) for its grace period gets Ready Unknown ("Kubelet stopped posting node status."), its
// pods' Ready conditions False and a NodeNotReady event, and is queued, at the zone's eviction
// rate, for the unreachable (Unknown) or not-ready (False) NoExecute taint; a Ready node loses
// both. Each node change also maps its conditions and spec.unschedulable onto the NoSchedule taints
// (TaintNodesByCondition), and the beta os/arch labels are kept in step with the stable ones. When
// every zone is fully disrupted nothing is tainted: the fault is more likely ours than the nodes'.
import type { Lease } from '../../../api/coordination/v1/lease.js';
import { EventRecorder, RateLimitingQueue, WorkQueue, deletedObject, isNotFound, objectKey, splitKey, type EventSubject } from '../../client/index.js';
import { NodeLeaseNamespace } from '../../runtime/node-identity.js';
import type { Controller, ControllerContext, ControllerFactory } from '../controller.js';
import { nodeCondition, type NodeCondition } from '../node-conditions.js';
import { withPodCondition, type PodObject } from '../pod-conditions.js';
import { podsOnNode } from '../pods-on-node.js';
import { aborted, runWorkers, waitForCaches } from '../queue-workers.js';
import { hasTaint, taintSetDiff, type Taint } from '../taints.js';
import { assessNodeHealth, type NodeHealth } from './node-health.js';
import { swapNodeTaints, type NodeObject } from './node-taints.js';
import { RateLimitedTimedQueue } from './rate-limited-queue.js';
import { computeZoneState, zoneEvictionRate, zoneKey, type ZoneState } from './zones.js';

type LeaseObject = Lease & { metadata: NonNullable<Lease['metadata']> };

export interface NodeLifecycleOptions {
  /** --node-monitor-period: how often every node's health is looked at. */
  monitorPeriodMs: number;
  /** --node-monitor-grace-period: how long a node may go without a heartbeat before it is Unknown. */
  monitorGracePeriodMs: number;
  /** --node-startup-grace-period: the same for a node that never reported Ready. */
  startupGracePeriodMs: number;
  /** --node-eviction-rate: nodes a second tainted for eviction while a zone is healthy. */
  evictionRate: number;
  /** --secondary-node-eviction-rate: the same while a zone is unhealthy (0 in small clusters). */
  secondaryEvictionRate: number;
  /** --large-cluster-size-threshold: nodes from which a zone is large. */
  largeClusterSizeThreshold: number;
  /** --unhealthy-zone-threshold: the share of not-Ready nodes (at least 3) that makes a zone unhealthy. */
  unhealthyZoneThreshold: number;
}

/** Upstream's NodeEvictionPeriod: how often the taint queues are looked at. */
const evictionPeriodMs = 100;
/** Upstream's NodeHealthUpdateRetry and retrySleepTime. */
const healthUpdateRetries = 5;
const retrySleepMs = 20;
/** Upstream's nodeUpdateWorkerSize and podUpdateWorkerSize. */
const nodeWorkers = 8;
const podWorkers = 4;

const errText = (e: unknown) => (e instanceof Error ? e.message : String(e));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `fn` over `items`, `n` at a time (upstream's workqueue.ParallelizeUntil). */
async function parallelize<T>(items: readonly T[], n: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]!);
  }));
}

class NodeLifecycleController implements Controller {
  readonly name = 'nodelifecycle';

  constructor(private readonly o: NodeLifecycleOptions) {}

  async run(ctx: ControllerContext): Promise<void> {
    const { client, informers, logger, signal, domain } = ctx;
    const o = this.o;
    const nodes = informers.forResource<NodeObject>('', 'v1', 'nodes');
    const pods = informers.forResource<PodObject>('', 'v1', 'pods');
    const leases = informers.forResource<LeaseObject>(domain.group('coordination'), 'v1', 'leases');
    const nodeClient = client.resource<NodeObject>('', 'v1', 'nodes');
    const podClient = client.resource<PodObject>('', 'v1', 'pods');
    const recorder = new EventRecorder(client, 'node-controller', logger);
    const podsAssigned = podsOnNode(pods);

    const taintKey = (name: string) => domain.key(name, 'node');
    const unreachableNoExecute: Taint = { key: taintKey('unreachable'), effect: 'NoExecute' };
    const notReadyNoExecute: Taint = { key: taintKey('not-ready'), effect: 'NoExecute' };
    const unschedulableKey = taintKey('unschedulable');
    /** Which NoSchedule taint each condition status stands for (upstream's nodeConditionToTaintKeyStatusMap). */
    const conditionTaints: Record<string, Record<string, string>> = {
      Ready: { False: taintKey('not-ready'), Unknown: taintKey('unreachable') },
      MemoryPressure: { True: taintKey('memory-pressure') },
      DiskPressure: { True: taintKey('disk-pressure') },
      NetworkUnavailable: { True: taintKey('network-unavailable') },
      PIDPressure: { True: taintKey('pid-pressure') },
    };
    const conditionTaintKeys = new Set(Object.values(conditionTaints).flatMap((m) => Object.values(m)));
    /** The stable labels whose deprecated beta twins are kept in step. */
    const labelPairs = ['os', 'arch'].map((k) => [domain.key(k), domain.key(k, 'beta')] as const);
    const exclusionLabel = domain.key('exclude-disruption', 'node');

    const knownNodes = new Map<string, NodeObject>();
    const health = new Map<string, NodeHealth>();
    const zoneStates = new Map<string, ZoneState>();
    const zoneTainters = new Map<string, RateLimitedTimedQueue>();
    const nodesToRetry = new Set<string>();
    const nodeQueue = new WorkQueue<string>();
    const podQueue = new RateLimitingQueue<string>();

    const nodeEvent = (node: NodeObject, type: 'Normal' | 'Warning', reason: string, message: string) => {
      const about: EventSubject = { apiVersion: 'v1', kind: 'Node', namespace: '', name: node.metadata.name ?? '', uid: node.metadata.uid ?? '' };
      void recorder.event(about, type, reason, message);
    };
    const zoneOf = (node: NodeObject) => zoneKey(domain, node.metadata.labels);
    const tainterOf = (node: NodeObject) => zoneTainters.get(zoneOf(node))!;

    const remove = [
      nodes.addEventHandler({
        onAdd: (n) => nodeQueue.add(objectKey(n)),
        onUpdate: (_old, n) => nodeQueue.add(objectKey(n)),
        onDelete: (n) => nodesToRetry.delete(objectKey(deletedObject(n))),
      }),
      // A pod bound to a node already not Ready is marked not Ready too (the monitor did the others).
      pods.addEventHandler({
        onAdd: (p) => {
          if (p.spec?.nodeName) podQueue.add(objectKey(p));
        },
        onUpdate: (old, p) => {
          if (p.spec?.nodeName && p.spec.nodeName !== old.spec?.nodeName) podQueue.add(objectKey(p));
        },
      }),
    ];

    const addZoneIfNew = (node: NodeObject) => {
      const zone = zoneOf(node);
      if (zoneStates.has(zone)) return;
      zoneStates.set(zone, 'Initial');
      zoneTainters.set(zone, new RateLimitedTimedQueue(o.evictionRate));
      logger.info('Initializing eviction metric for zone', { zone });
    };

    /** Upstream's markNodeAsReachable: neither NoExecute taint, and out of the taint queue. */
    const markReachable = async (node: NodeObject): Promise<boolean> => {
      if (!(await swapNodeTaints(nodeClient, node, [], [unreachableNoExecute, notReadyNoExecute]))) throw new Error(`failed to remove taints from node ${node.metadata.name}`);
      return tainterOf(node).remove(node.metadata.name ?? '');
    };

    /** Upstream's markNodeForTainting: queued (anew if its taint went missing) for the NoExecute taint of `status`. */
    const markForTainting = (node: NodeObject, status: 'False' | 'Unknown'): boolean => {
      const tainter = tainterOf(node);
      const name = node.metadata.name ?? '';
      if (!hasTaint(node.spec?.taints, status === 'False' ? notReadyNoExecute : unreachableNoExecute)) tainter.remove(name);
      return tainter.add(name, node.metadata.uid ?? '');
    };

    /** Upstream's processTaintBaseEviction, from the Ready condition as the node had it. */
    const processTaintBaseEviction = async (node: NodeObject, observed: NodeCondition) => {
      const name = node.metadata.name;
      if (observed.status === 'False' || observed.status === 'Unknown') {
        const [want, opposite] = observed.status === 'False' ? [notReadyNoExecute, unreachableNoExecute] : [unreachableNoExecute, notReadyNoExecute];
        // Already tainted the other way: swapped at once, without waiting for the queue.
        if (hasTaint(node.spec?.taints, opposite)) {
          if (!(await swapNodeTaints(nodeClient, node, [want], [opposite]))) logger.error('Failed to instantly swap NoExecute taints. Will try again in the next cycle', { node: name });
        } else if (markForTainting(node, observed.status)) {
          logger.v(2).info(observed.status === 'False' ? 'Node is NotReady. Adding it to the Taint queue' : 'Node is unresponsive. Adding it to the Taint queue', { node: name });
        }
      } else if (observed.status === 'True') {
        try {
          if (await markReachable(node)) logger.v(2).info('Node is healthy again, removed all taints', { node: name });
        } catch (e) {
          logger.error('Failed to remove taints from node. Will retry in next iteration', { node: name, err: errText(e) });
        }
      }
    };

    /** Upstream's MarkPodsNotReady: each pod's Ready condition False, with a NodeNotReady event. */
    const markPodsNotReady = async (podList: PodObject[], nodeName: string): Promise<boolean> => {
      logger.v(2).info('Update ready status of pods on node', { node: nodeName });
      let ok = true;
      for (const pod of podList) {
        if (pod.spec?.nodeName !== nodeName) continue;
        const ready = (pod.status?.conditions ?? []).find((c) => c.type === 'Ready');
        if (!ready) continue;
        const { status, changed } = withPodCondition(pod.status, { ...ready, status: 'False', lastTransitionTime: undefined });
        if (!changed) continue;
        const ref = `${pod.metadata.namespace}/${pod.metadata.name}`;
        logger.v(2).info('Updating ready status of pod to false', { pod: ref });
        try {
          await podClient.namespace(pod.metadata.namespace ?? '').updateStatus({ ...pod, status });
        } catch (e) {
          if (isNotFound(e)) continue;
          logger.info('Failed to update status for pod', { pod: ref, err: errText(e) });
          ok = false;
          continue;
        }
        void recorder.event({ apiVersion: 'v1', kind: 'Pod', namespace: pod.metadata.namespace ?? '', name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '' },
          'Warning', 'NodeNotReady', 'Node is not ready');
      }
      return ok;
    };

    /** One node's share of a monitor pass; answers its current Ready condition (undefined when it could not be judged). */
    const monitorNode = async (cached: NodeObject): Promise<{ ready: NodeCondition | undefined } | undefined> => {
      let node = structuredClone(cached);
      const name = node.metadata.name ?? '';
      let observed: NodeCondition | undefined;
      let current: NodeCondition | undefined;
      for (let i = 0; ; i++) {
        const lease = leases.indexer.get(NodeLeaseNamespace, name);
        const a = assessNodeHealth(node, health.get(name), lease, Date.now(), o);
        health.set(name, a.health);
        observed = a.observedReady;
        current = nodeCondition(node, 'Ready');
        if (!a.unknownConditions) break;
        logger.v(2).info("Node hasn't been updated", { node: name, durationMs: Date.now() - a.health.probeTimestamp });
        try {
          const written = await nodeClient.updateStatus({ ...node, status: { ...node.status, conditions: a.unknownConditions } });
          current = nodeCondition(written, 'Ready');
          health.set(name, { status: written.status ?? {}, probeTimestamp: a.health.probeTimestamp, readyTransitionTimestamp: Date.now(), ...(lease ? { lease } : {}) });
          node = written;
          break;
        } catch (e) {
          logger.error('Error updating node', { node: name, err: errText(e) });
          if (i >= healthUpdateRetries - 1) {
            logger.error('Update health of Node from Controller error, Skipping - no pods will be evicted', { node: name });
            return undefined;
          }
          await sleep(retrySleepMs);
          try {
            node = await nodeClient.get(name);
          } catch {
            logger.error('Failed while getting a Node to retry updating node health. Probably Node was deleted', { node: name });
            return undefined;
          }
        }
      }
      if (current) {
        await processTaintBaseEviction(node, observed);
        const becameNotReady = current.status !== 'True' && observed.status === 'True';
        if (becameNotReady) {
          logger.v(2).info('Recording status change event message for node', { status: 'NodeNotReady', node: name });
          nodeEvent(node, 'Normal', 'NodeNotReady', `Node ${name} status is now: NodeNotReady`);
        }
        if (becameNotReady || (nodesToRetry.has(name) && observed.status !== 'True')) {
          if (!(await markPodsNotReady(podsAssigned(name), name))) {
            logger.error('unable to mark all pods NotReady on node; queuing for retry', { node: name });
            nodesToRetry.add(name);
            return { ready: current };
          }
        }
      }
      nodesToRetry.delete(name);
      return { ready: current };
    };

    /** Upstream's handleDisruption: each zone's state, and the tainting rate that goes with it. */
    const handleDisruption = async (zoneReady: Map<string, (NodeCondition | undefined)[]>, all: NodeObject[]) => {
      const newStates = new Map<string, ZoneState>();
      let allAreFullyDisrupted = true;
      for (const [zone, ready] of zoneReady) {
        const { state } = computeZoneState(ready, o.unhealthyZoneThreshold);
        if (state !== 'FullDisruption') allAreFullyDisrupted = false;
        newStates.set(zone, state);
        if (!zoneStates.has(zone)) zoneStates.set(zone, 'Initial');
      }
      let allWasFullyDisrupted = true;
      for (const [zone, state] of [...zoneStates]) {
        if (!zoneReady.has(zone)) {
          zoneStates.delete(zone);
          continue;
        }
        if (state !== 'FullDisruption') {
          allWasFullyDisrupted = false;
          break;
        }
      }
      if (allAreFullyDisrupted && allWasFullyDisrupted) return;
      const setRate = (zone: string, state: ZoneState) => zoneTainters.get(zone)?.swapLimiter(zoneEvictionRate(state, zoneReady.get(zone)?.length ?? 0, o));
      if (allAreFullyDisrupted) {
        logger.info('Controller detected that all Nodes are not-Ready. Entering master disruption mode');
        for (const node of all) {
          try {
            await markReachable(node);
          } catch (e) {
            logger.error('Failed to remove taints from Node', { node: node.metadata.name, err: errText(e) });
          }
        }
        for (const zone of zoneStates.keys()) {
          zoneTainters.get(zone)?.swapLimiter(0);
          zoneStates.set(zone, 'FullDisruption');
        }
        return;
      }
      if (allWasFullyDisrupted) {
        logger.info('Controller detected that some Nodes are Ready. Exiting master disruption mode');
        // Silence during the outage was not the nodes' fault: each starts its grace period afresh.
        const now = Date.now();
        for (const node of all) {
          const h = health.get(node.metadata.name ?? '');
          if (h) health.set(node.metadata.name ?? '', { ...h, probeTimestamp: now, readyTransitionTimestamp: now });
        }
        for (const zone of zoneStates.keys()) {
          setRate(zone, newStates.get(zone)!);
          zoneStates.set(zone, newStates.get(zone)!);
        }
        return;
      }
      for (const [zone, state] of zoneStates) {
        const next = newStates.get(zone)!;
        if (state === next) continue;
        logger.info('Controller detected that zone is now in new state', { zone, newState: next });
        setRate(zone, next);
        zoneStates.set(zone, next);
      }
    };

    const monitorNodeHealth = async () => {
      const all = nodes.indexer.list();
      const seen = new Set<string>();
      for (const node of all) {
        const name = node.metadata.name ?? '';
        seen.add(name);
        if (knownNodes.has(name)) {
          addZoneIfNew(node);
          continue;
        }
        logger.v(1).info('Controller observed a new Node', { node: name });
        nodeEvent(node, 'Normal', 'RegisteredNode', `Node ${name} event: Registered Node ${name} in Controller`);
        knownNodes.set(name, node);
        addZoneIfNew(node);
        try {
          await markReachable(node);
        } catch (e) {
          logger.error('Failed to remove taints from node', { node: name, err: errText(e) });
        }
      }
      for (const [name, node] of knownNodes) {
        if (seen.has(name)) continue;
        logger.v(1).info('Controller observed a Node deletion', { node: name });
        nodeEvent(node, 'Normal', 'RemovingNode', `Node ${name} event: Removing Node ${name} from Controller`);
        knownNodes.delete(name);
        health.delete(name);
      }
      const zoneReady = new Map<string, (NodeCondition | undefined)[]>();
      await parallelize(all, nodeWorkers, async (node) => {
        const r = await monitorNode(node);
        if (!r || Object.prototype.hasOwnProperty.call(node.metadata.labels ?? {}, exclusionLabel)) return;
        const zone = zoneOf(node);
        zoneReady.set(zone, [...(zoneReady.get(zone) ?? []), r.ready]);
      });
      await handleDisruption(zoneReady, all);
    };

    /** Upstream's doNoExecuteTaintingPass: the due nodes of each zone get their NoExecute taint. */
    const noExecuteTaintingPass = async () => {
      for (const tainter of zoneTainters.values()) {
        await tainter.try(async (v) => {
          const node = nodes.indexer.getByKey(v.value);
          if (!node) {
            logger.info('Node no longer present in nodeLister', { node: v.value });
            return { done: true, retryMs: 0 };
          }
          const ready = nodeCondition(node, 'Ready');
          if (!ready) {
            logger.info('Failed to get NodeCondition from the node status', { node: v.value });
            return { done: false, retryMs: 50 };
          }
          // Unreachable and not-ready are exclusive, as Ready's Unknown and False are.
          if (ready.status !== 'False' && ready.status !== 'Unknown') {
            logger.v(4).info("Node was in a taint queue, but it's ready now. Ignoring taint request", { node: v.value });
            return { done: true, retryMs: 0 };
          }
          const [add, opposite] = ready.status === 'False' ? [notReadyNoExecute, unreachableNoExecute] : [unreachableNoExecute, notReadyNoExecute];
          try {
            return { done: await swapNodeTaints(nodeClient, node, [add], [opposite]), retryMs: 0 };
          } catch (e) {
            logger.error('Failed to taint node', { node: v.value, taint: add.key, err: errText(e) });
            return { done: false, retryMs: 0 };
          }
        });
      }
    };

    /** Upstream's doNoScheduleTaintingPass and reconcileNodeLabels for one node. */
    const syncNode = async (name: string): Promise<void> => {
      const node = nodes.indexer.getByKey(name);
      if (!node) return;
      const want: Taint[] = [];
      for (const c of node.status?.conditions ?? []) {
        const key = conditionTaints[c.type]?.[c.status];
        if (key) want.push({ key, effect: 'NoSchedule' });
      }
      if (node.spec?.unschedulable) want.push({ key: unschedulableKey, effect: 'NoSchedule' });
      const have = (node.spec?.taints ?? []).filter((t) => t.effect === 'NoSchedule' && (t.key === unschedulableKey || conditionTaintKeys.has(t.key)));
      const { add, remove: del } = taintSetDiff(want, have);
      if (add.length > 0 || del.length > 0) {
        try {
          if (!(await swapNodeTaints(nodeClient, node, add, del))) logger.error('Failed to taint NoSchedule on node, requeue it', { node: name });
        } catch (e) {
          logger.error('Failed to taint NoSchedule on node, requeue it', { node: name, err: errText(e) });
        }
      }
      const labels = node.metadata.labels ?? {};
      const relabel: Record<string, string> = {};
      for (const [stable, beta] of labelPairs) if (labels[stable] !== undefined && labels[beta] !== labels[stable]) relabel[beta] = labels[stable]!;
      if (Object.keys(relabel).length > 0) {
        try {
          await nodeClient.patch(name, 'strategic', { metadata: { labels: relabel } });
        } catch (e) {
          logger.error('Failed to reconcile labels for node, requeue it', { node: name, err: errText(e) });
        }
      }
    };

    /** Upstream's processPod: a pod bound to a node that is not Ready is marked not Ready. */
    const syncPod = async (key: string): Promise<void> => {
      const { namespace, name } = splitKey(key);
      const pod = pods.indexer.get(namespace, name);
      if (!pod?.spec?.nodeName) return;
      const nodeName = pod.spec.nodeName;
      const h = health.get(nodeName);
      if (!h) return;
      if (!nodes.indexer.getByKey(nodeName)) throw new Error(`node ${nodeName} is not in the cache yet`);
      const ready = nodeCondition(h, 'Ready');
      if (ready && ready.status !== 'True' && !(await markPodsNotReady([pod], nodeName))) throw new Error(`unable to mark pod ${key} NotReady on node ${nodeName}`);
    };

    const loop = async (periodMs: number, fn: () => Promise<void>, what: string) => {
      const stop = aborted(signal);
      while (!signal.aborted) {
        try {
          await fn();
        } catch (e) {
          logger.error(what, { err: errText(e) });
        }
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([stop, new Promise((r) => (timer = setTimeout(r, periodMs)))]);
        clearTimeout(timer);
      }
    };

    try {
      if (!(await waitForCaches(signal, [leases, nodes, pods]))) return;
      logger.info('Starting controller', { controller: 'node-lifecycle-controller' });
      const nodeWorker = async () => {
        for (;;) {
          const name = await nodeQueue.get();
          if (name === undefined) return;
          try {
            await syncNode(name);
          } finally {
            nodeQueue.done(name);
          }
        }
      };
      signal.addEventListener('abort', () => nodeQueue.shutDown(), { once: true });
      await Promise.all([
        ...Array.from({ length: nodeWorkers }, nodeWorker),
        runWorkers(this.name, podQueue, podWorkers, signal, syncPod, logger),
        loop(evictionPeriodMs, noExecuteTaintingPass, 'Error tainting nodes'),
        loop(o.monitorPeriodMs, monitorNodeHealth, 'Error monitoring node health'),
      ]);
    } finally {
      for (const r of remove) r();
      nodeQueue.shutDown();
      podQueue.shutDown();
      logger.info('Shutting down controller', { controller: 'node-lifecycle-controller' });
    }
  }
}

/** nodelifecycle with its flags. */
export function newNodeLifecycleController(options: NodeLifecycleOptions): ControllerFactory {
  return () => new NodeLifecycleController(options);
}
