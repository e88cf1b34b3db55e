// The supervisor of `--workers N`: forks N worker processes (node:cluster) that share the secure
// port, each a full API server on the same etcd, and keeps them one unit. It validates flags and
// makes the self-signed serving certificate once, before forking; exits 1 with the reason when the
// workers cannot start (bad flags, etcd down at start) rather than restarting them in a loop;
// restarts a worker that dies later, with backoff; forwards SIGTERM/SIGINT and exits when every
// worker has drained; keeps the table of every worker's health that each worker answers
// /livez, /readyz and /healthz from; and sums the workers' metrics for whichever worker is asked.
//
// It stays small: it loads the flags, the certificate and this file, never the API (every kind's
// schema, handlers, storage), which is what a worker is for. The one check of the flags that needs
// the kinds, the keys of --runtime-config, is made by the workers; the supervisor prints their
// refusal as it prints its own (main.ts) and exits 1, so bad flags read the same either way.
import cluster, { type Worker } from 'node:cluster';
import { invalidFlagsText } from '../../internal/run-process.js';
import { Logger } from '../../../pkg/log/logger.js';
import type { HealthSummary } from '../../../pkg/server/server.js';
import type { APIServerOptions } from './options.js';
import { servingCertificate } from './serving.js';
import { isOrchMessage, serverStartedEnv, workerCountEnv, workerIdEnv, type SupervisorMessage, type WorkerMessage, type WorkerStatus } from './workers-protocol.js';

/** A worker silent this long (its event loop stuck) counts as failing every health endpoint. */
const staleMs = 5_000;
const firstBackoffMs = 1_000;
const maxBackoffMs = 30_000;
/** A worker that served this long before it died is restarted after the first backoff again. */
const stableMs = 60_000;
/** How long the supervisor waits for the workers' metrics before summing those that answered. */
const gatherMs = 5_000;
/** How long the workers get to drain beyond the shutdown delay before they are killed. */
const drainGraceMs = 75_000;

interface Slot {
  id: number;
  worker: Worker | undefined;
  /** Why the slot has no running worker (shown by the health checks). */
  downReason: string | undefined;
  /** The last report of the worker's own checks, and when it came. */
  health: HealthSummary | undefined;
  reportedAt: number;
  /** When the current worker finished starting; undefined while it starts. */
  startedAt: number | undefined;
  /** Why the current worker could not start, as it said before exiting. */
  failure: string | undefined;
  backoffMs: number;
  restart: NodeJS.Timeout | undefined;
}

const reasonOf = (code: number | null, signal: string | null) => (signal ? `killed by ${signal}` : `exit code ${code}`);

/** Runs the supervisor until its workers have stopped; the process exits from here. */
export function runSupervisor(opts: APIServerOptions): void {
  const count = opts.workers;
  const startedAt = String(Date.now());
  const logger = new Logger(opts.verbosity, undefined, { worker: 'supervisor' });
  process.on('uncaughtException', (err) => logger.error('uncaught exception', { err: err.stack ?? err.message }));
  process.on('unhandledRejection', (err) => logger.error('unhandled rejection', { err: err instanceof Error ? err.stack ?? err.message : String(err) }));
  try {
    // Once, here: every worker reads this pair and serves the same certificate.
    servingCertificate(opts, logger);
  } catch (e) {
    logger.error('the API server could not start', { err: e instanceof Error ? e.message : String(e) });
    process.exit(1);
  }
  const policy = cluster.schedulingPolicy === cluster.SCHED_RR ? 'round-robin in the supervisor' : 'the operating system';
  logger.info('starting the API server workers', { workers: count, connectionsSharedBy: policy });

  let phase: 'starting' | 'running' | 'failing' | 'stopping' = 'starting';
  let exitCode = 0;
  let address = '';
  const slots: Slot[] = Array.from({ length: count }, (_, i) => ({
    id: i + 1, worker: undefined, downReason: 'starting', health: undefined, reportedAt: 0, startedAt: undefined, failure: undefined, backoffMs: firstBackoffMs, restart: undefined,
  }));
  const slotOf = (w: Worker) => slots.find((s) => s.worker === w);
  const send = (w: Worker, m: SupervisorMessage) => {
    if (w.isConnected()) w.send(m, undefined, () => undefined);
  };

  // The health table: published to every worker whenever what it says changes.
  let published = '';
  const statusOf = (s: Slot, now: number): WorkerStatus => {
    const all = (why: string) => ({ id: s.id, health: { livez: why, readyz: why, healthz: why } });
    if (!s.worker) return all(s.downReason ?? 'not running');
    if (!s.health) return all('starting');
    if (now - s.reportedAt > staleMs) return all(`no health report for ${Math.round((now - s.reportedAt) / 1000)}s`);
    const failed = (names: string | undefined) => (names === undefined ? undefined : `failed: ${names}`);
    return { id: s.id, health: { livez: failed(s.health.livez), readyz: failed(s.health.readyz), healthz: failed(s.health.healthz) } };
  };
  const publish = (to?: Worker) => {
    const now = Date.now();
    const workers = slots.map((s) => statusOf(s, now));
    const text = JSON.stringify(workers);
    if (to) send(to, { kind: 'orch:workers', workers });
    if (text === published) return;
    published = text;
    for (const s of slots) if (s.worker) send(s.worker, { kind: 'orch:workers', workers });
  };
  const staleness = setInterval(() => publish(), 1000);

  // Metrics: each gather asks every running worker for its own and sums what comes back in time.
  let nextGather = 1;
  const gathers = new Map<number, { results: unknown[][]; left: number; done: () => void }>();
  const gather = async (): Promise<{ body: string; contentType: string }> => {
    const id = nextGather++;
    const running = slots.flatMap((s) => (s.worker?.isConnected() ? [s.worker] : []));
    const results: unknown[][] = [];
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        logger.warn('not every worker sent its metrics in time; summing those that did', { asked: running.length, answered: results.length });
        resolve();
      }, gatherMs);
      gathers.set(id, { results, left: running.length, done: () => { clearTimeout(timer); resolve(); } });
      if (running.length === 0) gathers.get(id)!.done();
      for (const w of running) send(w, { kind: 'orch:metrics-gather', id });
    });
    gathers.delete(id);
    // prom-client is loaded on the first scrape: a supervisor nobody scrapes never pays for it.
    const { aggregateWorkerMetrics } = await import('../../../pkg/metrics/cluster-aggregation.js');
    return aggregateWorkerMetrics(results);
  };

  const fork = (s: Slot) => {
    s.restart = undefined;
    s.health = undefined;
    s.startedAt = undefined;
    s.failure = undefined;
    // Measured and left out: V8's young generation limit (--max-semi-space-size 2, 4 or 8 MiB for
    // the workers, against V8's default 16) saved 25-35 MiB of the server at idle and at peak, but
    // cost about a quarter of single-client updates/s in the bench (BENCH_ONLY=crud, 2-3 alternated
    // runs each), so workers get the supervisor's node flags unchanged; an operator may still set
    // it in NODE_OPTIONS, which workers inherit.
    s.worker = cluster.fork({ [workerIdEnv]: String(s.id), [workerCountEnv]: String(count), [serverStartedEnv]: startedAt });
    publish();
  };

  const stopAll = (signal: NodeJS.Signals) => {
    for (const s of slots) {
      clearTimeout(s.restart);
      s.restart = undefined;
      if (s.worker && !s.worker.isDead()) s.worker.process.kill(signal);
    }
    // Workers that outlast their drain are killed; the server then did not stop cleanly.
    setTimeout(() => {
      for (const s of slots) {
        if (s.worker && !s.worker.isDead()) {
          logger.error('a worker did not stop in time; killing it', { slot: s.id });
          exitCode = 1;
          s.worker.process.kill('SIGKILL');
        }
      }
    }, opts.shutdownDelayMs + drainGraceMs).unref();
    finishIfAllGone();
  };
  const finishIfAllGone = () => {
    if (slots.some((s) => s.worker)) return;
    clearInterval(staleness);
    if (phase === 'stopping') logger.info('the API server stopped', { exitCode });
    process.exit(exitCode);
  };

  cluster.on('listening', (_w, addr) => {
    address ||= `${opts.bindAddress}:${addr.port}`;
  });
  cluster.on('online', (w) => publish(w));
  cluster.on('message', (w: Worker, m: unknown) => {
    if (!isOrchMessage<WorkerMessage>(m)) return;
    const s = slotOf(w);
    switch (m.kind) {
      case 'orch:health':
        if (!s) return;
        s.health = m.health;
        s.reportedAt = Date.now();
        publish();
        return;
      case 'orch:failed':
        if (s) s.failure = m.reason;
        return;
      case 'orch:invalid':
        // Refused flags, said once as a single server says them: no log line, no restart.
        if (phase !== 'starting') return;
        phase = 'failing';
        exitCode = 1;
        process.stderr.write(invalidFlagsText('apiserver', m.errors));
        stopAll('SIGTERM');
        return;
      case 'orch:started':
        if (!s) return;
        s.startedAt = Date.now();
        if (phase === 'starting' && slots.every((x) => x.startedAt !== undefined)) {
          phase = 'running';
          logger.info('the API server is ready', { address, workers: count });
        } else if (phase === 'running') {
          logger.info('the restarted worker is serving', { slot: s.id });
        }
        return;
      case 'orch:metrics-request':
        void gather().then(
          ({ body, contentType }) => send(w, { kind: 'orch:metrics-response', id: m.id, body, contentType }),
          (e: unknown) => send(w, { kind: 'orch:metrics-response', id: m.id, error: e instanceof Error ? e.message : String(e) }),
        );
        return;
      case 'orch:metrics': {
        const g = gathers.get(m.id);
        if (!g) return;
        g.results.push(m.metrics);
        if (--g.left === 0) g.done();
        return;
      }
    }
  });
  cluster.on('exit', (w, code, signal) => {
    const s = slotOf(w);
    if (!s) return;
    s.worker = undefined;
    const how = reasonOf(code, signal);
    switch (phase) {
      case 'stopping':
        if (code !== 0) {
          logger.error('a worker did not stop cleanly', { slot: s.id, how });
          exitCode = 1;
        }
        finishIfAllGone();
        return;
      case 'failing':
        finishIfAllGone();
        return;
      case 'starting':
        // Workers that cannot start would fail again: one reason, exit 1, no restart loop.
        logger.error('the API server could not start', { slot: s.id, err: s.failure ?? `the worker ended (${how}) while starting` });
        phase = 'failing';
        exitCode = 1;
        stopAll('SIGTERM');
        return;
      case 'running': {
        const served = s.startedAt !== undefined ? Date.now() - s.startedAt : 0;
        if (served >= stableMs) s.backoffMs = firstBackoffMs;
        const wait = s.backoffMs;
        s.backoffMs = Math.min(maxBackoffMs, s.backoffMs * 2);
        s.downReason = `the worker ended (${how}); restarting`;
        logger.error('a worker ended unexpectedly; restarting it', { slot: s.id, how, ...(s.failure ? { err: s.failure } : {}), restartIn: `${wait / 1000}s` });
        publish();
        s.restart = setTimeout(() => fork(s), wait);
        return;
      }
    }
  });

  const shutdown = (signal: NodeJS.Signals) => {
    if (phase === 'stopping') return;
    logger.info('shutting down', { signal, workers: slots.filter((s) => s.worker).length });
    // Stopping before every worker started is still a clean stop.
    phase = 'stopping';
    stopAll('SIGTERM');
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  for (const s of slots) fork(s);
}
