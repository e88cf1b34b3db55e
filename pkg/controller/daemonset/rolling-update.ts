// Which old daemon pods a RollingUpdate replaces now (upstream's daemon rollingUpdate): without
// surge, old pods are deleted (the manage pass then creates their replacements) only while the
// nodes whose pod is missing, old-and-unavailable or new-but-not-yet-available stay within
// maxUnavailable, an unavailable old pod being replaced regardless; with surge, a new pod is made
// beside an available old one on at most maxSurge nodes at a time, and the old pod goes once the
// new one is available. Pure: the controller feeds it its informers' view.
import { isPodAvailable } from '../replicaset/pod-ranking.js';
import { scaledValue } from '../deployment/rollout-arithmetic.js';
import type { PodObject } from '../pod-conditions.js';
import { isPodUpdated } from './revisions.js';

export interface RollingUpdateParams {
  maxSurge?: number | string;
  maxUnavailable?: number | string;
}

/** maxSurge and maxUnavailable of `desired` nodes, percentages rounded up; both 0 would never progress, so unavailable becomes 1. */
export function updateBudget(strategy: { type?: string; rollingUpdate?: RollingUpdateParams } | undefined, desired: number): { maxSurge: number; maxUnavailable: number } {
  if (strategy?.type !== 'RollingUpdate' || !strategy.rollingUpdate) return { maxSurge: 0, maxUnavailable: 0 };
  const maxSurge = scaledValue(strategy.rollingUpdate.maxSurge, desired, true);
  let maxUnavailable = scaledValue(strategy.rollingUpdate.maxUnavailable, desired, true);
  if (desired > 0 && maxSurge === 0 && maxUnavailable === 0) maxUnavailable = 1;
  return { maxSurge, maxUnavailable };
}

/** Scheduled pods first, then the oldest, then by name (upstream's podByCreationTimestampAndPhase). */
export function daemonPodOrder(a: PodObject, b: PodObject): number {
  const sa = a.spec?.nodeName ? 0 : 1;
  const sb = b.spec?.nodeName ? 0 : 1;
  if (sa !== sb) return sa - sb;
  const ta = Date.parse(a.metadata.creationTimestamp ?? '');
  const tb = Date.parse(b.metadata.creationTimestamp ?? '');
  if (ta !== tb && !Number.isNaN(ta) && !Number.isNaN(tb)) return ta - tb;
  const na = a.metadata.name ?? '';
  const nb = b.metadata.name ?? '';
  return na < nb ? -1 : na > nb ? 1 : 0;
}

/** The node's one new and one old live pod; undefined when there are more of either (the manage pass prunes those first). */
export function updatedPodsOnNode(pods: readonly PodObject[], hash: string, generation: number | undefined): { newPod?: PodObject; oldPod?: PodObject } | undefined {
  let newPod: PodObject | undefined;
  let oldPod: PodObject | undefined;
  for (const p of pods) {
    if (p.metadata.deletionTimestamp) continue;
    if (isPodUpdated(p, hash, generation)) {
      if (newPod) return undefined;
      newPod = p;
    } else {
      if (oldPod) return undefined;
      oldPod = p;
    }
  }
  return { newPod, oldPod };
}

export interface RollingUpdateInput {
  /** Pods by the node they are for, with an empty list for every node that should run one and has none. */
  nodeToPods: ReadonlyMap<string, readonly PodObject[]>;
  /** Whether the named node should run a daemon pod (false for a node that is gone). */
  shouldRun: (nodeName: string) => boolean;
  desired: number;
  maxSurge: number;
  maxUnavailable: number;
  hash: string;
  generation: number | undefined;
  minReadySeconds: number;
  now: number;
}

/** The pods to delete and the nodes to create a pod on in this step of the update. */
export function rollingUpdateStep(input: RollingUpdateInput): { deletePods: string[]; createOn: string[] } {
  const { nodeToPods, hash, generation, minReadySeconds, now } = input;
  const available = (p: PodObject) => isPodAvailable(p, minReadySeconds, now);
  const nameOf = (p: PodObject) => p.metadata.name ?? '';

  if (input.maxSurge === 0) {
    let unavailable = 0;
    const replacements: string[] = [];
    const candidates: string[] = [];
    for (const pods of nodeToPods.values()) {
      const found = updatedPodsOnNode(pods, hash, generation);
      if (!found) {
        unavailable++;
        continue;
      }
      const { newPod, oldPod } = found;
      if ((!oldPod && !newPod) || (oldPod && newPod)) {
        unavailable++;
      } else if (newPod) {
        if (!available(newPod)) unavailable++;
      } else if (!available(oldPod!)) {
        replacements.push(nameOf(oldPod!));
        unavailable++;
      } else if (unavailable < input.maxUnavailable) {
        candidates.push(nameOf(oldPod!));
      }
    }
    const room = Math.min(Math.max(0, input.maxUnavailable - unavailable), candidates.length);
    return { deletePods: [...replacements, ...candidates.slice(0, room)], createOn: [] };
  }

  const deletePods: string[] = [];
  const sunset: string[] = [];
  const candidates: string[] = [];
  const allowed: string[] = [];
  let surge = 0;
  let numAvailable = 0;
  for (const [node, pods] of nodeToPods) {
    const found = updatedPodsOnNode(pods, hash, generation);
    if (!found) {
      surge++;
      continue;
    }
    const { newPod, oldPod } = found;
    const counted = oldPod ?? newPod;
    if (counted && available(counted)) numAvailable++;
    if (!oldPod) continue;
    if (!newPod) {
      if (!available(oldPod)) {
        if (!input.shouldRun(node)) deletePods.push(nameOf(oldPod));
        else allowed.push(node);
      } else if (!input.shouldRun(node)) {
        sunset.push(nameOf(oldPod));
      } else if (surge < input.maxSurge) {
        candidates.push(node);
      }
      continue;
    }
    if (!available(newPod)) {
      surge++;
      continue;
    }
    deletePods.push(nameOf(oldPod));
  }
  // A pod on a node that should no longer run one goes only while enough others are available.
  const deletable = Math.min(numAvailable - input.desired, sunset.length);
  if (deletable > 0) deletePods.push(...sunset.slice(0, deletable));
  const room = Math.min(Math.max(0, input.maxSurge - surge), candidates.length);
  return { deletePods, createOn: [...allowed, ...candidates.slice(0, room)] };
}
