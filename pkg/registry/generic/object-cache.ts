// An in-process informer over a registry store: one list, then a watch from the list's
// resourceVersion, kept current in memory. Authentication and authorization read Secrets,
// service accounts, roles and bindings from such caches, never from etcd on every request
// (ARCHITECTURE section 4). A watch that ends is resumed from the last resourceVersion seen;
// one that is too old (410) starts over with a fresh list.
import type { StoredObject } from '../../storage/interface.js';
import { StatusError } from '../../runtime/errors.js';
import type { Store, WatchSink } from './store.js';

export type CacheEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** Told of one change after the cache applied it, with the object it replaced. */
export type CacheListener = (type: CacheEventType, obj: StoredObject, old: StoredObject | undefined) => void;

export interface CacheOptions {
  /** Told of every change after the cache applied it (the initial list reports ADDED for each object). */
  onChange?: CacheListener;
  /** Told when the watch failed and the cache is recovering (for the operator's log). */
  onError?: (err: unknown) => void;
  /** How long to wait before trying again after a failure (default 1 s). */
  retryMs?: number;
}

const keyOf = (namespace: string | undefined, name: string | undefined) => `${namespace ?? ''}/${name ?? ''}`;

export class ObjectCache {
  private readonly objects = new Map<string, StoredObject>();
  /** The same objects by namespace: admission lists a namespace's quotas and limits on every write. */
  private readonly byNamespace = new Map<string, Map<string, StoredObject>>();
  private resourceVersion = '';
  private stopWatch: (() => Promise<void>) | undefined;
  private stopped = false;
  private synced = false;
  private readonly syncWaiters: (() => void)[] = [];
  private retryTimer: NodeJS.Timeout | undefined;
  private readonly listeners: CacheListener[] = [];

  constructor(private readonly store: Store, private readonly opts: CacheOptions = {}) {}

  /** Starts listing and watching; resolves once the first list is in memory. */
  async start(): Promise<void> {
    void this.run(true);
    await this.waitSynced();
  }

  /** Resolves once the cache holds a complete list (at once when it already does). */
  waitSynced(): Promise<void> {
    return this.synced ? Promise.resolve() : new Promise((resolve) => this.syncWaiters.push(resolve));
  }

  hasSynced(): boolean {
    return this.synced;
  }

  get(namespace: string, name: string): StoredObject | undefined {
    return this.objects.get(keyOf(namespace, name));
  }

  /** Every object, or those of one namespace. */
  list(namespace?: string): StoredObject[] {
    if (namespace === undefined) return [...this.objects.values()];
    return [...(this.byNamespace.get(namespace)?.values() ?? [])];
  }

  /**
   * Tells `listener` of every later change, as upstream's informer event handlers are told: the
   * objects already held are reported first, as ADDED, so a late listener misses nothing.
   */
  subscribe(listener: CacheListener): void {
    for (const obj of this.objects.values()) listener('ADDED', obj, undefined);
    this.listeners.push(listener);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    await this.stopWatch?.();
  }

  private apply(type: CacheEventType, obj: StoredObject): void {
    const key = keyOf(obj.metadata.namespace, obj.metadata.name);
    const old = this.objects.get(key);
    const ns = obj.metadata.namespace ?? '';
    let inNamespace = this.byNamespace.get(ns);
    if (type === 'DELETED') {
      this.objects.delete(key);
      inNamespace?.delete(key);
      if (inNamespace?.size === 0) this.byNamespace.delete(ns);
    } else {
      this.objects.set(key, obj);
      if (!inNamespace) this.byNamespace.set(ns, (inNamespace = new Map()));
      inNamespace.set(key, obj);
    }
    if (obj.metadata.resourceVersion) this.resourceVersion = obj.metadata.resourceVersion;
    this.opts.onChange?.(type, obj, old);
    for (const l of this.listeners) l(type, obj, old);
  }

  /** Lists (when asked, or when there is nothing to resume from) and watches until stopped or failed. */
  private async run(relist: boolean): Promise<void> {
    if (this.stopped) return;
    try {
      if (relist || !this.resourceVersion) await this.relist();
      const sink: WatchSink = {
        initial: (state) => {
          for (let r = state.objects.next(); !r.done; r = state.objects.next()) this.apply('ADDED', r.value);
        },
        event: (type, obj) => this.apply(type, obj),
        bookmark: (rv) => {
          this.resourceVersion = rv;
        },
        error: (err) => this.failed(err),
      };
      this.stopWatch = await this.store.watch('', undefined, { resourceVersion: this.resourceVersion, allowWatchBookmarks: true }, sink);
      if (this.stopped) await this.stopWatch();
    } catch (e) {
      this.failed(e);
    }
  }

  /** Replaces the contents with a fresh list, reporting what changed since the last one. */
  private async relist(): Promise<void> {
    const list = await this.store.list('', {});
    const seen = new Set<string>();
    for (const item of list.items) {
      const obj = { ...item, apiVersion: list.apiVersion, kind: this.store.info.kind };
      const key = keyOf(obj.metadata.namespace, obj.metadata.name);
      seen.add(key);
      const old = this.objects.get(key);
      if (!old || old.metadata.resourceVersion !== obj.metadata.resourceVersion) this.apply(old ? 'MODIFIED' : 'ADDED', obj);
    }
    for (const [key, old] of [...this.objects]) if (!seen.has(key)) this.apply('DELETED', old);
    this.resourceVersion = list.metadata.resourceVersion ?? '';
    if (!this.synced) {
      this.synced = true;
      for (const w of this.syncWaiters.splice(0)) w();
    }
  }

  private failed(err: unknown): void {
    if (this.stopped) return;
    this.opts.onError?.(err);
    const stop = this.stopWatch;
    this.stopWatch = undefined;
    void stop?.();
    // A resourceVersion too old to watch from (410) needs a fresh list; anything else resumes.
    const relist = err instanceof StatusError && err.code === 410;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => void this.run(relist), this.opts.retryMs ?? 1000);
    this.retryTimer.unref();
  }
}
