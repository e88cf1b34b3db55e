// The deployment controller (upstream's DeploymentController): one ReplicaSet per pod template
// (named `<deployment>-<pod-template-hash>`, the hash also a label and a selector term), rolled
// out by RollingUpdate (within maxSurge/maxUnavailable, old ReplicaSets scaled down as the new one
// becomes available) or Recreate (old pods gone before new ones are made); revision annotations,
// proportional scaling, revisionHistoryLimit cleanup, pause; status and the Available and
// Progressing conditions with upstream's reasons. It acts through ReplicaSets only: the
// replicaset controller makes the pods.
import type { Deployment, DeploymentStatus } from '../../../api/apps/v1/deployment.js';
import type { ReplicaSet } from '../../../api/apps/v1/replica-set.js';
import {
  EventRecorder, RateLimitingQueue, deletedObject, isAlreadyExists, isNotFound, objectKey, type KubeObject,
} from '../../client/index.js';
import type { Controller, ControllerContext, ControllerFactory } from '../controller.js';
import { claimObjects, controllerRefOf, newControllerRef } from '../controller-ref.js';
import { selectorMatches } from '../label-selector.js';
import { runWorkers, type Requeue } from '../queue-workers.js';
import { Reasons, getCondition, newCondition, removeCondition, setCondition } from './conditions.js';
import { canonicalJSON, computePodTemplateHash } from './pod-template-hash.js';
import { newRSNewReplicasRolling, proportion, resolveFenceposts } from './rollout-arithmetic.js';

type DeploymentObject = Deployment & KubeObject;
type RS = ReplicaSet & KubeObject;

const deployApiVersion = 'apps/v1';
const deployKind = 'Deployment';
const hashLabel = 'pod-template-hash';
/** Upstream's maxRetries: a Deployment whose sync keeps failing is dropped until its next event (5 ms doubling, about 82 s at the last). */
const maxRetries = 15;

const replicasOf = (rs: RS): number => rs.spec?.replicas ?? 0;
const created = (o: KubeObject): number => Date.parse(o.metadata.creationTimestamp ?? '') || 0;
/** Oldest first, by name on ties (upstream's ReplicaSetsByCreationTimestamp). */
const byCreation = (a: RS, b: RS) => created(a) - created(b) || ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1);
const sum = (rss: readonly RS[], f: (rs: RS) => number) => rss.reduce((n, rs) => n + f(rs), 0);
const errMessage = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The template without the pod-template-hash label, to compare a ReplicaSet's with the Deployment's (upstream's EqualIgnoreHash). */
function templateIgnoringHash(t: unknown): string {
  const c = structuredClone(t ?? {}) as { metadata?: { labels?: Record<string, string> } };
  if (c.metadata?.labels) {
    delete c.metadata.labels[hashLabel];
    if (Object.keys(c.metadata.labels).length === 0) delete c.metadata.labels;
  }
  return canonicalJSON(c);
}

class DeploymentController implements Controller {
  readonly name = 'deployment';

  async run(ctx: ControllerContext): Promise<void> {
    const { client, informers, logger, signal, domain } = ctx;
    const queue = new RateLimitingQueue<string>();
    const dInformer = informers.forResource<DeploymentObject>('apps', 'v1', 'deployments');
    const rsInformer = informers.forResource<RS>('apps', 'v1', 'replicasets');
    const dClient = client.resource<DeploymentObject>('apps', 'v1', 'deployments');
    const rsClient = client.resource<RS>('apps', 'v1', 'replicasets');
    const recorder = new EventRecorder(client, 'deployment-controller', logger);
    const revisionKey = domain.key('revision', 'deployment');
    const revisionHistoryKey = domain.key('revision-history', 'deployment');
    const desiredReplicasKey = domain.key('desired-replicas', 'deployment');
    const maxReplicasKey = domain.key('max-replicas', 'deployment');
    /** Deployment annotations a ReplicaSet does not inherit (upstream's annotationsToSkip). */
    const skipAnnotations = new Set([revisionKey, revisionHistoryKey, desiredReplicasKey, maxReplicasKey,
      'kubectl.kubernetes.io/last-applied-configuration', domain.key('last-applied-configuration', 'kubectl'), domain.key('change-cause')]);

    const event = (d: DeploymentObject, type: 'Normal' | 'Warning', reason: string, message: string) =>
      void recorder.event({ apiVersion: deployApiVersion, kind: deployKind, namespace: d.metadata.namespace ?? '', name: d.metadata.name ?? '', uid: d.metadata.uid ?? '' }, type, reason, message);

    const ownerOf = (rs: RS): DeploymentObject | undefined => {
      const ref = controllerRefOf(rs);
      if (!ref || ref.kind !== deployKind) return undefined;
      const d = dInformer.indexer.get(rs.metadata.namespace ?? '', ref.name);
      return d && d.metadata.uid === ref.uid ? d : undefined;
    };
    const enqueueForRS = (rs: RS) => {
      const d = ownerOf(rs);
      if (d) return queue.add(objectKey(d));
      if (controllerRefOf(rs)) return;
      for (const x of dInformer.indexer.byNamespace(rs.metadata.namespace ?? '')) {
        if (selectorMatches(x.spec?.selector, rs.metadata.labels)) queue.add(objectKey(x));
      }
    };
    dInformer.addEventHandler({
      onAdd: (d) => queue.add(objectKey(d)),
      onUpdate: (_o, d) => queue.add(objectKey(d)),
      onDelete: (d) => queue.add(objectKey(deletedObject(d))),
    });
    rsInformer.addEventHandler({
      onAdd: (rs) => enqueueForRS(rs),
      onUpdate: (old, rs) => {
        if (old.metadata.resourceVersion === rs.metadata.resourceVersion) return;
        const oldOwner = ownerOf(old);
        if (oldOwner && oldOwner !== ownerOf(rs)) queue.add(objectKey(oldOwner));
        enqueueForRS(rs);
      },
      onDelete: (o) => {
        const d = ownerOf(deletedObject(o));
        if (d) queue.add(objectKey(d));
      },
    });

    const revisionOf = (o: KubeObject): number => {
      const n = Number(o.metadata.annotations?.[revisionKey] ?? 0);
      return Number.isFinite(n) ? n : 0;
    };
    const isRolling = (d: DeploymentObject) => (d.spec?.strategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
    const desiredOf = (d: DeploymentObject) => d.spec?.replicas ?? 1;
    const maxSurge = (d: DeploymentObject) => (isRolling(d) ? resolveFenceposts(d.spec?.strategy?.rollingUpdate, desiredOf(d)).surge : 0);
    const maxUnavailable = (d: DeploymentObject) => {
      if (!isRolling(d) || desiredOf(d) === 0) return 0;
      return Math.min(resolveFenceposts(d.spec?.strategy?.rollingUpdate, desiredOf(d)).unavailable, desiredOf(d));
    };

    /** Sets desired-replicas and max-replicas; true when they changed (upstream's SetReplicasAnnotations). */
    const setReplicasAnnotations = (rs: RS, desired: number, max: number): boolean => {
      const a = (rs.metadata.annotations ??= {});
      if (a[desiredReplicasKey] === String(desired) && a[maxReplicasKey] === String(max)) return false;
      a[desiredReplicasKey] = String(desired);
      a[maxReplicasKey] = String(max);
      return true;
    };

    /** Scales `rs` to `to` (and refreshes its replica annotations); returns the ReplicaSet as written. */
    const scaleReplicaSet = async (rs: RS, to: number, d: DeploymentObject): Promise<{ scaled: boolean; rs: RS }> => {
      const from = replicasOf(rs);
      const copy = structuredClone(rs);
      const annotationsChanged = setReplicasAnnotations(copy, desiredOf(d), desiredOf(d) + maxSurge(d));
      if (from === to && !annotationsChanged) return { scaled: false, rs };
      copy.spec = { ...copy.spec!, replicas: to };
      const written = await rsClient.namespace(copy.metadata.namespace ?? '').update(copy);
      if (from !== to) {
        const op = to > from ? 'up' : 'down';
        logger.info(`Scaled ${op} replica set`, { deployment: objectKey(d), replicaSet: rs.metadata.name, from, to });
        event(d, 'Normal', 'ScalingReplicaSet', `Scaled ${op} replica set ${rs.metadata.name} from ${from} to ${to}`);
      }
      return { scaled: from !== to, rs: written };
    };

    const claimReplicaSets = async (d: DeploymentObject): Promise<RS[]> => {
      const ns = d.metadata.namespace ?? '';
      return claimObjects(rsInformer.indexer.byNamespace(ns), {
        owner: d, ownerApiVersion: deployApiVersion, ownerKind: deployKind, selector: d.spec?.selector,
        client: rsClient.namespace(ns), logger, what: 'replicaSet',
        canAdopt: async () => {
          try {
            const fresh = await dClient.namespace(ns).get(d.metadata.name ?? '');
            return fresh.metadata.uid === d.metadata.uid && !fresh.metadata.deletionTimestamp;
          } catch (e) {
            if (isNotFound(e)) return false;
            throw e;
          }
        },
      });
    };

    /** The ReplicaSet of the current template, oldest first if several (upstream's FindNewReplicaSet). */
    const findNewRS = (d: DeploymentObject, rss: RS[]): RS | undefined => {
      const want = templateIgnoringHash(d.spec?.template);
      return [...rss].sort(byCreation).find((rs) => templateIgnoringHash(rs.spec?.template) === want);
    };

    const writeDeploymentRevision = async (d: DeploymentObject, revision: string): Promise<DeploymentObject> => {
      if (d.metadata.annotations?.[revisionKey] === revision) return d;
      const copy = structuredClone(d);
      (copy.metadata.annotations ??= {})[revisionKey] = revision;
      const written = await dClient.namespace(d.metadata.namespace ?? '').update(copy);
      return written;
    };

    const updateStatus = async (d: DeploymentObject, status: DeploymentStatus): Promise<void> => {
      try {
        await dClient.namespace(d.metadata.namespace ?? '').updateStatus({ ...d, status });
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
    };

    /**
     * Upstream's getAllReplicaSetsAndSyncRevision: the new ReplicaSet (made when asked and missing)
     * with its revision one past the old ones', and the old ones.
     */
    const syncRevision = async (d: DeploymentObject, rss: RS[], create: boolean): Promise<{ d: DeploymentObject; newRS?: RS; oldRSs: RS[] }> => {
      const existing = findNewRS(d, rss);
      const oldRSs = rss.filter((rs) => rs !== existing);
      const newRevision = String(Math.max(0, ...oldRSs.map(revisionOf)) + 1);
      const ns = d.metadata.namespace ?? '';
      if (existing) {
        const copy = structuredClone(existing);
        const a = (copy.metadata.annotations ??= {});
        let changed = false;
        if (revisionOf(existing) < Number(newRevision)) {
          a[revisionKey] = newRevision;
          changed = true;
        }
        if (setReplicasAnnotations(copy, desiredOf(d), desiredOf(d) + maxSurge(d))) changed = true;
        if (copy.spec && (copy.spec.minReadySeconds ?? 0) !== (d.spec?.minReadySeconds ?? 0)) {
          copy.spec.minReadySeconds = d.spec?.minReadySeconds ?? 0;
          changed = true;
        }
        const newRS = changed ? await rsClient.namespace(ns).update(copy) : existing;
        d = await writeDeploymentRevision(d, newRS.metadata.annotations?.[revisionKey] ?? newRevision);
        if (!getCondition(d.status, 'Progressing') && d.spec?.progressDeadlineSeconds !== undefined) {
          const status = structuredClone(d.status ?? {});
          setCondition(status, newCondition('Progressing', 'True', Reasons.FoundNewReplicaSet, `Found new replica set "${newRS.metadata.name}"`));
          await updateStatus(d, status);
        }
        return { d, newRS, oldRSs };
      }
      if (!create) return { d, oldRSs };

      const collisionCount = d.status?.collisionCount ?? undefined;
      const hash = computePodTemplateHash(d.spec?.template, collisionCount);
      const template = structuredClone(d.spec!.template);
      template.metadata = { ...(template.metadata ?? {}), labels: { ...(template.metadata?.labels ?? {}), [hashLabel]: hash } };
      const selector = structuredClone(d.spec!.selector);
      selector.matchLabels = { ...(selector.matchLabels ?? {}), [hashLabel]: hash };
      const annotations: Record<string, string> = {};
      for (const [k, v] of Object.entries(d.metadata.annotations ?? {})) if (!skipAnnotations.has(k)) annotations[k] = v;
      annotations[revisionKey] = newRevision;
      const rs: RS = {
        apiVersion: 'apps/v1', kind: 'ReplicaSet',
        metadata: {
          name: `${d.metadata.name}-${hash}`, namespace: ns, labels: { ...template.metadata.labels }, annotations,
          ownerReferences: [newControllerRef(d, deployApiVersion, deployKind)],
        },
        spec: { replicas: 0, minReadySeconds: d.spec?.minReadySeconds ?? 0, selector, template },
      };
      const total = sum(rss, replicasOf);
      const desired = desiredOf(d);
      rs.spec!.replicas = isRolling(d) ? newRSNewReplicasRolling(desired, maxSurge(d), total, 0) : desired;
      setReplicasAnnotations(rs, desired, desired + maxSurge(d));
      let createdRS: RS;
      try {
        createdRS = await rsClient.namespace(ns).create(rs);
      } catch (e) {
        if (!isAlreadyExists(e)) {
          const status = structuredClone(d.status ?? {});
          setCondition(status, newCondition('ReplicaFailure', 'True', 'FailedCreate', errMessage(e)));
          event(d, 'Warning', 'FailedCreate', `Failed to create new replica set "${rs.metadata.name}": ${errMessage(e)}`);
          await updateStatus(d, status);
          throw e;
        }
        // A namesake exists: ours with our template is simply the one the cache has not shown yet;
        // anything else is a hash collision, resolved by salting the next hash.
        const other = await rsClient.namespace(ns).get(rs.metadata.name!);
        const ref = controllerRefOf(other);
        if (ref?.uid === d.metadata.uid && templateIgnoringHash(other.spec?.template) === templateIgnoringHash(d.spec?.template)) {
          return { d, newRS: other, oldRSs };
        }
        const status = structuredClone(d.status ?? {});
        status.collisionCount = (status.collisionCount ?? 0) + 1;
        logger.info('Found a hash collision for deployment - bumping collisionCount', { deployment: objectKey(d), collisionCount: status.collisionCount });
        await updateStatus(d, status);
        throw new Error(`hash collision for ReplicaSet ${rs.metadata.name}; retrying with collisionCount ${status.collisionCount}`);
      }
      logger.info('Created new replica set', { deployment: objectKey(d), replicaSet: createdRS.metadata.name, replicas: createdRS.spec?.replicas });
      // As upstream: a ReplicaSet made at zero (a Deployment of no replicas, no room to surge) scaled nothing.
      const replicas = createdRS.spec?.replicas ?? 0;
      if (replicas > 0) event(d, 'Normal', 'ScalingReplicaSet', `Scaled up replica set ${createdRS.metadata.name} from 0 to ${replicas}`);
      d = await writeDeploymentRevision(d, newRevision);
      const status = structuredClone(d.status ?? {});
      setCondition(status, newCondition('Progressing', 'True', Reasons.NewReplicaSetCreated, `Created new replica set "${createdRS.metadata.name}"`));
      await updateStatus(d, status);
      const fresh = await dClient.namespace(ns).get(d.metadata.name!);
      return { d: fresh, newRS: createdRS, oldRSs };
    };

    const calculateStatus = (d: DeploymentObject, all: RS[], newRS: RS | undefined): DeploymentStatus => {
      const available = sum(all, (rs) => rs.status?.availableReplicas ?? 0);
      const status: DeploymentStatus = {
        observedGeneration: d.metadata.generation ?? 0,
        replicas: sum(all, (rs) => rs.status?.replicas ?? 0),
        updatedReplicas: newRS?.status?.replicas ?? 0,
        readyReplicas: sum(all, (rs) => rs.status?.readyReplicas ?? 0),
        availableReplicas: available,
        unavailableReplicas: Math.max(0, sum(all, replicasOf) - available),
        conditions: structuredClone(d.status?.conditions ?? []),
      };
      if (d.status?.collisionCount !== undefined) status.collisionCount = d.status.collisionCount;
      if (available >= desiredOf(d) - maxUnavailable(d)) {
        setCondition(status, newCondition('Available', 'True', Reasons.MinimumReplicasAvailable, 'Deployment has minimum availability.'));
      } else {
        setCondition(status, newCondition('Available', 'False', Reasons.MinimumReplicasUnavailable, 'Deployment does not have minimum availability.'));
      }
      return status;
    };

    const complete = (d: DeploymentObject, s: DeploymentStatus) => {
      const want = desiredOf(d);
      return s.updatedReplicas === want && s.replicas === want && s.availableReplicas === want && (s.observedGeneration ?? 0) >= (d.metadata.generation ?? 0);
    };

    const sameStatus = (a: DeploymentStatus | undefined, b: DeploymentStatus) => canonicalJSON(a ?? {}) === canonicalJSON(b);

    /** Status without judging progress: used while paused or only scaling (upstream's syncDeploymentStatus). */
    const syncDeploymentStatus = async (d: DeploymentObject, all: RS[], newRS: RS | undefined) => {
      const status = calculateStatus(d, all, newRS);
      if (!sameStatus(d.status, status)) await updateStatus(d, status);
    };

    /** Status with the Progressing condition judged against the previous status (upstream's syncRolloutStatus). */
    const syncRolloutStatus = async (d: DeploymentObject, all: RS[], newRS: RS | undefined): Promise<Requeue | undefined> => {
      const status = calculateStatus(d, all, newRS);
      const deadline = d.spec?.progressDeadlineSeconds;
      if (deadline === undefined || deadline === null) removeCondition(status, 'Progressing');
      const current = getCondition(d.status, 'Progressing');
      const isComplete = status.replicas === status.updatedReplicas && current?.reason === Reasons.NewReplicaSetAvailable;
      let requeue: Requeue | undefined;
      if (deadline !== undefined && deadline !== null && !isComplete) {
        const old = d.status ?? {};
        const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
        const newOld = (status.replicas ?? 0) - (status.updatedReplicas ?? 0);
        const progressing = (status.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) || newOld < oldOld ||
          (status.readyReplicas ?? 0) > (old.readyReplicas ?? 0) || (status.availableReplicas ?? 0) > (old.availableReplicas ?? 0);
        const rsName = newRS ? `ReplicaSet "${newRS.metadata.name}"` : `Deployment "${d.metadata.name}"`;
        if (complete(d, status)) {
          setCondition(status, newCondition('Progressing', 'True', Reasons.NewReplicaSetAvailable, `${rsName} has successfully progressed.`));
        } else if (progressing) {
          const c = newCondition('Progressing', 'True', Reasons.ReplicaSetUpdated, `${rsName} is progressing.`);
          if (current?.status === 'True') c.lastTransitionTime = current.lastTransitionTime;
          removeCondition(status, 'Progressing');
          setCondition(status, c);
        } else if (current && current.reason !== Reasons.NewReplicaSetAvailable) {
          const from = Date.parse(current.lastUpdateTime ?? '') || Date.now();
          const left = from + deadline * 1000 - Date.now();
          if (current.reason === Reasons.ProgressDeadlineExceeded || left <= 0) {
            setCondition(status, newCondition('Progressing', 'False', Reasons.ProgressDeadlineExceeded, `${rsName} has timed out progressing.`));
          } else {
            // Nothing moved: look again when the deadline would pass (upstream's requeueStuckDeployment).
            requeue = { requeueAfterMs: left + 1000 };
          }
        }
      }
      if (!sameStatus(d.status, status)) await updateStatus(d, status);
      return requeue;
    };

    /** Upstream's scale: a scaling event spread over the active ReplicaSets in proportion to their size. */
    const scale = async (d: DeploymentObject, newRS: RS | undefined, oldRSs: RS[]): Promise<void> => {
      const desired = desiredOf(d);
      const all = [...(newRS ? [newRS] : []), ...oldRSs];
      const active = all.filter((rs) => replicasOf(rs) > 0);
      if (active.length <= 1) {
        const target = active[0] ?? newRS ?? [...oldRSs].sort(byCreation).pop();
        if (target) await scaleReplicaSet(target, desired, d);
        return;
      }
      // The new ReplicaSet holds every replica and all are available: the old ones can go.
      if (newRS && replicasOf(newRS) === desired && newRS.metadata.annotations?.[desiredReplicasKey] === String(desired) &&
          (newRS.status?.availableReplicas ?? 0) === desired) {
        for (const rs of oldRSs) if (replicasOf(rs) > 0) await scaleReplicaSet(rs, 0, d);
        return;
      }
      if (!isRolling(d)) return;
      const allowed = desired + maxSurge(d);
      const toAdd = allowed - sum(active, replicasOf);
      const ordered = [...active].sort((a, b) => {
        const bySize = replicasOf(b) - replicasOf(a);
        if (bySize !== 0) return bySize;
        return toAdd > 0 ? created(b) - created(a) : created(a) - created(b);
      });
      const sizes = new Map<RS, number>();
      let added = 0;
      for (const rs of ordered) {
        const annotated = Number(rs.metadata.annotations?.[maxReplicasKey] ?? d.status?.replicas ?? 0) || 0;
        const p = proportion(replicasOf(rs), desired, allowed, annotated, toAdd, added);
        sizes.set(rs, replicasOf(rs) + p);
        added += p;
      }
      if (toAdd !== 0 && toAdd !== added && ordered[0]) sizes.set(ordered[0], Math.max(0, sizes.get(ordered[0])! + toAdd - added));
      for (const rs of ordered) await scaleReplicaSet(rs, sizes.get(rs)!, d);
    };

    /** Old ReplicaSets beyond revisionHistoryLimit that hold no pods are deleted, oldest revision first. */
    const cleanup = async (d: DeploymentObject, oldRSs: RS[]) => {
      const limit = d.spec?.revisionHistoryLimit;
      if (limit === undefined || limit === null) return;
      const cleanable = oldRSs.filter((rs) => !rs.metadata.deletionTimestamp);
      const diff = cleanable.length - limit;
      if (diff <= 0) return;
      cleanable.sort((a, b) => revisionOf(a) - revisionOf(b) || byCreation(a, b));
      for (const rs of cleanable.slice(0, diff)) {
        if ((rs.status?.replicas ?? 0) !== 0 || replicasOf(rs) !== 0 || (rs.metadata.generation ?? 0) > (rs.status?.observedGeneration ?? 0)) continue;
        logger.info('Trying to cleanup replica set for deployment', { replicaSet: rs.metadata.name, deployment: objectKey(d) });
        try {
          await rsClient.namespace(rs.metadata.namespace ?? '').delete(rs.metadata.name ?? '', { preconditions: { uid: rs.metadata.uid } });
        } catch (e) {
          if (!isNotFound(e)) throw e;
        }
      }
    };

    /** Scaling and status only (paused, or a pure scaling event). */
    const syncOnly = async (d: DeploymentObject, rss: RS[]) => {
      const r = await syncRevision(d, rss, false);
      await scale(r.d, r.newRS, r.oldRSs);
      if (r.d.spec?.paused) await cleanup(r.d, r.oldRSs);
      const fresh = claimedNow(r.d);
      await syncDeploymentStatus(r.d, fresh.all, fresh.newRS);
    };

    /** The claimed ReplicaSets as the cache has them after our writes' events (best effort; the next sync corrects). */
    const claimedNow = (d: DeploymentObject) => {
      const all = rsInformer.indexer.byNamespace(d.metadata.namespace ?? '').filter((rs) => controllerRefOf(rs)?.uid === d.metadata.uid && selectorMatches(d.spec?.selector, rs.metadata.labels));
      return { all, newRS: findNewRS(d, all) };
    };

    const rolloutRolling = async (d: DeploymentObject, rss: RS[]): Promise<Requeue | undefined> => {
      const r = await syncRevision(d, rss, true);
      d = r.d;
      let newRS = r.newRS!;
      const oldRSs = r.oldRSs;
      const desired = desiredOf(d);
      // Scale the new ReplicaSet up as far as maxSurge allows.
      if (replicasOf(newRS) !== desired) {
        const target = replicasOf(newRS) > desired ? desired
          : newRSNewReplicasRolling(desired, maxSurge(d), sum([newRS, ...oldRSs], replicasOf), replicasOf(newRS));
        const res = await scaleReplicaSet(newRS, target, d);
        newRS = res.rs;
        if (res.scaled) return syncRolloutStatus(d, [newRS, ...oldRSs], newRS);
      }
      // Scale old ones down as far as maxUnavailable allows.
      if (await reconcileOldReplicaSets(d, newRS, oldRSs)) {
        const now = claimedNow(d);
        return syncRolloutStatus(d, now.all, now.newRS);
      }
      const all = [newRS, ...oldRSs];
      const status = calculateStatus(d, all, newRS);
      if (complete(d, status)) await cleanup(d, oldRSs);
      return syncRolloutStatus(d, all, newRS);
    };

    /** Upstream's reconcileOldReplicaSets: first the unhealthy old replicas, then healthy ones while availability allows. */
    const reconcileOldReplicaSets = async (d: DeploymentObject, newRS: RS, oldRSs: RS[]): Promise<boolean> => {
      const oldCount = sum(oldRSs, replicasOf);
      if (oldCount === 0) return false;
      const all = [newRS, ...oldRSs];
      const minAvailable = desiredOf(d) - maxUnavailable(d);
      const newUnavailable = replicasOf(newRS) - (newRS.status?.availableReplicas ?? 0);
      let maxScaledDown = sum(all, replicasOf) - minAvailable - newUnavailable;
      if (maxScaledDown <= 0) return false;
      let scaledDown = 0;
      const sorted = [...oldRSs].sort(byCreation);
      const current = new Map(sorted.map((rs) => [rs, replicasOf(rs)]));
      // Unhealthy replicas of old ReplicaSets go first: removing them costs no availability.
      for (const rs of sorted) {
        if (scaledDown >= maxScaledDown) break;
        const size = current.get(rs)!;
        if (size === 0) continue;
        const unhealthy = size - (rs.status?.availableReplicas ?? 0);
        if (unhealthy <= 0) continue;
        const n = Math.min(maxScaledDown - scaledDown, unhealthy);
        await scaleReplicaSet(rs, size - n, d);
        current.set(rs, size - n);
        scaledDown += n;
      }
      maxScaledDown -= scaledDown;
      // Then available ones, keeping minAvailable across all ReplicaSets.
      const availableCount = sum(all, (rs) => rs.status?.availableReplicas ?? 0);
      let healthyBudget = availableCount - minAvailable;
      let healthyDown = 0;
      for (const rs of sorted) {
        if (healthyBudget <= 0) break;
        const size = current.get(rs)!;
        if (size === 0) continue;
        const n = Math.min(size, healthyBudget);
        await scaleReplicaSet(rs, size - n, d);
        healthyBudget -= n;
        healthyDown += n;
      }
      return scaledDown + healthyDown > 0;
    };

    const rolloutRecreate = async (d: DeploymentObject, rss: RS[]): Promise<Requeue | undefined> => {
      let r = await syncRevision(d, rss, false);
      d = r.d;
      let scaledDown = false;
      for (const rs of r.oldRSs) {
        if (replicasOf(rs) > 0) {
          await scaleReplicaSet(rs, 0, d);
          scaledDown = true;
        }
      }
      if (scaledDown) return syncRolloutStatus(d, [...(r.newRS ? [r.newRS] : []), ...r.oldRSs], r.newRS);
      // New pods only once every old one is gone (the ReplicaSets count what still runs).
      if (r.oldRSs.some((rs) => (rs.status?.replicas ?? 0) > 0 || (rs.status?.observedGeneration ?? 0) < (rs.metadata.generation ?? 0))) {
        return syncRolloutStatus(d, [...(r.newRS ? [r.newRS] : []), ...r.oldRSs], r.newRS);
      }
      if (!r.newRS) r = await syncRevision(d, rss, true);
      d = r.d;
      const res = await scaleReplicaSet(r.newRS!, desiredOf(d), d);
      const all = [res.rs, ...r.oldRSs];
      if (complete(d, calculateStatus(d, all, res.rs))) await cleanup(d, r.oldRSs);
      return syncRolloutStatus(d, all, res.rs);
    };

    const sync = async (key: string): Promise<Requeue | undefined> => {
      const cached = dInformer.indexer.getByKey(key);
      if (!cached) {
        logger.v(4).info('Deployment has been deleted', { deployment: key });
        return undefined;
      }
      let d = structuredClone(cached);
      const sel = d.spec?.selector;
      if (!sel || (Object.keys(sel.matchLabels ?? {}).length === 0 && (sel.matchExpressions ?? []).length === 0)) {
        event(d, 'Warning', 'SelectingAll', 'This deployment is selecting all pods. A non-empty selector is required.');
        if ((d.status?.observedGeneration ?? 0) < (d.metadata.generation ?? 0)) await updateStatus(d, { ...(d.status ?? {}), observedGeneration: d.metadata.generation ?? 0 });
        return undefined;
      }
      const rss = await claimReplicaSets(d);
      if (d.metadata.deletionTimestamp) {
        const r = await syncRevision(d, rss, false);
        await syncDeploymentStatus(r.d, [...(r.newRS ? [r.newRS] : []), ...r.oldRSs], r.newRS);
        return undefined;
      }
      // Pausing and resuming show in Progressing (upstream's checkPausedConditions).
      if (d.spec?.progressDeadlineSeconds !== undefined && d.spec?.progressDeadlineSeconds !== null) {
        const cond = getCondition(d.status, 'Progressing');
        const paused = !!d.spec.paused;
        if ((paused && cond?.reason !== Reasons.DeploymentPaused) || (!paused && cond?.reason === Reasons.DeploymentPaused)) {
          const status = structuredClone(d.status ?? {});
          setCondition(status, paused
            ? newCondition('Progressing', 'Unknown', Reasons.DeploymentPaused, 'Deployment is paused')
            : newCondition('Progressing', 'Unknown', Reasons.DeploymentResumed, 'Deployment is resumed'));
          await updateStatus(d, status);
          d = await dClient.namespace(d.metadata.namespace ?? '').get(d.metadata.name ?? '');
        }
      }
      if (d.spec?.paused) {
        await syncOnly(d, rss);
        return undefined;
      }
      // A change of replicas alone is a scaling event, not a rollout (upstream's isScalingEvent).
      if (rss.some((rs) => replicasOf(rs) > 0 && rs.metadata.annotations?.[desiredReplicasKey] !== undefined &&
          rs.metadata.annotations[desiredReplicasKey] !== String(desiredOf(d)))) {
        await syncOnly(d, rss);
        return undefined;
      }
      logger.v(2).info('Syncing deployment', { deployment: key, strategy: d.spec?.strategy?.type ?? 'RollingUpdate', replicaSets: rss.length });
      return isRolling(d) ? rolloutRolling(d, rss) : rolloutRecreate(d, rss);
    };

    if (!(await dInformer.waitForSync(60_000)) || !(await rsInformer.waitForSync(60_000))) logger.warn('Deployment controller caches have not synced; syncing anyway');
    if (signal.aborted) return;
    const workers = ctx.concurrency('deployment');
    logger.info('Starting deployment controller', { workers });
    await runWorkers(this.name, queue, workers, signal, sync, logger, { maxRetries });
  }
}

export const deploymentController: ControllerFactory = () => new DeploymentController();
