// The replicaset controller (upstream's ReplicaSetController): keeps spec.replicas active pods
// selected by each ReplicaSet, made from its template and controlled by it; adopts matching
// orphans, releases pods that stop matching, deletes the surplus worst-first, and writes status
// (replicas, fullyLabeledReplicas, readyReplicas, availableReplicas, observedGeneration,
// ReplicaFailure). Expectations keep it from acting twice on a cache that has not caught up.
// Upstream runs ReplicationControllers through the same controller with an adapter; so do we
// (ReplicatedKind, and pkg/controller/replicationcontroller).
import type { ReplicaSet, ReplicaSetSpec, ReplicaSetStatus } from '../../../api/apps/v1/replica-set.js';
import type { LabelSelector } from '../../../api/meta/v1/types.js';
import {
  EventRecorder, RateLimitingQueue, deletedObject, isNotFound, objectKey, type KubeObject,
} from '../../client/index.js';
import type { Controller, ControllerContext, ControllerFactory } from '../controller.js';
import { claimObjects, controllerRefOf, newControllerRef } from '../controller-ref.js';
import { ControllerExpectations } from '../expectations.js';
import { selectorMatches } from '../label-selector.js';
import { runWorkers } from '../queue-workers.js';
import { isPodActive, isPodAvailable, isPodReady, rankPodsForDeletion, type PodObject } from './pod-ranking.js';

export type ReplicaSetObject = ReplicaSet & KubeObject;

/** What the controller reads and writes of its objects: a ReplicaSet's fields but the selector, which ReplicationControllers share. */
export type ReplicatedObject = KubeObject & { spec?: Omit<ReplicaSetSpec, 'selector'>; status?: ReplicaSetStatus };

/** The kind a ReplicaSet controller runs over, and how it reads that kind's selector (upstream's replication adapter). */
export interface ReplicatedKind<T extends ReplicatedObject> {
  /** The controller's upstream name, as --controllers spells it. */
  name: string;
  group: string;
  version: string;
  resource: string;
  kind: string;
  /** The source component of its events. */
  component: string;
  /** Its --concurrent-<stem>-syncs. */
  concurrencyStem: string;
  selector(obj: T): LabelSelector | undefined;
}

/** Upstream's BurstReplicas: the most pods one sync creates or deletes. */
const burstReplicas = 500;

const errMessage = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Runs `fn` over `count` items in batches of 1, 2, 4, ... stopping at the first batch with a failure (upstream's slowStartBatch). */
async function slowStartBatch(count: number, fn: () => Promise<void>): Promise<{ succeeded: number; error?: unknown }> {
  let remaining = count;
  let succeeded = 0;
  for (let batch = Math.min(remaining, 1); batch > 0; batch = Math.min(2 * batch, remaining)) {
    const results = await Promise.allSettled(Array.from({ length: batch }, fn));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    succeeded += results.filter((r) => r.status === 'fulfilled').length;
    if (failed) return { succeeded, error: failed.reason };
    remaining -= batch;
  }
  return { succeeded };
}

/** Every label of the template is on the pod (upstream's fullyLabeledReplicas). */
function fullyLabeled(p: PodObject, templateLabels: Record<string, string>): boolean {
  return Object.entries(templateLabels).every(([k, v]) => p.metadata.labels?.[k] === v);
}

/** Runs over the objects of one ReplicatedKind. */
export class ReplicaSetController<T extends ReplicatedObject> implements Controller {
  readonly name: string;

  constructor(private readonly k: ReplicatedKind<T>) {
    this.name = k.name;
  }

  async run(ctx: ControllerContext): Promise<void> {
    const { client, informers, logger, signal, domain } = ctx;
    const k = this.k;
    const rsApiVersion = k.group ? `${k.group}/${k.version}` : k.version;
    const rsKind = k.kind;
    const queue = new RateLimitingQueue<string>();
    const expectations = new ControllerExpectations();
    const rsInformer = informers.forResource<T>(k.group, k.version, k.resource);
    const podInformer = informers.forResource<PodObject>('', 'v1', 'pods');
    const rsClient = client.resource<T>(k.group, k.version, k.resource);
    const podClient = client.resource<PodObject>('', 'v1', 'pods');
    const recorder = new EventRecorder(client, k.component, logger);
    const deletionCostKey = domain.key('pod-deletion-cost', 'controller');

    const event = (rs: T, type: 'Normal' | 'Warning', reason: string, message: string) =>
      void recorder.event({ apiVersion: rsApiVersion, kind: rsKind, namespace: rs.metadata.namespace ?? '', name: rs.metadata.name ?? '', uid: rs.metadata.uid ?? '' }, type, reason, message);
    const groupOf = (apiVersion: string) => (apiVersion.includes('/') ? apiVersion.split('/')[0] : '');

    /** The object a pod's controllerRef names, if it is one we have with that uid. */
    const ownerOf = (p: PodObject): T | undefined => {
      const ref = controllerRefOf(p);
      if (!ref || ref.kind !== rsKind || groupOf(ref.apiVersion) !== k.group) return undefined;
      const rs = rsInformer.indexer.get(p.metadata.namespace ?? '', ref.name);
      return rs && rs.metadata.uid === ref.uid ? rs : undefined;
    };
    /** Orphans wake every ReplicaSet that selects them, so one of them adopts. */
    const enqueueSelecting = (p: PodObject) => {
      for (const rs of rsInformer.indexer.byNamespace(p.metadata.namespace ?? '')) {
        if (selectorMatches(k.selector(rs), p.metadata.labels)) queue.add(objectKey(rs));
      }
    };

    rsInformer.addEventHandler({
      onAdd: (rs) => queue.add(objectKey(rs)),
      onUpdate: (_old, rs) => queue.add(objectKey(rs)),
      onDelete: (o) => {
        const key = objectKey(deletedObject(o));
        expectations.delete(key);
        queue.add(key);
      },
    });
    podInformer.addEventHandler({
      onAdd: (p) => {
        if (p.metadata.deletionTimestamp) {
          // Seen already deleted (after a relist): a deletion, not a creation.
          const rs = ownerOf(p);
          if (rs) {
            expectations.deletionObserved(objectKey(rs), objectKey(p));
            queue.add(objectKey(rs));
          }
          return;
        }
        const rs = ownerOf(p);
        if (rs) {
          expectations.creationObserved(objectKey(rs));
          queue.add(objectKey(rs));
        } else if (!controllerRefOf(p)) {
          enqueueSelecting(p);
        }
      },
      onUpdate: (old, p) => {
        if (old.metadata.resourceVersion === p.metadata.resourceVersion) return;
        const rs = ownerOf(p);
        if (p.metadata.deletionTimestamp && !old.metadata.deletionTimestamp && rs) {
          expectations.deletionObserved(objectKey(rs), objectKey(p));
        }
        const oldRS = ownerOf(old);
        if (oldRS && oldRS !== rs) queue.add(objectKey(oldRS));
        if (rs) {
          queue.add(objectKey(rs));
          // A pod that just became ready becomes available minReadySeconds later: look again then.
          const minReady = rs.spec?.minReadySeconds ?? 0;
          if (minReady > 0 && !isPodReady(old) && isPodReady(p)) queue.addAfter(objectKey(rs), minReady * 1000 + 1000);
        } else if (!controllerRefOf(p)) {
          enqueueSelecting(p);
        }
      },
      onDelete: (o) => {
        const p = deletedObject(o);
        const rs = ownerOf(p);
        if (!rs) return;
        expectations.deletionObserved(objectKey(rs), objectKey(p));
        queue.add(objectKey(rs));
      },
    });

    const createPod = async (rs: T): Promise<void> => {
      const ns = rs.metadata.namespace ?? '';
      const template = rs.spec?.template ?? {};
      const pod = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          generateName: `${rs.metadata.name}-`,
          namespace: ns,
          labels: { ...(template.metadata?.labels ?? {}) },
          annotations: { ...(template.metadata?.annotations ?? {}) },
          ...(template.metadata?.finalizers ? { finalizers: [...template.metadata.finalizers] } : {}),
          ownerReferences: [newControllerRef(rs, rsApiVersion, rsKind)],
        },
        spec: structuredClone(template.spec),
      } as PodObject;
      const created = await podClient.namespace(ns).create(pod);
      logger.v(2).info('Created pod', { replicaSet: objectKey(rs), pod: created.metadata.name });
      event(rs, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name}`);
    };

    /** Creates or deletes pods toward spec.replicas; returns the error to report in ReplicaFailure, if any. */
    const manageReplicas = async (rs: T, pods: PodObject[], key: string): Promise<{ reason: string; message: string } | undefined> => {
      const want = rs.spec?.replicas ?? 1;
      const diff = pods.length - want;
      if (diff < 0) {
        const n = Math.min(-diff, burstReplicas);
        // Expect every creation before making any: the informer may report them before the calls return.
        expectations.expectCreations(key, n);
        logger.info('Too few replicas', { replicaSet: key, need: want, creating: n });
        const { succeeded, error } = await slowStartBatch(n, () => createPod(rs));
        // Creations that were skipped or failed will never be observed.
        for (let i = succeeded; i < n; i++) expectations.creationObserved(key);
        if (error !== undefined) {
          const message = errMessage(error);
          // A terminating namespace refuses new pods; that is not this ReplicaSet's failure.
          if (/being terminated/.test(message)) return undefined;
          event(rs, 'Warning', 'FailedCreate', `Error creating: ${message}`);
          throw Object.assign(new Error(message), { replicaFailure: { reason: 'FailedCreate', message } });
        }
      } else if (diff > 0) {
        const n = Math.min(diff, burstReplicas);
        const related = podInformer.indexer.byNamespace(rs.metadata.namespace ?? '');
        const victims = rankPodsForDeletion(pods, deletionCostKey, related).slice(0, n);
        expectations.expectDeletions(key, victims.map(objectKey));
        logger.info('Too many replicas', { replicaSet: key, need: want, deleting: n });
        let failure: unknown;
        await Promise.all(victims.map(async (p) => {
          try {
            await podClient.namespace(p.metadata.namespace ?? '').delete(p.metadata.name ?? '', { preconditions: { uid: p.metadata.uid } });
            logger.v(2).info('Deleted pod', { replicaSet: key, pod: p.metadata.name });
            event(rs, 'Normal', 'SuccessfulDelete', `Deleted pod: ${p.metadata.name}`);
          } catch (e) {
            expectations.deletionObserved(key, objectKey(p));
            if (isNotFound(e)) return;
            failure ??= e;
            event(rs, 'Warning', 'FailedDelete', `Error deleting: ${errMessage(e)}`);
          }
        }));
        if (failure !== undefined) throw Object.assign(new Error(errMessage(failure)), { replicaFailure: { reason: 'FailedDelete', message: errMessage(failure) } });
      }
      return undefined;
    };

    const calculateStatus = (rs: T, pods: PodObject[], failure: { reason: string; message: string } | undefined): ReplicaSetStatus => {
      const now = Date.now();
      const minReady = rs.spec?.minReadySeconds ?? 0;
      const templateLabels = rs.spec?.template?.metadata?.labels ?? {};
      const status: ReplicaSetStatus = {
        replicas: pods.length,
        fullyLabeledReplicas: pods.filter((p) => fullyLabeled(p, templateLabels)).length,
        readyReplicas: pods.filter(isPodReady).length,
        availableReplicas: pods.filter((p) => isPodAvailable(p, minReady, now)).length,
        observedGeneration: rs.metadata.generation ?? 0,
      };
      const others = (rs.status?.conditions ?? []).filter((c) => c.type !== 'ReplicaFailure');
      const old = (rs.status?.conditions ?? []).find((c) => c.type === 'ReplicaFailure');
      if (failure) {
        const same = old && old.status === 'True' && old.reason === failure.reason;
        others.push(same ? old : { type: 'ReplicaFailure', status: 'True', reason: failure.reason, message: failure.message, lastTransitionTime: new Date(now).toISOString().replace(/\.\d+Z$/, 'Z') });
      }
      if (others.length > 0) status.conditions = others;
      return status;
    };

    const sync = async (key: string) => {
      const cached = rsInformer.indexer.getByKey(key);
      if (!cached) {
        expectations.delete(key);
        return;
      }
      const rs = structuredClone(cached);
      const ns = rs.metadata.namespace ?? '';
      const needsSync = expectations.satisfied(key);
      const candidates = podInformer.indexer.byNamespace(ns).filter(isPodActive);
      const pods = await claimObjects(candidates, {
        owner: rs, ownerApiVersion: rsApiVersion, ownerKind: rsKind, selector: k.selector(rs),
        client: podClient.namespace(ns), logger, what: 'pod',
        canAdopt: async () => {
          try {
            const fresh = await rsClient.namespace(ns).get(rs.metadata.name ?? '');
            return fresh.metadata.uid === rs.metadata.uid && !fresh.metadata.deletionTimestamp;
          } catch (e) {
            if (isNotFound(e)) return false;
            throw e;
          }
        },
      });
      let failure: { reason: string; message: string } | undefined;
      let manageError: unknown;
      if (needsSync && !rs.metadata.deletionTimestamp) {
        try {
          failure = await manageReplicas(rs, pods, key);
        } catch (e) {
          manageError = e;
          failure = (e as { replicaFailure?: { reason: string; message: string } }).replicaFailure;
        }
      }
      const status = calculateStatus(rs, pods, failure);
      if (JSON.stringify(status) !== JSON.stringify(rs.status ?? {})) {
        logger.v(4).info(`Updating status for ${rsKind}`, { replicaSet: key, ...status, conditions: undefined });
        try {
          await rsClient.namespace(ns).updateStatus({ ...rs, status } as T);
        } catch (e) {
          if (!isNotFound(e)) throw e;
        }
      }
      if (manageError !== undefined) throw manageError;
      // Ready pods become available minReadySeconds later without any event: look again then.
      const minReady = rs.spec?.minReadySeconds ?? 0;
      if (manageError === undefined && minReady > 0 && status.readyReplicas !== status.availableReplicas) {
        return { requeueAfterMs: minReady * 1000 };
      }
      return undefined;
    };

    if (!(await rsInformer.waitForSync(60_000)) || !(await podInformer.waitForSync(60_000))) logger.warn(`${rsKind} controller caches have not synced; syncing anyway`);
    if (signal.aborted) return;
    const workers = ctx.concurrency(k.concurrencyStem);
    logger.info(`Starting ${this.name} controller`, { workers });
    await runWorkers(this.name, queue, workers, signal, sync, logger);
  }
}

export const replicasetController: ControllerFactory = () => new ReplicaSetController<ReplicaSetObject>({
  name: 'replicaset', group: 'apps', version: 'v1', resource: 'replicasets', kind: 'ReplicaSet',
  component: 'replicaset-controller', concurrencyStem: 'replicaset', selector: (rs) => rs.spec?.selector,
});
