// The statefulset controller (upstream's StatefulSetController and its defaultStatefulSetControl):
// gives each StatefulSet its pods `<set>-<ordinal>` with stable names and claims, one at a time in
// ordinal order and each waiting for the previous to be Running and Ready (OrderedReady) or all at
// once (Parallel); scales down from the highest ordinal; records each template as a
// ControllerRevision and replaces pods of older revisions from the highest ordinal down to the
// partition (RollingUpdate) or only when they are deleted (OnDelete); and reports the result in
// the set's status. Every sync starts over from the informers' view, so it converges from any state.
import { EventRecorder, RateLimitingQueue, deletedObject, isAlreadyExists, isConflict, isNotFound, objectKey } from '../../client/index.js';
import type { Controller, ControllerContext, ControllerFactory } from '../controller.js';
import { runWorkers, type Requeue } from '../queue-workers.js';
import {
  availableAt, claimsFor, isCreated, isFailed, isHealthy, isRunningAndReady, isTerminating, newPod, ordinalOf, podRevision,
  startOrdinal, type Claim, type SetPod,
} from './pod-identity.js';
import { canonicalJSON, newRevision, sameData, templateOf, type Revision, type Sts } from './revisions.js';

type Status = NonNullable<Sts['status']>;

const controllerUID = (o: { metadata: { ownerReferences?: { controller?: boolean; uid: string; kind: string; name: string }[] } }) =>
  o.metadata.ownerReferences?.find((r) => r.controller);
const errText = (e: unknown) => (e instanceof Error ? e.message : String(e));

class StatefulSetController implements Controller {
  readonly name = 'statefulset';

  async run(ctx: ControllerContext): Promise<void> {
    const { client, informers, logger, signal, domain } = ctx;
    const queue = new RateLimitingQueue<string>();
    const sets = informers.forResource<Sts>('apps', 'v1', 'statefulsets');
    const pods = informers.forResource<SetPod>('', 'v1', 'pods');
    const revisions = informers.forResource<Revision>('apps', 'v1', 'controllerrevisions');
    const claims = informers.forResource<Claim>('', 'v1', 'persistentvolumeclaims');
    const setClient = client.resource<Sts>('apps', 'v1', 'statefulsets');
    const podClient = client.resource<SetPod>('', 'v1', 'pods');
    const revClient = client.resource<Revision>('apps', 'v1', 'controllerrevisions');
    const claimClient = client.resource<Claim>('', 'v1', 'persistentvolumeclaims');
    const recorder = new EventRecorder(client, 'statefulset-controller', logger);

    const event = (set: Sts, type: 'Normal' | 'Warning', reason: string, message: string) => {
      void recorder.event({ apiVersion: 'apps/v1', kind: 'StatefulSet', namespace: set.metadata.namespace ?? '', name: set.metadata.name ?? '', uid: set.metadata.uid ?? '' }, type, reason, message);
    };
    /** A pod change concerns the StatefulSet that controls it. */
    const enqueueOwner = (pod: SetPod) => {
      const ref = controllerUID(pod);
      if (ref?.kind === 'StatefulSet') queue.add(`${pod.metadata.namespace}/${ref.name}`);
    };
    sets.addEventHandler({
      onAdd: (s) => queue.add(objectKey(s)),
      onUpdate: (_old, s) => queue.add(objectKey(s)),
      onDelete: (s) => queue.add(objectKey(deletedObject(s))),
    });
    pods.addEventHandler({
      onAdd: (p) => enqueueOwner(p),
      onUpdate: (old, p) => {
        enqueueOwner(p);
        if (controllerUID(old)?.uid !== controllerUID(p)?.uid) enqueueOwner(old);
      },
      onDelete: (p) => enqueueOwner(deletedObject(p)),
    });

    /**
     * Upstream's getStatefulSetRevisions: the revision of the current template (an equal older
     * one is renumbered to be the newest, a new one is created, probing collisionCount on a name
     * taken by other data) and the revision the status names as current.
     */
    const ensureRevisions = async (set: Sts, owned: Revision[]) => {
      const ns = set.metadata.namespace ?? '';
      const sorted = [...owned].sort((a, b) => a.revision - b.revision);
      const next = (sorted.at(-1)?.revision ?? 0) + 1;
      let collisionCount = set.status?.collisionCount ?? 0;
      let update = newRevision(set, next, collisionCount);
      const equal = sorted.filter((r) => sameData(r, update.data));
      if (equal.length > 0 && equal.at(-1) === sorted.at(-1)) {
        update = equal.at(-1)!;
      } else if (equal.length > 0) {
        logger.info('Rolling StatefulSet back to an earlier revision', { statefulSet: objectKey(set), revision: equal.at(-1)!.metadata.name, number: next });
        update = await revClient.namespace(ns).update({ ...equal.at(-1)!, revision: next });
      } else {
        for (;;) {
          try {
            update = await revClient.namespace(ns).create(update);
            logger.info('Created ControllerRevision', { statefulSet: objectKey(set), revision: update.metadata.name, number: next });
            break;
          } catch (e) {
            if (!isAlreadyExists(e)) throw e;
            const existing = await revClient.namespace(ns).get(update.metadata.name ?? '');
            if (sameData(existing, update.data)) {
              update = existing;
              break;
            }
            collisionCount++;
            update = newRevision(set, next, collisionCount);
          }
        }
      }
      const current = sorted.find((r) => r.metadata.name === set.status?.currentRevision) ?? update;
      return { current, update, collisionCount };
    };

    /** Creates the pod's missing claims (Retain: they carry no owner and outlive the pod). */
    const ensureClaims = async (set: Sts, ordinal: number, podName: string) => {
      const ns = set.metadata.namespace ?? '';
      for (const claim of claimsFor(set, ordinal)) {
        if (claims.indexer.getByKey(`${ns}/${claim.metadata.name}`)) continue;
        try {
          await claimClient.namespace(ns).create(claim);
          logger.info('Created PersistentVolumeClaim for StatefulSet pod', { statefulSet: objectKey(set), claim: claim.metadata.name, pod: podName });
          event(set, 'Normal', 'SuccessfulCreate', `create Claim ${claim.metadata.name} Pod ${podName} in StatefulSet ${set.metadata.name} success`);
        } catch (e) {
          if (isAlreadyExists(e)) continue;
          event(set, 'Warning', 'FailedCreate', `create Claim ${claim.metadata.name} for Pod ${podName} in StatefulSet ${set.metadata.name} failed error: ${errText(e)}`);
          throw e;
        }
      }
    };

    /** Creates a pod; false when the name is still taken (our cache lags): wait for its events. */
    const createPod = async (set: Sts, pod: SetPod, ordinal: number): Promise<boolean> => {
      await ensureClaims(set, ordinal, pod.metadata.name ?? '');
      try {
        await podClient.namespace(set.metadata.namespace ?? '').create(pod);
      } catch (e) {
        if (isAlreadyExists(e)) return false;
        event(set, 'Warning', 'FailedCreate', `create Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} failed error: ${errText(e)}`);
        throw e;
      }
      logger.info('Created pod of StatefulSet', { statefulSet: objectKey(set), pod: pod.metadata.name, revision: podRevision(pod) });
      event(set, 'Normal', 'SuccessfulCreate', `create Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} successful`);
      return true;
    };

    /** Deletes exactly the pod we saw (uid precondition); false when it is already gone or replaced. */
    const deletePod = async (set: Sts, pod: SetPod, why: string): Promise<boolean> => {
      try {
        await podClient.namespace(set.metadata.namespace ?? '').delete(pod.metadata.name ?? '', { preconditions: { uid: pod.metadata.uid } });
      } catch (e) {
        if (isNotFound(e) || isConflict(e)) return false;
        event(set, 'Warning', 'FailedDelete', `delete Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} failed error: ${errText(e)}`);
        throw e;
      }
      logger.info(why, { statefulSet: objectKey(set), pod: pod.metadata.name, revision: podRevision(pod) });
      event(set, 'Normal', 'SuccessfulDelete', `delete Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} successful`);
      return true;
    };

    /** Upstream's updateStatefulSet: one pass of creations, deletions and replacements; answers the status. */
    const reconcilePods = async (set: Sts, owned: SetPod[], current: Revision, update: Revision): Promise<Status> => {
      const name = set.metadata.name ?? '';
      const start = startOrdinal(set);
      const count = set.spec?.replicas ?? 1;
      const monotonic = set.spec?.podManagementPolicy !== 'Parallel';
      const strategy = set.spec?.updateStrategy;
      const partition = strategy?.rollingUpdate?.partition ?? 0;
      const minReady = set.spec?.minReadySeconds ?? 0;
      const now = Date.now();
      const status: Status = { replicas: 0, readyReplicas: 0, availableReplicas: 0, currentReplicas: 0, updatedReplicas: 0 };
      for (const pod of owned) {
        if (isCreated(pod)) status.replicas++;
        if (isRunningAndReady(pod)) {
          status.readyReplicas!++;
          if (availableAt(pod, minReady) <= now) status.availableReplicas!++;
        }
        if (isCreated(pod) && !isTerminating(pod)) {
          if (podRevision(pod) === current.metadata.name) status.currentReplicas!++;
          if (podRevision(pod) === update.metadata.name) status.updatedReplicas!++;
        }
      }
      const countCreated = (rev: string, delta: number) => {
        if (rev === current.metadata.name) status.currentReplicas! += delta;
        if (rev === update.metadata.name) status.updatedReplicas! += delta;
      };

      const replicas: (SetPod | undefined)[] = new Array(count).fill(undefined);
      const condemned: SetPod[] = [];
      for (const pod of owned) {
        const ord = ordinalOf(name, pod.metadata.name ?? '');
        if (ord >= start && ord < start + count) replicas[ord - start] = pod;
        else if (ord >= 0) condemned.push(pod);
      }
      condemned.sort((a, b) => ordinalOf(name, b.metadata.name ?? '') - ordinalOf(name, a.metadata.name ?? ''));
      let firstUnhealthy: SetPod | undefined = replicas.find((p) => p && !isHealthy(p));
      if (!firstUnhealthy) firstUnhealthy = [...condemned].reverse().find((p) => !isHealthy(p));

      /** Upstream's newVersionedStatefulSetPod: ordinals below the partition keep the current revision. */
      const versioned = (ord: number): SetPod => {
        const keepCurrent = strategy?.type !== 'OnDelete' &&
          (strategy?.rollingUpdate ? ord < start + partition : ord < start + (set.status?.currentReplicas ?? 0));
        const rev = keepCurrent ? current : update;
        return newPod(set, (keepCurrent ? templateOf(current) : undefined) ?? set.spec!.template, ord, rev.metadata.name ?? '', domain);
      };

      for (let i = 0; i < count; i++) {
        const ord = start + i;
        let pod = replicas[i];
        if (pod && isFailed(pod) && !isTerminating(pod)) {
          // A pod that ran to completion or failed is replaced under the same identity.
          if (!(await deletePod(set, pod, 'Deleting failed pod of StatefulSet to recreate it'))) return status;
          if (isCreated(pod)) status.replicas--;
          countCreated(podRevision(pod), -1);
          pod = undefined;
        }
        if (!pod) {
          const fresh = versioned(ord);
          if (!(await createPod(set, fresh, ord))) return status;
          status.replicas++;
          countCreated(podRevision(fresh), 1);
          if (monotonic) return status;
          continue;
        }
        if (isTerminating(pod)) {
          if (monotonic) {
            logger.v(4).info('StatefulSet is waiting for Pod to Terminate', { statefulSet: objectKey(set), pod: pod.metadata.name });
            return status;
          }
          continue;
        }
        if (!isRunningAndReady(pod) && monotonic) {
          logger.v(4).info('StatefulSet is waiting for Pod to be Running and Ready', { statefulSet: objectKey(set), pod: pod.metadata.name });
          return status;
        }
        // A claim deleted under a live pod is recreated so the pod can be rescheduled.
        await ensureClaims(set, ord, pod.metadata.name ?? '');
      }

      for (const pod of condemned) {
        if (isTerminating(pod)) {
          if (monotonic) return status;
          continue;
        }
        if (monotonic && !isRunningAndReady(pod) && pod !== firstUnhealthy) {
          logger.v(4).info('StatefulSet is waiting for Pod to be Running and Ready prior to scale down', { statefulSet: objectKey(set), pod: firstUnhealthy?.metadata.name });
          return status;
        }
        if (!(await deletePod(set, pod, 'Pod of StatefulSet is terminating for scale down'))) return status;
        countCreated(podRevision(pod), -1);
        if (monotonic) return status;
      }

      if (strategy?.type === 'OnDelete') return status;
      // Replace the highest-ordinal pod of an older revision, one at a time, down to the partition.
      for (let i = count - 1; i >= partition; i--) {
        const pod = replicas[i];
        if (!pod) return status;
        if (podRevision(pod) !== update.metadata.name && !isTerminating(pod)) {
          if (await deletePod(set, pod, 'Pod of StatefulSet is terminating for update')) status.currentReplicas!--;
          return status;
        }
        if (!isHealthy(pod)) {
          logger.v(4).info('StatefulSet is waiting for Pod to update', { statefulSet: objectKey(set), pod: pod.metadata.name });
          return status;
        }
      }
      return status;
    };

    /** Upstream's truncateHistory: keeps the revisions in use and the newest revisionHistoryLimit others. */
    const truncateHistory = async (set: Sts, owned: SetPod[], revs: Revision[], current: Revision, update: Revision) => {
      const live = new Set([current.metadata.name, update.metadata.name, ...owned.map(podRevision)]);
      const old = revs.filter((r) => !live.has(r.metadata.name)).sort((a, b) => a.revision - b.revision);
      const limit = set.spec?.revisionHistoryLimit ?? 10;
      for (const r of old.slice(0, Math.max(0, old.length - limit))) {
        try {
          await revClient.namespace(set.metadata.namespace ?? '').delete(r.metadata.name ?? '', { preconditions: { uid: r.metadata.uid } });
          logger.info('Deleted old ControllerRevision of StatefulSet', { statefulSet: objectKey(set), revision: r.metadata.name });
        } catch (e) {
          if (!isNotFound(e) && !isConflict(e)) throw e;
        }
      }
    };

    const sync = async (key: string): Promise<void | Requeue> => {
      const set = sets.indexer.getByKey(key);
      if (!set) {
        logger.v(4).info('StatefulSet has been deleted', { statefulSet: key });
        return;
      }
      // Its pods and revisions go with it through the garbage collector.
      if (set.metadata.deletionTimestamp) return;
      const ns = set.metadata.namespace ?? '';
      const uid = set.metadata.uid;
      const owned = pods.indexer.byNamespace(ns).filter((p) => controllerUID(p)?.uid === uid);
      const revs = revisions.indexer.byNamespace(ns).filter((r) => controllerUID(r)?.uid === uid);
      const { current, update, collisionCount } = await ensureRevisions(set, revs);
      const status = await reconcilePods(set, owned, current, update);
      status.observedGeneration = set.metadata.generation ?? 0;
      status.currentRevision = current.metadata.name;
      status.updateRevision = update.metadata.name;
      status.collisionCount = collisionCount;
      if (set.status?.conditions) status.conditions = set.status.conditions;
      // Upstream's completeRollingUpdate: once every pod runs the update revision and is ready, it is current.
      if (set.spec?.updateStrategy?.type !== 'OnDelete' && status.updatedReplicas === status.replicas && status.readyReplicas === status.replicas) {
        status.currentReplicas = status.updatedReplicas;
        status.currentRevision = status.updateRevision;
      }
      if (canonicalJSON(set.status ?? {}) !== canonicalJSON(status)) {
        logger.info('Updating StatefulSet status', {
          statefulSet: key, replicas: status.replicas, readyReplicas: status.readyReplicas, currentReplicas: status.currentReplicas,
          updatedReplicas: status.updatedReplicas, currentRevision: status.currentRevision, updateRevision: status.updateRevision,
        });
        try {
          await setClient.namespace(ns).updateStatus({ ...set, status });
        } catch (e) {
          if (!isNotFound(e)) throw e;
          return;
        }
      }
      await truncateHistory(set, owned, [...revs.filter((r) => r.metadata.name !== update.metadata.name), update], current, update);
      // A ready pod becomes available after minReadySeconds without any event to tell us.
      const minReady = set.spec?.minReadySeconds ?? 0;
      if (minReady > 0) {
        const pending = owned.filter((p) => isRunningAndReady(p)).map((p) => availableAt(p, minReady)).filter((t) => t > Date.now());
        if (pending.length > 0) return { requeueAfterMs: Math.min(...pending) - Date.now() + 100 };
      }
    };

    const all = [sets, pods, revisions, claims];
    if (!(await Promise.all(all.map((i) => i.waitForSync(60_000)))).every(Boolean)) logger.warn('StatefulSet controller caches have not synced; syncing anyway');
    if (signal.aborted) return;
    const workers = ctx.concurrency('statefulset');
    logger.info('Starting stateful set controller', { workers });
    await runWorkers(this.name, queue, workers, signal, sync, logger);
  }
}

export const statefulsetController: ControllerFactory = () => new StatefulSetController();
