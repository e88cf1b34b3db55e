// Where the autoscaler reads metrics: the resource metrics API (metrics.<domain>/v1beta1 PodMetrics,
// as metrics-server serves it) for Resource and ContainerResource metrics, and the custom and
// external metrics APIs for the others. None can be served until API aggregation exists; each read
// then fails with the error upstream's clients give, which the controller turns into its conditions
// and events. Parsing an answer is pure (podMetricsFrom), so it is unit-tested.
import { isNotFound, isStatusError, type Client } from '../../client/index.js';
import { parseExact, quantityMilliValue } from '../../runtime/quantity-exact.js';
import { parseDuration } from '../../util/duration.js';
import type { PodMetric, PodMetrics } from './replica-calculator.js';

interface ContainerMetrics {
  name?: string;
  usage?: Record<string, string | number>;
}

interface PodMetricsItem {
  metadata?: { name?: string; namespace?: string };
  timestamp?: string;
  window?: string;
  containers?: ContainerMetrics[];
}

const milli = (q: string | number | undefined) => {
  const parsed = q === undefined ? undefined : parseExact(q);
  return parsed ? Number(quantityMilliValue(parsed)) : undefined;
};

/**
 * The samples of a PodMetricsList (upstream's getPodMetrics, or getContainerMetrics for one
 * container): a pod missing the resource in any container has no sample; a pod without the
 * container is an error.
 */
export function podMetricsFrom(items: readonly PodMetricsItem[], resource: string, container: string): PodMetrics {
  const out: PodMetrics = new Map();
  for (const m of items) {
    const name = m.metadata?.name ?? '';
    const sample = (value: number): PodMetric => ({ timestampMs: Date.parse(m.timestamp ?? '') || 0, windowMs: m.window ? parseDuration(m.window) : 0, value });
    const containers = m.containers ?? [];
    if (container) {
      const c = containers.find((x) => x.name === container);
      if (!c) throw new Error(`container ${container} not present in metrics for pod ${m.metadata?.namespace ?? ''}/${name}`);
      const v = milli(c.usage?.[resource]);
      if (v !== undefined) out.set(name, sample(v));
      continue;
    }
    if (containers.length === 0) continue;
    let sum = 0;
    let missing = false;
    for (const c of containers) {
      const v = milli(c.usage?.[resource]);
      if (v === undefined) {
        missing = true;
        break;
      }
      sum += v;
    }
    if (!missing) out.set(name, sample(sum));
  }
  return out;
}

/** What client-go says of a request the server has no resource for (NewGenericServerResponse). */
const notServed = (resource: string) => `the server could not find the requested resource (get ${resource})`;

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The part of the client the metrics clients use: raw reads and the list of served groups. */
export type MetricsTransport = Pick<Client, 'request'> & { discovery: Pick<Client['discovery'], 'serverGroups'> };

export class MetricsClient {
  constructor(private readonly client: MetricsTransport, private readonly domain: { group(prefix: string): string }) {}

  /** Upstream's GetResourceMetric: each selected pod's use of the resource, and when it was sampled. */
  async resourceMetric(namespace: string, selector: string, resource: string, container: string): Promise<{ metrics: PodMetrics; timestampMs: number }> {
    const group = this.domain.group('metrics');
    let items: PodMetricsItem[];
    try {
      const list = await this.client.request('GET', `/apis/${group}/v1beta1/namespaces/${encodeURIComponent(namespace)}/pods?labelSelector=${encodeURIComponent(selector)}`);
      items = Array.isArray(list.items) ? (list.items as PodMetricsItem[]) : [];
    } catch (e) {
      const why = isStatusError(e) && isNotFound(e) ? notServed(`pods.${group}`) : messageOf(e);
      throw new Error(`unable to fetch metrics from resource metrics API: ${why}`);
    }
    if (items.length === 0) throw new Error('no metrics returned from resource metrics API');
    let metrics: PodMetrics;
    try {
      metrics = podMetricsFrom(items, resource, container);
    } catch (e) {
      throw new Error(`failed to get container metrics: ${messageOf(e)}`);
    }
    return { metrics, timestampMs: Date.parse(items[0]!.timestamp ?? '') || 0 };
  }

  /**
   * The custom metrics API (Pods and Object metrics): upstream's client first looks the group up in
   * discovery and fails without it. Reading a registered one is not implemented: none can be
   * registered before API aggregation exists.
   */
  async customMetricsUnavailable(): Promise<string> {
    const group = this.domain.group('custom.metrics');
    const groups = await this.client.discovery.serverGroups();
    if (!groups.some((g) => g.name === group)) return `unable to fetch metrics from custom metrics API: no custom metrics API (${group}) registered`;
    return `unable to fetch metrics from custom metrics API: reading ${group} is not supported by this controller`;
  }

  /** The external metrics API (External metrics): upstream's client asks for the metric by name. */
  async externalMetricsUnavailable(namespace: string, metric: string): Promise<string> {
    const group = this.domain.group('external.metrics');
    try {
      await this.client.request('GET', `/apis/${group}/v1beta1/namespaces/${encodeURIComponent(namespace)}/${encodeURIComponent(metric)}`);
    } catch (e) {
      const why = isStatusError(e) && isNotFound(e) ? notServed(`${metric}.${group}`) : messageOf(e);
      return `unable to fetch metrics from external metrics API: ${why}`;
    }
    return `unable to fetch metrics from external metrics API: reading ${group} is not supported by this controller`;
  }
}
