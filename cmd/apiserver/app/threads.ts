// The main thread of `--workers N`: N worker threads (worker-thread.ts), each a full API server
// with its own caches on the same etcd, listening on one port together (SO_REUSEPORT, the kernel
// spreading connections over them), kept one server in one process. The main thread serves no
// API (it never loads the kinds, handlers or storage); it
// - makes the self-signed serving certificate once, and hands the threads the port the first one bound;
// - passes on to the others a thread's failed etcd probe, so every thread refuses a hung member;
// - holds what the threads share: the webhook answer caches (SharedAnswerStore), the salt of token
//   cache keys, and the memory through which they take turns at the one --audit-log-path file;
// - sums every thread's metrics for whichever thread is asked for /metrics;
// - tells the threads which of them is still starting or stuck (not heard from), for their
//   worker-<n> health checks: /readyz is the server's, whichever thread answers it;
// - exits 1 with the reason when the threads cannot start, rather than starting them in a loop;
//   replaces a thread that ends later (an uncaught exception, out of memory), with backoff, logging
//   why each time; health stays green meanwhile, the other threads serving;
// - on SIGTERM or SIGINT, has every thread shut down as one server does, and exits once all have.
import { randomBytes } from 'node:crypto';
import { MessageChannel, Worker } from 'node:worker_threads';
import { invalidFlagsText } from '../../internal/run-process.js';
import { collectStartupGarbage } from '../../internal/startup-garbage.js';
import { Logger } from '../../../pkg/log/logger.js';
import { sharedFileMemory } from '../../../pkg/audit/rotating-file.js';
import { SharedAnswerStore } from '../../../pkg/util/cache/shared-answer-cache.js';
import { RevisionWatermark } from '../../../pkg/util/revision-watermark.js';
import { ThreadMutex } from '../../../pkg/util/thread-mutex.js';
import type { APIServerOptions } from './options.js';
import { servingCertificate } from './serving.js';
import { crashKinds, stuckMs, type CrashKind, type MainMessage, type ThreadData, type ThreadMessage } from './threads-protocol.js';

const firstBackoffMs = 1_000;
const maxBackoffMs = 30_000;
/** A thread that served this long before it ended is replaced after the first backoff again. */
const stableMs = 60_000;
/** How long the main thread waits for the threads' metrics before summing those that answered. */
const gatherMs = 5_000;
/** How long the threads get to drain beyond the shutdown delay before they are stopped hard. */
const drainGraceMs = 75_000;
/**
 * Each thread's young generation (V8's two semi-spaces and the large objects beside them): 24 MiB,
 * semi-spaces of 8 MiB. Node 24's default lets a thread's semi-spaces grow to 32 MiB each, and the
 * burst of allocation while a thread starts (loading every kind, the post-start hooks) grows them
 * there at once: 64 MiB of new space per thread that an idle server keeps. Measured with --workers 2
 * (make bench, lists and watch, back to back): RSS idle 302 MiB down to 241, peak 733 down to 554
 * (each thread's heap at the peak 281-292 MiB down to 188-191), with server CPU per create, get
 * and update within the noise of a shared machine (the garbage collector took about 5% of a
 * thread's busy time in the create cells either way).
 */
const youngGenerationMb = 24;

interface Slot {
  id: number;
  worker: Worker | undefined;
  /** Ends its share of the answer caches (the thread ended). */
  detach: (() => void) | undefined;
  /** When it finished starting; undefined while it starts. */
  startedAt: number | undefined;
  /** Why it could not start, as it said before ending; why it ended (its uncaught error). */
  failure: string | undefined;
  heardAt: number;
  backoffMs: number;
  restart: NodeJS.Timeout | undefined;
}

/** Runs the server as `opts.workers` threads until they have stopped; the process exits from here. */
export function runThreads(opts: APIServerOptions, argv: string[]): void {
  const count = opts.workers;
  const startedAt = Date.now();
  const logger = new Logger(opts.verbosity, undefined, { worker: 'main' });
  process.on('uncaughtException', (err) => logger.error('uncaught exception', { err: err.stack ?? err.message }));
  process.on('unhandledRejection', (err) => logger.error('unhandled rejection', { err: err instanceof Error ? err.stack ?? err.message : String(err) }));
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
  try {
    // Once, here: every thread reads this pair and serves the same certificate.
    servingCertificate(opts, logger);
  } catch (e) {
    logger.error('the API server could not start', { err: e instanceof Error ? e.message : String(e) });
    process.exit(1);
  }
  logger.info('starting the API server threads', { workers: count });

  const answers = new SharedAnswerStore();
  const tokenKeySalt = new Uint8Array(randomBytes(32));
  const auditFile = sharedFileMemory();
  const definitionsWatermark = RevisionWatermark.memory();
  const crashKind = process.env.ORCH_TEST_THREAD_CRASH as CrashKind | undefined;

  let phase: 'starting' | 'running' | 'failing' | 'stopping' = 'starting';
  let exitCode = 0;
  // The port every thread listens on: the flag's, or (for 0) the one the first thread bound.
  let port = opts.securePort !== 0 ? opts.securePort : undefined;
  let binding = false;
  const waitingForPort: Worker[] = [];
  const slots: Slot[] = Array.from({ length: count }, (_, i) => ({
    id: i + 1, worker: undefined, detach: undefined, startedAt: undefined, failure: undefined, heardAt: 0, backoffMs: firstBackoffMs, restart: undefined,
  }));
  const send = (w: Worker, m: MainMessage) => w.postMessage(m);
  const running = () => slots.flatMap((s) => (s.worker ? [s.worker] : []));

  // Stuck threads: told to every thread whenever the set changes.
  let stuck = '';
  const checkStuck = setInterval(() => {
    const now = Date.now();
    const ids = slots.filter((s) => s.worker && s.startedAt !== undefined && now - s.heardAt > stuckMs).map((s) => s.id);
    if (JSON.stringify(ids) === stuck) return;
    stuck = JSON.stringify(ids);
    if (ids.length > 0) logger.error('threads not heard from; /readyz fails until they are', { workers: ids.join(','), for: `${stuckMs / 1000}s` });
    for (const w of running()) send(w, { kind: 'stuck', ids });
  }, 1000);
  checkStuck.unref();

  // Metrics: each gather asks every thread for its own and sums what comes back in time.
  let nextGather = 1;
  const gathers = new Map<number, { results: unknown[][]; add(m: unknown[]): void }>();
  const gather = async (): Promise<{ body: string; contentType: string }> => {
    const id = nextGather++;
    const asked = running();
    const results: unknown[][] = [];
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        logger.warn('not every thread sent its metrics in time; summing those that did', { asked: asked.length, answered: results.length });
        resolve();
      }, gatherMs);
      const add = (m: unknown[]) => {
        results.push(m);
        if (results.length < asked.length) return;
        clearTimeout(timer);
        resolve();
      };
      gathers.set(id, { results, add });
      if (asked.length === 0) add([]);
      for (const w of asked) send(w, { kind: 'metrics-gather', id });
    });
    gathers.delete(id);
    // prom-client is loaded on the first scrape: a server nobody scrapes never pays for it here.
    const { aggregateThreadMetrics } = await import('../../../pkg/metrics/thread-aggregation.js');
    return aggregateThreadMetrics(results);
  };

  const receive = (s: Slot, w: Worker, m: ThreadMessage) => {
    s.heardAt = Date.now();
    switch (m.kind) {
      case 'heartbeat':
        return;
      case 'bind':
        if (port !== undefined) send(w, { kind: 'port', port });
        else if (binding) waitingForPort.push(w);
        else {
          binding = true;
          send(w, { kind: 'port', port: 0 });
        }
        return;
      case 'listening':
        if (port === undefined) {
          port = m.port;
          for (const other of waitingForPort.splice(0)) send(other, { kind: 'port', port });
        }
        return;
      case 'failed':
        s.failure = m.reason;
        return;
      case 'invalid':
        // Refused flags, said once as a single server says them: no log line, no restart.
        if (phase !== 'starting') return;
        phase = 'failing';
        exitCode = 1;
        process.stderr.write(invalidFlagsText('apiserver', m.errors));
        stopAll(false);
        return;
      case 'started':
        s.startedAt = Date.now();
        if (phase === 'starting') {
          // Every thread's /readyz fails until all of them have started: one answer, whichever thread gives it.
          const starting = slots.filter((x) => x.startedAt === undefined).map((x) => x.id);
          for (const other of running()) send(other, { kind: 'starting', ids: starting });
          if (starting.length > 0) return;
          phase = 'running';
          logger.info('the API server is ready', { address: `${opts.bindAddress}:${port}`, workers: count });
          collectStartupGarbage();
        } else if (phase === 'running') {
          logger.info('the thread that replaced one that ended is serving', { slot: s.id });
        }
        return;
      case 'metrics-request':
        void gather().then(
          ({ body, contentType }) => send(w, { kind: 'metrics-response', id: m.id, body, contentType }),
          (e: unknown) => send(w, { kind: 'metrics-response', id: m.id, error: e instanceof Error ? e.message : String(e) }),
        );
        return;
      case 'metrics':
        gathers.get(m.id)?.add(m.metrics);
        return;
      case 'etcd-unanswered':
        for (const other of running()) if (other !== w) send(other, m);
        return;
    }
  };

  const start = (s: Slot) => {
    s.restart = undefined;
    s.startedAt = undefined;
    s.failure = undefined;
    s.heardAt = Date.now();
    const channel = new MessageChannel();
    s.detach = answers.attach(channel.port1);
    const data: ThreadData = { id: s.id, count, argv, startedAt, replacing: phase === 'running', cachePort: channel.port2, tokenKeySalt, auditFile, definitionsWatermark };
    const w = new Worker(new URL('../worker-thread.js', import.meta.url), {
      workerData: data,
      transferList: [channel.port2],
      resourceLimits: { maxYoungGenerationSizeMb: youngGenerationMb },
    });
    s.worker = w;
    w.on('message', (m: ThreadMessage) => receive(s, w, m));
    // Why it ends: an uncaught exception (its stack, from the thread), or its isolate out of memory
    // (whose stack would be the main thread's, saying nothing).
    w.on('error', (err) => {
      const code = (err as NodeJS.ErrnoException).code;
      s.failure = code === 'ERR_WORKER_OUT_OF_MEMORY' ? `${code}: ${err.message}` : err.stack ?? err.message;
    });
    w.on('exit', (code) => ended(s, w, code));
  };

  /** Stops every thread: draining (SIGTERM, each thread as one server stops), or at once (the server could not start). */
  const stopAll = (drain: boolean) => {
    for (const s of slots) {
      clearTimeout(s.restart);
      s.restart = undefined;
      if (!s.worker) continue;
      if (drain) send(s.worker, { kind: 'stop' });
      else void s.worker.terminate();
    }
    // Threads that outlast their drain are stopped hard; the server then did not stop cleanly.
    setTimeout(() => {
      for (const s of slots) {
        if (!s.worker) continue;
        logger.error('a thread did not stop in time; stopping it', { slot: s.id });
        exitCode = 1;
        void s.worker.terminate();
      }
    }, opts.shutdownDelayMs + drainGraceMs).unref();
    finishIfAllGone();
  };
  const finishIfAllGone = () => {
    if (slots.some((s) => s.worker)) return;
    if (phase === 'stopping') logger.info('the API server stopped', { exitCode });
    process.exit(exitCode);
  };

  const ended = (s: Slot, w: Worker, code: number) => {
    if (s.worker !== w) return;
    s.worker = undefined;
    s.detach?.();
    // A thread that ended mid-write must not keep the others from the audit log.
    ThreadMutex.releaseFor(auditFile, w.threadId);
    const how = s.failure ?? `exit code ${code}`;
    switch (phase) {
      case 'stopping':
        if (code !== 0) {
          logger.error('a thread did not stop cleanly', { slot: s.id, how });
          exitCode = 1;
        }
        finishIfAllGone();
        return;
      case 'failing':
        finishIfAllGone();
        return;
      case 'starting':
        // Threads that cannot start would fail again: one reason, exit 1, no restart loop.
        logger.error('the API server could not start', { slot: s.id, err: s.failure ?? `the thread ended (exit code ${code}) while starting` });
        phase = 'failing';
        exitCode = 1;
        stopAll(false);
        return;
      case 'running': {
        const served = s.startedAt !== undefined ? Date.now() - s.startedAt : 0;
        if (served >= stableMs) s.backoffMs = firstBackoffMs;
        const wait = s.backoffMs;
        s.backoffMs = Math.min(maxBackoffMs, s.backoffMs * 2);
        logger.error('a thread ended unexpectedly; replacing it', { slot: s.id, err: how, replacedIn: `${wait / 1000}s` });
        s.restart = setTimeout(() => start(s), wait);
        return;
      }
    }
  };

  const shutdown = (signal: NodeJS.Signals) => {
    if (phase === 'stopping') return;
    logger.info('shutting down', { signal, workers: running().length });
    phase = 'stopping';
    stopAll(true);
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  // A test's way to make a thread (the last one serving) fail, as a bug, an oversized heap or a long synchronous task would.
  if (crashKind && crashKinds.includes(crashKind)) {
    process.on('SIGUSR2', () => {
      const victim = [...slots].reverse().find((s) => s.worker && s.startedAt !== undefined);
      if (victim?.worker) send(victim.worker, { kind: 'crash', how: crashKind });
    });
  }

  for (const s of slots) start(s);
}
