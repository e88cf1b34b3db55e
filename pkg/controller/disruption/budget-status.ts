// The arithmetic of a PodDisruptionBudget's status (upstream's disruption controller, pure parts):
// which recorded disruptions still count, how many selected pods are healthy, how many must be,
// and the DisruptionAllowed condition that goes with the result.
import type { Condition } from '../../../api/meta/v1/types.js';

/** Upstream's DeletionTimeout: an evicted pod not seen deleted within this is counted again. */
export const deletionTimeoutMs = 2 * 60_000;

export interface PodLike {
  metadata: { name?: string; deletionTimestamp?: string; ownerReferences?: { apiVersion: string; kind: string; name: string; uid: string; controller?: boolean }[] };
  status?: { conditions?: { type: string; status: string }[] };
}

export const isPodReady = (p: PodLike): boolean => (p.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

/** An IntOrString scaled against `total` (intstr.GetScaledValueFromIntOrPercent); throws on a malformed percentage. */
export function scaledValue(v: number | string, total: number, roundUp: boolean): number {
  if (typeof v === 'number') return v;
  const m = /^(\d+)%$/.exec(v);
  if (!m) throw new Error(`invalid value for IntOrString: invalid type: string is not a percentage`);
  const x = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(x) : Math.floor(x);
}

/**
 * The disruptions still awaited (upstream's buildDisruptedPodMap): entries of pods that exist, are
 * not being deleted and were evicted less than the timeout ago; also when the earliest expires.
 */
export function liveDisruptions(recorded: Record<string, string> | undefined, pods: PodLike[], now: number): {
  disrupted: Record<string, string>;
  expired: string[];
  recheckAt?: number;
} {
  const disrupted: Record<string, string> = {};
  const expired: string[] = [];
  let recheckAt: number | undefined;
  if (!recorded) return { disrupted, expired };
  for (const pod of pods) {
    const name = pod.metadata.name ?? '';
    if (pod.metadata.deletionTimestamp || !(name in recorded)) continue;
    const expected = Date.parse(recorded[name]!) + deletionTimeoutMs;
    if (expected < now) {
      expired.push(name);
    } else {
      disrupted[name] = recorded[name]!;
      if (recheckAt === undefined || expected < recheckAt) recheckAt = expected;
    }
  }
  return { disrupted, expired, recheckAt };
}

/** Ready pods not being deleted and not awaiting an eviction (upstream's countHealthyPods). */
export function countHealthy(pods: PodLike[], disrupted: Record<string, string>, now: number): number {
  let n = 0;
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp) continue;
    const at = disrupted[pod.metadata.name ?? ''];
    if (at !== undefined && Date.parse(at) + deletionTimeoutMs > now) continue;
    if (isPodReady(pod)) n++;
  }
  return n;
}

/** Sets or replaces the condition of its type (apimeta.SetStatusCondition): the transition time moves only when the status does. */
export function setCondition(conditions: Condition[], next: Omit<Condition, 'lastTransitionTime'>, now: string): Condition[] {
  const existing = conditions.find((c) => c.type === next.type);
  if (!existing) return [...conditions, { ...next, lastTransitionTime: now }];
  return conditions.map((c) => (c.type !== next.type ? c : { ...c, ...next, lastTransitionTime: c.status !== next.status ? now : c.lastTransitionTime }));
}

/** The DisruptionAllowed condition for a number of allowed disruptions (pdbhelper.UpdateDisruptionAllowedCondition). */
export function disruptionAllowedCondition(disruptionsAllowed: number, observedGeneration: number): Omit<Condition, 'lastTransitionTime'> {
  return disruptionsAllowed > 0
    ? { type: 'DisruptionAllowed', status: 'True', reason: 'SufficientPods', message: '', observedGeneration }
    : { type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods', message: '', observedGeneration };
}
