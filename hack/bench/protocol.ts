// What the main thread asks of a loader thread, and what it answers. Times are on the shared
// monotonic clock (clock.ts) so the main thread can place them against its own.
import type { Target } from './cluster.js';

/** Namespace of the create/get/update cells; the raw etcd cells keep the same objects under their own prefix. */
export const CRUD_NAMESPACE = 'bench';

export type Op = 'create' | 'get' | 'update';
export type Backend = 'orch' | 'etcd';
/** The object of a cell: the 1 KiB ConfigMap, or the custom resource of custom-resource.ts with the same payload. */
export type Resource = 'configmap' | 'custom-resource';

export interface LoaderInit {
  index: number;
  target: Target;
  etcdEndpoint: string;
}

export type Task =
  /** Answers once the thread has loaded everything, so no timed task waits on module loading. */
  | { kind: 'ping' }
  /**
   * `clients` concurrent clients loop over `op` on `resource` from `startAt` until `startAt + warmupMs + measureMs`;
   * requests completing inside the last `measureMs` are the sample.
   */
  | { kind: 'crud'; backend: Backend; resource: Resource; op: Op; clients: number; startAt: number; warmupMs: number; measureMs: number }
  /** Creates `<prefix><i>` for i in [from, to) in `namespace` with `clients` concurrent clients. */
  | { kind: 'populate'; namespace: string; prefix: string; from: number; to: number; clients: number }
  /** One full list (following continue tokens when `limit` is set); its time is to the last byte of each response. */
  | { kind: 'list'; path: string; limit?: number }
  /**
   * The same full list straight from etcd: one range over the prefix (linearizable, or serializable as
   * the closest match of resourceVersion=0), or ranges of `limit` keys pinned to the first one's revision.
   */
  | { kind: 'etcd-list'; prefix: string; limit?: number; serializable?: boolean }
  /** Opens `count` watches on `path`, each expecting `events` ADDED events of objects named `<prefix><i>`. */
  | { kind: 'watch-open'; path: string; count: number; events: number; prefix: string }
  /** Resolves once every open watch has every event, or fails at the deadline naming what is missing. */
  | { kind: 'watch-wait'; timeoutMs: number }
  | { kind: 'watch-close' };

export interface CrudResult {
  /** Requests completed inside the measured window. */
  count: number;
  latenciesMs: Float64Array;
}

export interface ListResult {
  ms: number;
  items: number;
  bytes: number;
  pages: number;
}

export interface WatchResult {
  /** Per event index, when the last of this thread's watchers received it. */
  lastReceivedAt: Float64Array;
  /** When this thread's last watcher had every event. */
  allAt: number;
}

export interface Request {
  id: number;
  task: Task;
}

export type Reply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: string };
