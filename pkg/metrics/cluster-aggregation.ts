// The metrics of a server run as several worker processes, added up into one exposition: what
// /metrics answers whichever worker serves it. Each metric is combined as prom-client's cluster
// mode combines it (its `aggregator`: counters, histograms and most gauges summed; version info
// first; start time omitted; event-loop lag averaged), except summaries, whose quantiles cannot be
// summed: their quantiles are averaged over the workers, their _sum and _count summed.
import { AggregatorRegistry, type Metric, type MetricObjectWithValues, type MetricValue } from 'prom-client';

type MetricJSON = MetricObjectWithValues<MetricValue<string> & { metricName?: string }>;

/** One summary across workers: quantile samples averaged, _sum and _count added. */
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

/** Adds up the metrics of every worker (each as `registry.getMetricsAsJSON()` returned them). */
export async function aggregateWorkerMetrics(perWorker: readonly unknown[][]): Promise<{ body: string; contentType: string }> {
  const summaries = new Map<string, MetricJSON[]>();
  const rest: MetricJSON[][] = [];
  for (const metrics of perWorker as MetricJSON[][]) {
    const others: MetricJSON[] = [];
    for (const m of metrics) {
      // The typings say an enum; at run time the type is the exposition's word.
      if ((m.type as unknown as string) === 'summary') summaries.set(m.name, [...(summaries.get(m.name) ?? []), m]);
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
