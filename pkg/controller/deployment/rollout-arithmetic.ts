// The numbers of a rollout (upstream's deployment/util): maxSurge and maxUnavailable resolved
// against the desired replicas, how far the new ReplicaSet may grow, and the share of a scaling
// event each ReplicaSet takes. Pure, so they are unit-tested without a server.

/** An int-or-percent of `total`: percentages round up or down as asked (upstream's GetScaledValueFromIntOrPercent). */
export function scaledValue(v: number | string | undefined, total: number, roundUp: boolean): number {
  if (v === undefined || v === null) return 0;
  if (typeof v === 'number') return v;
  const m = /^(\d+)%$/.exec(v);
  if (!m) {
    const n = Number(v);
    if (Number.isInteger(n)) return n;
    throw new Error(`invalid value for IntOrString: invalid value ${JSON.stringify(v)}`);
  }
  const x = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(x) : Math.floor(x);
}

export interface RollingParams {
  maxSurge?: number | string;
  maxUnavailable?: number | string;
}

/** Upstream's ResolveFenceposts: surge rounds up, unavailable down; both zero would deadlock, so unavailable becomes 1. */
export function resolveFenceposts(p: RollingParams | undefined, desired: number): { surge: number; unavailable: number } {
  const surge = scaledValue(p?.maxSurge ?? '25%', desired, true);
  let unavailable = scaledValue(p?.maxUnavailable ?? '25%', desired, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable };
}

/** Upstream's NewRSNewReplicas for RollingUpdate: grow the new ReplicaSet as far as maxSurge lets the total go. */
export function newRSNewReplicasRolling(desired: number, surge: number, totalSpecReplicas: number, newRSReplicas: number): number {
  const maxTotal = desired + surge;
  if (totalSpecReplicas >= maxTotal) return newRSReplicas;
  const scaleUp = Math.min(maxTotal - totalSpecReplicas, desired - newRSReplicas);
  return newRSReplicas + Math.max(0, scaleUp);
}

/**
 * Upstream's getProportion: the part of a scaling event of `toAdd` replicas (already `added`
 * handed out) a ReplicaSet of `size` takes, from the size it was annotated with (`annotatedTotal`,
 * max-replicas) relative to the new allowed total.
 */
export function proportion(size: number, desired: number, allowedTotal: number, annotatedTotal: number, toAdd: number, added: number): number {
  if (size === 0 || toAdd === 0 || toAdd === added) return 0;
  let fraction: number;
  if (desired === 0) fraction = -size;
  else if (annotatedTotal === 0) fraction = 0;
  else fraction = Math.round((size * allowedTotal) / annotatedTotal) - size;
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}
