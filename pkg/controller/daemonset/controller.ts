// The daemonset controller (upstream's DaemonSetsController, 1.30): one pod of each DaemonSet per
// eligible Node (placement.ts), tied to its node by node affinity for the scheduler to bind;
// failed and succeeded daemon pods replaced (failed ones with a per-node backoff); surplus pods,
// pods of nodes that stopped qualifying and unscheduled pods of nodes that are gone deleted; each
// template recorded as a ControllerRevision and rolled out by RollingUpdate (maxUnavailable,
// maxSurge) or OnDelete; the status counted per node. Expectations keep it from acting twice on a
// cache that has not caught up with its own creations and deletions.
import type { Node } from '../../../api/core/v1/node.js';
import {
  EventRecorder, RateLimitingQueue, deletedObject, isAlreadyExists, isNotFound, objectKey, type DeletedFinalStateUnknown, type KubeObject,
} from '../../client/index.js';
import type { Controller, ControllerContext, ControllerFactory } from '../controller.js';
import { claimObjects, controllerRefOf, newControllerRef, type OwnerRef } from '../controller-ref.js';
import { ControllerExpectations } from '../expectations.js';
import { selectorMatches } from '../label-selector.js';
import type { PodObject } from '../pod-conditions.js';
import { runWorkers, waitForCaches, type Requeue } from '../queue-workers.js';
import { isPodAvailable, isPodReady } from '../replicaset/pod-ranking.js';
import { FailedPodBackoff } from './failed-pod-backoff.js';
import { affinityForNode, nodeShouldRunDaemonPod, targetNodeName, type DaemonSetObject } from './placement.js';
import {
  daemonPodTemplate, dsApiVersion, dsKind, isPodUpdated, matchesTemplate, newDaemonRevision, revisionHashLabel, templateGeneration, type Revision,
} from './revisions.js';
import { daemonPodOrder, rollingUpdateStep, updateBudget } from './rolling-update.js';
import { statusCounts } from './status.js';

type NodeObject = Node & KubeObject;
type NodeToPods = Map<string, PodObject[]>;

/** Upstream's BurstReplicas: the most pods one sync creates or deletes. */
const burstReplicas = 250;
/** Upstream's BackoffGCInterval. */
const backoffGCIntervalMs = 60_000;

const errText = (e: unknown) => (e instanceof Error ? e.message : String(e));
const isTerminal = (p: PodObject) => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';
const emptySelector = (ds: DaemonSetObject) => {
  const s = ds.spec?.selector;
  return !!s && Object.keys(s.matchLabels ?? {}).length === 0 && (s.matchExpressions ?? []).length === 0;
};
/** The conditions that are True, as a comparable set (upstream's nodeInSameCondition). */
const trueConditions = (n: NodeObject) => (n.status?.conditions ?? []).filter((c) => c.status === 'True').map((c) => c.type).sort().join(',');

class DaemonSetsController implements Controller {
  readonly name = 'daemonset';

  async run(ctx: ControllerContext): Promise<void> {
    const { client, informers, logger, signal, domain } = ctx;
    const queue = new RateLimitingQueue<string>();
    const expectations = new ControllerExpectations();
    const backoff = new FailedPodBackoff();
    const sets = informers.forResource<DaemonSetObject>('apps', 'v1', 'daemonsets');
    const revisions = informers.forResource<Revision>('apps', 'v1', 'controllerrevisions');
    const pods = informers.forResource<PodObject>('', 'v1', 'pods');
    const nodes = informers.forResource<NodeObject>('', 'v1', 'nodes');
    const dsClient = client.resource<DaemonSetObject>('apps', 'v1', 'daemonsets');
    const revClient = client.resource<Revision>('apps', 'v1', 'controllerrevisions');
    const podClient = client.resource<PodObject>('', 'v1', 'pods');
    const recorder = new EventRecorder(client, 'daemonset-controller', logger);

    const event = (ds: DaemonSetObject, type: 'Normal' | 'Warning', reason: string, message: string) =>
      void recorder.event({ apiVersion: dsApiVersion, kind: dsKind, namespace: ds.metadata.namespace ?? '', name: ds.metadata.name ?? '', uid: ds.metadata.uid ?? '' }, type, reason, message);
    const enqueue = (ds: DaemonSetObject) => queue.add(objectKey(ds));
    const shouldRun = (node: NodeObject, ds: DaemonSetObject) => nodeShouldRunDaemonPod(node, ds, domain);

    /** The DaemonSet a controllerRef names, if we have it with that uid. */
    const resolve = (namespace: string | undefined, ref: OwnerRef | undefined): DaemonSetObject | undefined => {
      if (!ref || ref.kind !== dsKind) return undefined;
      const ds = sets.indexer.get(namespace ?? '', ref.name);
      return ds && ds.metadata.uid === ref.uid ? ds : undefined;
    };
    /** The DaemonSets whose selector takes an orphan's labels: one of them may adopt it. */
    const selecting = (o: KubeObject): DaemonSetObject[] =>
      sets.indexer.byNamespace(o.metadata.namespace ?? '').filter((ds) => !emptySelector(ds) && selectorMatches(ds.spec?.selector, o.metadata.labels));

    // Pods: creations and deletions settle expectations; any change of a daemon pod wakes its set.
    const podDeleted = (o: PodObject | DeletedFinalStateUnknown<PodObject>) => {
      const pod = deletedObject(o);
      const ds = resolve(pod.metadata.namespace, controllerRefOf(pod));
      if (!ds) return;
      logger.v(4).info('Pod deleted', { pod: objectKey(pod) });
      expectations.deletionObserved(objectKey(ds), objectKey(pod));
      enqueue(ds);
    };
    const podAdded = (pod: PodObject) => {
      // Seen already deleted (after a relist): a deletion, never a creation.
      if (pod.metadata.deletionTimestamp) return podDeleted(pod);
      const ref = controllerRefOf(pod);
      if (ref) {
        const ds = resolve(pod.metadata.namespace, ref);
        if (!ds) return;
        logger.v(4).info('Pod added', { pod: objectKey(pod) });
        expectations.creationObserved(objectKey(ds));
        enqueue(ds);
        return;
      }
      for (const ds of selecting(pod)) enqueue(ds);
    };
    /**
     * A change of a pod or revision (upstream's updatePod, updateHistory): a changed controllerRef
     * wakes the former owner; then the owner is woken (and answered), or, for an orphan whose labels
     * or controllerRef changed, the sets that may adopt it.
     */
    const ownedChanged = (old: KubeObject, obj: KubeObject): DaemonSetObject | undefined => {
      const ref = controllerRefOf(obj);
      const oldRef = controllerRefOf(old);
      const refChanged = JSON.stringify(ref) !== JSON.stringify(oldRef);
      const was = refChanged ? resolve(old.metadata.namespace, oldRef) : undefined;
      if (was) enqueue(was);
      if (ref) {
        const ds = resolve(obj.metadata.namespace, ref);
        if (ds) enqueue(ds);
        return ds;
      }
      if (refChanged || JSON.stringify(old.metadata.labels ?? {}) !== JSON.stringify(obj.metadata.labels ?? {})) for (const ds of selecting(obj)) enqueue(ds);
      return undefined;
    };
    const podUpdated = (old: PodObject, pod: PodObject) => {
      if (old.metadata.resourceVersion === pod.metadata.resourceVersion) return;
      // A pod marked for deletion counts as gone: its replacement need not wait for it.
      if (pod.metadata.deletionTimestamp) return podDeleted(pod);
      const ds = ownedChanged(old, pod);
      // Ready now, available minReadySeconds later, with no event to say so: look again then.
      const minReady = ds?.spec?.minReadySeconds ?? 0;
      if (ds && minReady > 0 && !isPodReady(old) && isPodReady(pod)) queue.addAfter(objectKey(ds), minReady * 1000 + 1000);
    };

    // Revisions: a set's own wake it; orphans wake the sets that may adopt them.
    const revisionDeleted = (o: Revision | DeletedFinalStateUnknown<Revision>) => {
      const rev = deletedObject(o);
      const ds = resolve(rev.metadata.namespace, controllerRefOf(rev));
      if (ds) enqueue(ds);
    };
    const revisionAdded = (rev: Revision) => {
      if (rev.metadata.deletionTimestamp) return revisionDeleted(rev);
      if (controllerRefOf(rev)) return;
      for (const ds of selecting(rev)) enqueue(ds);
    };
    const revisionUpdated = (old: Revision, rev: Revision) => {
      if (old.metadata.resourceVersion !== rev.metadata.resourceVersion) ownedChanged(old, rev);
    };

    // Nodes: a set looks again when a node comes, or changes whether it qualifies.
    const nodeUpdated = (old: NodeObject, node: NodeObject) => {
      const placementSame = JSON.stringify(old.metadata.labels ?? {}) === JSON.stringify(node.metadata.labels ?? {}) &&
        JSON.stringify(old.spec ?? {}) === JSON.stringify(node.spec ?? {}) && trueConditions(old) === trueConditions(node);
      if (placementSame) return;
      for (const ds of sets.indexer.list()) {
        const before = shouldRun(old, ds);
        const now = shouldRun(node, ds);
        if (before.shouldRun !== now.shouldRun || before.shouldContinueRunning !== now.shouldContinueRunning) enqueue(ds);
      }
    };

    const remove = [
      sets.addEventHandler({
        onAdd: (ds) => {
          logger.v(4).info('Adding daemon set', { daemonset: objectKey(ds) });
          enqueue(ds);
        },
        onUpdate: (old, ds) => {
          // Replaced under the same name: the old one's expectations go with it.
          if (old.metadata.uid !== ds.metadata.uid) expectations.delete(objectKey(old));
          logger.v(4).info('Updating daemon set', { daemonset: objectKey(ds) });
          enqueue(ds);
        },
        onDelete: (o) => {
          const ds = deletedObject(o);
          logger.v(4).info('Deleting daemon set', { daemonset: objectKey(ds) });
          expectations.delete(objectKey(ds));
          enqueue(ds);
        },
      }),
      revisions.addEventHandler({ onAdd: revisionAdded, onUpdate: revisionUpdated, onDelete: revisionDeleted }),
      pods.addEventHandler({ onAdd: podAdded, onUpdate: podUpdated, onDelete: podDeleted }),
      nodes.addEventHandler({
        onAdd: (node) => {
          for (const ds of sets.indexer.list()) if (shouldRun(node, ds).shouldRun) enqueue(ds);
        },
        onUpdate: nodeUpdated,
        // Not upstream, which waits for another event: a gone node's unscheduled daemon pods go at once.
        onDelete: (o) => {
          const node = deletedObject(o);
          for (const ds of sets.indexer.list()) if (shouldRun(node, ds).shouldContinueRunning) enqueue(ds);
        },
      }),
    ];

    /** A fresh read of the set before adopting anything (upstream's RecheckDeletionTimestamp). */
    const canAdopt = (ds: DaemonSetObject) => async () => {
      try {
        const fresh = await dsClient.namespace(ds.metadata.namespace ?? '').get(ds.metadata.name ?? '');
        return fresh.metadata.uid === ds.metadata.uid && !fresh.metadata.deletionTimestamp;
      } catch (e) {
        if (isNotFound(e)) return false;
        throw e;
      }
    };

    /** The set's pods (after adopting and releasing) by the node each is for (upstream's getNodesToDaemonPods). */
    const nodeToDaemonPods = async (ds: DaemonSetObject, includeDeletedTerminal: boolean): Promise<NodeToPods> => {
      const ns = ds.metadata.namespace ?? '';
      const claimed = await claimObjects(pods.indexer.byNamespace(ns), {
        owner: ds, ownerApiVersion: dsApiVersion, ownerKind: dsKind, selector: ds.spec?.selector,
        client: podClient.namespace(ns), canAdopt: canAdopt(ds), logger, what: 'pod',
      });
      const out: NodeToPods = new Map();
      for (const pod of claimed) {
        // A finished pod already being deleted is the node agent's or podgc's to finish.
        if (!includeDeletedTerminal && isTerminal(pod) && pod.metadata.deletionTimestamp) continue;
        const node = targetNodeName(pod);
        if (node === undefined) {
          logger.v(4).info('Failed to get target node name of Pod in DaemonSet', { pod: objectKey(pod), daemonset: objectKey(ds) });
          continue;
        }
        out.set(node, [...(out.get(node) ?? []), pod]);
      }
      return out;
    };

    /** Upstream's constructHistory: the revision of the current template (made when missing) and the older ones. */
    const constructHistory = async (ds: DaemonSetObject): Promise<{ cur: Revision; old: Revision[] }> => {
      const ns = ds.metadata.namespace ?? '';
      const revs = revClient.namespace(ns);
      const owned = await claimObjects(revisions.indexer.byNamespace(ns), {
        owner: ds, ownerApiVersion: dsApiVersion, ownerKind: dsKind, selector: ds.spec?.selector,
        client: revs, canAdopt: canAdopt(ds), logger, what: 'controllerrevision',
      });
      const current: Revision[] = [];
      const old: Revision[] = [];
      for (let rev of owned) {
        // A revision made before the label existed is labelled with its name, as upstream does.
        if (rev.metadata.labels?.[revisionHashLabel] === undefined) {
          rev = await revs.update({ ...rev, metadata: { ...rev.metadata, labels: { ...(rev.metadata.labels ?? {}), [revisionHashLabel]: rev.metadata.name ?? '' } } });
        }
        (matchesTemplate(ds, rev) ? current : old).push(rev);
      }
      const next = Math.max(0, ...old.map((r) => r.revision)) + 1;
      if (current.length === 0) return { cur: await snapshot(ds, next), old };
      const keep = current.reduce((a, b) => (b.revision >= a.revision ? b : a));
      if (current.length > 1) {
        // Duplicates of the current template: its pods take the kept one's hash, the others go.
        const keepHash = keep.metadata.labels?.[revisionHashLabel] ?? '';
        for (const pod of await claimedPods(ds)) {
          if (pod.metadata.labels?.[revisionHashLabel] !== keepHash) await podClient.namespace(ns).patch(pod.metadata.name ?? '', 'merge', { metadata: { labels: { [revisionHashLabel]: keepHash } } });
        }
        for (const dup of current) if (dup !== keep) await revs.delete(dup.metadata.name ?? '');
      }
      const cur = keep.revision < next ? await revs.update({ ...keep, revision: next }) : keep;
      return { cur, old };
    };
    const claimedPods = async (ds: DaemonSetObject) => [...(await nodeToDaemonPods(ds, true)).values()].flat();

    /** Upstream's snapshot: creates the revision; a name taken by other data bumps collisionCount and fails, to be retried. */
    const snapshot = async (ds: DaemonSetObject, revision: number): Promise<Revision> => {
      const ns = ds.metadata.namespace ?? '';
      const rev = newDaemonRevision(ds, revision);
      try {
        return await revClient.namespace(ns).create(rev);
      } catch (e) {
        if (!isAlreadyExists(e)) throw e;
        const existing = await revClient.namespace(ns).get(rev.metadata.name ?? '');
        if (matchesTemplate(ds, existing)) return existing;
        const fresh = await dsClient.namespace(ns).get(ds.metadata.name ?? '');
        const count = fresh.status?.collisionCount ?? undefined;
        if (count !== (ds.status?.collisionCount ?? undefined)) {
          throw new Error(`found a stale collision count (${ds.status?.collisionCount}, expected ${count}) of DaemonSet ${JSON.stringify(ds.metadata.name)} while processing; will retry until it is updated`);
        }
        const bumped = (count ?? 0) + 1;
        await dsClient.namespace(ns).updateStatus({ ...fresh, status: { ...(fresh.status ?? {}), collisionCount: bumped } as NonNullable<DaemonSetObject['status']> });
        logger.v(2).info('Found a hash collision for DaemonSet - bumping collisionCount to resolve it', { daemonset: objectKey(ds), collisionCount: bumped });
        throw e;
      }
    };

    /** Upstream's syncNodes: deletes `toDelete` and creates a pod on each of `toCreate`, under expectations. */
    const syncNodes = async (ds: DaemonSetObject, toDelete: readonly string[], toCreate: readonly string[], hash: string): Promise<void> => {
      const key = objectKey(ds);
      const ns = ds.metadata.namespace ?? '';
      const creates = toCreate.slice(0, burstReplicas);
      const deletes = toDelete.slice(0, burstReplicas);
      expectations.expect(key, creates.length, deletes.map((n) => `${ns}/${n}`));
      const errors: unknown[] = [];
      const template = daemonPodTemplate(ds, hash, domain);
      const create = async (nodeName: string) => {
        const pod = {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: {
            generateName: `${ds.metadata.name}-`,
            namespace: ns,
            labels: { ...(template.metadata?.labels ?? {}) },
            ...(template.metadata?.annotations ? { annotations: { ...template.metadata.annotations } } : {}),
            ...(template.metadata?.finalizers ? { finalizers: [...template.metadata.finalizers] } : {}),
            ownerReferences: [newControllerRef(ds, dsApiVersion, dsKind)],
          },
          // Bound by the scheduler to the one node its affinity admits.
          spec: { ...structuredClone(template.spec!), affinity: affinityForNode(template.spec?.affinity, nodeName) },
        } as PodObject;
        try {
          const made = await podClient.namespace(ns).create(pod);
          logger.v(4).info('Controller created pod', { controller: ds.metadata.name, pod: objectKey(made) });
          event(ds, 'Normal', 'SuccessfulCreate', `Created pod: ${made.metadata.name}`);
          return true;
        } catch (e) {
          expectations.creationObserved(key);
          // A namespace being deleted takes every pod: nothing to retry.
          if (/because it is being terminated/.test(errText(e))) return false;
          event(ds, 'Warning', 'FailedCreate', `Error creating: ${errText(e)}`);
          logger.v(2).info('Failed creation, decrementing expectations for daemon set', { daemonset: key, err: errText(e) });
          errors.push(e);
          return false;
        }
      };
      // Slow start: batches of 1, 2, 4, ... so a set that cannot create pods fails early and quietly.
      for (let pos = 0, batch = Math.min(1, creates.length); batch > 0; pos += batch, batch = Math.min(2 * batch, creates.length - pos)) {
        const before = errors.length;
        await Promise.all(creates.slice(pos, pos + batch).map(create));
        const skipped = creates.length - (pos + batch);
        if (errors.length > before && skipped > 0) {
          logger.v(2).info('Slow-start failure. Skipping creation pods, decrementing expectations for daemon set', { skippedPods: skipped, daemonset: key });
          for (let i = 0; i < skipped; i++) expectations.creationObserved(key);
          break;
        }
      }
      await Promise.all(deletes.map(async (name) => {
        try {
          await podClient.namespace(ns).delete(name);
          event(ds, 'Normal', 'SuccessfulDelete', `Deleted pod: ${name}`);
        } catch (e) {
          expectations.deletionObserved(key, `${ns}/${name}`);
          if (isNotFound(e)) return;
          event(ds, 'Warning', 'FailedDelete', `Error deleting: ${errText(e)}`);
          errors.push(e);
        }
      }));
      if (errors.length > 0) throw new Error(errors.map(errText).join(', '));
    };

    /** Upstream's podsShouldBeOnNode: whether the node needs a pod, and which of its pods go. */
    const podsShouldBeOnNode = (node: NodeObject, nodeToPods: NodeToPods, ds: DaemonSetObject, hash: string): { create: boolean; remove: string[] } => {
      const name = node.metadata.name ?? '';
      const { shouldRun: run, shouldContinueRunning } = shouldRun(node, ds);
      const daemonPods = nodeToPods.get(name);
      const remove: string[] = [];
      if (run && !daemonPods) return { create: true, remove };
      if (shouldContinueRunning) {
        const running: PodObject[] = [];
        for (const pod of daemonPods ?? []) {
          if (pod.metadata.deletionTimestamp) continue;
          const ref = `${pod.metadata.namespace}/${pod.metadata.name}`;
          if (pod.status?.phase === 'Failed') {
            // The node agent may keep rejecting it: replacements back off per node.
            const backoffKey = `${ds.metadata.uid}/${ds.status?.observedGeneration ?? 0}/${name}`;
            if (backoff.inBackoff(backoffKey)) {
              logger.v(4).info('Deleting failed pod on node has been limited by backoff', { pod: ref, node: name, currentDelayMs: backoff.get(backoffKey) });
              queue.addAfter(objectKey(ds), backoff.get(backoffKey));
              continue;
            }
            backoff.next(backoffKey);
            logger.v(2).info('Found failed daemon pod on node, will try to kill it', { pod: ref, node: name });
            event(ds, 'Warning', 'FailedDaemonPod', `Found failed daemon pod ${ref} on node ${name}, will try to kill it`);
            remove.push(pod.metadata.name ?? '');
          } else if (pod.status?.phase === 'Succeeded') {
            logger.v(2).info('Found succeeded daemon pod on node, will try to delete it', { pod: ref, node: name });
            event(ds, 'Normal', 'SucceededDaemonPod', `Found succeeded daemon pod ${ref} on node ${name}, will try to delete it`);
            remove.push(pod.metadata.name ?? '');
          } else {
            running.push(pod);
          }
        }
        running.sort(daemonPodOrder);
        const { maxSurge } = updateBudget(ds.spec?.updateStrategy, 1);
        if (maxSurge === 0) {
          // Without surge a node runs one pod: the oldest stays.
          remove.push(...running.slice(1).map((p) => p.metadata.name ?? ''));
          return { create: false, remove };
        }
        if (running.length <= 1) return { create: running.length === 0 && run, remove };
        // With surge a node may run the oldest old pod beside the oldest new one, until the new one is available.
        const generation = templateGeneration(ds);
        let oldestNew: PodObject | undefined;
        let oldestOld: PodObject | undefined;
        for (const pod of running) {
          if (isPodUpdated(pod, hash, generation)) {
            if (!oldestNew) {
              oldestNew = pod;
              continue;
            }
          } else if (!oldestOld) {
            oldestOld = pod;
            continue;
          }
          remove.push(pod.metadata.name ?? '');
        }
        if (oldestNew && oldestOld) {
          const minReady = ds.spec?.minReadySeconds ?? 0;
          if (!isPodReady(oldestOld) || isPodAvailable(oldestNew, minReady, Date.now())) remove.push(oldestOld.metadata.name ?? '');
        }
        return { create: false, remove };
      }
      if (daemonPods) remove.push(...daemonPods.filter((p) => !p.metadata.deletionTimestamp).map((p) => p.metadata.name ?? ''));
      return { create: false, remove };
    };

    /** Upstream's manage: creates and deletes pods so each node has what podsShouldBeOnNode says. */
    const manage = async (ds: DaemonSetObject, nodeList: NodeObject[], hash: string) => {
      const nodeToPods = await nodeToDaemonPods(ds, false);
      const create: string[] = [];
      const remove: string[] = [];
      for (const node of nodeList) {
        const r = podsShouldBeOnNode(node, nodeToPods, ds, hash);
        if (r.create) create.push(node.metadata.name ?? '');
        remove.push(...r.remove);
      }
      // Unscheduled pods for nodes that are gone: no scheduler will bind them and podgc only takes bound ones.
      const existing = new Set(nodeList.map((n) => n.metadata.name));
      for (const [node, list] of nodeToPods) {
        if (!existing.has(node)) remove.push(...list.filter((p) => !p.spec?.nodeName).map((p) => p.metadata.name ?? ''));
      }
      await syncNodes(ds, remove, create, hash);
    };

    const rollingUpdate = async (ds: DaemonSetObject, nodeList: NodeObject[], hash: string) => {
      const nodeToPods = await nodeToDaemonPods(ds, false);
      const byName = new Map(nodeList.map((n) => [n.metadata.name ?? '', n]));
      let desired = 0;
      for (const node of nodeList) {
        if (!shouldRun(node, ds).shouldRun) continue;
        desired++;
        if (!nodeToPods.has(node.metadata.name ?? '')) nodeToPods.set(node.metadata.name ?? '', []);
      }
      const budget = updateBudget(ds.spec?.updateStrategy, desired);
      logger.v(5).info('DaemonSet with maxSurge and maxUnavailable', { daemonset: objectKey(ds), ...budget });
      const step = rollingUpdateStep({
        nodeToPods, desired, ...budget, hash, generation: templateGeneration(ds), minReadySeconds: ds.spec?.minReadySeconds ?? 0, now: Date.now(),
        shouldRun: (name) => {
          const node = byName.get(name);
          return !!node && shouldRun(node, ds).shouldRun;
        },
      });
      await syncNodes(ds, step.deletePods, step.createOn, hash);
    };

    /** Upstream's cleanupHistory: old revisions beyond revisionHistoryLimit that no pod still runs go, oldest first. */
    const cleanupHistory = async (ds: DaemonSetObject, old: Revision[]) => {
      let toKill = old.length - (ds.spec?.revisionHistoryLimit ?? 10);
      if (toKill <= 0) return;
      const live = new Set((await claimedPods(ds)).map((p) => p.metadata.labels?.[revisionHashLabel]).filter((h) => h));
      for (const rev of [...old].sort((a, b) => a.revision - b.revision)) {
        if (toKill <= 0) break;
        if (live.has(rev.metadata.labels?.[revisionHashLabel])) continue;
        await revClient.namespace(ds.metadata.namespace ?? '').delete(rev.metadata.name ?? '');
        toKill--;
      }
    };

    const updateStatus = async (ds: DaemonSetObject, nodeList: NodeObject[], hash: string, updateObservedGeneration: boolean): Promise<void | Requeue> => {
      logger.v(4).info('Updating daemon set status', { daemonset: objectKey(ds) });
      const nodeToPods = await nodeToDaemonPods(ds, false);
      const minReadySeconds = ds.spec?.minReadySeconds ?? 0;
      const counts = statusCounts({
        nodes: nodeList.map((n) => ({ name: n.metadata.name ?? '', shouldRun: shouldRun(n, ds).shouldRun })),
        nodeToPods, hash, generation: templateGeneration(ds), minReadySeconds, now: Date.now(),
      });
      const status = ds.status ?? ({} as NonNullable<DaemonSetObject['status']>);
      const same = (Object.keys(counts) as (keyof typeof counts)[]).every((k) => (status[k] ?? 0) === counts[k]);
      if (!same || (status.observedGeneration ?? 0) < (ds.metadata.generation ?? 0)) {
        const write = (from: DaemonSetObject) => dsClient.namespace(from.metadata.namespace ?? '').updateStatus({
          ...from,
          status: { ...(from.status ?? {}), ...counts, ...(updateObservedGeneration ? { observedGeneration: ds.metadata.generation ?? 0 } : {}) } as NonNullable<DaemonSetObject['status']>,
        });
        try {
          await write(ds);
        } catch (e) {
          if (isNotFound(e)) return;
          // Once more from a fresh read (upstream's StatusUpdateRetries), then the queue's backoff.
          await write(await dsClient.namespace(ds.metadata.namespace ?? '').get(ds.metadata.name ?? ''));
        }
      }
      // Ready pods become available minReadySeconds later without any event: look again then.
      if (minReadySeconds > 0 && counts.numberReady !== counts.numberAvailable) return { requeueAfterMs: minReadySeconds * 1000 };
    };

    const sync = async (key: string): Promise<void | Requeue> => {
      const started = Date.now();
      const ds = sets.indexer.getByKey(key);
      if (!ds) {
        logger.v(3).info('Daemon set has been deleted', { daemonset: key });
        expectations.delete(key);
        return;
      }
      try {
        const nodeList = nodes.indexer.list();
        if (emptySelector(ds)) {
          event(ds, 'Warning', 'SelectingAll', 'This daemon set is selecting all pods. A non-empty selector is required.');
          return;
        }
        // Its pods and revisions go with it (or are orphaned): its status cannot be told reliably.
        if (ds.metadata.deletionTimestamp) return;
        const { cur, old } = await constructHistory(ds);
        const hash = cur.metadata.labels?.[revisionHashLabel] ?? '';
        // Creations or deletions still on their way: only the status, and not for this generation.
        if (!expectations.satisfied(key)) return await updateStatus(ds, nodeList, hash, false);
        let failure: unknown;
        try {
          await manage(ds, nodeList, hash);
          if (expectations.satisfied(key) && ds.spec?.updateStrategy?.type === 'RollingUpdate') await rollingUpdate(ds, nodeList, hash);
          await cleanupHistory(ds, old).catch((e: unknown) => {
            throw new Error(`failed to clean up revisions of DaemonSet: ${errText(e)}`);
          });
        } catch (e) {
          failure = e;
        }
        let requeue: void | Requeue = undefined;
        try {
          requeue = await updateStatus(ds, nodeList, hash, true);
        } catch (e) {
          if (failure === undefined) throw e;
          logger.error('Failed to update status', { daemonSet: key, err: errText(e) });
        }
        if (failure !== undefined) throw failure;
        return requeue;
      } finally {
        logger.v(4).info('Finished syncing daemon set', { daemonset: key, durationMs: Date.now() - started });
      }
    };

    const gcTimer = setInterval(() => backoff.gc(), backoffGCIntervalMs);
    try {
      if (!(await waitForCaches(signal, [pods, nodes, revisions, sets]))) return;
      const workers = ctx.concurrency('daemonset');
      logger.info('Starting daemon sets controller', { workers });
      await runWorkers(this.name, queue, workers, signal, sync, logger);
    } finally {
      clearInterval(gcTimer);
      for (const r of remove) r();
      queue.shutDown();
      logger.info('Shutting down daemon sets controller');
    }
  }
}

export const daemonsetController: ControllerFactory = () => new DaemonSetsController();
