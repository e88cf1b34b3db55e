// The in-memory state of one resource as of one etcd revision: key -> object, the keys in etcd's
// order, and the revision everything up to which has been applied. Fed by the resource's shared
// watch (watch-hub.ts), read by the cacher (cacher.ts).
import type { StorageWatchEvent, StoredObject } from '../interface.js';

/**
 * Compares storage keys in etcd's order (the bytes of their UTF-8 encoding). UTF-16 code unit
 * order agrees with it except between surrogates (U+D800-DFFF, which encode code points above
 * U+FFFF) and U+E000-FFFF; shifting those two ranges past each other puts code points in order.
 */
export function compareKeys(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x += x >= 0xe000 ? -0x800 : 0x2000;
      y += y >= 0xe000 ? -0x800 : 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}

/** The first index in sorted `keys` whose key is not below `key`. */
function lowerBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareKeys(keys[mid]!, key) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The value of an indexed field of an object (upstream's IndexFunc); undefined leaves it out of the index. */
export type FieldIndexer = (obj: StoredObject) => string | undefined;

/** How many directories' last changes, and how many vouched prefixes, the store remembers (see isStateAt). */
const MAX_DIRECTORIES = 10_000;

/** Something waiting for the store to reach a state; `check` runs after each change and returns true when done. */
interface Waiter {
  check(): boolean;
}

export class CacheStore {
  private readonly objects = new Map<string, StoredObject>();
  /**
   * Every key, sorted as etcd sorts them. This is also the namespace index: the keys of a
   * namespace (or any prefix) are one contiguous run, found by two binary searches, so a
   * namespaced list touches only its own objects, in the order etcd would return them.
   */
  private readonly keys: string[] = [];
  private rev: number;
  /**
   * What the store knows of when its keys last changed, for Exact reads at an older revision
   * (isStateAt): the revision of the last change under each directory (the part of a key up
   * to its last '/', a namespace of a namespaced resource), and the revision since which that
   * record is complete (the initial list's, raised when the record is cut back).
   */
  private readonly changedAt = new Map<string, number>();
  private lastChange: number;
  private knownSince: number;
  /** Per prefix, the newest revision etcd vouched the store's state of it was at, and the store's revision then. */
  private readonly vouched = new Map<string, { revision: number; at: number }>();
  private readonly waiters = new Set<Waiter>();
  private checking = false;
  /** Per indexed field: its indexer, and the keys of the objects by the field's value. */
  private readonly indexes = new Map<string, { of: FieldIndexer; keys: Map<string, Set<string>> }>();

  /** `items`: the state at `revision` (keys and objects, in any order); `indexers`: fields to index. */
  constructor(revision: number, items: Iterable<[string, StoredObject]> = [], indexers: ReadonlyMap<string, FieldIndexer> = new Map()) {
    this.rev = revision;
    this.lastChange = this.knownSince = revision;
    for (const [field, of] of indexers) this.indexes.set(field, { of, keys: new Map() });
    for (const [key, obj] of items) {
      const old = this.objects.get(key);
      if (!old) this.keys.push(key);
      this.objects.set(key, obj);
      this.reindex(key, old, obj);
    }
    this.keys.sort(compareKeys);
  }

  /** Every event up to this revision has been applied, and none after it. */
  get revision(): number {
    return this.rev;
  }

  get size(): number {
    return this.objects.size;
  }

  /** Applies one watch event (revisions never decrease). */
  apply(e: StorageWatchEvent): void {
    const old = this.objects.get(e.key);
    if (e.type === 'DELETED') {
      if (old) {
        this.objects.delete(e.key);
        this.keys.splice(lowerBound(this.keys, e.key), 1);
        this.reindex(e.key, old, undefined);
        this.changed(e.key, e.revision);
      }
    } else {
      if (!old) this.keys.splice(lowerBound(this.keys, e.key), 0, e.key);
      this.objects.set(e.key, e.object);
      this.reindex(e.key, old, e.object);
      this.changed(e.key, e.revision);
    }
    this.advance(e.revision);
  }

  /**
   * Whether the store's state of the keys under `prefix` is etcd's state of them at `revision`:
   * the store has reached `revision` and nothing under `prefix` changed in it since, or etcd
   * vouched that the state was the same at `revision` (see vouch) and nothing changed since then.
   */
  isStateAt(prefix: string, revision: number): boolean {
    if (revision > this.rev) {
      const v = this.vouched.get(prefix);
      return v !== undefined && v.revision === revision && this.isStateAt(prefix, v.at);
    }
    if (revision < this.knownSince) return false;
    if (this.lastChange <= revision) return true;
    // A key lies in its directory, so a change under a directory is a change under `prefix` when
    // either one contains the other (names hold no '/': nothing else can meet).
    for (const [dir, at] of this.changedAt) {
      if (at > revision && (dir.startsWith(prefix) || prefix.startsWith(dir))) return false;
    }
    return true;
  }

  /**
   * Records that the store's current state of `prefix` is etcd's state at `revision`, newer than
   * the store's own (a freshness check proved it, freshness.ts), so that a continue token of a
   * chunk answered at `revision` can be answered from memory before the store reaches it.
   */
  vouch(prefix: string, revision: number): void {
    if (revision <= this.rev) return;
    if (this.vouched.size >= MAX_DIRECTORIES) this.vouched.clear();
    this.vouched.set(prefix, { revision, at: this.rev });
  }

  private changed(key: string, revision: number): void {
    this.lastChange = revision;
    // Past MAX_DIRECTORIES the record starts over from here: older revisions are no longer answered for.
    if (this.changedAt.size >= MAX_DIRECTORIES) {
      this.changedAt.clear();
      this.knownSince = revision;
    }
    this.changedAt.set(key.slice(0, key.lastIndexOf('/') + 1), revision);
  }

  /** Whether `field` is indexed. */
  hasIndex(field: string): boolean {
    return this.indexes.has(field);
  }

  /** The objects under `prefix` whose indexed `field` is `value` and that pass `predicate`, in key order. */
  listIndexed(prefix: string, field: string, value: string, predicate?: (obj: StoredObject) => boolean): StoredObject[] {
    const keys = [...(this.indexes.get(field)?.keys.get(value) ?? [])].filter((k) => k.startsWith(prefix)).sort(compareKeys);
    const items: StoredObject[] = [];
    for (const key of keys) {
      const obj = this.objects.get(key)!;
      if (!predicate || predicate(obj)) items.push(obj);
    }
    return items;
  }

  private reindex(key: string, old: StoredObject | undefined, obj: StoredObject | undefined): void {
    for (const index of this.indexes.values()) {
      const before = old && index.of(old);
      const after = obj && index.of(obj);
      if (before === after) continue;
      if (before !== undefined) {
        const set = index.keys.get(before)!;
        set.delete(key);
        if (set.size === 0) index.keys.delete(before);
      }
      if (after !== undefined) {
        let set = index.keys.get(after);
        if (!set) index.keys.set(after, (set = new Set()));
        set.add(key);
      }
    }
  }

  /** Nothing changed up to `revision` beyond what was applied (an etcd progress notification). */
  progress(revision: number): void {
    this.advance(revision);
  }

  get(key: string): StoredObject | undefined {
    return this.objects.get(key);
  }

  /** The objects under `prefix` that pass `predicate`, in key order. */
  list(prefix: string, predicate?: (obj: StoredObject) => boolean): StoredObject[] {
    const [from, to] = this.range(prefix);
    const items: StoredObject[] = [];
    for (let i = from; i < to; i++) {
      const obj = this.objects.get(this.keys[i]!)!;
      if (!predicate || predicate(obj)) items.push(obj);
    }
    return items;
  }

  /**
   * The first `limit` objects under `prefix` from `startKey` on that pass `predicate`, in key
   * order, with the key to continue after and how many keys follow it (before filtering) when
   * there are more.
   */
  page(prefix: string, limit: number, predicate?: (obj: StoredObject) => boolean, startKey?: string): { items: StoredObject[]; continueKey?: string; remaining?: number } {
    const [first, to] = this.range(prefix);
    const from = startKey && compareKeys(startKey, prefix) > 0 ? Math.min(lowerBound(this.keys, startKey), to) : first;
    const items: StoredObject[] = [];
    for (let i = from; i < to; i++) {
      const key = this.keys[i]!;
      const obj = this.objects.get(key)!;
      if (predicate && !predicate(obj)) continue;
      items.push(obj);
      if (items.length === limit) return i + 1 < to ? { items, continueKey: key + '\x00', remaining: to - i - 1 } : { items };
    }
    return { items };
  }

  /** How many keys lie under `prefix`. */
  count(prefix: string): number {
    const [from, to] = this.range(prefix);
    return to - from;
  }

  /**
   * Resolves with `test()`'s first defined answer, tried now and after each change of the store
   * (in the same turn as the change, so the answer describes exactly that state); undefined when
   * none came within `timeoutMs`.
   */
  when<T>(test: () => T | undefined, timeoutMs: number): Promise<T | undefined> {
    const now = test();
    if (now !== undefined) return Promise.resolve(now);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        check: () => {
          const v = test();
          if (v === undefined) return false;
          clearTimeout(timer);
          resolve(v);
          return true;
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        resolve(undefined);
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  /** The index range of the keys under `prefix`. */
  private range(prefix: string): [number, number] {
    const from = lowerBound(this.keys, prefix);
    let to = from;
    // Keys under a prefix sort right after it; a second binary search bounds the run.
    let lo = from;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.keys[mid]!.startsWith(prefix)) lo = mid + 1;
      else hi = mid;
    }
    to = lo;
    return [from, to];
  }

  private advance(revision: number): void {
    if (revision > this.rev) this.rev = revision;
    // Waiters are checked once the events that arrived together are all applied: the events of
    // one etcd transaction share a revision and come in one response.
    if (this.waiters.size > 0 && !this.checking) {
      this.checking = true;
      queueMicrotask(() => {
        this.checking = false;
        for (const w of [...this.waiters]) if (w.check()) this.waiters.delete(w);
      });
    }
  }
}
