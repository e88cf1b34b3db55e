// The disruption controller (upstream's DisruptionController): keeps each PodDisruptionBudget's
// status (currentHealthy, desiredHealthy, expectedPods, disruptionsAllowed, disruptedPods,
// observedGeneration) and its DisruptionAllowed condition (SufficientPods, InsufficientPods,
// SyncFailed) in step with the pods its selector picks, so that the eviction sub-resource can
// decide. Budgets are synced when they or their pods change, and again when a recorded eviction
// times out.
import type { Condition } from '../../../api/meta/v1/types.js';
import type { PodDisruptionBudget } from '../../../api/policy/v1/pod-disruption-budget.js';
import { EventRecorder, RateLimitingQueue, deletedObject, isConflict, isNotFound, objectKey, type KubeObject } from '../../client/index.js';
import type { Controller, ControllerContext, ControllerFactory } from '../controller.js';
import {
  countHealthy, disruptionAllowedCondition, liveDisruptions, scaledValue, setCondition, type PodLike,
} from './budget-status.js';
import { ScaleFinder } from './expected-scale.js';
import { selectorMatches } from '../label-selector.js';
import { runWorkers, type Requeue } from '../queue-workers.js';

type Budget = PodDisruptionBudget & KubeObject;
type Pod = PodLike & KubeObject;
type BudgetStatus = NonNullable<PodDisruptionBudget['status']>;

const sameJSON = (a: unknown, b: unknown) => JSON.stringify(a ?? {}) === JSON.stringify(b ?? {});

class DisruptionController implements Controller {
  readonly name = 'disruption';

  async run(ctx: ControllerContext): Promise<void> {
    const { client, informers, logger, signal } = ctx;
    const queue = new RateLimitingQueue<string>();
    const pdbs = informers.forResource<Budget>('policy', 'v1', 'poddisruptionbudgets');
    const pods = informers.forResource<Pod>('', 'v1', 'pods');
    const finder = new ScaleFinder(client);
    const recorder = new EventRecorder(client, 'controllermanager', logger);
    const pdbClient = client.resource<Budget>('policy', 'v1', 'poddisruptionbudgets');
    /** The last event reason told per budget, so a budget resynced often does not flood its events. */
    const lastEvent = new Map<string, string>();

    const event = (pdb: Budget, type: 'Normal' | 'Warning', reason: string, message: string) => {
      const uid = pdb.metadata.uid ?? '';
      if (lastEvent.get(uid) === reason + message) return;
      lastEvent.set(uid, reason + message);
      void recorder.event({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', namespace: pdb.metadata.namespace ?? '', name: pdb.metadata.name ?? '', uid }, type, reason, message);
    };

    const enqueueForPod = (pod: Pod, old?: Pod) => {
      for (const pdb of pdbs.indexer.byNamespace(pod.metadata.namespace ?? '')) {
        const sel = pdb.spec?.selector;
        if (selectorMatches(sel, pod.metadata.labels) || (old && selectorMatches(sel, old.metadata.labels))) queue.add(objectKey(pdb));
      }
    };
    pdbs.addEventHandler({
      onAdd: (p) => queue.add(objectKey(p)),
      onUpdate: (_old, p) => queue.add(objectKey(p)),
      onDelete: (p) => lastEvent.delete(deletedObject(p).metadata.uid ?? ''),
    });
    pods.addEventHandler({
      onAdd: (p) => enqueueForPod(p),
      onUpdate: (old, p) => enqueueForPod(p, old),
      onDelete: (p) => enqueueForPod(deletedObject(p)),
    });

    const writeStatus = async (pdb: Budget, status: BudgetStatus): Promise<void> => {
      try {
        await pdbClient.namespace(pdb.metadata.namespace ?? '').updateStatus({ ...pdb, status });
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
    };

    /** Upstream's failSafe: no disruption is allowed while the budget cannot be computed. */
    const failSafe = async (pdb: Budget, err: unknown): Promise<void> => {
      const message = err instanceof Error ? err.message : String(err);
      const status: BudgetStatus = { ...(pdb.status ?? { currentHealthy: 0, desiredHealthy: 0, disruptionsAllowed: 0 }), disruptionsAllowed: 0 };
      status.conditions = setCondition(status.conditions ?? [], {
        type: 'DisruptionAllowed', status: 'False', reason: 'SyncFailed', message, observedGeneration: status.observedGeneration ?? 0,
      }, new Date().toISOString().replace(/\.\d+Z$/, 'Z'));
      await writeStatus(pdb, status);
    };

    const trySync = async (pdb: Budget): Promise<number | undefined> => {
      const ns = pdb.metadata.namespace ?? '';
      const selected = pods.indexer.byNamespace(ns).filter((p) => selectorMatches(pdb.spec?.selector, p.metadata.labels));
      if (selected.length === 0) event(pdb, 'Normal', 'NoPods', 'No matching pods found');
      let expected = 0;
      let desired = 0;
      let unmanaged: string[] = [];
      try {
        const { minAvailable, maxUnavailable } = pdb.spec ?? {};
        if (maxUnavailable !== undefined) {
          ({ expected, unmanaged } = await finder.expectedScale(selected, ns));
          desired = Math.max(0, expected - scaledValue(maxUnavailable, expected, true));
        } else if (typeof minAvailable === 'number') {
          desired = minAvailable;
          expected = selected.length;
        } else if (typeof minAvailable === 'string') {
          ({ expected, unmanaged } = await finder.expectedScale(selected, ns));
          desired = scaledValue(minAvailable, expected, true);
        }
      } catch (e) {
        event(pdb, 'Warning', 'CalculateExpectedPodCountFailed', `Failed to calculate the number of expected pods: ${e instanceof Error ? e.message : String(e)}`);
        throw e;
      }
      if (unmanaged.length > 0) {
        logger.v(4).info('Found unmanaged pods associated with this PDB', { pdb: `${ns}/${pdb.metadata.name}`, unmanagedPods: unmanaged });
        event(pdb, 'Warning', 'UnmanagedPods', `Pods selected by this PodDisruptionBudget (selector: ${JSON.stringify(pdb.spec?.selector)}) were found to be unmanaged. ` +
          'As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.');
      }
      const now = Date.now();
      const { disrupted, expired, recheckAt } = liveDisruptions(pdb.status?.disruptedPods, selected, now);
      for (const name of expired) {
        const pod = selected.find((p) => p.metadata.name === name)!;
        logger.info('Pod was expected to be deleted but it wasn\'t, updating PDB', { pod: `${ns}/${name}`, pdb: `${ns}/${pdb.metadata.name}` });
        void recorder.event({ apiVersion: 'v1', kind: 'Pod', namespace: ns, name, uid: pod.metadata.uid ?? '' }, 'Warning', 'NotDeleted', `Pod was expected by PDB ${ns}/${pdb.metadata.name} to be deleted but it wasn't`);
      }
      const currentHealthy = countHealthy(selected, disrupted, now);
      // expectedPods must be > 0: a budget matching no pods yet stays safe when its first pods appear.
      const allowed = expected <= 0 || currentHealthy - desired <= 0 ? 0 : currentHealthy - desired;
      const generation = pdb.metadata.generation ?? 0;
      const old = pdb.status;
      const condition = disruptionAllowedCondition(allowed, generation);
      const upToDate = old && old.currentHealthy === currentHealthy && old.desiredHealthy === desired && old.expectedPods === expected &&
        old.disruptionsAllowed === allowed && sameJSON(old.disruptedPods, disrupted) && old.observedGeneration === generation &&
        (old.conditions ?? []).some((c: Condition) => c.type === 'DisruptionAllowed' && c.status === condition.status && c.reason === condition.reason);
      if (!upToDate) {
        logger.info('Updating PodDisruptionBudget status', {
          pdb: `${ns}/${pdb.metadata.name}`, currentHealthy, desiredHealthy: desired, expectedPods: expected, disruptionsAllowed: allowed,
        });
        await writeStatus(pdb, {
          currentHealthy, desiredHealthy: desired, expectedPods: expected, disruptionsAllowed: allowed, disruptedPods: disrupted, observedGeneration: generation,
          conditions: setCondition(old?.conditions ?? [], condition, new Date(now).toISOString().replace(/\.\d+Z$/, 'Z')),
        });
      }
      return recheckAt;
    };

    const sync = async (key: string): Promise<void | Requeue> => {
      const pdb = pdbs.indexer.getByKey(key);
      if (!pdb) return;
      let recheckAt: number | undefined;
      try {
        recheckAt = await trySync(pdb);
      } catch (e) {
        // A conflict is only a stale cache: retry without declaring the budget failed.
        if (isConflict(e)) throw e;
        logger.error('Failed to sync PDB', { pdb: key, err: e instanceof Error ? e.message : String(e) });
        await failSafe(pdb, e);
        return;
      }
      if (recheckAt !== undefined) return { requeueAfterMs: Math.max(0, recheckAt - Date.now()) + 1_000 };
    };

    if (!(await pdbs.waitForSync(60_000)) || !(await pods.waitForSync(60_000))) logger.warn('Disruption controller caches have not synced; syncing anyway');
    logger.info('Starting disruption controller');
    // One worker, as upstream runs it.
    await runWorkers('disruption', queue, 1, signal, sync, logger);
  }
}

export const disruptionController: ControllerFactory = () => new DisruptionController();
