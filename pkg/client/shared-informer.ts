// A shared index informer (client-go's reflector + DeltaFIFO + sharedIndexInformer in one): list the
// resource, then watch from the list's resourceVersion with bookmarks; resume from the last
// resourceVersion seen when the watch ends or the connection drops (backing off while the server
// is unreachable); relist when the server answers 410 (spec 4.5). Every change updates the cache
// first, then each handler is called in order; a relist reports what appeared, changed and
// disappeared meanwhile, so a controller converges from whatever happened while it was away.
import { isResourceExpired, statusErrorOfEvent } from './errors.js';
import { Indexer, objectKey, type IndexFunc } from './indexer.js';
import type { KubeObject, ResourceClient } from './resource-client.js';

/** An object deleted while the informer was not watching: its last known state. */
export interface DeletedFinalStateUnknown<T> {
  key: string;
  obj: T;
  finalStateUnknown: true;
}

/** Whether a deletion was seen only on a relist (its final state unknown). */
export function isDeletedFinalStateUnknown<T>(o: T | DeletedFinalStateUnknown<T>): o is DeletedFinalStateUnknown<T> {
  return (o as { finalStateUnknown?: unknown }).finalStateUnknown === true && 'obj' in (o as object);
}

/** The object of a deletion, whichever way it was seen. */
export function deletedObject<T>(o: T | DeletedFinalStateUnknown<T>): T {
  return isDeletedFinalStateUnknown(o) ? o.obj : o;
}

export interface EventHandler<T> {
  /** `isInInitialList`: the object came with the first list rather than a later change. */
  onAdd?(obj: T, isInInitialList: boolean): void;
  /** Also called with old === new state on a resync or relist. */
  onUpdate?(oldObj: T, newObj: T): void;
  onDelete?(obj: T | DeletedFinalStateUnknown<T>): void;
}

export interface InformerOptions<T> {
  labelSelector?: string;
  fieldSelector?: string;
  /** Every handler's onUpdate is called for every cached object this often; never when 0 or absent. */
  resyncMs?: number;
  /** Items per list page; client-go's 500 when absent. */
  pageSize?: number;
  indexers?: Record<string, IndexFunc<T>>;
  /** Where the informer reports what went wrong (a failed list, a refused watch); dropped when absent. */
  log?: (message: string) => void;
  /** Backoff between failed attempts: from initialBackoffMs (800) doubling to maxBackoffMs (30 000). */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
}

/** Runs one handler: its exception is reported, and must not stop the informer or the other handlers. */
function safely(log: (m: string) => void, fn: () => void): void {
  try {
    fn();
  } catch (e) {
    log(`event handler failed: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
  }
}

export class SharedIndexInformer<T extends KubeObject = KubeObject> {
  readonly indexer: Indexer<T>;
  private readonly handlers: EventHandler<T>[] = [];
  private readonly log: (m: string) => void;
  private running: Promise<void> | undefined;
  private stopped = false;
  private synced = false;
  private lastRV = '';
  private abort = new AbortController();
  private sleeping: (() => void) | undefined;
  private resyncTimer: NodeJS.Timeout | undefined;
  /** Counters a test or a metric reads: lists made, watches opened, relists forced by 410. */
  readonly stats = { lists: 0, watches: 0, expired: 0 };

  constructor(readonly client: ResourceClient<T>, private readonly options: InformerOptions<T> = {}) {
    this.indexer = new Indexer<T>(options.indexers);
    this.log = options.log ?? (() => {});
  }

  /** Adds a handler; once running, it is first told of every cached object as added. Returns its removal. */
  addEventHandler(handler: EventHandler<T>): () => void {
    this.handlers.push(handler);
    if (this.synced) for (const obj of this.indexer.list()) safely(this.log, () => handler.onAdd?.(obj, true));
    return () => {
      const i = this.handlers.indexOf(handler);
      if (i >= 0) this.handlers.splice(i, 1);
    };
  }

  addIndexer(name: string, fn: IndexFunc<T>): void {
    this.indexer.addIndexer(name, fn);
  }

  /** Starts listing and watching (once; later calls do nothing). */
  run(): void {
    if (this.running || this.stopped) return;
    this.running = this.loop();
    if (this.options.resyncMs) {
      this.resyncTimer = setInterval(() => {
        for (const obj of this.indexer.list()) this.emit((h) => h.onUpdate?.(obj, obj));
      }, this.options.resyncMs);
    }
  }

  /** Whether the first list is in the cache. */
  hasSynced(): boolean {
    return this.synced;
  }

  /** The resourceVersion the cache is at. */
  lastSyncResourceVersion(): string {
    return this.lastRV;
  }

  /** Resolves true once synced, false when `timeoutMs` passes or the informer stops first. */
  async waitForSync(timeoutMs = 60_000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!this.synced && !this.stopped && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    return this.synced;
  }

  /** Stops watching; resolves when the loop has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.resyncTimer) clearInterval(this.resyncTimer);
    this.abort.abort();
    this.sleeping?.();
    await this.running;
  }

  private emit(fn: (h: EventHandler<T>) => void): void {
    for (const h of [...this.handlers]) safely(this.log, () => fn(h));
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(done, ms);
      function done() {
        clearTimeout(t);
        resolve();
      }
      this.sleeping = done;
    });
  }

  private async loop(): Promise<void> {
    const initial = this.options.initialBackoffMs ?? 800;
    const max = this.options.maxBackoffMs ?? 30_000;
    let backoff = initial;
    let needList = true;
    while (!this.stopped) {
      try {
        if (needList) {
          await this.listAndReplace();
          needList = false;
        }
        const outcome = await this.watchOnce();
        if (outcome === 'expired') {
          needList = true;
          continue;
        }
        if (outcome === 'events') backoff = initial;
        else {
          // A watch that ended at once with nothing: do not hammer the server.
          await this.sleep(backoff);
          backoff = Math.min(max, backoff * 2);
        }
      } catch (e) {
        if (this.stopped) break;
        if (isResourceExpired(e)) {
          this.stats.expired++;
          needList = true;
          continue;
        }
        this.log(`${this.client.gvr.resource}: ${e instanceof Error ? e.message : String(e)}; retrying in ${backoff}ms`);
        await this.sleep(backoff * (1 + Math.random() * 0.1));
        backoff = Math.min(max, backoff * 2);
      }
    }
  }

  /** Lists every page; an expired continue token restarts the list whole, as client-go's pager falls back. */
  private async listAll(): Promise<{ items: T[]; resourceVersion: string }> {
    const limit = this.options.pageSize ?? 500;
    const base = { labelSelector: this.options.labelSelector, fieldSelector: this.options.fieldSelector };
    const items: T[] = [];
    let cont = '';
    let resourceVersion = '';
    do {
      this.stats.lists++;
      let page;
      try {
        page = await this.client.list({ ...base, limit, ...(cont ? { continue: cont } : {}) });
      } catch (e) {
        if (!cont || !isResourceExpired(e)) throw e;
        const whole = await this.client.list(base);
        return { items: whole.items, resourceVersion: whole.metadata.resourceVersion ?? '' };
      }
      items.push(...page.items);
      resourceVersion = page.metadata.resourceVersion ?? '';
      cont = page.metadata.continue ?? '';
    } while (cont && !this.stopped);
    return { items, resourceVersion };
  }

  private async listAndReplace(): Promise<void> {
    const { items, resourceVersion } = await this.listAll();
    if (this.stopped) return;
    const initial = !this.synced;
    const fresh = new Map(items.map((o) => [objectKey(o), o]));
    const before = new Map(this.indexer.listKeys().map((k) => [k, this.indexer.getByKey(k)!]));
    this.indexer.replace(items);
    this.lastRV = resourceVersion;
    this.synced = true;
    for (const [key, obj] of fresh) {
      const old = before.get(key);
      if (old) this.emit((h) => h.onUpdate?.(old, obj));
      else this.emit((h) => h.onAdd?.(obj, initial));
    }
    for (const [key, old] of before) {
      if (!fresh.has(key)) this.emit((h) => h.onDelete?.({ key, obj: old, finalStateUnknown: true }));
    }
  }

  /** One watch from the last resourceVersion: what ended it. */
  private async watchOnce(): Promise<'events' | 'empty' | 'expired'> {
    this.stats.watches++;
    // client-go's random 5-10 minute timeout, so many informers do not rewatch together.
    const timeoutSeconds = Math.floor(300 * (1 + Math.random()));
    const w = await this.client.watch({
      resourceVersion: this.lastRV,
      allowWatchBookmarks: true,
      timeoutSeconds,
      ...(this.options.labelSelector ? { labelSelector: this.options.labelSelector } : {}),
      ...(this.options.fieldSelector ? { fieldSelector: this.options.fieldSelector } : {}),
    }, this.abort.signal);
    const onStop = () => w.stop();
    this.abort.signal.addEventListener('abort', onStop, { once: true });
    let seen = false;
    try {
      for await (const ev of w) {
        if (this.stopped) break;
        const obj = ev.object;
        if (ev.type === 'ERROR') {
          const err = statusErrorOfEvent(obj);
          if (isResourceExpired(err)) {
            this.stats.expired++;
            return 'expired';
          }
          throw err;
        }
        seen = true;
        const rv = obj.metadata?.resourceVersion;
        if (ev.type === 'BOOKMARK') {
          if (rv) this.lastRV = rv;
          continue;
        }
        if (ev.type === 'DELETED') {
          const old = this.indexer.remove(obj);
          this.emit((h) => h.onDelete?.(old ?? obj));
        } else {
          const old = this.indexer.upsert(obj);
          if (old) this.emit((h) => h.onUpdate?.(old, obj));
          else this.emit((h) => h.onAdd?.(obj, false));
        }
        if (rv) this.lastRV = rv;
      }
    } finally {
      this.abort.signal.removeEventListener('abort', onStop);
      w.stop();
    }
    return seen ? 'events' : 'empty';
  }
}
