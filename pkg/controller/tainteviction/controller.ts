// The taint eviction controller (upstream 1.30's taint-eviction-controller, the NoExecuteTaintManager
// split out of the node lifecycle controller): a pod bound to a node with NoExecute taints it does
// not all tolerate is deleted at once; one that tolerates them for a while (the smallest
// tolerationSeconds of the tolerations it uses; DefaultTolerationSeconds gives every pod 300 s for
// not-ready and unreachable) is deleted when that time has passed since the taints were seen,
// unless they go, or the pod goes, first. Before deleting, the pod gets a DisruptionTarget
// condition saying why. Events (TaintManagerEviction) mark each deletion scheduled or cancelled.
import { EventRecorder, deletedObject, isNotFound, objectKey, splitKey } from '../../client/index.js';
import type { Controller, ControllerContext, ControllerFactory } from '../controller.js';
import { disruptionTarget, patchPodStatus, withPodCondition, type PodObject } from '../pod-conditions.js';
import { podsOnNode } from '../pods-on-node.js';
import { aborted, waitForCaches } from '../queue-workers.js';
import { matchingTolerations, noExecuteTaints, type Taint, type Toleration } from '../taints.js';
import type { NodeObject } from '../nodelifecycle/node-taints.js';
import { TimedWorkerQueue } from './timed-workers.js';

/** Upstream's name for it, which is also what it reports events as. */
export const taintEvictionControllerName = 'taint-eviction-controller';

/** Upstream's retries of a failed deletion, 10 ms apart. */
const retries = 5;

const errText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The smallest tolerationSeconds among `used` in ms: 0 when none tolerate, -1 when all tolerate forever. */
export function minTolerationMs(used: readonly Toleration[]): number {
  if (used.length === 0) return 0;
  let min = Infinity;
  for (const t of used) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds === null) continue;
    const s = Number(t.tolerationSeconds);
    if (s <= 0) return 0;
    min = Math.min(min, s);
  }
  return min === Infinity ? -1 : min * 1000;
}

class TaintEvictionController implements Controller {
  readonly name = taintEvictionControllerName;

  async run(ctx: ControllerContext): Promise<void> {
    const { client, informers, logger, signal } = ctx;
    const pods = informers.forResource<PodObject>('', 'v1', 'pods');
    const nodes = informers.forResource<NodeObject>('', 'v1', 'nodes');
    const podClient = client.resource<PodObject>('', 'v1', 'pods');
    const recorder = new EventRecorder(client, taintEvictionControllerName, logger);
    const podsAssigned = podsOnNode(pods);
    /** The NoExecute taints of each tainted node. */
    const taintedNodes = new Map<string, Taint[]>();

    const podEvent = (key: string, message: string) => {
      const { namespace, name } = splitKey(key);
      // Upstream refers to the pod without its uid; with it, `kubectl describe pod` finds the event.
      const uid = pods.indexer.getByKey(key)?.metadata.uid ?? '';
      void recorder.event({ apiVersion: 'v1', kind: 'Pod', namespace, name, uid }, 'Normal', 'TaintManagerEviction', `${message} ${key}`);
    };

    /** Upstream's addConditionAndDeletePod, retried. */
    const evict = async (key: string): Promise<boolean> => {
      logger.info('Deleting pod', { controller: taintEvictionControllerName, pod: key });
      podEvent(key, 'Marking for deletion Pod');
      const { namespace, name } = splitKey(key);
      let lastError: unknown;
      for (let i = 0; i < retries; i++) {
        try {
          const pod = await podClient.namespace(namespace).get(name);
          const { status, changed } = withPodCondition(pod.status, {
            type: disruptionTarget, status: 'True', reason: 'DeletionByTaintManager', message: 'Taint manager: deleting due to NoExecute taint',
          });
          if (changed) await patchPodStatus(podClient, pod, { conditions: status.conditions!.filter((c) => c.type === disruptionTarget) });
          await podClient.namespace(namespace).delete(name);
          return true;
        } catch (e) {
          // Gone already: what we meant to do is done.
          if (isNotFound(e)) return true;
          lastError = e;
          await new Promise((r) => setTimeout(r, 10));
        }
      }
      logger.error('Failed to delete pod', { controller: taintEvictionControllerName, pod: key, err: errText(lastError) });
      return false;
    };
    const evictions = new TimedWorkerQueue(evict);

    const cancel = (key: string) => {
      if (evictions.cancel(key)) {
        logger.v(4).info('Cancelling TimedWorkerQueue item', { item: key });
        podEvent(key, 'Cancelling deletion of Pod');
      }
    };

    /** Upstream's processPodOnNode. */
    const processPod = (key: string, nodeName: string, tolerations: readonly Toleration[], taints: readonly Taint[], now: number) => {
      if (taints.length === 0) cancel(key);
      const { all, used } = matchingTolerations(taints, tolerations);
      if (!all) {
        logger.v(2).info('Not all taints are tolerated after update for pod on node', { pod: key, node: nodeName });
        // Deleted right away: anything scheduled later is moot.
        cancel(key);
        evictions.add(key, now, now);
        return;
      }
      const min = minTolerationMs(used);
      if (min < 0) {
        logger.v(4).info('Current tolerations for pod tolerate forever, cancelling any scheduled deletion', { pod: key });
        cancel(key);
        return;
      }
      let start = now;
      const scheduled = evictions.pending(key);
      if (scheduled) {
        start = scheduled.createdAt;
        // Scheduled from an earlier sighting of the taints: that schedule stands, as upstream's does.
        if (start < now) return;
        cancel(key);
      }
      evictions.add(key, start, start + min);
    };

    const handlePod = (pod: PodObject | undefined, key: string) => {
      if (!pod) {
        logger.v(4).info('Noticed pod deletion', { pod: key });
        cancel(key);
        return;
      }
      const nodeName = pod.spec?.nodeName;
      if (!nodeName) return;
      const taints = taintedNodes.get(nodeName);
      // The node lost its taints (or went) before: any eviction was cancelled then.
      if (!taints) return;
      processPod(key, nodeName, pod.spec?.tolerations ?? [], taints, Date.now());
    };

    const handleNode = (name: string) => {
      const node = nodes.indexer.getByKey(name);
      if (!node) {
        logger.v(4).info('Noticed node deletion', { node: name });
        taintedNodes.delete(name);
        return;
      }
      const taints = noExecuteTaints(node.spec?.taints);
      if (taints.length === 0) taintedNodes.delete(name);
      else taintedNodes.set(name, taints);
      const onNode = podsAssigned(name);
      if (onNode.length === 0) return;
      if (taints.length === 0) {
        logger.v(4).info('All taints were removed from the node. Cancelling all evictions...', { node: name });
        for (const p of onNode) cancel(objectKey(p));
        return;
      }
      const now = Date.now();
      for (const p of onNode) processPod(objectKey(p), name, p.spec?.tolerations ?? [], taints, now);
    };

    const sameJSON = (a: unknown, b: unknown) => JSON.stringify(a ?? []) === JSON.stringify(b ?? []);
    // The informers' handlers run one at a time: a node's taints are recorded before its pods are weighed.
    const remove = [
      nodes.addEventHandler({
        onAdd: (n) => handleNode(objectKey(n)),
        onUpdate: (old, n) => {
          if (!sameJSON(noExecuteTaints(old.spec?.taints), noExecuteTaints(n.spec?.taints))) handleNode(objectKey(n));
        },
        onDelete: (n) => handleNode(objectKey(deletedObject(n))),
      }),
      pods.addEventHandler({
        onAdd: (p) => handlePod(p, objectKey(p)),
        onUpdate: (old, p) => {
          if (old.spec?.nodeName !== p.spec?.nodeName || !sameJSON(old.spec?.tolerations, p.spec?.tolerations)) handlePod(p, objectKey(p));
        },
        onDelete: (p) => handlePod(undefined, objectKey(deletedObject(p))),
      }),
    ];
    try {
      if (!(await waitForCaches(signal, [pods, nodes]))) return;
      logger.info('Starting controller', { controller: taintEvictionControllerName });
      await aborted(signal);
    } finally {
      for (const r of remove) r();
      evictions.stop();
      logger.info('Shutting down controller', { controller: taintEvictionControllerName });
    }
  }
}

export const taintEvictionController: ControllerFactory = () => new TaintEvictionController();
