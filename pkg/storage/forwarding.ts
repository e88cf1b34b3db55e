// A Storage that hands every call to another. The wrappers (the watch hub, the watch cache, a
// kind's converted view) extend it and override only what they change.
import type {
  CreateOptions, DeleteOptions, ListOptions, ListResult, ReadOptions, Storage, StorageWatch, StoredObject, TryUpdate, UpdateOptions,
  WatchHandlers, WatchOptions,
} from './interface.js';

export class ForwardingStorage<S extends Storage = Storage> implements Storage {
  constructor(protected readonly inner: S) {}

  create(key: string, obj: StoredObject, opts?: CreateOptions): Promise<StoredObject> {
    return this.inner.create(key, obj, opts);
  }

  get(key: string, opts?: ReadOptions): Promise<StoredObject> {
    return this.inner.get(key, opts);
  }

  list(prefix: string, opts?: ListOptions): Promise<ListResult> {
    return this.inner.list(prefix, opts);
  }

  guaranteedUpdate(key: string, tryUpdate: TryUpdate, opts?: UpdateOptions): Promise<StoredObject> {
    return this.inner.guaranteedUpdate(key, tryUpdate, opts);
  }

  delete(key: string, opts?: DeleteOptions): Promise<StoredObject> {
    return this.inner.delete(key, opts);
  }

  watch(key: string, opts: WatchOptions, handlers: WatchHandlers): Promise<StorageWatch> {
    return this.inner.watch(key, opts, handlers);
  }

  count(prefix: string): Promise<number> {
    return this.inner.count(prefix);
  }

  currentRevision(): Promise<number> {
    return this.inner.currentRevision();
  }

  compact(revision: number): Promise<void> {
    return this.inner.compact(revision);
  }

  holdsRevision(revision: number): Promise<boolean> {
    return this.inner.holdsRevision(revision);
  }

  healthy(): Promise<boolean> {
    return this.inner.healthy();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
