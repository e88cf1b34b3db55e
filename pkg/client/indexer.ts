// The informer's cache: objects by key (`namespace/name`, or `name` when cluster-scoped) with
// indices kept up to date on every change (client-go's threadSafeStore): by namespace, and by any
// index function a controller adds (pods by node, objects by owner).
import type { KubeObject } from './resource-client.js';

/** The values an object is indexed under for one index. */
export type IndexFunc<T> = (obj: T) => string[];

export const namespaceIndex = 'namespace';

/** client-go's MetaNamespaceKeyFunc. */
export function objectKey(obj: KubeObject): string {
  const ns = obj.metadata.namespace;
  return ns ? `${ns}/${obj.metadata.name ?? ''}` : obj.metadata.name ?? '';
}

/** client-go's MetaNamespaceIndexFunc. */
export function namespaceIndexFunc(obj: KubeObject): string[] {
  return [obj.metadata.namespace ?? ''];
}

/** `namespace/name` split back (SplitMetaNamespaceKey). */
export function splitKey(key: string): { namespace: string; name: string } {
  const i = key.indexOf('/');
  return i < 0 ? { namespace: '', name: key } : { namespace: key.slice(0, i), name: key.slice(i + 1) };
}

export class Indexer<T extends KubeObject = KubeObject> {
  private readonly items = new Map<string, T>();
  private readonly indexers = new Map<string, IndexFunc<T>>();
  private readonly indices = new Map<string, Map<string, Set<string>>>();

  constructor(indexers: Record<string, IndexFunc<T>> = { [namespaceIndex]: namespaceIndexFunc }) {
    for (const [name, fn] of Object.entries(indexers)) this.addIndexer(name, fn);
  }

  /** Whether an index of that name exists (controllers sharing an informer add a common one once). */
  hasIndexer(name: string): boolean {
    return this.indexers.has(name);
  }

  /** Adds an index; objects already cached are indexed at once. */
  addIndexer(name: string, fn: IndexFunc<T>): void {
    if (this.indexers.has(name)) throw new Error(`indexer conflict: ${name}`);
    this.indexers.set(name, fn);
    const index = new Map<string, Set<string>>();
    this.indices.set(name, index);
    for (const [key, obj] of this.items) for (const v of fn(obj)) this.link(index, v, key);
  }

  private link(index: Map<string, Set<string>>, value: string, key: string): void {
    let keys = index.get(value);
    if (!keys) index.set(value, (keys = new Set()));
    keys.add(key);
  }

  private unindex(key: string, obj: T): void {
    for (const [name, fn] of this.indexers) {
      const index = this.indices.get(name)!;
      for (const v of fn(obj)) {
        const keys = index.get(v);
        keys?.delete(key);
        if (keys && keys.size === 0) index.delete(v);
      }
    }
  }

  private index(key: string, obj: T): void {
    for (const [name, fn] of this.indexers) for (const v of fn(obj)) this.link(this.indices.get(name)!, v, key);
  }

  /** Adds or replaces the object under its key; returns the one it replaced. */
  upsert(obj: T): T | undefined {
    const key = objectKey(obj);
    const old = this.items.get(key);
    if (old) this.unindex(key, old);
    this.items.set(key, obj);
    this.index(key, obj);
    return old;
  }

  /** Removes the object with `obj`'s key; returns what was cached. */
  remove(obj: T): T | undefined {
    const key = objectKey(obj);
    const old = this.items.get(key);
    if (old) {
      this.unindex(key, old);
      this.items.delete(key);
    }
    return old;
  }

  /** Replaces the whole contents (a relist). */
  replace(objs: T[]): void {
    this.items.clear();
    for (const index of this.indices.values()) index.clear();
    for (const o of objs) this.upsert(o);
  }

  getByKey(key: string): T | undefined {
    return this.items.get(key);
  }

  get(namespace: string, name: string): T | undefined {
    return this.items.get(namespace ? `${namespace}/${name}` : name);
  }

  list(): T[] {
    return [...this.items.values()];
  }

  listKeys(): string[] {
    return [...this.items.keys()];
  }

  /** The objects indexed under `value` by index `name`. */
  byIndex(name: string, value: string): T[] {
    const index = this.indices.get(name);
    if (!index) throw new Error(`index ${name} does not exist`);
    return [...(index.get(value) ?? [])].map((k) => this.items.get(k)!);
  }

  /** The objects of one namespace. */
  byNamespace(namespace: string): T[] {
    return this.byIndex(namespaceIndex, namespace);
  }

  /** The values of index `name` with at least one object. */
  indexValues(name: string): string[] {
    return [...(this.indices.get(name)?.keys() ?? [])];
  }

  get size(): number {
    return this.items.size;
  }
}
