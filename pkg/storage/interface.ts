// The storage contract (ARCHITECTURE section 3). Storage knows keys, revisions and encoded
// objects; it knows nothing of HTTP, kinds or validation.
import type { ObjectWithMeta } from '../../api/meta/v1/types.js';

export type StoredObject = ObjectWithMeta;

export interface Preconditions {
  uid?: string;
  resourceVersion?: string;
}

/**
 * How fresh a read must be (upstream's resourceVersion semantics, spec 000 section 4.6). 'latest'
 * (the default): the newest state, as a quorum read of etcd gives it. 'notOlderThan': any state at
 * `minRevision` or later (0: any state at all), which a watch cache may answer from memory.
 */
export interface ReadOptions {
  consistency?: 'latest' | 'notOlderThan';
  /** With 'notOlderThan': the oldest revision the answer may reflect. */
  minRevision?: number;
}

export interface ListOptions extends ReadOptions {
  /** Read the snapshot at this etcd revision (Exact); 0 or absent reads as `consistency` says. */
  revision?: number;
  /** At most this many items that pass `predicate`; 0 or absent means all. */
  limit?: number;
  /** First key to read (inclusive); defaults to the prefix itself. */
  startKey?: string;
  /** Items not passing are skipped (and do not count against limit). */
  predicate?: (obj: StoredObject) => boolean;
  /**
   * Field values every item passing `predicate` has (the equality terms of a field selector): a
   * cache with an index on one of the fields may look only at the objects with that value.
   */
  fieldEquals?: { field: string; value: string }[];
}

export interface ListResult {
  items: StoredObject[];
  /** The storage key of each item, when the storage read them from keys (etcd does). */
  keys?: string[];
  /** The etcd revision the range was read at. */
  revision: number;
  /** The key to continue from when the list was cut by `limit`. */
  continueKey?: string;
  /** Keys left after the cut (before filtering); only meaningful without a predicate. */
  remaining?: number;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StorageWatchEvent {
  type: WatchEventType;
  /** The storage key of the changed object (what `watch` was given, plus the rest of the path). */
  key: string;
  /** The object after the change; for DELETED, the last state before deletion at the deletion revision. */
  object: StoredObject;
  /** The object before the change (MODIFIED and DELETED). */
  prevObject?: StoredObject;
  revision: number;
}

export interface WatchOptions {
  /** Deliver changes made after this revision (exclusive). */
  afterRevision: number;
  /** Watch every key under the prefix rather than one key. */
  recursive: boolean;
}

export interface WatchHandlers {
  event(e: StorageWatchEvent): void;
  /** Everything up to `revision` has been delivered (etcd progress notification). */
  progress(revision: number): void;
  /** The watch ended with an error (e.g. StorageError Expired when the revision was compacted). */
  error(err: Error): void;
}

export interface StorageWatch {
  stop(): Promise<void>;
}

/**
 * Another object written in the same transaction as the one being created or updated, and only
 * if its key is still at `resourceVersion` (a quota's usage charged together with the object that
 * uses it). When that key has moved on, the write fails with ResourceVersionConflicts naming it.
 */
export interface GuardedWrite {
  key: string;
  object: StoredObject;
  resourceVersion: string;
}

/**
 * Aborted when the write's request was answered without it (timed out): a write not yet sent is
 * not sent, and one out at etcd is given up. Its outcome is then unknown to the caller.
 */
export interface WriteSignal {
  signal?: AbortSignal | undefined;
}

export interface CreateOptions extends WriteSignal {
  alongside?: GuardedWrite[];
  /** The key vanishes on its own this many seconds after the write (an etcd lease); 0 or absent: never. */
  ttlSeconds?: number;
}

export interface UpdateOptions extends WriteSignal {
  preconditions?: Preconditions;
  /** As CreateOptions.ttlSeconds: every write renews the key's time to live. */
  ttlSeconds?: number;
  /** When the key does not exist, call tryUpdate with null instead of failing with KeyNotFound. */
  ignoreNotFound?: boolean;
  /**
   * The guarded writes of the attempt tryUpdate just made (asked right after each call). When one
   * of their keys moved on, the update goes round again: tryUpdate is called anew.
   */
  alongside?: () => GuardedWrite[];
  /**
   * The object as a cache last saw it (with its resourceVersion): the first attempt starts from it
   * instead of reading etcd, as upstream's GuaranteedUpdate takes the watch cache's object. The
   * compare-and-swap still guards the write; an attempt from it that fails in any way, or that
   * would change nothing, is made again from etcd's current object.
   */
  cachedExisting?: StoredObject;
}

/**
 * Returns the new object, or null to leave the stored one as it is. It may be called several
 * times: again with etcd's current object when the key changed concurrently, or when an attempt
 * from a cached object (UpdateOptions.cachedExisting) failed.
 */
export type TryUpdate = (current: StoredObject | null) => Promise<StoredObject | null>;

export interface DeleteOptions extends WriteSignal {
  preconditions?: Preconditions;
  /** Called with the current object before deleting it; throwing aborts the deletion. */
  validateDeletion?: (current: StoredObject) => Promise<void>;
}

export interface Storage {
  /** Stores a new object; fails with KeyExists when the key is taken. */
  create(key: string, obj: StoredObject, opts?: CreateOptions): Promise<StoredObject>;
  /** Reads one object (at the latest revision unless `opts` allow older); fails with KeyNotFound. */
  get(key: string, opts?: ReadOptions): Promise<StoredObject>;
  /** Reads the objects under a prefix from one snapshot. */
  list(prefix: string, opts?: ListOptions): Promise<ListResult>;
  /** Read-modify-write with optimistic concurrency, retried on concurrent changes. */
  guaranteedUpdate(key: string, tryUpdate: TryUpdate, opts?: UpdateOptions): Promise<StoredObject>;
  /** Deletes the object if it still is the one validated; returns its last state. */
  delete(key: string, opts?: DeleteOptions): Promise<StoredObject>;
  /** Streams changes after a revision, in order, without gaps. */
  watch(key: string, opts: WatchOptions, handlers: WatchHandlers): Promise<StorageWatch>;
  /** How many objects are stored under a prefix (a count-only read). */
  count(prefix: string): Promise<number>;
  /** The current etcd revision (a quorum read). */
  currentRevision(): Promise<number>;
  /** Compacts history up to and including `revision`. */
  compact(revision: number): Promise<void>;
  /**
   * Whether the state at `revision` is still held: false once compaction took it (a read of it is
   * 410 Expired), true for any later revision (a future one included). Other failures reject.
   */
  holdsRevision(revision: number): Promise<boolean>;
  /** Whether the backing store answers. */
  healthy(): Promise<boolean>;
  close(): Promise<void>;
}

/** The state of a prefix in the backing store now, in three numbers (see cacher/freshness.ts). */
export interface PrefixProbe {
  /** The store's revision when it answered. */
  revision: number;
  /** The highest mod_revision of a key under the prefix (0 when there is none). */
  newestModRevision: number;
  /** How many keys the prefix holds. */
  count: number;
}

/** Encodes stored objects; JSON keeps etcd readable with etcdctl. */
export interface StorageCodec {
  encode(obj: StoredObject): Buffer;
  decode(data: Buffer): StoredObject;
}
