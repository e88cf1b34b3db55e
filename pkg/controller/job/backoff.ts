// The delay before a failed job pod is replaced (upstream's backoffStore): 10 s after the last
// failure, doubling with each failure since the last success, at most 10 minutes. The record is
// kept per job in memory (a restarted controller starts over, as upstream's does); with
// backoffLimitPerIndex the count of an index comes from its last failed pod's annotations.
import type { PodObject } from '../replicaset/pod-ranking.js';

const defaultPodFailureBackoffMs = 10_000;
const maxPodFailureBackoffMs = 10 * 60_000;

export interface BackoffRecord {
  key: string;
  failuresAfterLastSuccess: number;
  lastFailureTime?: number;
}

const ms = (s: string | undefined): number | undefined => {
  const t = s ? Date.parse(s) : NaN;
  return Number.isNaN(t) ? undefined : t;
};

/**
 * When a pod finished: the last container's finish time when all have finished, else the time it
 * went not-Ready, else the moment its deletion took effect, else its creation.
 */
export function finishedTime(p: PodObject): number {
  const statuses = p.status?.containerStatuses ?? [];
  let latest: number | undefined;
  let allFinished = statuses.length > 0;
  for (const c of statuses) {
    const at = ms(c.state?.terminated?.finishedAt);
    if (at === undefined) {
      allFinished = false;
      break;
    }
    latest = latest === undefined ? at : Math.max(latest, at);
  }
  if (allFinished && latest !== undefined) return latest;
  const ready = (p.status?.conditions ?? []).find((c) => c.type === 'Ready');
  const notReadySince = ready?.status === 'False' ? ms(ready.lastTransitionTime) : undefined;
  if (notReadySince !== undefined) return notReadySince;
  const deleted = ms(p.metadata.deletionTimestamp);
  if (deleted !== undefined) return deleted - (p.metadata.deletionGracePeriodSeconds ?? 0) * 1000;
  return ms(p.metadata.creationTimestamp) ?? 0;
}

/** How long until a replacement may be made after `failures` consecutive failures, the last at `lastFailure`. */
export function remainingBackoff(now: number, failures: number, lastFailure: number | undefined): number {
  if (failures === 0 || lastFailure === undefined) return 0;
  let backoff = defaultPodFailureBackoffMs;
  for (let i = 1; i < failures; i++) {
    backoff *= 2;
    if (backoff >= maxPodFailureBackoffMs) {
      backoff = maxPodFailureBackoffMs;
      break;
    }
  }
  const elapsed = now - lastFailure;
  return backoff < elapsed ? 0 : backoff - elapsed;
}

const byFinish = (pods: readonly PodObject[]) => [...pods].sort((a, b) => finishedTime(a) - finishedTime(b));

export class BackoffStore {
  private readonly records = new Map<string, BackoffRecord>();

  /** The record `key` would have once `succeeded` and `failed` (newly finished pods) are counted. */
  next(key: string, succeeded: readonly PodObject[], failed: readonly PodObject[]): BackoffRecord {
    const old = this.records.get(key);
    const r: BackoffRecord = { key, failuresAfterLastSuccess: old?.failuresAfterLastSuccess ?? 0, ...(old?.lastFailureTime !== undefined ? { lastFailureTime: old.lastFailureTime } : {}) };
    const f = byFinish(failed);
    if (succeeded.length === 0) {
      if (f.length === 0) return r;
      return { key, failuresAfterLastSuccess: r.failuresAfterLastSuccess + f.length, lastFailureTime: finishedTime(f[f.length - 1]!) };
    }
    // Only failures after the last success count.
    const lastSuccess = finishedTime(byFinish(succeeded)[succeeded.length - 1]!);
    const out: BackoffRecord = { key, failuresAfterLastSuccess: 0 };
    for (let i = f.length - 1; i >= 0; i--) {
      const t = finishedTime(f[i]!);
      if (t <= lastSuccess) break;
      out.lastFailureTime ??= t;
      out.failuresAfterLastSuccess++;
    }
    return out;
  }

  update(r: BackoffRecord): void {
    this.records.set(r.key, r);
  }

  remove(key: string): void {
    this.records.delete(key);
  }
}
