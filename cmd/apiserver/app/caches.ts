// The in-process caches the server's own parts read (authentication, admission): one list and one
// watch per resource however many parts read it, as upstream's shared informer factory gives them.
import type { Logger } from '../../../pkg/log/logger.js';
import { ObjectCache } from '../../../pkg/registry/generic/object-cache.js';
import type { Store } from '../../../pkg/registry/generic/store.js';

export class SharedCaches {
  private readonly caches = new Map<string, { cache: ObjectCache; started?: Promise<void> }>();

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

  async stop(): Promise<void> {
    await Promise.all([...this.caches.values()].map((e) => e.cache.stop()));
  }

  private entry(group: string, resource: string) {
    const key = `${group}/${resource}`;
    let e = this.caches.get(key);
    if (!e) {
      const store = this.stores.get(key);
      if (!store) return undefined;
      e = {
        cache: new ObjectCache(store, {
          onError: (err) => this.logger.warn('a cache lost its watch; it resumes', { resource: key, err: err instanceof Error ? err.message : String(err) }),
        }),
      };
      this.caches.set(key, e);
    }
    return e;
  }
}
