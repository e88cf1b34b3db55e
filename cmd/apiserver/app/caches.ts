// The in-process caches the server's own parts read (authentication, admission): one list and one
// watch per resource however many parts read it, as upstream's shared informer factory gives them.
import type { Logger } from '../../../pkg/log/logger.js';
import { ObjectCache } from '../../../pkg/registry/generic/object-cache.js';
import type { Store } from '../../../pkg/registry/generic/store.js';

export class SharedCaches {
  private readonly caches = new Map<string, { cache: ObjectCache; started?: Promise<void> }>();
  /** Caches of custom resource versions, each with the store it follows (a definition replaced brings a new one). */
  private readonly custom = new Map<string, { cache: ObjectCache; started: Promise<void>; store: Store }>();

  constructor(private readonly stores: ReadonlyMap<string, Store>, private readonly logger: Logger) {}

  /** The cache of `<group>` / `<resource>` (core group ''), made on first use; undefined when the resource is not served. */
  get(group: string, resource: string): ObjectCache | undefined {
    return this.entry(group, resource)?.cache;
  }

  /** The cache, started if it was not, once its first list is in memory. */
  async synced(group: string, resource: string): Promise<ObjectCache | undefined> {
    const e = this.entry(group, resource);
    if (!e) return undefined;
    e.started ??= e.cache.start();
    await e.started;
    return e.cache;
  }

  /** Starts every cache asked for so far and waits until all of them hold a complete list. */
  async syncAll(): Promise<void> {
    await Promise.all([...this.caches.values()].map((e) => (e.started ??= e.cache.start())));
  }

  /**
   * The started cache of the custom resource version `store` serves (custom resources are served
   * only while their definition is, so they are asked for with the store serving them now): made
   * on first use, and made again when the definition was replaced since.
   */
  customResource(store: Store): { cache: ObjectCache; started: Promise<void> } {
    const key = `${store.info.group}/${store.info.version}/${store.info.resource}`;
    const e = this.custom.get(key);
    if (e?.store === store) return e;
    if (e) void e.cache.stop();
    const cache = this.newCache(store, key);
    const fresh = { cache, started: cache.start(), store };
    this.custom.set(key, fresh);
    return fresh;
  }

  async stop(): Promise<void> {
    await Promise.all([...this.caches.values(), ...this.custom.values()].map((e) => e.cache.stop()));
  }

  private newCache(store: Store, key: string): ObjectCache {
    return new ObjectCache(store, {
      onError: (err) => this.logger.warn('a cache lost its watch; it resumes', { resource: key, err: err instanceof Error ? err.message : String(err) }),
    });
  }

  private entry(group: string, resource: string) {
    const key = `${group}/${resource}`;
    let e = this.caches.get(key);
    if (!e) {
      const store = this.stores.get(key);
      if (!store) return undefined;
      e = { cache: this.newCache(store, key) };
      this.caches.set(key, e);
    }
    return e;
  }
}
