// Admission's metrics, named, labelled and bucketed as upstream's (k8s.io/apiserver admission
// metrics): latency per phase (step), per plug-in (controller) and per webhook call, the webhook
// request and rejection counters, and failures let through by failurePolicy Ignore.
import { Counter, Histogram, type Registry } from 'prom-client';
import { HistogramCells, histogramCell, type HistogramCell } from './histogram-cell.js';
import { SumCountSummary, type SummaryCell } from './sum-count-summary.js';

type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

const operationIndex: Record<Operation, number> = { CREATE: 0, UPDATE: 1, DELETE: 2, CONNECT: 3 };

/**
 * The slot of a (type, operation, rejected) label set among 16: found by arithmetic, where a string
 * key built per observation cost more than the observation (each write observes every plug-in).
 */
const slot = (type: 'admit' | 'validate', operation: Operation, rejected: boolean) =>
  (type === 'admit' ? 0 : 8) + operationIndex[operation] * 2 + (rejected ? 1 : 0);

/** Upstream bounds the code labels' cardinality: anything above 600 counts as 600. */
const boundedCode = (code: number) => String(Math.min(code, 600));

export class AdmissionMetrics {
  private readonly steps: Histogram<'type' | 'operation' | 'rejected'>;
  private readonly stepSummary: SumCountSummary<'type' | 'operation' | 'rejected'>;
  private readonly controllers: Histogram<'name' | 'type' | 'operation' | 'rejected'>;
  private readonly webhooks: Histogram<'name' | 'type' | 'operation' | 'rejected'>;
  private readonly rejections: Counter<'name' | 'type' | 'operation' | 'error_type' | 'rejection_code'>;
  private readonly failOpen: Counter<'name' | 'type'>;
  private readonly requests: Counter<'name' | 'type' | 'operation' | 'code' | 'rejected'>;
  /**
   * The observers of each label set met so far, by slot (and plug-in name): every write goes
   * through two steps and each plug-in, so prom-client's per-observation label hashing is skipped.
   */
  private readonly stepCells: ({ histogram: HistogramCell; summary: SummaryCell } | undefined)[] = [];
  private readonly controllerCells = new Map<string, (HistogramCell | undefined)[]>();
  private readonly webhookCells: HistogramCells<'name' | 'type' | 'operation' | 'rejected'>;

  constructor(registry: Registry) {
    const registers = [registry];
    this.steps = new Histogram({
      name: 'apiserver_admission_step_admission_duration_seconds',
      help: 'Admission sub-step latency histogram in seconds, broken out for each operation and API resource and step type (validate or admit).',
      labelNames: ['type', 'operation', 'rejected'],
      buckets: [0.005, 0.025, 0.1, 0.5, 1.0, 2.5],
      registers,
    });
    // Upstream's summary sets a 5 h MaxAge but no Objectives, so it exposes _sum and _count only.
    this.stepSummary = new SumCountSummary(
      'apiserver_admission_step_admission_duration_seconds_summary',
      'Admission sub-step latency summary in seconds, broken out for each operation and API resource and step type (validate or admit).',
      ['type', 'operation', 'rejected'],
      registers,
    );
    this.controllers = new Histogram({
      name: 'apiserver_admission_controller_admission_duration_seconds',
      help: 'Admission controller latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
      labelNames: ['name', 'type', 'operation', 'rejected'],
      buckets: [0.005, 0.025, 0.1, 0.5, 1.0, 2.5],
      registers,
    });
    this.webhooks = new Histogram({
      name: 'apiserver_admission_webhook_admission_duration_seconds',
      help: 'Admission webhook latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
      labelNames: ['name', 'type', 'operation', 'rejected'],
      buckets: [0.005, 0.025, 0.1, 0.5, 1.0, 2.5, 10, 25],
      registers,
    });
    this.webhookCells = new HistogramCells(this.webhooks);
    this.rejections = new Counter({
      name: 'apiserver_admission_webhook_rejection_count',
      help: 'Admission webhook rejection count, identified by name and broken out for each admission type (validating or admit) and operation. Additional labels specify an error type (calling_webhook_error or apiserver_internal_error if an error occurred; no_error otherwise) and optionally a non-zero rejection code if the webhook rejects the request with an HTTP status code (honored by the apiserver when the code is greater or equal to 400). Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
      labelNames: ['name', 'type', 'operation', 'error_type', 'rejection_code'],
      registers,
    });
    this.failOpen = new Counter({
      name: 'apiserver_admission_webhook_fail_open_count',
      help: 'Admission webhook fail open count, identified by name and broken out for each admission type (validating or mutating).',
      labelNames: ['name', 'type'],
      registers,
    });
    this.requests = new Counter({
      name: 'apiserver_admission_webhook_request_total',
      help: 'Admission webhook request total, identified by name and broken out for each admission type (validating or mutating) and operation. Additional labels specify whether the request was rejected or not and an HTTP status code. Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
      labelNames: ['name', 'type', 'operation', 'code', 'rejected'],
      registers,
    });
  }

  step(type: 'admit' | 'validate', operation: Operation, rejected: boolean, seconds: number): void {
    const i = slot(type, operation, rejected);
    let cell = this.stepCells[i];
    if (!cell) {
      const labels = { type, operation, rejected: String(rejected) };
      this.stepCells[i] = cell = { histogram: histogramCell(this.steps, labels), summary: this.stepSummary.labels(type, operation, String(rejected)) };
    }
    cell.histogram.observe(seconds);
    cell.summary.observe(seconds);
  }

  controller(name: string, type: 'admit' | 'validate', operation: Operation, rejected: boolean, seconds: number): void {
    let cells = this.controllerCells.get(name);
    if (!cells) this.controllerCells.set(name, (cells = []));
    const i = slot(type, operation, rejected);
    (cells[i] ??= histogramCell(this.controllers, { name, type, operation, rejected: String(rejected) })).observe(seconds);
  }

  webhook(name: string, type: 'admit' | 'validating', operation: Operation, rejected: boolean, code: number, seconds: number): void {
    this.requests.inc({ name, type, operation, code: boundedCode(code), rejected: String(rejected) });
    this.webhookCells.get(`${name}\0${type}\0${operation}\0${rejected}`, () => ({ name, type, operation, rejected: String(rejected) })).observe(seconds);
  }

  webhookRejection(name: string, type: 'admit' | 'validating', operation: Operation, errorType: string, code: number): void {
    this.rejections.inc({ name, type, operation, error_type: errorType, rejection_code: boundedCode(code) });
  }

  webhookFailOpen(name: string, type: 'admit' | 'validating'): void {
    this.failOpen.inc({ name, type });
  }
}
