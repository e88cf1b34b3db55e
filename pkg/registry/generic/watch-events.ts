// Storage watch events as the watchers of one store see them, worked out once per event rather
// than once per watcher: storage hands the same event object to every watcher of a resource (the
// watch hub and watch cache fan one underlying watch out), so the object with its typeMeta, the
// "left the selector" DELETED object and each distinct selector's verdict are computed by the first
// watcher that needs them and shared, as the same instances, by the rest. Sharing the instance is
// what lets the endpoints encode each event once (their encodings are keyed by the object).
import type { StorageWatchEvent, StoredObject } from '../../storage/interface.js';

export type DeliveredType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** What one watcher is sent for an event: nothing, or a type and the (shared, frozen) object. */
export interface Delivery {
  type: DeliveredType;
  object: StoredObject;
}

/** A watch filter, named by a key that is equal for equal filters (the selector strings). */
export interface WatchFilter {
  key: string;
  matches(obj: StoredObject): boolean;
}

/** The filter of a watch without selectors. */
export const EVERYTHING: WatchFilter = { key: '', matches: () => true };

interface Prepared {
  object?: StoredObject;
  prev?: StoredObject;
  leaving?: StoredObject;
  /** Per filter key: what its watchers are sent (null: nothing). */
  verdicts?: Map<string, Delivery | null>;
}

export class SharedWatchEvents {
  // Keyed by the storage event: an entry lives while storage keeps the event (the hub's replay window).
  private readonly prepared = new WeakMap<StorageWatchEvent, Prepared>();

  /** `typed` gives a stored object its kind and apiVersion; it must not change its input. */
  constructor(private readonly typed: (obj: StoredObject) => StoredObject) {}

  /** What a watcher with `filter` is sent for `e`: the same instance for every watcher. */
  delivery(e: StorageWatchEvent, filter: WatchFilter): Delivery | null {
    let p = this.prepared.get(e);
    if (!p) this.prepared.set(e, (p = {}));
    const verdicts = (p.verdicts ??= new Map());
    let d = verdicts.get(filter.key);
    if (d === undefined) {
      d = this.decide(e, p, filter);
      verdicts.set(filter.key, d);
    }
    return d;
  }

  private decide(e: StorageWatchEvent, p: Prepared, filter: WatchFilter): Delivery | null {
    const now = e.type !== 'DELETED' && filter.matches(e.object);
    const before = e.prevObject !== undefined && filter.matches(e.prevObject);
    const object = () => (p.object ??= Object.freeze(this.typed(e.object)));
    if (e.type === 'ADDED') return now ? { type: 'ADDED', object: object() } : null;
    if (e.type === 'DELETED') return before ? { type: 'DELETED', object: object() } : null;
    if (now && before) return { type: 'MODIFIED', object: object() };
    if (now) return { type: 'ADDED', object: object() };
    if (!before) return null;
    // Leaving the selector: the watcher last saw the old state, so that is what goes away, at this revision.
    if (!p.leaving) {
      const prev = (p.prev ??= this.typed(e.prevObject!));
      p.leaving = Object.freeze({ ...prev, metadata: Object.freeze({ ...prev.metadata, resourceVersion: String(e.revision) }) });
    }
    return { type: 'DELETED', object: p.leaving };
  }
}
