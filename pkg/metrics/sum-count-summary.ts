// A Prometheus summary without quantiles: per label set only `<name>_sum` and `<name>_count`.
// That is what upstream's summaries without Objectives expose (client_golang has had no default
// objectives since v1.0; apiserver_admission_step_admission_duration_seconds_summary sets none),
// and it costs two additions per observation, where prom-client's Summary feeds a t-digest per
// observation (the largest single cost of admission on the request path).
import type { Registry } from 'prom-client';

interface Cell<L extends string> {
  labels: Record<L, string>;
  sum: number;
  count: number;
}

/** One label set's observer, found once and kept by the caller. */
export interface SummaryCell {
  observe(value: number): void;
}

export class SumCountSummary<L extends string> {
  readonly type = 'summary';
  /** How --workers aggregation adds the figures of several processes. */
  readonly aggregator = 'sum';
  private readonly cells = new Map<string, Cell<L>>();

  constructor(readonly name: string, readonly help: string, private readonly labelNames: readonly L[], registers: Registry[]) {
    for (const r of registers) r.registerMetric(this as never);
  }

  /** The cell of `labels` (values in the order of labelNames, the exposition's label order). */
  labels(...values: string[]): SummaryCell {
    const key = values.join('\0');
    let cell = this.cells.get(key);
    if (!cell) {
      const labels = {} as Record<L, string>;
      this.labelNames.forEach((n, i) => (labels[n] = values[i] ?? ''));
      this.cells.set(key, (cell = { labels, sum: 0, count: 0 }));
    }
    const c = cell;
    return {
      observe(value: number) {
        if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${value}`);
        c.sum += value;
        c.count += 1;
      },
    };
  }

  /** prom-client's metric shape, read by the registry at each scrape. */
  get(): { name: string; help: string; type: string; aggregator: string; values: { metricName: string; labels: Record<string, string>; value: number }[] } {
    const values = [];
    for (const c of this.cells.values()) {
      values.push({ metricName: `${this.name}_sum`, labels: c.labels, value: c.sum });
      values.push({ metricName: `${this.name}_count`, labels: c.labels, value: c.count });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    for (const c of this.cells.values()) {
      c.sum = 0;
      c.count = 0;
    }
  }
}
