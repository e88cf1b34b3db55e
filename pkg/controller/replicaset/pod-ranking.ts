// What the ReplicaSet controller reads off its pods (upstream's podutil and controller.ActivePods):
// whether a pod is active, ready and available, and which pods go first when there are too many.
import type { Pod } from '../../../api/core/v1/pod.js';
import type { KubeObject } from '../../client/index.js';

export type PodObject = Pod & KubeObject;

/** Not finished and not being deleted: the pods a ReplicaSet counts (upstream's IsPodActive). */
export function isPodActive(p: PodObject): boolean {
  const phase = p.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !p.metadata.deletionTimestamp;
}

function readyCondition(p: PodObject) {
  return (p.status?.conditions ?? []).find((c) => c.type === 'Ready');
}

export function isPodReady(p: PodObject): boolean {
  return readyCondition(p)?.status === 'True';
}

/** Ready for at least minReadySeconds by `now` (upstream's IsPodAvailable). */
export function isPodAvailable(p: PodObject, minReadySeconds: number, now: number): boolean {
  const c = readyCondition(p);
  if (c?.status !== 'True') return false;
  if (minReadySeconds <= 0) return true;
  const since = c.lastTransitionTime ? Date.parse(c.lastTransitionTime) : NaN;
  return !Number.isNaN(since) && since + minReadySeconds * 1000 <= now;
}

const phaseRank = (p: PodObject): number => ({ Pending: 0, Unknown: 1, Running: 2 } as Record<string, number>)[p.status?.phase ?? 'Pending'] ?? 0;

const deletionCost = (p: PodObject, key: string): number => {
  const v = Number(p.metadata.annotations?.[key] ?? 0);
  return Number.isFinite(v) ? v : 0;
};

const time = (s: string | undefined): number => (s ? Date.parse(s) : NaN);

/**
 * Upstream's ActivePodsWithRanks.Less: the pods to delete first. Unscheduled before scheduled;
 * Pending before Unknown before Running; not ready before ready; lower pod-deletion-cost first;
 * pods doubled up on a node with more of ours first; ready for less time first; more restarts
 * first; newer first.
 */
export function rankPodsForDeletion(pods: readonly PodObject[], deletionCostKey: string, relatedPods: readonly PodObject[] = pods): PodObject[] {
  const onNode = new Map<string, number>();
  for (const p of relatedPods) {
    const n = p.spec?.nodeName;
    if (n && isPodActive(p)) onNode.set(n, (onNode.get(n) ?? 0) + 1);
  }
  const rank = (p: PodObject) => (p.spec?.nodeName ? onNode.get(p.spec.nodeName) ?? 0 : 0);
  const restarts = (p: PodObject) => (p.status?.containerStatuses ?? []).reduce((m, c) => Math.max(m, c.restartCount ?? 0), 0);
  const less = (a: PodObject, b: PodObject): number => {
    const aAssigned = a.spec?.nodeName ? 1 : 0;
    const bAssigned = b.spec?.nodeName ? 1 : 0;
    if (aAssigned !== bAssigned) return aAssigned - bAssigned;
    if (phaseRank(a) !== phaseRank(b)) return phaseRank(a) - phaseRank(b);
    const aReady = isPodReady(a) ? 1 : 0;
    const bReady = isPodReady(b) ? 1 : 0;
    if (aReady !== bReady) return aReady - bReady;
    const aCost = deletionCost(a, deletionCostKey);
    const bCost = deletionCost(b, deletionCostKey);
    if (aCost !== bCost) return aCost - bCost;
    if (rank(a) !== rank(b)) return rank(b) - rank(a);
    if (aReady && bReady) {
      const at = time(readyCondition(a)?.lastTransitionTime);
      const bt = time(readyCondition(b)?.lastTransitionTime);
      if (at !== bt && !Number.isNaN(at) && !Number.isNaN(bt)) return bt - at;
    }
    if (restarts(a) !== restarts(b)) return restarts(b) - restarts(a);
    const ac = time(a.metadata.creationTimestamp);
    const bc = time(b.metadata.creationTimestamp);
    if (Number.isNaN(ac) !== Number.isNaN(bc)) return Number.isNaN(ac) ? -1 : 1;
    if (ac !== bc && !Number.isNaN(ac)) return bc - ac;
    return (a.metadata.name ?? '') < (b.metadata.name ?? '') ? 1 : -1;
  };
  return [...pods].sort(less);
}
