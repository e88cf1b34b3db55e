// The etcd3 implementation of the storage contract: one key per object, resourceVersion is the
// key's mod_revision, creates and updates are compare-and-swap transactions.
import { ExponentialBackoff, handleWhen, isBrokenCircuitError, retry } from 'cockatiel';
import { Etcd3, GRPCResourceExhastedError, type IKeyValue, type Watcher } from 'etcd3';
import { isStorageError, StorageError } from '../errors.js';
import { preconditionFailure } from '../preconditions.js';
import { copyObject } from '../../runtime/copy.js';
import { AbandonableCall, type CallOptions } from './abandonable-call.js';
import { startCompactor, type CompactorEvents } from './compactor.js';
import { etcdCredentials, type EtcdClientTLS } from './credentials.js';
import { HealthMonitor, type HealthPeers } from './health-monitor.js';
import { LeaseManager } from './lease-manager.js';
import type {
  DeleteOptions,
  ListOptions,
  ListResult,
  Preconditions,
  Storage,
  StorageCodec,
  StorageWatch,
  StoredObject,
  TryUpdate,
  UpdateOptions,
  CreateOptions,
  GuardedWrite,
  WatchHandlers,
  WatchOptions,
  PrefixProbe,
} from '../interface.js';

/** Told how long each etcd request took; `key` is the storage key or prefix it was about. */
export type RequestObserver = (operation: string, key: string, seconds: number) => void;

/** What an operator should hear about the connection to etcd. */
export interface StorageEvents {
  /** Requests started failing because etcd cannot be reached (told once per outage). */
  unreachable(err: string): void;
  /** etcd answers again after an outage that lasted `downMs`. */
  reachable(downMs: number): void;
  /** A watch lost its stream; the client resumes it from the last revision it delivered. */
  watchDisconnected(key: string, revision: number, err: string): void;
  /** A watch that lost its stream is connected again. */
  watchResumed(key: string, revision: number): void;
}

export interface Etcd3StorageOptions {
  /** etcd client URLs, e.g. http://127.0.0.1:2379. */
  servers: string[];
  /** Client TLS toward every member (--etcd-cafile, --etcd-certfile, --etcd-keyfile). */
  tls?: EtcdClientTLS;
  /** Key prefix of every object, e.g. /registry. */
  prefix: string;
  codec: StorageCodec;
  observe?: RequestObserver;
  events?: StorageEvents;
  /**
   * How often each etcd member is probed in the background while it answers (default 1 s); 0 probes
   * only when healthy() asks, for tests that count etcd's calls.
   */
  probeIntervalMs?: number;
  /** The server's other threads (--workers): a member one of them finds hung is refused here too. */
  healthPeers?: HealthPeers;
}

/**
 * How long a call waits for etcd to answer its probe again before it is refused (503). A probe is
 * always out at a member that does not answer, and its answer is the first thing etcd gives when it
 * runs again; a call that arrives in the moment between the resume and that answer waits for it
 * instead of being refused. During an outage each refusal comes this much later (a request that
 * needs two etcd calls, a cached list's freshness probe and its read, waits twice).
 */
const SHUT_GATE_WAIT_MS = 250;

/** Keys read per range call of a list: keeps responses small without many round trips. */
const LIST_BATCH = 500;
/** etcd's default --max-txn-ops: the most operations one transaction may carry. */
const MAX_TXN_OPS = 128;

interface PendingRead {
  key: string;
  resolve: (kv: IKeyValue | undefined) => void;
  reject: (err: unknown) => void;
}

/** The end of the range of keys starting with `prefix`. */
function prefixEnd(prefix: Buffer): Buffer {
  const end = Buffer.from(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i]! < 0xff) {
      end[i]! += 1;
      return end.subarray(0, i + 1);
    }
  }
  return Buffer.from([0]);
}

/**
 * Whether a failed call never reached etcd: its member's health probe fails (the gate is shut), the
 * client closed, no connection to send it on, or etcd refused the stream before reading it.
 * Anything else that fails with the connection (dropped, reset, cancelled, timed out) may have been
 * applied.
 */
function neverSent(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (isBrokenCircuitError(err) || err.constructor.name === 'ClientClosedError') return true;
  return err.constructor.name === 'GRPCUnavailableError' && /No connection established|Stream refused by server/.test(err.message);
}

/**
 * Retries act only on calls that never reached etcd, and not on those a shut gate refused (every
 * member was tried already): a write retried after its connection dropped may be applied twice (a
 * create answered AlreadyExists, an update applied again), as etcd's own client never retries one.
 * No circuit breaker counts failures: a member's gate opens and shuts with its health probe alone
 * (health-monitor.ts). A breaker that counted them was opened by the calls that timed out during a
 * hang, after etcd was back, and its half-open trial call, itself hanging, held every other call.
 */
const retryUnsent = retry(handleWhen((e) => neverSent(e) && !isBrokenCircuitError(e)), { maxAttempts: 2, backoff: new ExponentialBackoff({ initialDelay: 50, maxDelay: 500 }) });

/**
 * Cancels a watcher that etcd cancelled (history compacted). etcd keeps such a watch until the
 * client cancels it too, but the etcd3 client forgets the watcher first and then throws on the
 * answer to that cancel, which breaks the gRPC stream every watch of the client shares. Putting the
 * watcher back on the client's list lets the cancel complete; should the client's internals not
 * look as expected, the watch is left for etcd to drop with the stream.
 */
function cancelCancelledWatcher(watcher: Watcher): Promise<void> {
  const manager = (watcher as unknown as { manager?: { watchers?: unknown } }).manager;
  if (!manager || !Array.isArray(manager.watchers)) return Promise.resolve();
  if (!manager.watchers.includes(watcher)) manager.watchers.push(watcher);
  return watcher.cancel();
}

/** Errors that mean etcd could not be reached or did not answer in time. */
const unreachableErrors = new Set(['GRPCUnavailableError', 'GRPCDeadlineExceededError', 'GRPCCancelledError', 'ClientClosedError', 'TaskCancelledError']);

/** What a call refused or given up because etcd does not answer its health probe fails with. */
const notAnswering = (key: string) => new StorageError('Unreachable', key, 'etcd: not answering its health probe');

/** What a call given up for its request's sake fails with: the reason the request was aborted. */
function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('the request was cancelled');
}

/** The storage error of a failed etcd call; `write` says whether the call could have changed etcd. */
function translate(err: unknown, key: string, write = false): never {
  if (err instanceof StorageError) throw err;
  const msg = err instanceof Error ? err.message : String(err);
  if (msg.includes('required revision has been compacted')) {
    throw new StorageError('Expired', key, 'The resourceVersion for the provided list is too old.');
  }
  if (msg.includes('required revision is a future revision')) {
    throw new StorageError('TooLargeResourceVersion', key, 'Too large resource version');
  }
  if (msg.includes('request is too large') || err instanceof GRPCResourceExhastedError) {
    throw new StorageError('RequestTooLarge', key, 'the object is larger than etcd accepts in one request');
  }
  if (isBrokenCircuitError(err)) throw notAnswering(key);
  if (err instanceof Error && unreachableErrors.has(err.constructor.name)) {
    throw new StorageError(write && !neverSent(err) ? 'OutcomeUnknown' : 'Unreachable', key, `etcd: ${msg}`);
  }
  throw err;
}

export class Etcd3Storage implements Storage {
  private readonly client: Etcd3;
  private readonly prefix: string;
  private readonly codec: StorageCodec;
  private readonly observe: RequestObserver | undefined;
  private readonly events: StorageEvents | undefined;
  /** When etcd stopped answering, while it does not. */
  private downSince: number | undefined;
  private readonly leases: LeaseManager;
  private readonly health: HealthMonitor;
  /** Reads out at etcd, given up when it stops answering its probe (a read is safe to send again). */
  private readonly readCalls = new Set<AbandonableCall>();
  /**
   * Watches not yet stopped. The etcd3 client keeps reconnecting a watch it still holds after it was
   * closed (a watch that was connecting when the server shut down kept the process alive), so close
   * cancels them first.
   */
  private readonly open = new Set<() => Promise<void>>();
  private closed = false;

  constructor(opts: Etcd3StorageOptions) {
    this.health = new HealthMonitor({
      hosts: opts.servers,
      tls: opts.tls,
      probeKey: Buffer.from(`${opts.prefix.replace(/\/+$/, '')}/health`),
      ...(opts.probeIntervalMs !== undefined ? { intervalMs: opts.probeIntervalMs } : {}),
      // Reads out while no member answers its probe are given up: those sent before the gates
      // shut, and any that slipped through as they shut.
      checked: (up, err) => {
        if (!up) for (const read of this.readCalls) read.abandon(notAnswering(''));
        this.reached(up, up ? undefined : new Error(`the health probe got no answer: ${err}`));
      },
      peers: opts.healthPeers,
    });
    this.client = new Etcd3({
      hosts: opts.servers,
      ...etcdCredentials(opts.tls),
      dialTimeout: 5000,
      faultHandling: {
        global: retryUnsent,
        host: (host) => this.health.gate(host),
        // Watches resume from their last revision; reconnect soon after etcd is back.
        watchBackoff: new ExponentialBackoff({ initialDelay: 100, maxDelay: 2000 }).next(),
      },
      // Pages are bounded by LIST_BATCH keys, but objects may be up to etcd's 1.5 MiB each.
      grpcOptions: { 'grpc.max_receive_message_length': -1 },
    });
    this.prefix = opts.prefix.replace(/\/+$/, '');
    this.codec = opts.codec;
    this.observe = opts.observe;
    this.events = opts.events;
    this.leases = new LeaseManager(async (ttl) => {
      const res = await this.client.leaseClient.leaseGrant({ TTL: ttl, ID: 0 }).catch((e: unknown) => translate(e, ''));
      return String(res.ID);
    });
    this.health.start();
  }

  /**
   * Sends one etcd call that can be given up: a write when its request's `signal` aborts (the client
   * was answered 504, so the work stops), a read also when etcd stops answering its probe. A call
   * given up rejects with the reason it was given up for; any other failure with the call's own error.
   */
  private async send<T>(run: (options: CallOptions) => Promise<T>, how: { write?: boolean; signal?: AbortSignal | undefined } = {}): Promise<T> {
    const { signal } = how;
    if (signal?.aborted) throw abortReason(signal);
    if (!this.health.up) await this.health.waitUp(SHUT_GATE_WAIT_MS);
    if (signal?.aborted) throw abortReason(signal);
    const call = new AbandonableCall();
    const onAbort = () => call.abandon(abortReason(signal!));
    signal?.addEventListener('abort', onAbort, { once: true });
    if (!how.write) this.readCalls.add(call);
    try {
      return await run(call.options);
    } catch (e) {
      throw call.reason ?? e;
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.readCalls.delete(call);
    }
  }

  /** The `lease` field of a put: a shared lease for keys with a time to live, none otherwise. */
  private async leaseField(ttlSeconds: number | undefined): Promise<{ lease?: string }> {
    return ttlSeconds && ttlSeconds > 0 ? { lease: await this.leases.leaseFor(ttlSeconds) } : {};
  }

  /** Records whether etcd answered, telling the events of each change. */
  private reached(ok: boolean, err?: unknown): void {
    if (ok && this.downSince !== undefined) {
      const downMs = Date.now() - this.downSince;
      this.downSince = undefined;
      this.events?.reachable(downMs);
    } else if (!ok && this.downSince === undefined) {
      this.downSince = Date.now();
      this.events?.unreachable(err instanceof Error ? err.message : String(err ?? 'no answer'));
    }
  }

  /** Runs one etcd operation, timing it for the observer and noting whether etcd answered. */
  private async timed<T>(operation: string, key: string, run: () => Promise<T>): Promise<T> {
    const start = process.hrtime.bigint();
    try {
      const result = await run();
      this.reached(true);
      return result;
    } catch (e) {
      if (isStorageError(e, 'Unreachable') || isStorageError(e, 'OutcomeUnknown')) this.reached(false, e);
      else if (e instanceof StorageError) this.reached(true); // etcd answered, with a refusal
      throw e;
    } finally {
      this.observe?.(operation, key, Number(process.hrtime.bigint() - start) / 1e9);
    }
  }

  private fullKey(key: string): Buffer {
    return Buffer.from(this.prefix + key);
  }

  private decode(kv: IKeyValue, key: string): StoredObject {
    let obj: StoredObject;
    try {
      obj = this.codec.decode(kv.value);
    } catch (e) {
      throw new StorageError('InvalidObject', key, `cannot decode the object stored at ${key}: ${(e as Error).message}`);
    }
    obj.metadata = { ...(obj.metadata ?? {}), resourceVersion: String(kv.mod_revision) };
    return obj;
  }

  private encode(obj: StoredObject): Buffer {
    return this.codec.encode(obj);
  }

  async create(key: string, obj: StoredObject, opts: CreateOptions = {}): Promise<StoredObject> {
    return this.timed('create', key, () => this.doCreate(key, obj, opts.alongside ?? [], opts.ttlSeconds, opts.signal));
  }

  private async doCreate(key: string, obj: StoredObject, alongside: GuardedWrite[], ttlSeconds: number | undefined, signal: AbortSignal | undefined): Promise<StoredObject> {
    if (obj.metadata.resourceVersion) {
      throw new StorageError('InvalidObject', key, 'resourceVersion should not be set on objects to be created');
    }
    const k = this.fullKey(key);
    const guarded = this.guarded(alongside);
    const lease = await this.leaseField(ttlSeconds);
    const res = await this.send((o) => this.client.kv
      .txn({
        compare: [{ key: k, target: 'Create', result: 'Equal', create_revision: 0 }, ...guarded.compare],
        success: [{ request_put: { key: k, value: this.encode(obj), ...lease } }, ...guarded.success],
        failure: alongside.length ? [{ request_range: { key: k, count_only: true } }] : [],
      }, o), { write: true, signal })
      .catch((e: unknown) => translate(e, key, true));
    if (!res.succeeded) {
      const taken = !alongside.length || Number(res.responses[0]?.response_range.count ?? 0) > 0;
      if (taken) throw new StorageError('KeyExists', key, `key ${key} already exists`);
      throw guarded.conflict();
    }
    return { ...obj, metadata: { ...obj.metadata, resourceVersion: String(res.header.revision) } };
  }

  /** The compares and puts of guarded writes, and the error when one of them lost. */
  private guarded(alongside: GuardedWrite[]) {
    return {
      compare: alongside.map((w) => ({ key: this.fullKey(w.key), target: 'Mod' as const, result: 'Equal' as const, mod_revision: w.resourceVersion })),
      success: alongside.map((w) => {
        const { resourceVersion: _rv, ...metadata } = w.object.metadata;
        return { request_put: { key: this.fullKey(w.key), value: this.encode({ ...w.object, metadata }) } };
      }),
      conflict: () => new StorageError('ResourceVersionConflicts', alongside.map((w) => w.key).join(','), 'an object written alongside was changed concurrently'),
    };
  }

  /**
   * Reads of single keys travel together under load: while a read is out at etcd, the reads asked
   * meanwhile wait for the end of the event loop's turn and then go as one read-only transaction.
   * etcd serves it as one linearizable read, and the gRPC call, the costliest part of a read on our
   * side, is paid once per turn instead of once per request. A read asked while none is out goes at
   * once, so a lone client waits for nothing. Every read is sent after it was asked, so it sees
   * every write that finished before.
   */
  private pendingReads: PendingRead[] | undefined;
  private readsOut = 0;

  private read(key: string): Promise<IKeyValue | undefined> {
    return new Promise((resolve, reject) => {
      const read = { key, resolve, reject };
      if (this.readsOut === 0 && !this.pendingReads) return this.sendReads([read]);
      if (!this.pendingReads) {
        this.pendingReads = [];
        setImmediate(() => {
          const reads = this.pendingReads ?? [];
          this.pendingReads = undefined;
          this.sendReads(reads);
        });
      }
      this.pendingReads.push(read);
    });
  }

  private sendReads(reads: PendingRead[]): void {
    for (let i = 0; i < reads.length; i += MAX_TXN_OPS) {
      const batch = reads.slice(i, i + MAX_TXN_OPS);
      const answered = batch.length === 1
        ? this.send((o) => this.client.kv.range({ key: this.fullKey(batch[0]!.key) }, o)).then((res) => [res.kvs[0]])
        : this.send((o) => this.client.kv
          .txn({ compare: [], success: batch.map((r) => ({ request_range: { key: this.fullKey(r.key) } })), failure: [] }, o))
          .then((res) => res.responses.map((r) => r.response_range.kvs[0]));
      this.readsOut++;
      answered.then(
        (kvs) => {
          this.readsOut--;
          batch.forEach((r, j) => r.resolve(kvs[j]));
        },
        (e: unknown) => batch.forEach((r, j) => {
          if (j === 0) this.readsOut--;
          try {
            translate(e, r.key);
          } catch (translated) {
            r.reject(translated);
          }
        }),
      );
    }
  }

  async get(key: string): Promise<StoredObject> {
    const kv = await this.timed('get', key, () => this.read(key));
    if (!kv) throw new StorageError('KeyNotFound', key, `key ${key} not found`);
    return this.decode(kv, key);
  }

  async list(prefix: string, opts: ListOptions = {}): Promise<ListResult> {
    return this.timed('list', prefix, () => this.doList(prefix, opts));
  }

  private async doList(prefix: string, opts: ListOptions): Promise<ListResult> {
    const start = this.fullKey(opts.startKey ?? prefix);
    const end = prefixEnd(this.fullKey(prefix));
    const limit = opts.limit && opts.limit > 0 ? opts.limit : 0;
    let revision = opts.revision && opts.revision > 0 ? opts.revision : 0;
    const items: StoredObject[] = [];
    const keys: string[] = [];
    let from = start;
    for (;;) {
      const batch = limit ? Math.max(limit - items.length, 1) : LIST_BATCH;
      const res = await this.send((o) => this.client.kv.range({ key: from, range_end: end, limit: batch, ...(revision ? { revision } : {}) }, o))
        .catch((e: unknown) => translate(e, prefix));
      if (!revision) revision = Number(res.header.revision);
      for (let i = 0; i < res.kvs.length; i++) {
        const kv = res.kvs[i]!;
        const key = kv.key.toString().slice(this.prefix.length);
        const obj = this.decode(kv, key);
        if (opts.predicate && !opts.predicate(obj)) continue;
        items.push(obj);
        keys.push(key);
        if (limit && items.length === limit) {
          const rest = Number(res.count) - (i + 1);
          if (rest > 0) {
            return { items, keys, revision, continueKey: key + '\x00', remaining: rest };
          }
          return { items, keys, revision };
        }
      }
      if (!res.more || res.kvs.length === 0) return { items, keys, revision };
      from = Buffer.concat([res.kvs[res.kvs.length - 1]!.key, Buffer.from([0])]);
    }
  }

  private checkPreconditions(key: string, pre: Preconditions | undefined, obj: StoredObject): void {
    const failure = preconditionFailure(pre, obj);
    if (failure) throw new StorageError('ResourceVersionConflicts', key, failure);
  }

  async guaranteedUpdate(key: string, tryUpdate: TryUpdate, opts: UpdateOptions = {}): Promise<StoredObject> {
    return this.timed('update', key, () => this.doGuaranteedUpdate(key, tryUpdate, opts));
  }

  private async doGuaranteedUpdate(key: string, tryUpdate: TryUpdate, opts: UpdateOptions): Promise<StoredObject> {
    const k = this.fullKey(key);
    const cached = opts.cachedExisting?.metadata.resourceVersion ? opts.cachedExisting : undefined;
    /**
     * Where an attempt starts: etcd's key as last read or returned by a failed swap (`kv`, absent
     * when there is none), or first the cached object, which saves the read. The cached object may
     * be stale, so whatever fails on it is tried again from etcd's, and an update that would change
     * nothing is confirmed on etcd's (only etcd's bytes tell that for sure).
     */
    let live = !cached;
    let kv = live ? await this.read(key) : undefined;
    const readLive = async () => {
      kv = await this.read(key);
      live = true;
    };
    for (;;) {
      const current = live ? (kv ? this.decode(kv, key) : null) : cached!;
      let updated: StoredObject | null;
      try {
        if (!current && !opts.ignoreNotFound) throw new StorageError('KeyNotFound', key, `key ${key} not found`);
        if (current) this.checkPreconditions(key, opts.preconditions, current);
        updated = await tryUpdate(current ? copyObject(current) : null);
      } catch (e) {
        if (live) throw e;
        await readLive();
        continue;
      }
      if (!updated) {
        if (!live) {
          await readLive();
          continue;
        }
        if (!current) throw new StorageError('KeyNotFound', key, `key ${key} not found`);
        return current;
      }
      const value = this.encode(updated);
      const guarded = this.guarded(opts.alongside?.() ?? []);
      // Nothing changed: no write, same resourceVersion (unless something else is to be written with it).
      if (current && guarded.success.length === 0) {
        if (live && kv && value.equals(kv.value)) return current;
        if (!live && value.equals(this.encode(current))) {
          await readLive();
          continue;
        }
      }
      const modRevision = live ? kv?.mod_revision : cached!.metadata.resourceVersion;
      const lease = await this.leaseField(opts.ttlSeconds);
      const res = await this.send((o) => this.client.kv
        .txn({
          compare: [
            modRevision
              ? { key: k, target: 'Mod', result: 'Equal', mod_revision: modRevision }
              : { key: k, target: 'Create', result: 'Equal', create_revision: 0 },
            ...guarded.compare,
          ],
          success: [{ request_put: { key: k, value, ...lease } }, ...guarded.success],
          failure: [{ request_range: { key: k } }],
        }, o), { write: true, signal: opts.signal })
        .catch((e: unknown) => translate(e, key, true));
      if (res.succeeded) {
        return { ...updated, metadata: { ...updated.metadata, resourceVersion: String(res.header.revision) } };
      }
      kv = res.responses[0]?.response_range.kvs[0];
      live = true;
    }
  }

  async delete(key: string, opts: DeleteOptions = {}): Promise<StoredObject> {
    return this.timed('delete', key, () => this.doDelete(key, opts));
  }

  private async doDelete(key: string, opts: DeleteOptions): Promise<StoredObject> {
    const k = this.fullKey(key);
    let kv = await this.read(key);
    for (;;) {
      if (!kv) throw new StorageError('KeyNotFound', key, `key ${key} not found`);
      const current = this.decode(kv, key);
      this.checkPreconditions(key, opts.preconditions, current);
      if (opts.validateDeletion) await opts.validateDeletion(current);
      const modRevision = kv.mod_revision;
      const res = await this.send((o) => this.client.kv
        .txn({
          compare: [{ key: k, target: 'Mod', result: 'Equal', mod_revision: modRevision }],
          success: [{ request_delete_range: { key: k } }],
          failure: [{ request_range: { key: k } }],
        }, o), { write: true, signal: opts.signal })
        .catch((e: unknown) => translate(e, key, true));
      if (res.succeeded) return current;
      kv = res.responses[0]?.response_range.kvs[0];
    }
  }

  async watch(key: string, opts: WatchOptions, handlers: WatchHandlers): Promise<StorageWatch> {
    if (this.closed) throw new StorageError('Unreachable', key, 'the storage is closed');
    const builder = this.client.watch().withPreviousKV().startRevision(String(opts.afterRevision + 1));
    if (opts.recursive) builder.prefix(this.fullKey(key));
    else builder.key(this.fullKey(key));
    let stopped = false;
    let watcher: Watcher | undefined;
    let delivered = opts.afterRevision;
    let cancelling: Promise<void> | undefined;
    const cancel = (byEtcd: boolean): Promise<void> =>
      (cancelling ??= watcher ? (byEtcd ? cancelCancelledWatcher(watcher) : watcher.cancel()).catch(() => undefined) : Promise.resolve());
    const fail = async (err: unknown, byEtcd = false) => {
      if (stopped) return;
      stopped = true;
      void cancel(byEtcd);
      // etcd cancels a watch on compacted history with an empty reason; whether it still holds
      // the revision the watch needed tells whether that is what happened.
      if (String((err as Error)?.message).startsWith('Watcher canceled')) {
        err = await this.holdsRevision(delivered + 1)
          .then((held) => (held ? err : new StorageError('Expired', key, 'The resourceVersion for the provided list is too old.')), (e: unknown) => e);
      }
      try {
        translate(err, key);
      } catch (e) {
        handlers.error(e as Error);
      }
    };
    watcher = builder.watcher();
    watcher.on('data', (res) => {
      if (stopped) return;
      try {
        for (const ev of res.events) {
          const evKey = ev.kv.key.toString().slice(this.prefix.length);
          const revision = Number(ev.kv.mod_revision);
          delivered = revision;
          if (ev.type === 'Delete') {
            // The previous value was compacted away (a watch that lagged behind a compaction): the
            // deletion cannot be reported, and skipping it would leave watchers and the watch cache
            // holding a deleted object. The history is gone, as for any compacted revision: 410.
            if (!ev.prev_kv) throw new StorageError('Expired', evKey, 'The resourceVersion for the provided list is too old.');
            const prev = this.decode(ev.prev_kv, evKey);
            handlers.event({ type: 'DELETED', key: evKey, object: { ...prev, metadata: { ...prev.metadata, resourceVersion: String(revision) } }, prevObject: prev, revision });
          } else {
            const obj = this.decode(ev.kv, evKey);
            const created = ev.kv.create_revision === ev.kv.mod_revision;
            handlers.event({
              type: created ? 'ADDED' : 'MODIFIED',
              key: evKey,
              object: obj,
              ...(ev.prev_kv && !created ? { prevObject: this.decode(ev.prev_kv, evKey) } : {}),
              revision,
            });
          }
        }
        if (res.events.length === 0) {
          delivered = Math.max(delivered, Number(res.header.revision));
          handlers.progress(Number(res.header.revision));
        }
      } catch (e) {
        void fail(e);
      }
    });
    watcher.on('error', (e: unknown) => void fail(e, true));
    let disconnected = false;
    watcher.on('disconnected', (e: unknown) => {
      if (stopped || disconnected) return;
      disconnected = true;
      this.events?.watchDisconnected(key, delivered, e instanceof Error ? e.message : String(e));
    });
    watcher.on('connected', () => {
      if (stopped || !disconnected) return;
      disconnected = false;
      this.events?.watchResumed(key, delivered);
    });
    const stop = async () => {
      stopped = true;
      this.open.delete(stop);
      await cancel(false);
    };
    this.open.add(stop);
    await new Promise<void>((resolve, reject) => {
      watcher!.once('connected', () => resolve());
      watcher!.once('error', reject);
      // Closing while it connects ends the wait too.
      watcher!.once('end', () => resolve());
    }).catch((e: unknown) => fail(e));
    return { stop };
  }

  /**
   * What a watch cache needs to confirm it is current (see cacher/freshness.ts): one keys-only
   * range over the prefix, cut to the key changed last, gives etcd's revision now, the newest
   * mod_revision under the prefix and how many keys it holds. etcd counts the whole range whatever
   * the limit, and the etcd3 client cannot send a watch progress request, which upstream uses here.
   */
  async probe(prefix: string): Promise<PrefixProbe> {
    const p = this.fullKey(prefix);
    const res = await this.timed('probe', prefix, () => this.send((o) => this.client.kv
      .range({ key: p, range_end: prefixEnd(p), keys_only: true, limit: 1, sort_order: 'Descend', sort_target: 'Mod' }, o))
      .catch((e: unknown) => translate(e, prefix)));
    return { revision: Number(res.header.revision), newestModRevision: Number(res.kvs[0]?.mod_revision ?? 0), count: Number(res.count) };
  }

  /** One read of a single key at `revision`, which etcd refuses once the revision is compacted. */
  async holdsRevision(revision: number): Promise<boolean> {
    try {
      await this.timed('probe', '/', () => this.send((o) => this.client.kv
        .range({ key: this.fullKey('/'), count_only: true, revision: String(revision) }, o))
        .catch((e: unknown) => translate(e, '/')));
      return true;
    } catch (e) {
      if (isStorageError(e, 'Expired')) return false;
      if (isStorageError(e, 'TooLargeResourceVersion')) return true;
      throw e;
    }
  }

  async count(prefix: string): Promise<number> {
    const p = this.fullKey(prefix);
    const res = await this.timed('count', prefix, () => this.send((o) => this.client.kv.range({ key: p, range_end: prefixEnd(p), count_only: true }, o)))
      .catch((e: unknown) => translate(e, prefix));
    return Number(res.count);
  }

  async currentRevision(): Promise<number> {
    const res = await this.timed('get', '/', () => this.send((o) => this.client.kv.range({ key: this.fullKey('/'), count_only: true }, o))
      .catch((e: unknown) => translate(e, '/')));
    return Number(res.header.revision);
  }

  async compact(revision: number): Promise<void> {
    await this.client.kv.compact({ revision }).catch((e: unknown) => translate(e, ''));
  }

  /** Probes every member now (joining the background probe when one is out); a success opens its gate at once. */
  healthy(): Promise<boolean> {
    return this.health.check();
  }

  /** Compacts etcd history every `intervalMs` (see compactor.ts); returns a function that stops it. */
  startCompaction(intervalMs: number, events: CompactorEvents): () => void {
    return startCompactor(this.client, intervalMs, events);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.health.stop();
    // A cancel waits for etcd's answer; one that cannot come in time does not hold the close up.
    const cancels = Promise.all([...this.open].map((stop) => stop().catch(() => undefined)));
    await Promise.race([cancels, new Promise((r) => setTimeout(r, 2000).unref())]);
    this.client.close();
  }
}

