// The watch cache (ARCHITECTURE section 3, issue 15): a Storage in front of etcd that keeps, per
// resource prefix, the resource's objects in memory, fed by the one shared watch of the resource
// (watch-hub.ts) whose window of recent events also serves watches. It answers from memory the
// reads that allow it (spec 000 section 4.6, as kube-apiserver's cacher does):
//
//   - lists and gets with resourceVersion=0 (any state): at once. Upstream's cacher (1.30) serves
//     resourceVersion=0 with a limit from memory too (shouldDelegateList delegates only a limit
//     with another resourceVersion) but ignores the limit; the spec (000 section 4.6) makes limit
//     the most items of a chunk, so here the first chunk comes from memory and its continue token
//     carries the cache's revision: the rest is an Exact read at exactly that revision (below),
//     so the chunks still form one snapshot;
//   - NotOlderThan reads of revision N: at once when the cache has reached N, otherwise as a
//     consistent read (whose answer is at least as new);
//   - consistent lists (resourceVersion unset, no continue), whole or a first chunk: once the
//     cache is confirmed current (freshness.ts), else from etcd;
//   - Exact reads of revision N, continue tokens among them: when the cache has reached N, nothing
//     under the listed prefix changed in the cache after N, and etcd still holds N (a compacted
//     version is 410 from any server). This is what upstream's cache snapshots do for paged lists
//     (ListFromCacheSnapshot, KEP-4988) with no snapshot kept: the state now is the state at N.
//     A chunk answered at a revision newer than the cache's own (etcd vouched the prefix had not
//     changed since) leaves that vouch with the store, so the rest of the list comes from memory
//     too.
//
// Other Exact reads, NotOlderThan chunks of a revision other than 0, continue tokens of the latest
// state (after a 410) and gets with resourceVersion unset go to etcd. While a resource's cache is
// (re)initialising every read of it goes to etcd.
//
// A resource's cache starts on its first read or watch, not at server start: a resource nobody
// reads costs neither memory nor an etcd watch, and each of several server processes holds only
// what its clients use. The read that starts it is served by etcd; a watch waits for the start.
import { StorageError } from '../errors.js';
import { ForwardingStorage } from '../forwarding.js';
import { deepFreeze } from '../deep-freeze.js';
import type {
  ListOptions,
  ListResult,
  PrefixProbe,
  ReadOptions,
  Storage,
  StorageWatch,
  StoredObject,
  TryUpdate,
  UpdateOptions,
  WatchHandlers,
  WatchOptions,
} from '../interface.js';
import { defaultResourcePrefix, WatchHub, type FeedPin, type WatchHubOptions, type WatchHubStats } from '../watch-hub.js';
import { CacheStore, type FieldIndexer } from './cache-store.js';
import { answerWhenFresh } from './freshness.js';

/** The storage the cache is in front of: etcd, which can also say how current a prefix is. */
export interface ProbedStorage extends Storage {
  probe(prefix: string): Promise<PrefixProbe>;
}

/** What an operator and the metrics hear of the caches. */
export interface CacherEvents {
  /** A resource's cache holds `objects` objects as of `revision`, `ms` after it began (re)initialising. */
  ready?(prefix: string, revision: number, objects: number, ms: number): void;
  /** A resource's cache failed (its watch ended, or it could not list); reads go to etcd until it is back. */
  failed?(prefix: string, err: unknown): void;
  /**
   * A list of `prefix` (of the resource at `resourcePrefix`) was answered from memory through
   * `index` ('f:<field>' for a field index, else ''): `fetched` objects looked at, `returned`
   * passed the filter.
   */
  listed?(resourcePrefix: string, prefix: string, index: string, fetched: number, returned: number): void;
  /** An event reached the cache of a resource. */
  received?(prefix: string): void;
}

export interface CacherOptions {
  /**
   * The size of a resource prefix's event window; 0 (or undefined) keeps the prefix out of the
   * cache: its reads go to etcd and its watches are only shared (--watch-cache-sizes).
   */
  cacheSize(prefix: string): number | undefined;
  /** The field indexes of a resource prefix's cache, by field selector name (upstream indexes pods by spec.nodeName). */
  indexers?: (prefix: string) => ReadonlyMap<string, FieldIndexer> | undefined;
  resourcePrefix?: (key: string) => string | undefined;
  /** Options of the watch hub inside (ring age, progress interval). */
  hub?: Omit<WatchHubOptions, 'resourcePrefix' | 'ringCapacityFor'>;
  /** How long a consistent list waits for the cache to confirm it is current before reading etcd (default 100 ms). */
  freshnessTimeoutMs?: number;
  /** How long after a failed start a resource's cache is tried again (default 1 s). */
  retryMs?: number;
  events?: CacherEvents;
}

/** The cache of one resource prefix. */
class ResourceCache {
  /** The current state, while the cache is ready. */
  store: CacheStore | undefined;
  /** The (re)initialisation under way; resolves when it ended, well or not. */
  starting: Promise<void> | undefined;
  pin: FeedPin | undefined;
  /** No start before this time (ms since the epoch) after a failed one. */
  retryAt = 0;
  constructor(readonly prefix: string) {}
}

export class Cacher extends ForwardingStorage<ProbedStorage> {
  private readonly hub: WatchHub;
  private readonly caches = new Map<string, ResourceCache>();
  private readonly resourcePrefix: (key: string) => string | undefined;
  private readonly freshnessTimeoutMs: number;
  private readonly retryMs: number;
  private closed = false;

  constructor(inner: ProbedStorage, private readonly opts: CacherOptions) {
    super(inner);
    this.resourcePrefix = opts.resourcePrefix ?? defaultResourcePrefix;
    this.hub = new WatchHub(inner, {
      ...opts.hub,
      resourcePrefix: this.resourcePrefix,
      ringCapacityFor: (prefix) => opts.cacheSize(prefix) || undefined,
    });
    this.freshnessTimeoutMs = opts.freshnessTimeoutMs ?? 100;
    this.retryMs = opts.retryMs ?? 1000;
  }

  /** What the hub inside holds. */
  stats(): WatchHubStats & { caches: number; cachedObjects: number } {
    let caches = 0;
    let cachedObjects = 0;
    for (const c of this.caches.values()) {
      if (c.store) {
        caches++;
        cachedObjects += c.store.size;
      }
    }
    return { ...this.hub.stats(), caches, cachedObjects };
  }

  /** The revision the cache of `key`'s resource has reached, undefined while it is not ready (for tests). */
  cachedRevision(key: string): number | undefined {
    const prefix = this.resourcePrefix(key);
    return prefix ? this.caches.get(prefix)?.store?.revision : undefined;
  }

  /** Reads one object; from memory when `opts` allow a state the cache has. */
  override async get(key: string, opts?: ReadOptions): Promise<StoredObject> {
    if (opts?.consistency === 'notOlderThan') {
      const store = this.cacheOf(key)?.store;
      if (store && store.revision >= (opts.minRevision ?? 0)) {
        const obj = store.get(key);
        if (!obj) throw new StorageError('KeyNotFound', key, `key ${key} not found`);
        return obj;
      }
    }
    return this.inner.get(key);
  }

  override async list(prefix: string, opts: ListOptions = {}): Promise<ListResult> {
    const cache = this.cacheOf(prefix);
    const store = cache?.store;
    if (!cache || !store) return this.fromEtcd(prefix, opts);
    if (opts.revision) return (await this.atRevision(cache, store, prefix, opts.revision, opts)) ?? this.fromEtcd(prefix, opts);
    if (opts.startKey) return this.fromEtcd(prefix, opts);
    if (opts.consistency === 'notOlderThan') {
      const min = opts.minRevision ?? 0;
      if (min === 0) return this.fromMemory(prefix, store, store.revision, opts);
      if (opts.limit) return this.fromEtcd(prefix, opts);
      if (store.revision >= min) return this.fromMemory(prefix, store, store.revision, opts);
      // Not there yet: a consistent read is at least as new as N.
    }
    const probe = await this.inner.probe(prefix);
    // The store may be replaced meanwhile (a relist); the one confirmed answers as well as any.
    const res = await answerWhenFresh(store, prefix, probe, this.freshnessTimeoutMs, (revision) => this.fromMemory(prefix, store, revision, opts));
    return res ?? this.fromEtcd(prefix, opts);
  }

  /**
   * An Exact read (a continue token, or resourceVersionMatch=Exact) from memory when the cache's
   * state of the prefix is still etcd's state at `revision` and etcd has not compacted that state
   * away (a compacted version is 410 whoever answers); undefined leaves it to etcd.
   */
  private async atRevision(cache: ResourceCache, store: CacheStore, prefix: string, revision: number, opts: ListOptions): Promise<ListResult | undefined> {
    if (!store.isStateAt(prefix, revision)) return undefined;
    if (!(await this.inner.holdsRevision(revision).catch(() => false))) return undefined;
    // While etcd answered, the store may have applied a change under the prefix, or been replaced.
    if (cache.store !== store || !store.isStateAt(prefix, revision)) return undefined;
    return this.fromMemory(prefix, store, revision, opts);
  }

  /** Updates from the cached object when the cache holds the key: no read of etcd before the write. */
  override guaranteedUpdate(key: string, tryUpdate: TryUpdate, opts: UpdateOptions = {}): Promise<StoredObject> {
    const cached = opts.cachedExisting ?? this.cacheOf(key)?.store?.get(key);
    return this.inner.guaranteedUpdate(key, tryUpdate, cached ? { ...opts, cachedExisting: cached } : opts);
  }

  /** Streams changes from the resource's shared watch, whose window the cache keeps. */
  override async watch(key: string, opts: WatchOptions, handlers: WatchHandlers): Promise<StorageWatch> {
    const cache = this.cacheOf(key);
    // The first watch waits for the cache to start, so its resource gets one shared watch, not two.
    if (cache?.starting) await cache.starting;
    return this.hub.watch(key, opts, handlers);
  }

  /**
   * Drops the cache of a resource prefix (a custom resource whose definition is gone): its memory
   * and its pin on the shared watch are released; a later read starts it afresh.
   */
  async forget(prefix: string): Promise<void> {
    const cache = this.caches.get(prefix);
    if (!cache) return;
    this.caches.delete(prefix);
    const pin = cache.pin;
    cache.store = undefined;
    cache.pin = undefined;
    await pin?.release();
  }

  override async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.caches.values()].map((c) => c.pin?.release()));
    await this.hub.close();
  }

  private fromEtcd(prefix: string, opts: ListOptions): Promise<ListResult> {
    return this.inner.list(prefix, opts);
  }

  /** The list of `prefix` as the store holds it now, reported at `revision` (which the caller vouches for). */
  private fromMemory(prefix: string, store: CacheStore, revision: number, opts: ListOptions): ListResult {
    const { predicate, limit } = opts;
    const listed = this.opts.events?.listed;
    if (limit) {
      const page = store.page(prefix, limit, predicate, opts.startKey);
      listed?.(this.resourcePrefix(prefix)!, prefix, '', page.items.length, page.items.length);
      // The rest comes from memory too while nothing changes (isStateAt), even before the store reaches `revision`.
      if (page.continueKey) store.vouch(prefix, revision);
      return { ...page, revision };
    }
    const indexed = opts.fieldEquals?.find((f) => store.hasIndex(f.field));
    if (indexed) {
      const items = store.listIndexed(prefix, indexed.field, indexed.value, predicate);
      listed?.(this.resourcePrefix(prefix)!, prefix, `f:${indexed.field}`, items.length, items.length);
      return { items, revision };
    }
    const items = store.list(prefix, predicate);
    if (listed) listed(this.resourcePrefix(prefix)!, prefix, '', predicate ? store.count(prefix) : items.length, items.length);
    return { items, revision };
  }

  /** The cache of `key`'s resource, started when this is its first use; undefined for keys not cached. */
  private cacheOf(key: string): ResourceCache | undefined {
    if (this.closed) return undefined;
    const prefix = this.resourcePrefix(key);
    if (!prefix || !key.startsWith(prefix) || !this.opts.cacheSize(prefix)) return undefined;
    let cache = this.caches.get(prefix);
    if (!cache) this.caches.set(prefix, (cache = new ResourceCache(prefix)));
    if (!cache.store && !cache.starting && Date.now() >= cache.retryAt) this.start(cache);
    return cache;
  }

  /** Lists the resource, then follows it from the list's revision through a pinned hub feed. */
  private start(cache: ResourceCache): void {
    const began = Date.now();
    const run = async () => {
      const { prefix } = cache;
      const list = await this.inner.list(prefix);
      const keys = list.keys;
      if (!keys || keys.length !== list.items.length) throw new Error(`the storage did not name the keys of ${prefix}`);
      for (const obj of list.items) deepFreeze(obj);
      const store = new CacheStore(list.revision, keys.map((k, i) => [k, list.items[i]!]), this.opts.indexers?.(prefix));
      let failed = false;
      const pin = await this.hub.pin(prefix, list.revision, {
        event: (e) => {
          store.apply(e);
          this.opts.events?.received?.(prefix);
        },
        progress: (revision) => store.progress(revision),
        failed: (err) => {
          // History compacted past where the watch was, or the watch broke for good: list anew.
          failed = true;
          if (cache.store !== store) return;
          cache.store = undefined;
          cache.pin = undefined;
          this.opts.events?.failed?.(prefix, err);
          if (!this.closed) this.start(cache);
        },
      });
      // Forgotten meanwhile (its definition went): the pin is nobody's.
      if (this.closed || failed || this.caches.get(prefix) !== cache) {
        await pin.release();
        return;
      }
      cache.store = store;
      cache.pin = pin;
      this.opts.events?.ready?.(prefix, store.revision, store.size, Date.now() - began);
    };
    cache.starting = run()
      .catch((err: unknown) => {
        cache.retryAt = Date.now() + this.retryMs;
        this.opts.events?.failed?.(cache.prefix, err);
      })
      .finally(() => {
        cache.starting = undefined;
      });
  }
}
