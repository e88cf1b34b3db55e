// pods/<name>/eviction: deletes a pod unless that would break its PodDisruptionBudget, as upstream's
// EvictionREST does. An allowed eviction is charged to the budget (disruptionsAllowed goes down,
// the pod is recorded in status.disruptedPods) in one compare-and-swap before the pod is deleted.
import { formatTime } from '../../../api/meta/v1/primitives.js';
import type { DeleteOptions, Status } from '../../../api/meta/v1/types.js';
import type { Pod as PodShape } from '../../../api/core/v1/pod.js';
import type { Eviction } from '../../../api/policy/v1/eviction.js';
import type { PodDisruptionBudget as BudgetShape } from '../../../api/policy/v1/pod-disruption-budget.js';
import { newBadRequest, newForbidden, newNotFound, StatusError } from '../../runtime/errors.js';
import type { StoredObject } from '../../storage/interface.js';
import type { Store } from '../generic/store.js';
import { selectorMatches } from '../../runtime/label-selector-match.js';
import { successStatus, type SubresourceCreate } from './pod-binding.js';

/** Stored objects always have metadata. */
type Pod = PodShape & { metadata: NonNullable<PodShape['metadata']> };
type PodDisruptionBudget = BudgetShape & { metadata: NonNullable<BudgetShape['metadata']> };

/** Upstream's cap on pods a budget may record as disrupted but not yet seen gone. */
const maxDisruptedPods = 2000;
const pdbResource = { group: 'policy', resource: 'poddisruptionbudget' };

function tooManyRequests(cause: string, retryAfterSeconds: number): StatusError {
  return new StatusError(429, 'TooManyRequests', 'Cannot evict pod as it would violate the pod\'s disruption budget.', {
    ...(retryAfterSeconds > 0 ? { retryAfterSeconds } : {}),
    causes: [{ reason: 'DisruptionBudget', message: cause }],
  }, retryAfterSeconds > 0 ? { 'Retry-After': String(retryAfterSeconds) } : {});
}

const stillProcessing = (name: string) => tooManyRequests(`The disruption budget ${name} is still being processed by the server.`, 10);

/** Terminal, pending and terminating pods are deleted without consulting any budget. */
const canIgnorePDB = (pod: Pod) => ['Succeeded', 'Failed', 'Pending'].includes(pod.status?.phase ?? '') || !!pod.metadata.deletionTimestamp;

const isReady = (pod: Pod) => (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

/** Budgets whose selector matches the pod; in policy/v1 an empty selector matches every pod, a missing one none. */
async function budgetsOf(pdbs: Store, pod: Pod): Promise<PodDisruptionBudget[]> {
  const list = await pdbs.list(pod.metadata.namespace ?? '', {});
  return (list.items as unknown as PodDisruptionBudget[])
    .filter((b) => b.spec?.selector !== undefined && selectorMatches(b.spec.selector, pod.metadata.labels));
}

/** The handler of pods/<name>/eviction, given the stores of pods and of budgets. */
export function evictionHandler(stores: () => { pods?: Store; pdbs?: Store }) {
  return async (req: SubresourceCreate): Promise<StoredObject> => {
    const { pods, pdbs } = stores();
    if (!pods) throw newNotFound({ group: '', resource: 'pods' }, req.name);
    const eviction = req.obj as unknown as Eviction;
    if ((eviction.metadata?.name ?? '') !== req.name) throw newBadRequest('name in URL does not match name in Eviction object');
    const options: DeleteOptions = structuredClone(eviction.deleteOptions ?? {});
    let dryRun = req.dryRun;
    for (const v of options.dryRun ?? []) {
      if (v !== 'All') throw newBadRequest(`Invalid dryRun value: ${JSON.stringify(v)}: supported values: "All"`);
      dryRun = true;
    }
    if (dryRun) options.dryRun = ['All'];
    const del = (opts: DeleteOptions) => pods.delete(req.namespace, req.name, opts, { dryRun });
    const pod = (await pods.get(req.namespace, req.name)) as unknown as Pod;
    if (canIgnorePDB(pod)) {
      await del({ ...options, preconditions: { ...options.preconditions, resourceVersion: options.preconditions?.resourceVersion ?? pod.metadata.resourceVersion! } });
      return successStatus() as unknown as StoredObject;
    }
    const budgets = pdbs ? await budgetsOf(pdbs, pod) : [];
    if (budgets.length > 1) {
      const status: Status = {
        kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 500,
        message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
      };
      return status as unknown as StoredObject;
    }
    let withPrecondition = false;
    const budget = budgets[0];
    if (budget && pdbs) {
      const unhealthyMayGo = !isReady(pod) && (budget.spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow' ||
        ((budget.status?.currentHealthy ?? 0) >= (budget.status?.desiredHealthy ?? 0) && (budget.status?.desiredHealthy ?? 0) > 0));
      if (unhealthyMayGo) withPrecondition = true;
      else await chargeBudget(pdbs, budget, pod.metadata.name ?? req.name, dryRun);
    }
    const deleteOptions = withPrecondition && !options.preconditions?.resourceVersion
      ? { ...options, preconditions: { ...options.preconditions, resourceVersion: pod.metadata.resourceVersion! } }
      : options;
    try {
      await del(deleteOptions);
    } catch (e) {
      if (e instanceof StatusError && e.code === 409 && withPrecondition && !options.preconditions?.resourceVersion) {
        throw stillProcessing(budget?.metadata.name ?? '');
      }
      throw e;
    }
    return successStatus() as unknown as StoredObject;
  };
}

/** Upstream checkAndDecrement, on the freshest budget in one compare-and-swap; dryRun only checks. */
async function chargeBudget(pdbs: Store, budget: PodDisruptionBudget, podName: string, dryRun: boolean): Promise<void> {
  const check = (b: PodDisruptionBudget) => {
    const status = b.status ?? { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0 };
    const name = b.metadata.name ?? '';
    if ((status.observedGeneration ?? 0) < (b.metadata.generation ?? 0)) throw stillProcessing(name);
    if (status.disruptionsAllowed < 0) throw newForbidden(pdbResource, name, 'pdb disruptions allowed is negative');
    if (Object.keys(status.disruptedPods ?? {}).length > maxDisruptedPods) {
      throw newForbidden(pdbResource, name, 'DisruptedPods map too big - too many evictions not confirmed by PDB controller');
    }
    if (status.disruptionsAllowed === 0) {
      throw tooManyRequests(`The disruption budget ${name} needs ${status.desiredHealthy} healthy pods and has ${status.currentHealthy} currently`, 0);
    }
    return status;
  };
  if (dryRun) {
    check(budget);
    return;
  }
  await pdbs.mutate(budget.metadata.namespace ?? '', budget.metadata.name ?? '', (current) => {
    const b = current as unknown as PodDisruptionBudget;
    const status = check(b);
    status.disruptionsAllowed -= 1;
    if (status.disruptionsAllowed === 0) setDisruptionAllowedFalse(status, b.metadata.generation);
    status.disruptedPods = { ...(status.disruptedPods ?? {}), [podName]: formatTime(new Date()) };
    b.status = status;
    return current;
  }, { preconditions: { uid: budget.metadata.uid! } });
}

/** Upstream's UpdateDisruptionAllowedCondition once no disruption is left: DisruptionAllowed False, InsufficientPods. */
function setDisruptionAllowedFalse(status: NonNullable<PodDisruptionBudget['status']>, generation: number | undefined): void {
  const conditions = status.conditions ?? [];
  const now = formatTime(new Date());
  const existing = conditions.find((c) => c.type === 'DisruptionAllowed');
  const next = { type: 'DisruptionAllowed', status: 'False' as const, reason: 'InsufficientPods', message: '', observedGeneration: status.observedGeneration ?? generation ?? 0 };
  if (existing) {
    if (existing.status !== 'False') existing.lastTransitionTime = now;
    Object.assign(existing, next);
  } else {
    conditions.push({ ...next, lastTransitionTime: now });
  }
  status.conditions = conditions;
}
