// The metrics of a server run as several threads, added up into one exposition: what /metrics
// answers whichever thread serves it. Each metric is combined as prom-client's cluster mode
// combines it (its `aggregator`: counters, histograms and most gauges summed; version info first;
// event-loop lag averaged), except two kinds. The process_* metrics are the one process's, which
// every thread reads alike: the largest reading is the latest (the start time, one value, kept).
// Summaries' quantiles cannot be summed: they are averaged over the threads, _sum and _count summed.
import { AggregatorRegistry, type Metric, type MetricObjectWithValues, type MetricValue } from 'prom-client';

type MetricJSON = MetricObjectWithValues<MetricValue<string> & { metricName?: string }>;

/** One summary across threads: quantile samples averaged, _sum and _count added. */
function combineSummary(parts: MetricJSON[]): MetricJSON {
  const groups = new Map<string, { sample: MetricValue<string> & { metricName?: string }; values: number[] }>();
  for (const part of parts) {
    for (const v of part.values) {
      const key = `${v.metricName ?? ''}\0${JSON.stringify(Object.entries(v.labels).sort(([a], [b]) => (a < b ? -1 : 1)))}`;
      const g = groups.get(key);
      if (g) g.values.push(v.value);
      else groups.set(key, { sample: v, values: [v.value] });
    }
  }
  const values = [...groups.values()].map(({ sample, values: vs }) => {
    const total = vs.reduce((a, b) => a + b, 0);
    const quantile = 'quantile' in sample.labels;
    return { ...sample, value: quantile ? total / vs.length : total };
  });
  return { ...parts[0]!, values };
}

/** How a process-wide metric is combined: each thread read the same process. */
function processAggregator(name: string): string {
  return name === 'process_start_time_seconds' ? 'min' : 'max';
}

/** Adds up the metrics of every thread (each as `registry.getMetricsAsJSON()` returned them). */
export async function aggregateThreadMetrics(perThread: readonly unknown[][]): Promise<{ body: string; contentType: string }> {
  const summaries = new Map<string, MetricJSON[]>();
  const rest: MetricJSON[][] = [];
  for (const metrics of perThread as MetricJSON[][]) {
    const others: MetricJSON[] = [];
    for (const m of metrics) {
      // The typings say an enum; at run time the type is the exposition's word.
      if ((m.type as unknown as string) === 'summary') summaries.set(m.name, [...(summaries.get(m.name) ?? []), m]);
      else if (m.name.startsWith('process_')) others.push({ ...m, aggregator: processAggregator(m.name) } as MetricJSON);
      else others.push(m);
    }
    rest.push(others);
  }
  const registry = AggregatorRegistry.aggregate(rest);
  for (const parts of summaries.values()) {
    const combined = combineSummary(parts);
    // The same shape AggregatorRegistry.aggregate registers: the metric's fields plus its getter.
    registry.registerMetric({ ...combined, get: () => combined } as unknown as Metric<string>);
  }
  return { body: await registry.metrics(), contentType: registry.contentType };
}
