// Storage seen through a conversion: a kind served from another kind's storage (events.<domain>/v1
// Event from core v1 events) reads and writes the stored kind's objects under that kind's keys,
// and sees them in its own shape. Every object crossing this boundary is converted: writes to the
// stored shape, reads, list items, watch events and the objects update and delete callbacks see
// to this kind's shape. Filters (list predicates) run on the converted objects, so field selectors
// name this kind's fields.
import { ForwardingStorage } from '../../storage/forwarding.js';
import type {
  CreateOptions,
  DeleteOptions,
  ListOptions,
  ListResult,
  ReadOptions,
  Storage,
  StorageWatch,
  StorageWatchEvent,
  StoredObject,
  TryUpdate,
  UpdateOptions,
  WatchHandlers,
  WatchOptions,
} from '../../storage/interface.js';

export interface StorageConversion {
  /** This kind's object as the stored kind's. */
  toStorage(obj: StoredObject): StoredObject;
  /** A stored object as this kind's. */
  fromStorage(obj: StoredObject): StoredObject;
}

export class ConvertedStorage extends ForwardingStorage {
  constructor(inner: Storage, private readonly conv: StorageConversion) {
    super(inner);
  }

  private in(obj: StoredObject): StoredObject {
    return this.conv.toStorage(obj);
  }

  private out(obj: StoredObject): StoredObject {
    return this.conv.fromStorage(obj);
  }

  override async create(key: string, obj: StoredObject, opts?: CreateOptions): Promise<StoredObject> {
    return this.out(await this.inner.create(key, this.in(obj), opts));
  }

  override async get(key: string, opts?: ReadOptions): Promise<StoredObject> {
    return this.out(await this.inner.get(key, opts));
  }

  override async list(prefix: string, opts: ListOptions = {}): Promise<ListResult> {
    // Convert once per item, whether or not a predicate looks at it.
    const converted = new WeakMap<StoredObject, StoredObject>();
    const view = (o: StoredObject) => {
      let c = converted.get(o);
      if (!c) converted.set(o, (c = this.out(o)));
      return c;
    };
    const { predicate, ...rest } = opts;
    const res = await this.inner.list(prefix, { ...rest, ...(predicate ? { predicate: (o) => predicate(view(o)) } : {}) });
    return { ...res, items: res.items.map(view) };
  }

  override async guaranteedUpdate(key: string, tryUpdate: TryUpdate, opts?: UpdateOptions): Promise<StoredObject> {
    const stored = await this.inner.guaranteedUpdate(key, async (current) => {
      const updated = await tryUpdate(current ? this.out(current) : null);
      return updated ? this.in(updated) : null;
    }, opts);
    return this.out(stored);
  }

  override async delete(key: string, opts: DeleteOptions = {}): Promise<StoredObject> {
    const { validateDeletion, ...rest } = opts;
    return this.out(await this.inner.delete(key, { ...rest, ...(validateDeletion ? { validateDeletion: (o) => validateDeletion(this.out(o)) } : {}) }));
  }

  override watch(key: string, opts: WatchOptions, handlers: WatchHandlers): Promise<StorageWatch> {
    return this.inner.watch(key, opts, {
      ...handlers,
      event: (e) => handlers.event(this.converted(e)),
    });
  }

  /**
   * Storage hands one event object to every watcher of a resource; each is converted once and the
   * same converted event handed on, so the watchers above share it as well (they prepare and
   * encode once per event object).
   */
  private readonly convertedEvents = new WeakMap<StorageWatchEvent, StorageWatchEvent>();

  private converted(e: StorageWatchEvent): StorageWatchEvent {
    let c = this.convertedEvents.get(e);
    if (!c) {
      c = { ...e, object: this.out(e.object), ...(e.prevObject ? { prevObject: this.out(e.prevObject) } : {}) };
      this.convertedEvents.set(e, c);
    }
    return c;
  }

  // The shared storage belongs to the server; closing one view must not close it.
  override async close(): Promise<void> {}
}
