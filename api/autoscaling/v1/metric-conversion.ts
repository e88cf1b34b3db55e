// The autoscaling/v1 metric shapes, which exist only inside the annotations that carry v2 metrics
// through v1 (upstream's v1 MetricSpec and MetricStatus, written as Go's encoding/json writes them:
// in field order, non-pointer quantities always, pointers when set), and their conversion to and
// from v2 as upstream's autoscaling/v1 conversion functions do it.
import type { LabelSelector } from '../../meta/v1/types.js';
import type {
  CrossVersionObjectReference, MetricIdentifier, MetricSpec, MetricStatus, MetricTarget, MetricValueStatus,
} from '../v2/horizontal-pod-autoscaler.js';
import { optStruct, readInt, readList, readQuantity, readString, readStringMap, struct } from './json-reader.js';

type Quantity = number | string;

/** A Go resource.Quantity's zero value, as encoding/json writes it. */
const zero: Quantity = '0';

/** The object without its undefined properties (Go's omitempty and nil pointers). */
export function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

// --- specs ---------------------------------------------------------------------------------

/** A v2 metric spec as upstream's v1 MetricSpec (for the metrics annotation). */
export function metricSpecToV1(m: MetricSpec): Record<string, unknown> {
  const { object: o, pods: p, resource: r, containerResource: c, external: e } = m;
  return defined({
    type: m.type,
    object: o && defined({
      target: reference(o.describedObject), metricName: o.metric.name, targetValue: o.target.value ?? zero,
      selector: o.metric.selector, averageValue: o.target.averageValue,
    }),
    pods: p && defined({ metricName: p.metric.name, targetAverageValue: p.target.averageValue ?? zero, selector: p.metric.selector }),
    resource: r && defined({ name: r.name, targetAverageUtilization: r.target.averageUtilization, targetAverageValue: r.target.averageValue }),
    containerResource: c && defined({
      name: c.name, targetAverageUtilization: c.target.averageUtilization, targetAverageValue: c.target.averageValue, container: c.container,
    }),
    external: e && defined({
      metricName: e.metric.name, metricSelector: e.metric.selector, targetValue: e.target.value, targetAverageValue: e.target.averageValue,
    }),
  });
}

/** A v1 metric spec from the metrics annotation, as v2; throws Decoded when Go would not decode it. */
export function metricSpecFromV1(raw: unknown): MetricSpec {
  const m = struct(raw, ['type', 'object', 'pods', 'resource', 'containerResource', 'external']);
  const out: MetricSpec = { type: readString(m.type) };
  const o = optStruct(m.object, ['target', 'metricName', 'targetValue', 'selector', 'averageValue']);
  if (o) {
    const averageValue = readQuantity(o.averageValue);
    out.object = {
      describedObject: referenceFromV1(o.target),
      target: defined({ type: averageValue === undefined ? 'Value' : 'AverageValue', value: readQuantity(o.targetValue) ?? zero, averageValue }),
      metric: identifier(o.metricName, o.selector),
    };
  }
  const p = optStruct(m.pods, ['metricName', 'targetAverageValue', 'selector']);
  if (p) out.pods = { metric: identifier(p.metricName, p.selector), target: { type: 'AverageValue', averageValue: readQuantity(p.targetAverageValue) ?? zero } };
  const r = optStruct(m.resource, ['name', 'targetAverageUtilization', 'targetAverageValue']);
  if (r) out.resource = { name: readString(r.name), target: resourceTarget(r.targetAverageUtilization, r.targetAverageValue) };
  const c = optStruct(m.containerResource, ['name', 'targetAverageUtilization', 'targetAverageValue', 'container']);
  if (c) out.containerResource = { name: readString(c.name), target: resourceTarget(c.targetAverageUtilization, c.targetAverageValue), container: readString(c.container) };
  const e = optStruct(m.external, ['metricName', 'metricSelector', 'targetValue', 'targetAverageValue']);
  if (e) {
    const value = readQuantity(e.targetValue);
    out.external = {
      metric: identifier(e.metricName, e.metricSelector),
      target: defined({ type: value === undefined ? 'AverageValue' : 'Value', value, averageValue: readQuantity(e.targetAverageValue) }),
    };
  }
  return out;
}

function resourceTarget(rawUtilization: unknown, rawValue: unknown): MetricTarget {
  const utilization = readInt(rawUtilization);
  return defined({ type: utilization === undefined ? 'AverageValue' : 'Utilization', averageValue: readQuantity(rawValue), averageUtilization: utilization });
}

// --- statuses ------------------------------------------------------------------------------

/** A v2 metric status as upstream's v1 MetricStatus (for the current-metrics annotation). */
export function metricStatusToV1(m: MetricStatus): Record<string, unknown> {
  const { object: o, pods: p, resource: r, containerResource: c, external: e } = m;
  return defined({
    type: m.type,
    object: o && defined({
      target: reference(o.describedObject), metricName: o.metric.name, currentValue: o.current.value ?? zero,
      selector: o.metric.selector, averageValue: o.current.averageValue,
    }),
    pods: p && defined({ metricName: p.metric.name, currentAverageValue: p.current.averageValue ?? zero, selector: p.metric.selector }),
    resource: r && defined({ name: r.name, currentAverageUtilization: r.current.averageUtilization, currentAverageValue: r.current.averageValue ?? zero }),
    containerResource: c && defined({
      name: c.name, currentAverageUtilization: c.current.averageUtilization, currentAverageValue: c.current.averageValue ?? zero, container: c.container,
    }),
    external: e && defined({
      metricName: e.metric.name, metricSelector: e.metric.selector, currentValue: e.current.value ?? zero, currentAverageValue: e.current.averageValue,
    }),
  });
}

/** A v1 metric status from the current-metrics annotation, as v2; throws Decoded when Go would not decode it. */
export function metricStatusFromV1(raw: unknown): MetricStatus {
  const m = struct(raw, ['type', 'object', 'pods', 'resource', 'containerResource', 'external']);
  const out: MetricStatus = { type: readString(m.type) };
  const o = optStruct(m.object, ['target', 'metricName', 'currentValue', 'selector', 'averageValue']);
  if (o) {
    out.object = {
      metric: identifier(o.metricName, o.selector),
      current: defined({ value: readQuantity(o.currentValue) ?? zero, averageValue: readQuantity(o.averageValue) }),
      describedObject: referenceFromV1(o.target),
    };
  }
  const p = optStruct(m.pods, ['metricName', 'currentAverageValue', 'selector']);
  if (p) out.pods = { metric: identifier(p.metricName, p.selector), current: { averageValue: readQuantity(p.currentAverageValue) ?? zero } };
  const r = optStruct(m.resource, ['name', 'currentAverageUtilization', 'currentAverageValue']);
  if (r) out.resource = { name: readString(r.name), current: resourceCurrent(r.currentAverageUtilization, r.currentAverageValue) };
  const c = optStruct(m.containerResource, ['name', 'currentAverageUtilization', 'currentAverageValue', 'container']);
  if (c) out.containerResource = { name: readString(c.name), current: resourceCurrent(c.currentAverageUtilization, c.currentAverageValue), container: readString(c.container) };
  const e = optStruct(m.external, ['metricName', 'metricSelector', 'currentValue', 'currentAverageValue']);
  if (e) {
    out.external = {
      metric: identifier(e.metricName, e.metricSelector),
      current: defined({ value: readQuantity(e.currentValue) ?? zero, averageValue: readQuantity(e.currentAverageValue) }),
    };
  }
  return out;
}

function resourceCurrent(rawUtilization: unknown, rawValue: unknown): MetricValueStatus {
  return defined({ averageValue: readQuantity(rawValue) ?? zero, averageUtilization: readInt(rawUtilization) });
}

// --- shared pieces -------------------------------------------------------------------------

function reference(ref: CrossVersionObjectReference): CrossVersionObjectReference {
  return defined({ kind: ref.kind, name: ref.name, apiVersion: ref.apiVersion || undefined });
}

function referenceFromV1(raw: unknown): CrossVersionObjectReference {
  const r = struct(raw, ['kind', 'name', 'apiVersion']);
  return defined({ kind: readString(r.kind), name: readString(r.name), apiVersion: readString(r.apiVersion) || undefined });
}

function identifier(name: unknown, selector: unknown): MetricIdentifier {
  return defined({ name: readString(name), selector: labelSelector(selector) });
}

function labelSelector(raw: unknown): LabelSelector | undefined {
  const s = optStruct(raw, ['matchLabels', 'matchExpressions']);
  if (!s) return undefined;
  return defined({
    matchLabels: readStringMap(s.matchLabels),
    matchExpressions: readList(s.matchExpressions)?.map((item) => {
      const e = struct(item, ['key', 'operator', 'values']);
      return defined({ key: readString(e.key), operator: readString(e.operator), values: readList(e.values)?.map(readString) });
    }),
  });
}
