// Upstream's ReplicaCalculator as pure functions: from the pods of the scaled object and the metric
// samples of each, how many replicas bring the metric to its target. Pods that are pending, not
// yet ready (CPU only) or without a sample are set aside first; a change within --tolerance is no
// change; when some were set aside the ratio is recomputed assuming the worst for the direction of
// the change, and a change of direction means none. Values are milli-units, as upstream's.
import type { Pod } from '../../../api/core/v1/pod.js';
import { parseExact, quantityMilliValue } from '../../runtime/quantity-exact.js';

/** One pod's sample: when it was taken, over how long, and its value in milli-units. */
export interface PodMetric {
  timestampMs: number;
  windowMs: number;
  value: number;
}

export type PodMetrics = Map<string, PodMetric>;

export interface PodGroups {
  readyPodCount: number;
  unready: Set<string>;
  missing: Set<string>;
  ignored: Set<string>;
}

export interface ReadinessTiming {
  /** --horizontal-pod-autoscaler-cpu-initialization-period. */
  cpuInitializationPeriodMs: number;
  /** --horizontal-pod-autoscaler-initial-readiness-delay. */
  initialReadinessDelayMs: number;
  now: number;
}

const ms = (t: string | undefined) => (t ? Date.parse(t) : NaN);

/** Upstream's groupPods: which pods count, which are unready, missing a sample, or ignored. */
export function groupPods(pods: readonly Pod[], metrics: PodMetrics, resource: string, timing: ReadinessTiming): PodGroups {
  const groups: PodGroups = { readyPodCount: 0, unready: new Set(), missing: new Set(), ignored: new Set() };
  for (const pod of pods) {
    const name = pod.metadata?.name ?? '';
    if (pod.metadata?.deletionTimestamp || pod.status?.phase === 'Failed') {
      groups.ignored.add(name);
      continue;
    }
    if (pod.status?.phase === 'Pending') {
      groups.unready.add(name);
      continue;
    }
    const metric = metrics.get(name);
    if (!metric) {
      groups.missing.add(name);
      continue;
    }
    if (resource === 'cpu') {
      const ready = (pod.status?.conditions ?? []).find((c) => c.type === 'Ready');
      const start = ms(pod.status?.startTime);
      let unready: boolean;
      if (!ready || Number.isNaN(start)) {
        unready = true;
      } else {
        const transition = ms(ready.lastTransitionTime);
        if (start + timing.cpuInitializationPeriodMs > timing.now) {
          // Still starting: a sample not yet a full window after readiness changed is not trusted.
          unready = ready.status === 'False' || metric.timestampMs < transition + metric.windowMs;
        } else {
          // Unready and never ready since start: set aside.
          unready = ready.status === 'False' && start + timing.initialReadinessDelayMs > transition;
        }
      }
      if (unready) {
        groups.unready.add(name);
        continue;
      }
    }
    groups.readyPodCount++;
  }
  return groups;
}

/** Each pod's request of the resource (of one container, or summed over all), in milli-units; throws upstream's error for a missing request. */
export function calculatePodRequests(pods: readonly Pod[], container: string, resource: string): Map<string, number> {
  const requests = new Map<string, number>();
  for (const pod of pods) {
    let sum = 0;
    for (const c of pod.spec?.containers ?? []) {
      if (container && container !== c.name) continue;
      const q = c.resources?.requests?.[resource];
      const parsed = q === undefined ? undefined : parseExact(q);
      if (!parsed) throw new Error(`missing request for ${resource} in container ${c.name} of Pod ${pod.metadata?.name ?? ''}`);
      sum += Number(quantityMilliValue(parsed));
    }
    requests.set(pod.metadata?.name ?? '', sum);
  }
  return requests;
}

export interface UtilizationRatio {
  ratio: number;
  /** Percentage of the requests, truncated as upstream's integer division. */
  utilization: number;
  /** Average usage per pod, in milli-units. */
  rawAverage: number;
}

/** Upstream's GetResourceUtilizationRatio over the pods that have both a sample and a request. */
export function resourceUtilizationRatio(metrics: PodMetrics, requests: Map<string, number>, targetUtilization: number): UtilizationRatio {
  let metricsTotal = 0;
  let requestsTotal = 0;
  let entries = 0;
  for (const [name, m] of metrics) {
    const request = requests.get(name);
    if (request === undefined) continue;
    metricsTotal += m.value;
    requestsTotal += request;
    entries++;
  }
  if (requestsTotal === 0) throw new Error('no metrics returned matched known pods');
  const utilization = Math.trunc((metricsTotal * 100) / requestsTotal);
  return { ratio: utilization / targetUtilization, utilization, rawAverage: Math.trunc(metricsTotal / entries) };
}

/** Upstream's GetMetricUsageRatio: average usage over the samples against the target. */
function metricUsageRatio(metrics: PodMetrics, targetUsage: number): { ratio: number; usage: number } {
  let total = 0;
  for (const m of metrics.values()) total += m.value;
  const usage = Math.trunc(total / metrics.size);
  return { ratio: usage / targetUsage, usage };
}

export interface ResourceReplicas {
  replicas: number;
  utilization: number;
  rawUtilization: number;
}

/**
 * Upstream's GetResourceReplicas after the samples are read: the replica count for a utilization
 * target. `metrics` is not changed.
 */
export function resourceReplicas(args: {
  currentReplicas: number;
  targetUtilization: number;
  resource: string;
  container: string;
  pods: readonly Pod[];
  metrics: PodMetrics;
  tolerance: number;
  timing: ReadinessTiming;
}): ResourceReplicas {
  const { currentReplicas, targetUtilization, pods, tolerance } = args;
  if (pods.length === 0) throw new Error('no pods returned by selector while calculating replica count');
  const metrics = new Map(args.metrics);
  const { readyPodCount, unready, missing, ignored } = groupPods(pods, metrics, args.resource, args.timing);
  for (const name of [...ignored, ...unready]) metrics.delete(name);
  if (metrics.size === 0) throw new Error('did not receive metrics for targeted pods (pods might be unready)');
  const requests = calculatePodRequests(pods, args.container, args.resource);
  const { ratio, utilization, rawAverage } = resourceUtilizationRatio(metrics, requests, targetUtilization);
  const result = (replicas: number): ResourceReplicas => ({ replicas, utilization, rawUtilization: rawAverage });
  const scaleUpWithUnready = unready.size > 0 && ratio > 1.0;
  if (!scaleUpWithUnready && missing.size === 0) {
    if (Math.abs(1.0 - ratio) <= tolerance) return result(currentReplicas);
    return result(Math.ceil(ratio * readyPodCount));
  }
  // Scaling down, a pod without a sample counts as using all it asked for (or the target above 100%); scaling up, nothing.
  const fallback = Math.max(100, targetUtilization);
  for (const name of missing) {
    if (ratio < 1.0) metrics.set(name, { timestampMs: 0, windowMs: 0, value: Math.trunc(((requests.get(name) ?? 0) * fallback) / 100) });
    else if (ratio > 1.0) metrics.set(name, { timestampMs: 0, windowMs: 0, value: 0 });
  }
  if (scaleUpWithUnready) for (const name of unready) metrics.set(name, { timestampMs: 0, windowMs: 0, value: 0 });
  const again = resourceUtilizationRatio(metrics, requests, targetUtilization).ratio;
  if (Math.abs(1.0 - again) <= tolerance || (ratio < 1.0 && again > 1.0) || (ratio > 1.0 && again < 1.0)) return result(currentReplicas);
  const replicas = Math.ceil(again * metrics.size);
  if ((again < 1.0 && replicas > currentReplicas) || (again > 1.0 && replicas < currentReplicas)) return result(currentReplicas);
  return result(replicas);
}

/** Upstream's calcPlainMetricReplicas: the replica count for an average-value target (of a resource or a pods metric). */
export function plainMetricReplicas(args: {
  currentReplicas: number;
  targetUsage: number;
  resource: string;
  pods: readonly Pod[];
  metrics: PodMetrics;
  tolerance: number;
  timing: ReadinessTiming;
}): { replicas: number; usage: number } {
  const { currentReplicas, targetUsage, pods, tolerance } = args;
  if (pods.length === 0) throw new Error('no pods returned by selector while calculating replica count');
  const metrics = new Map(args.metrics);
  const { readyPodCount, unready, missing, ignored } = groupPods(pods, metrics, args.resource, args.timing);
  for (const name of [...ignored, ...unready]) metrics.delete(name);
  if (metrics.size === 0) throw new Error('did not receive metrics for targeted pods (pods might be unready)');
  const { ratio, usage } = metricUsageRatio(metrics, targetUsage);
  const scaleUpWithUnready = unready.size > 0 && ratio > 1.0;
  if (!scaleUpWithUnready && missing.size === 0) {
    if (Math.abs(1.0 - ratio) <= tolerance) return { replicas: currentReplicas, usage };
    return { replicas: Math.ceil(ratio * readyPodCount), usage };
  }
  // Scaling down, a pod without a sample counts as exactly at the target; scaling up, as nothing.
  for (const name of missing) metrics.set(name, { timestampMs: 0, windowMs: 0, value: ratio < 1.0 ? targetUsage : 0 });
  if (scaleUpWithUnready) for (const name of unready) metrics.set(name, { timestampMs: 0, windowMs: 0, value: 0 });
  const again = metricUsageRatio(metrics, targetUsage).ratio;
  if (Math.abs(1.0 - again) <= tolerance || (ratio < 1.0 && again > 1.0) || (ratio > 1.0 && again < 1.0)) return { replicas: currentReplicas, usage };
  const replicas = Math.ceil(again * metrics.size);
  if ((again < 1.0 && replicas > currentReplicas) || (again > 1.0 && replicas < currentReplicas)) return { replicas: currentReplicas, usage };
  return { replicas, usage };
}
