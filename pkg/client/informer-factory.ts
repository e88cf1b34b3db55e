// One informer per resource however many controllers ask for it (client-go's
// SharedInformerFactory): controllers share the list, the watch and the cache.
import type { Client } from './client.js';
import type { KubeObject } from './resource-client.js';
import { SharedIndexInformer, type InformerOptions } from './shared-informer.js';

export interface InformerFactoryOptions {
  /** Watch one namespace only; all when absent. */
  namespace?: string;
  /** The default resync of the informers made. */
  resyncMs?: number;
  log?: (message: string) => void;
}

export class SharedInformerFactory {
  private readonly informers = new Map<string, SharedIndexInformer<KubeObject>>();

  constructor(private readonly client: Client, private readonly options: InformerFactoryOptions = {}) {}

  /** The informer of a resource, made on the first call; started by start(). */
  forResource<T extends KubeObject = KubeObject>(group: string, version: string, resource: string, options: Omit<InformerOptions<T>, 'log'> = {}): SharedIndexInformer<T> {
    const key = `${group}/${version}/${resource}`;
    let inf = this.informers.get(key);
    if (!inf) {
      let rc = this.client.resource<T>(group, version, resource);
      if (this.options.namespace && rc.info?.namespaced !== false) rc = rc.namespace(this.options.namespace);
      const made = new SharedIndexInformer<T>(rc, {
        ...(this.options.resyncMs ? { resyncMs: this.options.resyncMs } : {}),
        ...(this.options.log ? { log: this.options.log } : {}),
        ...options,
      });
      inf = made as unknown as SharedIndexInformer<KubeObject>;
      this.informers.set(key, inf);
    }
    return inf as unknown as SharedIndexInformer<T>;
  }

  /** Starts every informer not yet running (informers asked for later need another start()). */
  start(): void {
    for (const inf of this.informers.values()) inf.run();
  }

  /** Resolves with whether every informer synced within `timeoutMs`. */
  async waitForCacheSync(timeoutMs = 60_000): Promise<boolean> {
    const results = await Promise.all([...this.informers.values()].map((i) => i.waitForSync(timeoutMs)));
    return results.every(Boolean);
  }

  /** Stops every informer. */
  async shutdown(): Promise<void> {
    await Promise.all([...this.informers.values()].map((i) => i.stop()));
  }
}
