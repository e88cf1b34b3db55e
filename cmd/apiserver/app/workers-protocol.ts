// The messages between the supervisor of `--workers N` and its worker processes, over the IPC
// channel node:cluster gives each worker. Every message has a `kind` in the `orch:` namespace, so
// it never mixes with prom-client's or node's own cluster messages.
import type { HealthEndpoint, HealthSummary } from '../../../pkg/server/server.js';

/** The environment a worker is forked with: its number (1..N, kept across restarts) and N. */
export const workerIdEnv = 'ORCH_WORKER_ID';
export const workerCountEnv = 'ORCH_WORKERS';
/** When the supervisor started (ms since the epoch): what every worker serves as the OpenAPI documents' Last-Modified. */
export const serverStartedEnv = 'ORCH_SERVER_STARTED';

/** One worker's health as every worker reports it: per endpoint, undefined when passing, else why not. */
export interface WorkerStatus {
  id: number;
  health: Record<HealthEndpoint, string | undefined>;
}

export type WorkerMessage =
  /** Its own checks, every second and when they change. */
  | { kind: 'orch:health'; health: HealthSummary }
  /** Serving, post-start hooks done. */
  | { kind: 'orch:started' }
  /** It could not start; it exits 1 next. */
  | { kind: 'orch:failed'; reason: string }
  /**
   * It refused the flags (the checks the supervisor leaves to the workers, such as the keys of
   * --runtime-config): the supervisor prints these as it prints its own refusals and exits 1.
   */
  | { kind: 'orch:invalid'; errors: string[] }
  /** /metrics was asked of it: the supervisor answers with the sum over all workers. */
  | { kind: 'orch:metrics-request'; id: number }
  /** Its own metrics, answering a gather. */
  | { kind: 'orch:metrics'; id: number; metrics: unknown[] };

export type SupervisorMessage =
  /** Every worker's health, sent to all workers whenever it changes. */
  | { kind: 'orch:workers'; workers: WorkerStatus[] }
  /** Asks a worker for its own metrics. */
  | { kind: 'orch:metrics-gather'; id: number }
  | { kind: 'orch:metrics-response'; id: number; body: string; contentType: string }
  | { kind: 'orch:metrics-response'; id: number; error: string };

/** Whether an IPC message is one of ours (node and prom-client send theirs on the same channel). */
export function isOrchMessage<T extends { kind: string }>(m: unknown): m is T {
  return typeof m === 'object' && m !== null && typeof (m as { kind?: unknown }).kind === 'string' && (m as { kind: string }).kind.startsWith('orch:');
}
