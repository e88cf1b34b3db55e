// A worker thread's side of `--workers N`: what it tells the main thread and hears from it. The
// requests it serves never wait for the main thread, but for /metrics (the sum over every thread)
// and the webhook caches (shared-answer-cache.ts, on a channel of their own).
import { parentPort } from 'node:worker_threads';
import type { Logger } from '../../../pkg/log/logger.js';
import type { APIServerMetrics } from '../../../pkg/metrics/apiserver-metrics.js';
import type { HealthCheck } from '../../../pkg/server/healthz.js';
import type { HealthPeers } from '../../../pkg/storage/etcd3/health-monitor.js';
import { RevisionWatermark } from '../../../pkg/util/revision-watermark.js';
import { SharedAnswerCaches } from '../../../pkg/util/cache/shared-answer-cache.js';
import type { AnswerCacheFactory } from '../../../pkg/util/cache/answer-cache.js';
import type { APIServerOptions } from './options.js';
import type { ThreadRole } from './server.js';
import { heartbeatMs, stallMs, type CrashKind, type MainMessage, type ThreadData, type ThreadMessage } from './threads-protocol.js';

/** How long a thread waits for the main thread's sum of the metrics before serving its own. */
const metricsWaitMs = 10_000;

/** Tells the main thread; a no-op outside a worker thread. */
export function tellMain(m: ThreadMessage): void {
  parentPort?.postMessage(m);
}

/**
 * The options of one thread: the in-flight limits and the audit batch buffer are the server's,
 * shared out among the threads (each enforces its part, so the server as a whole keeps the limit it
 * was given).
 */
export function threadOptions(opts: APIServerOptions, count: number): APIServerOptions {
  const share = (limit: number) => (limit === 0 ? 0 : Math.max(1, Math.ceil(limit / count)));
  return {
    ...opts,
    maxRequestsInflight: share(opts.maxRequestsInflight),
    maxMutatingRequestsInflight: share(opts.maxMutatingRequestsInflight),
    audit: { ...opts.audit, logBatchBufferSize: share(opts.audit.logBatchBufferSize) },
  };
}

export class ThreadLink implements ThreadRole {
  readonly id: number;
  readonly count: number;
  readonly startedAt: Date;
  readonly replacing: boolean;
  readonly answerCaches: AnswerCacheFactory;
  readonly tokenKeySalt: Uint8Array;
  readonly auditFile: { memory: SharedArrayBuffer; owner: number };
  readonly definitionsWatermark: RevisionWatermark;
  readonly etcdHealthPeers: HealthPeers;
  private etcdUnanswered: (host: string) => void = () => undefined;
  private stuck = new Set<number>();
  /** The server's threads still starting: all of them at first (none for a replacement, which starts while the others serve). */
  private starting: Set<number>;
  private metrics: APIServerMetrics | undefined;
  private nextRequest = 1;
  private readonly pending = new Map<number, (m: MainMessage) => void>();
  private portAnswer: ((port: number) => void) | undefined;
  private stopHandler: (() => void) | undefined;

  constructor(data: ThreadData, threadId: number, private readonly logger: Logger) {
    this.id = data.id;
    this.count = data.count;
    this.startedAt = new Date(data.startedAt);
    this.replacing = data.replacing;
    this.starting = new Set(data.replacing ? [] : Array.from({ length: data.count }, (_, i) => i + 1));
    this.answerCaches = new SharedAnswerCaches(data.cachePort).factory;
    this.tokenKeySalt = data.tokenKeySalt;
    this.auditFile = { memory: data.auditFile, owner: threadId };
    this.definitionsWatermark = new RevisionWatermark(data.definitionsWatermark);
    this.etcdHealthPeers = {
      shut: (host) => tellMain({ kind: 'etcd-unanswered', host }),
      onShut: (f) => {
        this.etcdUnanswered = f;
      },
    };
    parentPort?.on('message', (m: MainMessage) => this.receive(m));
    setInterval(() => tellMain({ kind: 'heartbeat' }), heartbeatMs).unref();
  }

  private receive(m: MainMessage): void {
    switch (m.kind) {
      case 'port':
        this.portAnswer?.(m.port);
        this.portAnswer = undefined;
        return;
      case 'stuck':
        this.stuck = new Set(m.ids);
        return;
      case 'starting':
        this.starting = new Set(m.ids);
        return;
      case 'metrics-gather':
        void (this.metrics?.registry.getMetricsAsJSON() ?? Promise.resolve([])).then(
          (metrics) => tellMain({ kind: 'metrics', id: m.id, metrics }),
          () => tellMain({ kind: 'metrics', id: m.id, metrics: [] }),
        );
        return;
      case 'metrics-response':
        this.pending.get(m.id)?.(m);
        this.pending.delete(m.id);
        return;
      case 'stop':
        this.stopHandler?.();
        return;
      case 'crash':
        crash(m.how);
        return;
      case 'etcd-unanswered':
        this.etcdUnanswered(m.host);
        return;
    }
  }

  listenPort(): Promise<number> {
    return new Promise((resolve) => {
      this.portAnswer = resolve;
      tellMain({ kind: 'bind' });
    });
  }

  listening(port: number): void {
    tellMain({ kind: 'listening', port });
  }

  /**
   * One /readyz check per thread, named worker-<id>, so that every thread gives the server's one
   * answer. It fails while that thread is one the server starts with and has not finished starting
   * (the thread that binds the port listens before its post-start hooks are done, the others only
   * after theirs), and while its event loop is stuck, since the connections the kernel hands it then
   * wait. A thread that ended is not checked: its socket closed with it, and the others take every
   * connection until it is replaced (the replacement listens only once it is ready).
   */
  peerHealthChecks(): HealthCheck[] {
    return Array.from({ length: this.count }, (_, i) => ({
      name: `worker-${i + 1}`,
      check: async () => {
        if (this.starting.has(i + 1)) return 'starting: its post-start hooks are not done';
        return this.stuck.has(i + 1) ? 'not heard from: its event loop is stuck' : undefined;
      },
    }));
  }

  /** The metrics of every thread, summed by the main thread; this thread's own when it cannot answer. */
  async renderMetrics(): Promise<{ body: string; contentType: string }> {
    const id = this.nextRequest++;
    const m = await new Promise<MainMessage | undefined>((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve(undefined);
      }, metricsWaitMs);
      this.pending.set(id, (answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
      tellMain({ kind: 'metrics-request', id });
    });
    if (m?.kind === 'metrics-response' && 'body' in m) return { body: m.body, contentType: m.contentType };
    this.logger.warn('the main thread did not sum the threads\' metrics; serving this thread\'s own', { err: m && 'error' in m ? m.error : 'no answer' });
    return this.metrics ? this.metrics.render() : { body: '', contentType: 'text/plain; version=0.0.4; charset=utf-8' };
  }

  serving(metrics: APIServerMetrics): void {
    this.metrics = metrics;
  }

  /** Runs `stop` when the main thread says the server stops (SIGTERM). */
  onStop(stop: () => void): void {
    this.stopHandler = stop;
  }
}

/** The test trigger: an exception nothing catches, a heap that grows until the isolate's limit, or an event loop blocked a while. */
function crash(how: CrashKind): void {
  if (how === 'stall') {
    // Blocked without spinning: the machine's other work goes on.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, stallMs);
    return;
  }
  if (how === 'exception') {
    setImmediate(() => {
      throw new Error('this thread was told to crash (ORCH_TEST_THREAD_CRASH)');
    });
    return;
  }
  const hog: number[][] = [];
  const grow = () => {
    for (let i = 0; i < 64; i++) hog.push(new Array<number>(1 << 16).fill(i));
    setImmediate(grow);
  };
  grow();
}
