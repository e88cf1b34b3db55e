// A worker process of `--workers N`: a full API server whose health endpoints also answer for the
// other workers (from the table the supervisor sends), whose /metrics is the sum over all workers
// (gathered by the supervisor), and which reports its own health to the supervisor every second.
import { extname } from 'node:path';
import type { Logger } from '../../../pkg/log/logger.js';
import type { APIServerMetrics } from '../../../pkg/metrics/apiserver-metrics.js';
import type { HealthCheck } from '../../../pkg/server/healthz.js';
import type { HealthEndpoint, HealthSummary } from '../../../pkg/server/server.js';
import type { APIServerOptions } from './options.js';
import type { WorkerRole } from './server.js';
import { isOrchMessage, serverStartedEnv, workerCountEnv, workerIdEnv, type SupervisorMessage, type WorkerMessage, type WorkerStatus } from './workers-protocol.js';

/** How often a worker reports its own health; the supervisor calls a worker silent for 5 reports stale. */
export const healthReportMs = 1000;
/** How long a worker waits for the supervisor's sum of the metrics before serving its own. */
const metricsWaitMs = 10_000;

/** Sends a message to the supervisor; false when the channel is gone (the supervisor died). */
export function sendToSupervisor(m: WorkerMessage): boolean {
  if (!process.send || !process.connected) return false;
  try {
    return process.send(m);
  } catch {
    return false;
  }
}

/**
 * The options of one worker: the in-flight limits are the server's, shared out among the workers
 * (each enforces its part, so the server as a whole keeps the limit it was given), and the audit
 * log file carries the worker's number, as one file has one writer (`audit.log` -> `audit-worker-2.log`).
 */
export function workerOptions(opts: APIServerOptions, id: number, count: number): APIServerOptions {
  const share = (limit: number) => (limit === 0 ? 0 : Math.max(1, Math.ceil(limit / count)));
  const path = opts.audit.logPath;
  const ext = extname(path);
  const logPath = path === '' || path === '-' ? path : `${path.slice(0, path.length - ext.length)}-worker-${id}${ext}`;
  return {
    ...opts,
    maxRequestsInflight: share(opts.maxRequestsInflight),
    maxMutatingRequestsInflight: share(opts.maxMutatingRequestsInflight),
    audit: { ...opts.audit, logPath },
  };
}

export class WorkerLink implements WorkerRole {
  private table: Map<number, WorkerStatus> | undefined;
  private own: { health(): Promise<HealthSummary>; metrics: APIServerMetrics } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private nextRequest = 1;
  private readonly pending = new Map<number, (m: SupervisorMessage) => void>();

  constructor(readonly id: number, readonly count: number, readonly startedAt: Date, private readonly logger: Logger) {
    process.on('message', (m: unknown) => {
      if (isOrchMessage<SupervisorMessage>(m)) this.receive(m);
    });
  }

  private receive(m: SupervisorMessage): void {
    switch (m.kind) {
      case 'orch:workers':
        this.table = new Map(m.workers.map((w) => [w.id, w]));
        return;
      case 'orch:metrics-gather':
        void (this.own?.metrics.registry.getMetricsAsJSON() ?? Promise.resolve([])).then(
          (metrics) => sendToSupervisor({ kind: 'orch:metrics', id: m.id, metrics }),
          () => sendToSupervisor({ kind: 'orch:metrics', id: m.id, metrics: [] }),
        );
        return;
      case 'orch:metrics-response':
        this.pending.get(m.id)?.(m);
        this.pending.delete(m.id);
        return;
    }
  }

  /** One check per worker: named worker-<id>, failing while that worker fails the endpoint. */
  peerHealthChecks(endpoint: HealthEndpoint): HealthCheck[] {
    const checks: HealthCheck[] = [];
    for (let id = 1; id <= this.count; id++) {
      checks.push({
        name: `worker-${id}`,
        check: async () => {
          // This worker's own checks are listed beside these.
          if (id === this.id) return undefined;
          if (!this.table) return 'no word from the supervisor yet';
          const w = this.table.get(id);
          return w ? w.health[endpoint] : 'unknown worker';
        },
      });
    }
    return checks;
  }

  /** The metrics of every worker, summed by the supervisor; this worker's own when it cannot answer. */
  async renderMetrics(): Promise<{ body: string; contentType: string }> {
    const id = this.nextRequest++;
    const answer = new Promise<SupervisorMessage | undefined>((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve(undefined);
      }, metricsWaitMs);
      this.pending.set(id, (m) => {
        clearTimeout(timer);
        resolve(m);
      });
    });
    const m = sendToSupervisor({ kind: 'orch:metrics-request', id }) ? await answer : undefined;
    this.pending.delete(id);
    if (m?.kind === 'orch:metrics-response' && 'body' in m) return { body: m.body, contentType: m.contentType };
    this.logger.warn('the supervisor did not sum the workers\' metrics; serving this worker\'s own', { err: m && 'error' in m ? m.error : 'no answer' });
    return this.own ? this.own.metrics.render() : { body: '', contentType: 'text/plain; version=0.0.4; charset=utf-8' };
  }

  serving(own: { health(): Promise<HealthSummary>; metrics: APIServerMetrics }): void {
    this.own = own;
    const report = () => void own.health().then((health) => sendToSupervisor({ kind: 'orch:health', health }), () => undefined);
    report();
    this.timer = setInterval(report, healthReportMs);
    this.timer.unref();
  }

  /** Reports at once (the post-start hooks just finished), not at the next tick. */
  reportNow(): void {
    void this.own?.health().then((health) => sendToSupervisor({ kind: 'orch:health', health }), () => undefined);
  }
}

/** The body of a worker process: the API server as one process runs it, linked to its supervisor. */
export async function runWorker(): Promise<void> {
  const id = Number(process.env[workerIdEnv]);
  const count = Number(process.env[workerCountEnv]);
  const { exitOnInvalid, runProcess } = await import('../../internal/run-process.js');
  const { loadServerCode, parseOptions, validateOptions } = await import('./options.js');
  // The supervisor checked the flags but for what needs every kind loaded. A refusal goes to it,
  // which prints it once (every worker refuses alike) and stops the workers; this one waits for
  // that rather than exiting, so the supervisor hears why before it sees the worker end.
  const opts = parseOptions(process.argv.slice(2));
  const errors = validateOptions(opts, await loadServerCode());
  if (errors.length > 0) {
    if (!sendToSupervisor({ kind: 'orch:invalid', errors })) exitOnInvalid('apiserver', errors);
    process.once('disconnect', () => process.exit(1));
    return;
  }
  const { runAPIServer } = await import('./server.js');
  let link: WorkerLink | undefined;
  let started = false;
  let shutdown: (() => void) | undefined;
  // A supervisor that died (kill -9) leaves its workers without a channel: they stop too, gracefully
  // once serving, at once while still starting.
  process.on('disconnect', () => {
    if (shutdown) shutdown();
    else if (!started) process.exit(1);
  });
  const { logger, stopping } = await runProcess({
    name: 'apiserver',
    what: 'API server worker',
    parse: () => opts,
    // Checked above.
    validate: () => [],
    start: async (opts, log) => {
      link = new WorkerLink(id, count, new Date(Number(process.env[serverStartedEnv]) || Date.now()), log);
      try {
        const running = await runAPIServer(workerOptions(opts, id, count), log, link);
        link.reportNow();
        sendToSupervisor({ kind: 'orch:started' });
        return running;
      } catch (e) {
        sendToSupervisor({ kind: 'orch:failed', reason: e instanceof Error ? e.message : String(e) });
        throw e;
      }
    },
    stop: (server) => server.stop(),
    logFields: { worker: id },
  });
  started = true;
  shutdown = () => {
    if (stopping()) return;
    logger.error('the supervisor is gone; shutting down');
    process.kill(process.pid, 'SIGTERM');
  };
  if (!process.connected) shutdown();
}
