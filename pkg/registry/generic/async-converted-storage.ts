// Storage seen through a conversion that takes time (a custom resource's conversion webhook): what
// ConvertedStorage does, with conversions that are awaited. A list is converted in one call (one
// ConversionReview for the page), watch events in the order they came. List predicates see the
// stored objects: a custom resource's selectors name only labels, metadata.name and
// metadata.namespace, which conversion keeps.
import { ForwardingStorage } from '../../storage/forwarding.js';
import type {
  CreateOptions, DeleteOptions, ListOptions, ListResult, ReadOptions, Storage, StorageWatch, StoredObject, TryUpdate, UpdateOptions, WatchHandlers, WatchOptions,
} from '../../storage/interface.js';

export interface AsyncStorageConversion {
  /** The objects as stored (in the storage version). */
  toStorage(obj: StoredObject): Promise<StoredObject>;
  /** Stored objects as this view's, in order. */
  fromStorage(objs: readonly StoredObject[]): Promise<StoredObject[]>;
}

export class AsyncConvertedStorage extends ForwardingStorage {
  constructor(inner: Storage, private readonly conv: AsyncStorageConversion) {
    super(inner);
  }

  private async out(obj: StoredObject): Promise<StoredObject> {
    return (await this.conv.fromStorage([obj]))[0]!;
  }

  override async create(key: string, obj: StoredObject, opts?: CreateOptions): Promise<StoredObject> {
    return this.out(await this.inner.create(key, await this.conv.toStorage(obj), opts));
  }

  override async get(key: string, opts?: ReadOptions): Promise<StoredObject> {
    return this.out(await this.inner.get(key, opts));
  }

  override async list(prefix: string, opts: ListOptions = {}): Promise<ListResult> {
    const res = await this.inner.list(prefix, opts);
    return { ...res, items: await this.conv.fromStorage(res.items) };
  }

  override async guaranteedUpdate(key: string, tryUpdate: TryUpdate, opts?: UpdateOptions): Promise<StoredObject> {
    const stored = await this.inner.guaranteedUpdate(key, async (current) => {
      const updated = await tryUpdate(current ? await this.out(current) : null);
      return updated ? this.conv.toStorage(updated) : null;
    }, opts);
    return this.out(stored);
  }

  override async delete(key: string, opts: DeleteOptions = {}): Promise<StoredObject> {
    const { validateDeletion, ...rest } = opts;
    return this.out(await this.inner.delete(key, { ...rest, ...(validateDeletion ? { validateDeletion: async (o) => validateDeletion(await this.out(o)) } : {}) }));
  }

  override watch(key: string, opts: WatchOptions, handlers: WatchHandlers): Promise<StorageWatch> {
    // Each event (and progress mark) waits for the one before it, so the watcher sees them in order.
    let last: Promise<void> = Promise.resolve();
    const inOrder = (step: () => Promise<void> | void) => {
      last = last.then(step).catch((err: unknown) => handlers.error(err instanceof Error ? err : new Error(String(err))));
    };
    return this.inner.watch(key, opts, {
      ...handlers,
      event: (e) => inOrder(async () => {
        const [object, prevObject] = await this.conv.fromStorage(e.prevObject ? [e.object, e.prevObject] : [e.object]);
        handlers.event({ ...e, object: object!, ...(prevObject ? { prevObject } : {}) });
      }),
      progress: (revision) => inOrder(() => handlers.progress(revision)),
    });
  }

  // The shared storage belongs to the server; closing one view must not close it.
  override async close(): Promise<void> {}
}
