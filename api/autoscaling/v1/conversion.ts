// Conversion between autoscaling/v2 HorizontalPodAutoscaler (the stored shape) and autoscaling/v1,
// as upstream's autoscaling/v1 conversion does it: v1 keeps only the CPU utilization target and
// current value, and carries what else v2 says in four annotations (the other metrics, the current
// metrics, the behavior and the conditions), so that a v2 object read and written back through v1
// loses nothing. Annotations that do not decode are ignored, as upstream ignores them. Pure
// functions over plain objects.
import type { ApiDomain } from '../../domain.js';
import type { ObjectMeta } from '../../meta/v1/types.js';
import { defaultCPUMetric } from '../v2/defaults.js';
import type {
  HPAScalingRules, HorizontalPodAutoscaler as V2, HorizontalPodAutoscalerBehavior, HorizontalPodAutoscalerCondition, MetricSpec, MetricStatus,
} from '../v2/horizontal-pod-autoscaler.js';
import type { HorizontalPodAutoscaler as V1 } from './horizontal-pod-autoscaler.js';
import { Decoded, optStruct, readInt, readList, readString, readTime, struct } from './json-reader.js';
import { defined, metricSpecFromV1, metricSpecToV1, metricStatusFromV1, metricStatusToV1 } from './metric-conversion.js';

/** The annotation keys that carry v2-only fields through v1 (upstream's autoscaling.alpha.kubernetes.io/...). */
export interface RoundTripAnnotations {
  metrics: string;
  currentMetrics: string;
  conditions: string;
  behavior: string;
}

/** The round-trip annotation keys in a platform domain. */
export function roundTripAnnotations(d: ApiDomain): RoundTripAnnotations {
  const key = (name: string) => d.key(name, 'autoscaling.alpha');
  return { metrics: key('metrics'), currentMetrics: key('current-metrics'), conditions: key('conditions'), behavior: key('behavior') };
}

const isCPU = (name: string | undefined) => name === 'cpu';

/** Annotations without the round-trip ones; undefined when none remain (Go's omitempty). */
function withoutRoundTrip(annotations: Record<string, string> | undefined, keys: RoundTripAnnotations): Record<string, string> | undefined {
  if (!annotations) return undefined;
  const drop = new Set(Object.values(keys));
  const kept = Object.entries(annotations).filter(([k]) => !drop.has(k));
  return kept.length ? Object.fromEntries(kept) : undefined;
}

function withAnnotations(meta: ObjectMeta | undefined, annotations: Record<string, string> | undefined): ObjectMeta {
  const { annotations: _dropped, ...rest } = meta ?? {};
  return annotations ? { ...rest, annotations } : rest;
}

/** A v2 autoscaler as autoscaling/v1, its v2-only fields in the round-trip annotations. */
export function hpaToV1(hpa: V2, keys: RoundTripAnnotations): V1 {
  const spec = hpa.spec;
  const status = hpa.status;
  const metrics = spec?.metrics ?? [];
  const currentMetrics = status?.currentMetrics ?? [];
  const conditions = status?.conditions ?? [];
  // Upstream takes the first CPU resource metric, with a utilization target or not, as the target.
  const cpuTarget = metrics.find((m) => m.type === 'Resource' && isCPU(m.resource?.name))?.resource?.target.averageUtilization;
  let cpuCurrent: number | undefined;
  for (const m of currentMetrics) {
    if (m.type === 'Resource' && isCPU(m.resource?.name) && m.resource?.current.averageUtilization !== undefined) cpuCurrent = m.resource.current.averageUtilization;
  }
  const others = metrics.filter((m) => !(m.type === 'Resource' && isCPU(m.resource?.name) && m.resource?.target.averageUtilization !== undefined));
  const annotations = { ...(withoutRoundTrip(hpa.metadata?.annotations, keys) ?? {}) };
  if (others.length) annotations[keys.metrics] = JSON.stringify(others.map(metricSpecToV1));
  if (currentMetrics.length) annotations[keys.currentMetrics] = JSON.stringify(currentMetrics.map(metricStatusToV1));
  if (spec?.behavior) annotations[keys.behavior] = JSON.stringify(behaviorToGo(spec.behavior));
  if (conditions.length) annotations[keys.conditions] = JSON.stringify(conditions.map(conditionToV1));
  return {
    kind: 'HorizontalPodAutoscaler',
    apiVersion: 'autoscaling/v1',
    metadata: withAnnotations(hpa.metadata, Object.keys(annotations).length ? annotations : undefined),
    spec: defined({
      scaleTargetRef: spec?.scaleTargetRef ?? { kind: '', name: '' },
      minReplicas: spec?.minReplicas,
      maxReplicas: spec?.maxReplicas ?? 0,
      targetCPUUtilizationPercentage: cpuTarget,
    }),
    status: defined({
      observedGeneration: status?.observedGeneration,
      lastScaleTime: status?.lastScaleTime,
      currentReplicas: status?.currentReplicas ?? 0,
      desiredReplicas: status?.desiredReplicas ?? 0,
      currentCPUUtilizationPercentage: cpuCurrent,
    }),
  };
}

/** An autoscaling/v1 autoscaler as v2, its v2-only fields read back from the round-trip annotations. */
export function hpaFromV1(hpa: V1, keys: RoundTripAnnotations): V2 {
  const spec = hpa.spec;
  const status = hpa.status;
  const annotations = hpa.metadata?.annotations ?? {};
  const cpu = spec?.targetCPUUtilizationPercentage;
  let metrics: MetricSpec[] = cpu !== undefined ? [defaultCPUMetric(cpu)] : [];
  const others = decodeAnnotation(annotations[keys.metrics], (list) => list.map(metricSpecFromV1));
  // The CPU target of v1 comes after the other metrics, as upstream orders them.
  if (others) metrics = [...others, ...metrics];
  if (metrics.length === 0) metrics = [defaultCPUMetric()];
  const cpuCurrent = status?.currentCPUUtilizationPercentage;
  let currentMetrics: MetricStatus[] | undefined = cpuCurrent !== undefined
    ? [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: cpuCurrent } } }]
    : undefined;
  currentMetrics = decodeAnnotation(annotations[keys.currentMetrics], (list) => list.map(metricStatusFromV1)) ?? currentMetrics;
  const behavior = decodeBehavior(annotations[keys.behavior]);
  const conditions = decodeAnnotation(annotations[keys.conditions], (list) => list.map(conditionFromV1));
  return {
    kind: 'HorizontalPodAutoscaler',
    apiVersion: 'autoscaling/v2',
    metadata: withAnnotations(hpa.metadata, withoutRoundTrip(hpa.metadata?.annotations, keys)),
    spec: defined({
      scaleTargetRef: spec?.scaleTargetRef ?? { kind: '', name: '' },
      minReplicas: spec?.minReplicas,
      maxReplicas: spec?.maxReplicas ?? 0,
      metrics,
      behavior,
    }),
    status: defined({
      observedGeneration: status?.observedGeneration,
      lastScaleTime: status?.lastScaleTime,
      currentReplicas: status?.currentReplicas,
      desiredReplicas: status?.desiredReplicas ?? 0,
      currentMetrics,
      conditions,
    }),
  };
}

/** The decoded list an annotation holds, or undefined when absent or not decodable. */
function decodeAnnotation<T>(text: string | undefined, decode: (list: unknown[]) => T[]): T[] | undefined {
  if (text === undefined) return undefined;
  try {
    return decode(readList(JSON.parse(text)) ?? []);
  } catch (e) {
    if (e instanceof SyntaxError || e instanceof Decoded) return undefined;
    throw e;
  }
}

function conditionToV1(c: HorizontalPodAutoscalerCondition): Record<string, unknown> {
  return defined({ type: c.type, status: c.status, lastTransitionTime: c.lastTransitionTime ?? null, reason: c.reason || undefined, message: c.message || undefined });
}

function conditionFromV1(raw: unknown): HorizontalPodAutoscalerCondition {
  const c = struct(raw, ['type', 'status', 'lastTransitionTime', 'reason', 'message']);
  return defined({
    type: readString(c.type), status: readString(c.status), lastTransitionTime: readTime(c.lastTransitionTime),
    reason: readString(c.reason) || undefined, message: readString(c.message) || undefined,
  });
}

/**
 * Upstream marshals its internal behavior type, which has no JSON tags: the annotation spells Go's
 * field names (ScaleUp, StabilizationWindowSeconds, ...), nil pointers as null.
 */
function behaviorToGo(b: HorizontalPodAutoscalerBehavior): Record<string, unknown> {
  const rules = (r: HPAScalingRules | undefined) => r === undefined ? null : {
    StabilizationWindowSeconds: r.stabilizationWindowSeconds ?? null,
    SelectPolicy: r.selectPolicy ?? null,
    Policies: r.policies?.map((p) => ({ Type: p.type, Value: p.value, PeriodSeconds: p.periodSeconds })) ?? null,
  };
  return { ScaleUp: rules(b.scaleUp), ScaleDown: rules(b.scaleDown) };
}

/** The behavior annotation, or undefined when absent, not decodable, or naming no rules (upstream's check). */
function decodeBehavior(text: string | undefined): HorizontalPodAutoscalerBehavior | undefined {
  if (text === undefined) return undefined;
  const rules = (raw: unknown): HPAScalingRules | undefined => {
    const r = optStruct(raw, ['StabilizationWindowSeconds', 'SelectPolicy', 'Policies']);
    if (!r) return undefined;
    const selectPolicy = r.SelectPolicy === null || r.SelectPolicy === undefined ? undefined : readString(r.SelectPolicy);
    return defined({
      stabilizationWindowSeconds: readInt(r.StabilizationWindowSeconds),
      selectPolicy,
      policies: readList(r.Policies)?.map((item) => {
        const p = struct(item, ['Type', 'Value', 'PeriodSeconds']);
        return { type: readString(p.Type), value: readInt(p.Value) ?? 0, periodSeconds: readInt(p.PeriodSeconds) ?? 0 };
      }),
    });
  };
  try {
    const b = struct(JSON.parse(text), ['ScaleUp', 'ScaleDown']);
    const behavior = defined({ scaleUp: rules(b.ScaleUp), scaleDown: rules(b.ScaleDown) });
    return behavior.scaleUp || behavior.scaleDown ? behavior : undefined;
  } catch (e) {
    if (e instanceof SyntaxError || e instanceof Decoded) return undefined;
    throw e;
  }
}
