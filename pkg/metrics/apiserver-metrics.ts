// The API server's Prometheus metrics, named and labelled as upstream's so existing dashboards
// and alerts work. One registry per server instance (tests run several in one process).
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { AdmissionMetrics } from './admission-metrics.js';
import { CounterCells } from './counter-cell.js';
import { HistogramCells } from './histogram-cell.js';

export interface RequestLabels {
  verb: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  /** resource (one object), namespace (a collection in a namespace), cluster, or '' outside the API. */
  scope: string;
}

const requestLabelNames = ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component'] as const;

/** Counts objects per resource when scraped. */
export type ObjectCounter = () => Promise<Map<string, number>>;

export class APIServerMetrics {
  readonly registry = new Registry();
  /** Admission's latencies and webhook outcomes, in the same registry. */
  readonly admission = new AdmissionMetrics(this.registry);
  private readonly requests: Counter<(typeof requestLabelNames)[number] | 'code'>;
  private readonly durations: Histogram<(typeof requestLabelNames)[number]>;
  private readonly inflight: Gauge<'request_kind'>;
  private readonly longrunning: Gauge<Exclude<(typeof requestLabelNames)[number], 'dry_run'>>;
  private readonly watchEventCells = new Map<string, { labels: { group: string; version: string; kind: string }; count: number }>();
  private readonly etcdDurations: Histogram<'operation' | 'type'>;
  /** Observers of the two histograms per label set, found by a string key (see histogram-cell.ts). */
  private readonly durationCells: HistogramCells<(typeof requestLabelNames)[number]>;
  private readonly etcdCells: HistogramCells<'operation' | 'type'>;
  private readonly requestCells: CounterCells<(typeof requestLabelNames)[number] | 'code'>;

  private countObjects: ObjectCounter | undefined;

  constructor() {
    const registers = [this.registry];
    const self = this;
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'apiserver_request_total',
      help: 'Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
      labelNames: [...requestLabelNames, 'code'], registers,
    });
    this.durations = new Histogram({
      name: 'apiserver_request_duration_seconds',
      help: 'Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
      labelNames: requestLabelNames,
      buckets: [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60],
      registers,
    });
    this.inflight = new Gauge({
      name: 'apiserver_current_inflight_requests',
      help: 'Maximal number of currently used inflight request limit of this apiserver per request kind in last second.',
      labelNames: ['request_kind'], registers,
    });
    this.longrunning = new Gauge({
      name: 'apiserver_longrunning_requests',
      help: 'Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component.',
      labelNames: ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'], registers,
    });
    new Counter({
      name: 'apiserver_watch_events_total',
      help: 'Number of events sent in watch clients',
      labelNames: ['group', 'version', 'kind'], registers,
      // Events are tallied in plain numbers (one event to a thousand watchers is a thousand sends) and added at each scrape.
      collect() {
        for (const cell of self.watchEventCells.values()) {
          if (cell.count === 0) continue;
          this.inc(cell.labels, cell.count);
          cell.count = 0;
        }
      },
    });
    this.etcdDurations = new Histogram({
      name: 'etcd_request_duration_seconds',
      help: 'Etcd request latency in seconds for each operation and object type.',
      labelNames: ['operation', 'type'],
      buckets: [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60],
      registers,
    });
    this.durationCells = new HistogramCells(this.durations);
    this.requestCells = new CounterCells(this.requests);
    this.etcdCells = new HistogramCells(this.etcdDurations);
    new Gauge({
      name: 'apiserver_storage_objects',
      help: 'Number of stored objects at the time of last check split by kind.',
      labelNames: ['resource'], registers,
      // Every worker thread counts the same etcd: across threads the largest count, not the sum.
      aggregator: 'max',
      async collect() {
        const counts = await self.countObjects?.().catch(() => undefined);
        this.reset();
        for (const [resource, n] of counts ?? []) this.set({ resource }, n);
      },
    });
  }

  /** Sets how apiserver_storage_objects is counted (at each scrape). */
  countObjectsWith(counter: ObjectCounter): void {
    this.countObjects = counter;
  }

  /** Records a finished request. */
  request(l: RequestLabels, dryRun: boolean, code: number, seconds: number): void {
    const dry = dryRun ? 'All' : '';
    const key = `${l.verb}\0${dry}\0${l.group}\0${l.version}\0${l.resource}\0${l.subresource}\0${l.scope}`;
    // The label objects (and so the exposition's label order) are the ones prom-client was given before.
    const labels = () => ({ ...l, dry_run: dry, component: 'apiserver' });
    this.requestCells.get(`${key}\0${code}`, () => ({ ...labels(), code: String(code) })).inc();
    this.durationCells.get(key, labels).observe(seconds);
  }

  setInflight(kind: 'readOnly' | 'mutating', n: number): void {
    this.inflight.set({ request_kind: kind }, n);
  }

  /** Marks a long-running request (a watch) open; returns the function that marks it closed. */
  longRunning(l: RequestLabels): () => void {
    const labels = { ...l, component: 'apiserver' };
    this.longrunning.inc(labels);
    let done = false;
    return () => {
      if (!done) this.longrunning.dec(labels);
      done = true;
    };
  }

  /** The tally of events sent to watchers of one kind (apiserver_watch_events_total): add 1 per event sent. */
  watchEventTally(group: string, version: string, kind: string): { count: number } {
    const key = `${group}/${version}/${kind}`;
    let cell = this.watchEventCells.get(key);
    if (!cell) this.watchEventCells.set(key, (cell = { labels: { group, version, kind }, count: 0 }));
    return cell;
  }

  etcdRequest(operation: string, type: string, seconds: number): void {
    this.etcdCells.get(`${operation}\0${type}`, () => ({ operation, type })).observe(seconds);
  }

  /** The text exposition of every metric. */
  async render(): Promise<{ body: string; contentType: string }> {
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
