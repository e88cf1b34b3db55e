// The controller's view of claims and volumes: the informer's objects, unless the controller wrote a
// newer version itself that the watch has not brought yet (upstream's storeObjectUpdate). Binding
// writes four objects in a row and the next sync must not act on the versions before them.
import type { Indexer, KubeObject } from '../../client/index.js';

const revision = (o: KubeObject | undefined) => Number(o?.metadata.resourceVersion ?? 0) || 0;

export class FreshCache<T extends KubeObject> {
  private readonly written = new Map<string, T>();

  constructor(private readonly informed: Indexer<T>, private readonly keyOf: (obj: T) => string) {}

  /** The newest version known of the object under `key`, or undefined when it is gone. */
  get(key: string): T | undefined {
    const cached = this.informed.getByKey(key);
    const mine = this.written.get(key);
    if (!cached) {
      this.written.delete(key);
      return undefined;
    }
    if (mine && revision(mine) > revision(cached)) return mine;
    this.written.delete(key);
    return cached;
  }

  /** Every object, each in its newest version. */
  list(): T[] {
    return this.informed.listKeys().map((k) => this.get(k)).filter((o): o is T => o !== undefined);
  }

  /** Remembers what the controller itself wrote. */
  wrote(obj: T): T {
    this.written.set(this.keyOf(obj), obj);
    return obj;
  }

  /** Forgets an object the informer saw deleted. */
  forget(key: string): void {
    this.written.delete(key);
  }
}
