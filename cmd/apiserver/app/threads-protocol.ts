// What the main thread of `--workers N` and its worker threads say to each other: what a worker
// thread is started with, and the messages on its parentPort. The shared answer caches have a
// channel of their own (cachePort), and the audit log file its shared memory.
import type { MessagePort } from 'node:worker_threads';

/** A worker thread's workerData. */
export interface ThreadData {
  /** 1..count, kept by a thread that replaces one that ended. */
  id: number;
  count: number;
  /** The server's command line, which every thread parses alike. */
  argv: string[];
  /** When the server started (ms since the epoch): one Last-Modified for the documents every thread builds alike. */
  startedAt: number;
  /** Whether it replaces a thread that ended (while the others serve). */
  replacing: boolean;
  /** This thread's end of the shared webhook answer caches (SharedAnswerStore in the main thread). */
  cachePort: MessagePort;
  /** The salt of token cache keys, one for the server, so every thread's key of a token is the same. */
  tokenKeySalt: Uint8Array;
  /** The memory the writers of the --audit-log-path file share (rotating-file.ts). */
  auditFile: SharedArrayBuffer;
  /** The CustomResourceDefinition revision every thread has reached (revision-watermark.ts), for one discovery. */
  definitionsWatermark: SharedArrayBuffer;
}

/**
 * How a test makes a worker thread fail (ORCH_TEST_THREAD_CRASH, on SIGUSR2): die of an uncaught
 * exception or out of memory, or stall (its event loop blocked for stallMs).
 */
export type CrashKind = 'exception' | 'oom' | 'stall';
export const crashKinds: readonly CrashKind[] = ['exception', 'oom', 'stall'];
export const stallMs = 20_000;

export type ThreadMessage =
  /** About to listen: which port? */
  | { kind: 'bind' }
  /** Listening on `port`. */
  | { kind: 'listening'; port: number }
  /** Alive: sent every heartbeatMs, so a thread whose event loop is stuck shows. */
  | { kind: 'heartbeat' }
  /** Serving, post-start hooks done. */
  | { kind: 'started' }
  /** It could not start; it ends next. */
  | { kind: 'failed'; reason: string }
  /** It refused the flags (the checks that need every kind loaded): printed once by the main thread, which exits 1. */
  | { kind: 'invalid'; errors: string[] }
  /** /metrics was asked of it: the main thread answers with the sum over every thread. */
  | { kind: 'metrics-request'; id: number }
  /** Its own metrics, answering a gather. */
  | { kind: 'metrics'; id: number; metrics: unknown[] }
  /** Its health probe of the etcd member `host` failed: the main thread tells the others. */
  | { kind: 'etcd-unanswered'; host: string };

export type MainMessage =
  /** The port to listen on; 0 to bind the flag's port 0 (a free one), which the others then share. */
  | { kind: 'port'; port: number }
  /** The threads whose event loop has not been heard from for a while (their worker-<n> checks fail). */
  | { kind: 'stuck'; ids: number[] }
  /** The threads of the server's start that have not finished starting (their worker-<n> checks fail); [] once all have. */
  | { kind: 'starting'; ids: number[] }
  /** Asks a thread for its own metrics. */
  | { kind: 'metrics-gather'; id: number }
  | { kind: 'metrics-response'; id: number; body: string; contentType: string }
  | { kind: 'metrics-response'; id: number; error: string }
  /** SIGTERM: shut down as one server does, then end. */
  | { kind: 'stop' }
  /** Another thread's health probe of the etcd member `host` failed. */
  | { kind: 'etcd-unanswered'; host: string }
  | { kind: 'crash'; how: CrashKind };

/** How often a worker thread says it is alive; one not heard from for stuckMs counts as stuck. */
export const heartbeatMs = 1000;
export const stuckMs = 5000;
