// What becomes of the replica count the metrics ask for (upstream's normalizeDesiredReplicas and
// normalizeDesiredReplicasWithBehaviors): stabilized over past recommendations, limited in speed,
// and kept within minReplicas and maxReplicas; with the reason and message of the AbleToScale and
// ScalingLimited conditions. Functions over the controller's memory of recommendations and scale
// events, which ScalingHistory keeps per autoscaler; every time is passed in, and the only thing
// they change besides that memory is the autoscaler's conditions.
import type { HPAScalingRules, HorizontalPodAutoscaler, HorizontalPodAutoscalerBehavior } from '../../../api/autoscaling/v2/horizontal-pod-autoscaler.js';
import { setCondition } from './conditions.js';

interface Recommendation {
  replicas: number;
  at: number;
}

interface ScaleEvent {
  change: number;
  at: number;
  outdated: boolean;
}

/** What the controller remembers of each autoscaler, by its key: past recommendations and scale events. */
export class ScalingHistory {
  readonly recommendations = new Map<string, Recommendation[]>();
  readonly scaleUpEvents = new Map<string, ScaleEvent[]>();
  readonly scaleDownEvents = new Map<string, ScaleEvent[]>();

  /** Upstream's recordInitialRecommendation: the current count, the first time an autoscaler is seen. */
  recordInitial(key: string, currentReplicas: number, now: number): void {
    if (!this.recommendations.has(key)) this.recommendations.set(key, [{ replicas: currentReplicas, at: now }]);
  }

  /** Forgets an autoscaler that was deleted. */
  forget(key: string): void {
    this.recommendations.delete(key);
    this.scaleUpEvents.delete(key);
    this.scaleDownEvents.delete(key);
  }

  /** Upstream's storeScaleEvent: remembers a change made (only with a behavior, whose policies read them), reusing an outdated slot. */
  storeScaleEvent(behavior: HorizontalPodAutoscalerBehavior | undefined, key: string, prev: number, next: number, now: number): void {
    if (!behavior) return;
    const up = next > prev;
    const events = (up ? this.scaleUpEvents : this.scaleDownEvents);
    const list = events.get(key) ?? [];
    const longest = longestPolicyPeriodSeconds(up ? behavior.scaleUp : behavior.scaleDown);
    for (const e of list) if (e.at <= now - longest * 1000) e.outdated = true;
    const event = { change: Math.abs(next - prev), at: now, outdated: false };
    const slot = findLastIndex(list, (e) => e.outdated);
    if (slot >= 0) list[slot] = event;
    else list.push(event);
    events.set(key, list);
  }
}

function findLastIndex<T>(list: T[], test: (t: T) => boolean): number {
  for (let i = list.length - 1; i >= 0; i--) if (test(list[i]!)) return i;
  return -1;
}

const longestPolicyPeriodSeconds = (rules: HPAScalingRules | undefined) => Math.max(0, ...(rules?.policies ?? []).map((p) => p.periodSeconds));

export interface Normalized {
  replicas: number;
  reason: string;
  message: string;
}

/** Upstream's calculateScaleUpLimit: twice the current count, at least 4 (without a behavior). */
const scaleUpLimit = (currentReplicas: number) => Math.trunc(Math.max(2.0 * currentReplicas, 4.0));

/** Upstream's convertDesiredReplicasWithRules: the count within min and max and the old scale-up limit, and why. */
export function convertDesiredReplicasWithRules(current: number, desired: number, min: number, max: number): Normalized {
  const limit = scaleUpLimit(current);
  const [maxAllowed, reason, message] = max > limit
    ? [limit, 'ScaleUpLimit', 'the desired replica count is increasing faster than the maximum scale rate']
    : [max, 'TooManyReplicas', 'the desired replica count is more than the maximum replica count'];
  if (desired < min) return { replicas: min, reason: 'TooFewReplicas', message: 'the desired replica count is less than the minimum replica count' };
  if (desired > maxAllowed) return { replicas: maxAllowed, reason, message };
  return { replicas: desired, reason: 'DesiredWithinRange', message: 'the desired count is within the acceptable range' };
}

/**
 * Upstream's stabilizeRecommendation (no behavior): the highest recommendation of the downscale
 * stabilization window, this one recorded in place of one older than the window.
 */
export function stabilizeRecommendation(history: ScalingHistory, key: string, desired: number, windowMs: number, now: number): number {
  let highest = desired;
  const list = history.recommendations.get(key) ?? [];
  let old = -1;
  list.forEach((r, i) => {
    if (r.at < now - windowMs) old = i;
    else if (r.replicas > highest) highest = r.replicas;
  });
  const rec = { replicas: desired, at: now };
  if (old >= 0) list[old] = rec;
  else list.push(rec);
  history.recommendations.set(key, list);
  return highest;
}

export interface BehaviorArgs {
  key: string;
  /** Both rules completed by defaulting; scaleDown's window set from the controller's flag when unset. */
  scaleUp: HPAScalingRules;
  scaleDown: HPAScalingRules;
  minReplicas: number;
  maxReplicas: number;
  currentReplicas: number;
  desiredReplicas: number;
}

/**
 * Upstream's stabilizeRecommendationWithBehaviors: the count held between the lowest
 * recommendation of the scale-up window and the highest of the scale-down window.
 */
export function stabilizeRecommendationWithBehaviors(history: ScalingHistory, a: BehaviorArgs, now: number): Normalized {
  const upCutoff = now - (a.scaleUp.stabilizationWindowSeconds ?? 0) * 1000;
  const downCutoff = now - (a.scaleDown.stabilizationWindowSeconds ?? 0) * 1000;
  let up = a.desiredReplicas;
  let down = a.desiredReplicas;
  let old = -1;
  const list = history.recommendations.get(a.key) ?? [];
  list.forEach((r, i) => {
    if (r.at > upCutoff) up = Math.min(r.replicas, up);
    if (r.at > downCutoff) down = Math.max(r.replicas, down);
    if (r.at < upCutoff && r.at < downCutoff) old = i;
  });
  let replicas = a.currentReplicas;
  if (replicas < up) replicas = up;
  if (replicas > down) replicas = down;
  const rec = { replicas: a.desiredReplicas, at: now };
  if (old >= 0) list[old] = rec;
  else list.push(rec);
  history.recommendations.set(a.key, list);
  return a.desiredReplicas >= a.currentReplicas
    ? { replicas, reason: 'ScaleUpStabilized', message: 'recent recommendations were lower than current one, applying the lowest recent recommendation' }
    : { replicas, reason: 'ScaleDownStabilized', message: 'recent recommendations were higher than current one, applying the highest recent recommendation' };
}

/** The replicas changed within the last `periodSeconds` by these events. */
function changedWithin(periodSeconds: number, events: readonly ScaleEvent[], now: number): number {
  const cutoff = now - periodSeconds * 1000;
  return events.reduce((sum, e) => (e.at > cutoff ? sum + e.change : sum), 0);
}

const int32Max = 2 ** 31 - 1;
const int32Min = -(2 ** 31);

/** Upstream's calculateScaleUpLimitWithScalingRules: the most replicas the policies allow now. */
export function scaleUpLimitWithRules(current: number, upEvents: readonly ScaleEvent[], downEvents: readonly ScaleEvent[], rules: HPAScalingRules, now: number): number {
  if (rules.selectPolicy === 'Disabled') return current;
  const min = rules.selectPolicy === 'Min';
  let result = min ? int32Max : int32Min;
  for (const p of rules.policies ?? []) {
    const periodStart = current - changedWithin(p.periodSeconds, upEvents, now) + changedWithin(p.periodSeconds, downEvents, now);
    const proposed = p.type === 'Pods' ? periodStart + p.value : p.type === 'Percent' ? Math.ceil(periodStart * (1 + p.value / 100)) : 0;
    result = min ? Math.min(result, proposed) : Math.max(result, proposed);
  }
  return result;
}

/** Upstream's calculateScaleDownLimitWithBehaviors: the fewest replicas the policies allow now. */
export function scaleDownLimitWithRules(current: number, upEvents: readonly ScaleEvent[], downEvents: readonly ScaleEvent[], rules: HPAScalingRules, now: number): number {
  if (rules.selectPolicy === 'Disabled') return current;
  const min = rules.selectPolicy === 'Min';
  let result = min ? int32Min : int32Max;
  for (const p of rules.policies ?? []) {
    const periodStart = current - changedWithin(p.periodSeconds, upEvents, now) + changedWithin(p.periodSeconds, downEvents, now);
    const proposed = p.type === 'Pods' ? periodStart - p.value : p.type === 'Percent' ? Math.trunc(periodStart * (1 - p.value / 100)) : 0;
    result = min ? Math.max(result, proposed) : Math.min(result, proposed);
  }
  return result;
}

/** Upstream's convertDesiredReplicasWithBehaviorRate: the count within min, max and the rate the policies allow, and why. */
export function convertDesiredReplicasWithBehaviorRate(history: ScalingHistory, a: BehaviorArgs, now: number): Normalized {
  const up = history.scaleUpEvents.get(a.key) ?? [];
  const down = history.scaleDownEvents.get(a.key) ?? [];
  if (a.desiredReplicas > a.currentReplicas) {
    // Until old scale-ups fall out of their periods, no further scale-up.
    const limit = Math.max(scaleUpLimitWithRules(a.currentReplicas, up, down, a.scaleUp, now), a.currentReplicas);
    const [maxAllowed, reason, message] = a.maxReplicas > limit
      ? [limit, 'ScaleUpLimit', 'the desired replica count is increasing faster than the maximum scale rate']
      : [a.maxReplicas, 'TooManyReplicas', 'the desired replica count is more than the maximum replica count'];
    if (a.desiredReplicas > maxAllowed) return { replicas: maxAllowed, reason, message };
  } else if (a.desiredReplicas < a.currentReplicas) {
    const limit = Math.min(scaleDownLimitWithRules(a.currentReplicas, up, down, a.scaleDown, now), a.currentReplicas);
    const [minAllowed, reason, message] = a.minReplicas < limit
      ? [limit, 'ScaleDownLimit', 'the desired replica count is decreasing faster than the maximum scale rate']
      : [a.minReplicas, 'TooFewReplicas', 'the desired replica count is less than the minimum replica count'];
    if (a.desiredReplicas < minAllowed) return { replicas: minAllowed, reason, message };
  }
  return { replicas: a.desiredReplicas, reason: 'DesiredWithinRange', message: 'the desired count is within the acceptable range' };
}

/**
 * Upstream's normalizeDesiredReplicas (an autoscaler without a behavior): stabilized over the
 * downscale window, clamped; sets AbleToScale and ScalingLimited.
 */
export function normalizeDesiredReplicas(history: ScalingHistory, hpa: HorizontalPodAutoscaler, key: string, current: number, proposed: number, min: number, downscaleWindowMs: number, now: number): number {
  const stabilized = stabilizeRecommendation(history, key, proposed, downscaleWindowMs, now);
  if (stabilized !== proposed) {
    setCondition(hpa, 'AbleToScale', 'True', 'ScaleDownStabilized', 'recent recommendations were higher than current one, applying the highest recent recommendation');
  } else {
    setCondition(hpa, 'AbleToScale', 'True', 'ReadyForNewScale', 'recommended size matches current size');
  }
  const r = convertDesiredReplicasWithRules(current, stabilized, min, hpa.spec!.maxReplicas);
  setCondition(hpa, 'ScalingLimited', r.replicas === stabilized ? 'False' : 'True', r.reason, r.message);
  return r.replicas;
}

/**
 * Upstream's normalizeDesiredReplicasWithBehaviors: stabilized within both windows (an unset
 * scale-down window is the controller's downscale stabilization), limited by the policies, clamped;
 * sets AbleToScale and ScalingLimited.
 */
export function normalizeDesiredReplicasWithBehaviors(history: ScalingHistory, hpa: HorizontalPodAutoscaler, key: string, current: number, proposed: number, min: number, downscaleWindowMs: number, now: number): number {
  const behavior = hpa.spec!.behavior!;
  const scaleDown = { ...behavior.scaleDown };
  scaleDown.stabilizationWindowSeconds ??= Math.trunc(downscaleWindowMs / 1000);
  const args = { key, scaleUp: behavior.scaleUp ?? {}, scaleDown, minReplicas: min, maxReplicas: hpa.spec!.maxReplicas, currentReplicas: current, desiredReplicas: proposed };
  const stabilized = stabilizeRecommendationWithBehaviors(history, args, now);
  if (stabilized.replicas !== proposed) setCondition(hpa, 'AbleToScale', 'True', stabilized.reason, stabilized.message);
  else setCondition(hpa, 'AbleToScale', 'True', 'ReadyForNewScale', 'recommended size matches current size');
  const r = convertDesiredReplicasWithBehaviorRate(history, { ...args, desiredReplicas: stabilized.replicas }, now);
  setCondition(hpa, 'ScalingLimited', r.replicas === stabilized.replicas ? 'False' : 'True', r.reason, r.message);
  return r.replicas;
}
