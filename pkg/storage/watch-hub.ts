// One etcd watch per resource, fanned out in process (ARCHITECTURE section 3). All watches of one
// etcd client share one gRPC stream and every response is matched to its watch by a linear search,
// so a thousand direct watches deliver a thousand events many times slower than one watch whose
// events are handed out here. The hub is a Storage that wraps another: everything but `watch`
// passes through, and `watch` keeps the contract (in order, no gaps, no duplicates, progress,
// errors) while sharing one underlying watch per resource prefix.
import { deepFreeze } from './deep-freeze.js';
import { EventRing } from './event-ring.js';
import { ForwardingStorage } from './forwarding.js';
import { isStorageError } from './errors.js';
import type {
  Storage,
  StorageWatch,
  StorageWatchEvent,
  WatchHandlers,
  WatchOptions,
} from './interface.js';

export interface WatchHubOptions {
  /** Events of a resource kept for watchers that start behind the live stream (default 10,000). */
  ringCapacity?: number;
  /** Kept events older than this are dropped (default two minutes). */
  ringMaxAgeMs?: number;
  /**
   * etcd skips its progress notification to a watch that received events in the interval, so the
   * shared watch of a busy resource gets none. Watchers that saw none of those events are told of
   * the progress this often instead (default one minute).
   */
  progressIntervalMs?: number;
  /** The resource prefix a watched key belongs to; default `/<group>/<resource>/`. */
  resourcePrefix?: (key: string) => string | undefined;
  /** The event window of one resource prefix, when it differs from `ringCapacity` (--watch-cache-sizes). */
  ringCapacityFor?: (prefix: string) => number | undefined;
}

/**
 * Told of everything a pinned feed's underlying watch reports, before any watcher is (a watch
 * cache keeps its copy of the resource current this way, see cacher/cacher.ts).
 */
export interface FeedObserver {
  event(e: StorageWatchEvent): void;
  progress(revision: number): void;
  /** The underlying watch ended; the feed serves nobody new. Not told when the pin is released. */
  failed(err: Error): void;
}

/** A feed held open by its owner whether or not anyone watches (WatchHub.pin). */
export interface FeedPin {
  release(): Promise<void>;
}

/** What the hub holds, for tests and metrics. */
export interface WatchHubStats {
  /** Shared underlying watches, one per resource prefix. */
  feeds: number;
  /** Watches served from a shared one. */
  shared: number;
  /** Watches that started before what a shared watch can replay, reading history on their own until they catch up. */
  catchingUp: number;
  /** Watches passed through to the wrapped storage as they are (keys outside any resource prefix). */
  direct: number;
}

/** `/<group>/<resource>/` of a storage key (ARCHITECTURE section 3). */
export function defaultResourcePrefix(key: string): string | undefined {
  return /^\/[^/]+\/[^/]+\//.exec(key)?.[0];
}

/** One watch as the hub serves it: from the shared feed, catching up on its own, or passed through. */
interface Subscriber {
  readonly key: string;
  readonly recursive: boolean;
  readonly prefix: string;
  readonly handlers: WatchHandlers;
  /** Only events after this revision are delivered; where it resumes when served anew. */
  after: number;
  /** The next ring entry to look at (entries below it were delivered or passed over). */
  nextSeq: number;
  /** The highest revision delivered as an event or progress. */
  position: number;
  /** The last progress revision delivered. */
  progressed: number;
  /** No event was delivered since the last progress tick. */
  quiet: boolean;
  /** Attached to a feed's delivery list. */
  attached: boolean;
  /** Stopped, or ended with an error: nothing more is delivered. */
  closed: boolean;
  /** Releases what serves it now (idempotent). */
  release: (() => Promise<void>) | undefined;
}

function matches(sub: { key: string; recursive: boolean }, key: string): boolean {
  return sub.recursive ? key.startsWith(sub.key) : key === sub.key;
}

type FeedState = 'starting' | 'running' | 'stopped' | 'failed';

/**
 * Delivery goes round a feed's subscribers, each getting everything it has not had yet, in turns
 * of at most TURN_MS with other work of the event loop between them: a resource with thousands of
 * watchers never stalls other requests. After a round the next one waits ROUND_PAUSE_FACTOR times
 * as long as the round took (at most ROUND_PAUSE_MAX_MS), so a busy resource takes at most about
 * half of the event loop, and each subscriber gets the events that came meanwhile in one go, which
 * the watch endpoint writes as one chunk (pkg/endpoints/watch-frames.ts). A round over a few
 * watchers takes next to nothing: their events go out at once.
 *
 * The pause used to be eight times the round (up to 200 ms), to batch more events per socket
 * write when every event was its own write. With the endpoint joining a watcher's events itself,
 * that wait was most of an event's way to the last of a thousand watchers (`make bench`,
 * BENCH_ONLY=watch, 1,000 watchers x 200 creates: create-to-last-watcher p50 about 190-370 ms
 * with a pause of one round or none, 380-880 ms with eight, under the same load).
 */
const TURN_MS = 10;
const ROUND_PAUSE_FACTOR = 1;
const ROUND_PAUSE_MAX_MS = 50;

interface FeedContext {
  inner: Storage;
  opts: Required<Omit<WatchHubOptions, 'resourcePrefix' | 'ringCapacityFor'>>;
  ringCapacity(prefix: string): number;
  /** The feed stopped or failed: later watchers need a new one. */
  ended(feed: Feed): void;
  /** Serves a subscriber anew from `sub.after` (its feed failed, or it fell behind the ring). */
  reserve(sub: Subscriber): void;
}

/** The one underlying watch of a resource prefix, its recent events and its subscribers. */
class Feed {
  state: FeedState = 'starting';
  /** Resolves true once the underlying watch runs, false when it could not start. */
  readonly ready: Promise<boolean>;
  private ring: EventRing | undefined;
  /** The attached subscribers, in delivery order. */
  private readonly subs = new Set<Subscriber>();
  /** The subscribers of the delivery round under way, and how far it is. */
  private round: Subscriber[] = [];
  private cursor = 0;
  /** The ring's nextSeq and the progress when the current round began: anything newer needs another round. */
  private roundTarget = 0;
  private roundProgress = 0;
  private scheduled = false;
  /** When the current delivery round began, and the time its turns took so far (performance.now() ms). */
  private roundStarted = 0;
  private roundBusy = 0;
  /** The next round starts no earlier than this. */
  private nextRoundAt = 0;
  /** Subscribers attached, catching up to attach, or waiting for the start. */
  private users = 0;
  /** The newest revision the underlying watch reported (event or progress). */
  private position = 0;
  /** The newest progress notification of the underlying watch. */
  private progressRevision = 0;
  private busy = false;
  private watch: StorageWatch | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** Why the underlying watch could not start. */
  startError: unknown;

  /** With `pin`, the feed starts right after `pin.afterRevision` and has one user until its owner releases it. */
  constructor(readonly prefix: string, private readonly ctx: FeedContext, private readonly pin?: { afterRevision: number; observer: FeedObserver }) {
    if (pin) this.users = 1;
    this.ready = this.start();
  }

  get subscribers(): number {
    return this.subs.size;
  }

  acquire(): void {
    this.users++;
  }

  /** One user fewer; the underlying watch stops with the last. */
  async release(): Promise<void> {
    this.users--;
    if (this.users === 0 && this.state === 'running') await this.stop();
  }

  /** Whether a subscriber that has seen everything up to `revision` can be served from here. */
  canServe(revision: number): boolean {
    return this.state === 'running' && this.ring!.covers(revision);
  }

  /** Whether a subscriber that has seen everything up to `revision` would be replayed events from the ring. */
  replays(revision: number): boolean {
    return this.ring!.firstSeqAfter(revision) < this.ring!.nextSeq;
  }

  /** Replays what the ring holds after `sub.after` at once, then delivers live events (the caller acquired). */
  attach(sub: Subscriber): void {
    const ring = this.ring!;
    sub.attached = true;
    sub.nextSeq = ring.firstSeqAfter(sub.after);
    sub.position = Math.max(sub.position, sub.after);
    sub.progressed = sub.after;
    this.subs.add(sub);
    let released = false;
    sub.release = async () => {
      if (released) return;
      released = true;
      this.detach(sub);
      await this.release();
    };
    this.deliverTo(sub);
  }

  /** Stops the underlying watch; its subscribers are not told (the hub closes, or the last one left). */
  async stop(): Promise<void> {
    if (this.state === 'stopped' || this.state === 'failed') return;
    this.state = 'stopped';
    this.end();
    for (const sub of this.subs) this.detach(sub);
    await this.watch?.stop();
  }

  private async start(): Promise<boolean> {
    let watch: StorageWatch;
    try {
      // From the current revision: a start etcd has certainly not compacted, so no watcher can be
      // failed by another's too old resourceVersion. Watchers from before it catch up on their own.
      // A pinned feed starts where its owner's snapshot was read.
      const revision = this.pin ? this.pin.afterRevision : await this.ctx.inner.currentRevision();
      if (this.users === 0 || this.state !== 'starting') {
        await this.stop();
        return false;
      }
      this.ring = new EventRing(revision, { capacity: this.ctx.ringCapacity(this.prefix), maxAgeMs: this.ctx.opts.ringMaxAgeMs });
      this.position = revision;
      watch = await this.ctx.inner.watch(this.prefix, { afterRevision: revision, recursive: true }, {
        event: (e) => this.onEvent(e),
        progress: (r) => this.onProgress(r),
        error: (err) => this.fail(err),
      });
      this.watch = watch;
    } catch (e) {
      this.startError = e;
      if (this.state === 'starting') {
        this.state = 'failed';
        this.end();
      }
      return false;
    }
    const state = this.state as FeedState; // stop() or fail() may have run meanwhile
    if (state === 'stopped') {
      await watch.stop(); // the hub closed while it connected
      return false;
    }
    if (state === 'failed') return false; // the watch ended while it connected
    if (this.users === 0) {
      await this.stop();
      return false;
    }
    this.state = 'running';
    this.timer = setInterval(() => this.tick(), this.ctx.opts.progressIntervalMs);
    this.timer.unref();
    return true;
  }

  private onEvent(e: StorageWatchEvent): void {
    if (!this.ring || this.state === 'stopped' || this.state === 'failed') return;
    deepFreeze(e);
    this.pin?.observer.event(e);
    this.ring.push(e);
    this.position = Math.max(this.position, e.revision);
    this.busy = true;
    this.schedule();
  }

  private onProgress(revision: number): void {
    if (!this.ring || this.state === 'stopped' || this.state === 'failed') return;
    this.position = Math.max(this.position, revision);
    this.progressRevision = Math.max(this.progressRevision, revision);
    this.pin?.observer.progress(revision);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    const run = () => {
      this.scheduled = false;
      this.deliverRound();
    };
    const wait = this.cursor === 0 ? this.nextRoundAt - performance.now() : 0;
    if (wait >= 1) setTimeout(run, wait);
    else setImmediate(run);
  }

  /** One turn of the delivery round: subscribers from the cursor on, until the turn's time is up. */
  private deliverRound(): void {
    if (this.state === 'stopped' || this.state === 'failed' || !this.ring) return;
    const started = performance.now();
    if (this.cursor === 0) {
      // Those attached later were handed everything when they attached.
      this.round = [...this.subs];
      this.roundTarget = this.ring.nextSeq;
      this.roundProgress = this.progressRevision;
      this.roundStarted = started;
      this.roundBusy = 0;
    }
    const deadline = started + TURN_MS;
    for (let n = 0; this.cursor < this.round.length; n++) {
      this.deliverTo(this.round[this.cursor++]!);
      if (n % 16 === 15 && performance.now() > deadline) {
        this.roundBusy += performance.now() - started;
        this.schedule();
        return;
      }
    }
    // The round is over; another if events or progress came during it, after a pause (see TURN_MS).
    this.roundBusy += performance.now() - started;
    this.cursor = 0;
    this.round = [];
    this.nextRoundAt = this.roundStarted + Math.min(ROUND_PAUSE_MAX_MS, this.roundBusy * ROUND_PAUSE_FACTOR);
    if (this.ring.nextSeq > this.roundTarget || this.progressRevision > this.roundProgress) this.schedule();
  }

  private detach(sub: Subscriber): void {
    sub.attached = false;
    this.subs.delete(sub);
  }

  /** Delivers to one subscriber what it has not had yet: events, then the latest progress. */
  private deliverTo(sub: Subscriber): void {
    const ring = this.ring!;
    if (!sub.attached || sub.closed) return;
    if (sub.nextSeq < ring.firstSeq) {
      // It fell behind what the ring holds: served anew from what it has seen, on a watch of its own.
      this.detach(sub);
      sub.release = undefined;
      this.users--; // its use passes to the new service
      this.ctx.reserve(sub);
      return;
    }
    for (; sub.nextSeq < ring.nextSeq && sub.attached && !sub.closed; ) {
      const entry = ring.get(sub.nextSeq)!;
      sub.nextSeq++;
      const e = entry.event;
      if (e.revision <= sub.after) continue;
      sub.after = e.revision; // everything up to here was seen
      if (!matches(sub, e.key)) continue;
      sub.position = Math.max(sub.position, e.revision);
      sub.quiet = false;
      try {
        sub.handlers.event(e);
      } catch (err) {
        this.drop(sub, err);
        return;
      }
    }
    if (this.progressRevision > sub.progressed && sub.attached && !sub.closed) this.progress(sub, this.progressRevision);
  }

  private progress(sub: Subscriber, revision: number): void {
    sub.progressed = revision;
    sub.position = Math.max(sub.position, revision);
    try {
      sub.handlers.progress(revision);
    } catch (err) {
      this.drop(sub, err);
    }
  }

  /** Tells the watchers that saw none of the last interval's events how far the resource was delivered. */
  private tick(): void {
    const ring = this.ring;
    if (!ring) return;
    ring.expire();
    const busy = this.busy;
    this.busy = false;
    for (const sub of this.subs) {
      if (!sub.attached || sub.closed) continue;
      // Only a subscriber that has had every event so far can be told of progress.
      if (busy && sub.quiet && sub.nextSeq === ring.nextSeq && this.position > sub.position) this.progress(sub, this.position);
      sub.quiet = true;
    }
  }

  /**
   * The underlying watch ended. Its history being compacted away is every subscriber's end as well
   * (each needed it), except for one waiting for a later revision; any other failure is no concern
   * of a subscriber as such, so each is served anew from where it is (catching up on its own watch,
   * which meets the same failure if that concerns it, as a direct watch would have).
   */
  private fail(err: Error): void {
    if (this.state === 'stopped' || this.state === 'failed') return;
    // The events received before the failure are good: hand them out first.
    for (const sub of [...this.subs]) this.deliverTo(sub);
    this.state = 'failed';
    this.end();
    const subs = [...this.subs];
    for (const sub of subs) {
      this.detach(sub);
      sub.release = undefined; // the failed feed holds nothing any more
      if (sub.closed) continue;
      if (isStorageError(err, 'Expired') && sub.after <= this.position) {
        sub.closed = true;
        try {
          sub.handlers.error(err);
        } catch {
          // the subscriber's failure to take its error changes nothing here
        }
      } else {
        sub.after = Math.max(sub.after, this.position);
        this.ctx.reserve(sub);
      }
    }
    this.pin?.observer.failed(err);
  }

  /** A subscriber's callback threw: its watch ends with that error, as a direct watch's does. */
  private drop(sub: Subscriber, err: unknown): void {
    if (sub.closed) return;
    sub.closed = true;
    void sub.release?.();
    try {
      sub.handlers.error(err instanceof Error ? err : new Error(String(err)));
    } catch {
      // as above
    }
  }

  private end(): void {
    clearInterval(this.timer);
    this.ctx.ended(this);
  }
}

/** A Storage whose watches share one underlying watch per resource prefix. */
export class WatchHub extends ForwardingStorage {
  private readonly feeds = new Map<string, Feed>();
  private readonly ctx: FeedContext;
  private readonly resourcePrefix: (key: string) => string | undefined;
  private catchingUp = 0;
  private direct = 0;

  constructor(inner: Storage, opts: WatchHubOptions = {}) {
    super(inner);
    this.ctx = {
      inner,
      opts: {
        ringCapacity: opts.ringCapacity ?? 10_000,
        ringMaxAgeMs: opts.ringMaxAgeMs ?? 120_000,
        progressIntervalMs: opts.progressIntervalMs ?? 60_000,
      },
      ringCapacity: (prefix) => opts.ringCapacityFor?.(prefix) || this.ctx.opts.ringCapacity,
      ended: (f) => {
        if (this.feeds.get(f.prefix) === f) this.feeds.delete(f.prefix);
      },
      reserve: (sub) => void this.serve(sub).catch((e: unknown) => this.end(sub, e)),
    };
    this.resourcePrefix = opts.resourcePrefix ?? defaultResourcePrefix;
  }

  stats(): WatchHubStats {
    let shared = 0;
    let feeds = 0;
    for (const f of this.feeds.values()) {
      if (f.state === 'running') feeds++;
      shared += f.subscribers;
    }
    return { feeds, shared, catchingUp: this.catchingUp, direct: this.direct };
  }

  override async close(): Promise<void> {
    await Promise.all([...this.feeds.values()].map((f) => f.stop()));
    await this.inner.close();
  }

  /**
   * Starts the shared watch of a resource prefix right after `afterRevision` (which etcd must still
   * hold), telling `observer` of everything it reports; the feed stays until released. Watchers of
   * the prefix are served from it from now on (those of an earlier feed stay there until they go).
   * Fails as the underlying watch does when it cannot start.
   */
  async pin(prefix: string, afterRevision: number, observer: FeedObserver): Promise<FeedPin> {
    const feed = new Feed(prefix, this.ctx, { afterRevision, observer });
    this.feeds.set(prefix, feed);
    if (!(await feed.ready)) {
      void feed.release();
      throw feed.startError instanceof Error ? feed.startError : new Error(`the watch of ${prefix} did not start`);
    }
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        await feed.release();
      },
    };
  }

  /** Streams changes after a revision, in order, without gaps, from the resource's shared watch. */
  override async watch(key: string, opts: WatchOptions, handlers: WatchHandlers): Promise<StorageWatch> {
    const prefix = this.resourcePrefix(key);
    if (!prefix || !key.startsWith(prefix) || (!opts.recursive && key === prefix)) return this.passThrough(key, opts, handlers);
    const sub: Subscriber = {
      key,
      recursive: opts.recursive,
      prefix,
      handlers,
      after: opts.afterRevision,
      nextSeq: 0,
      position: opts.afterRevision,
      progressed: opts.afterRevision,
      quiet: true,
      attached: false,
      closed: false,
      release: undefined,
    };
    await this.serve(sub);
    return {
      stop: async () => {
        sub.closed = true;
        const release = sub.release;
        sub.release = undefined;
        await release?.();
      },
    };
  }

  /** Serves a subscriber from its resource's feed, starting that when needed. */
  private async serve(sub: Subscriber): Promise<void> {
    let feed = this.feeds.get(sub.prefix);
    if (!feed) this.feeds.set(sub.prefix, (feed = new Feed(sub.prefix, this.ctx)));
    feed.acquire();
    if (!(await feed.ready) || feed.state !== 'running' || sub.closed) {
      void feed.release();
      // The feed could not start (etcd unreachable, say): this watcher waits and fails as a direct one would.
      if (!sub.closed) await this.serveOnItsOwn(sub);
      return;
    }
    if (feed.canServe(sub.after) && feed.replays(sub.after) && !(await this.historyHeld(sub))) {
      // etcd no longer holds what the ring would replay: the watch fails as a direct one does (410).
      void feed.release();
      if (!sub.closed) await this.serveOnItsOwn(sub);
      return;
    }
    if (feed.state !== 'running' || sub.closed) {
      void feed.release();
      if (!sub.closed) await this.serve(sub); // the feed ended meanwhile
      return;
    }
    if (feed.canServe(sub.after)) feed.attach(sub);
    else await this.catchUp(feed, sub);
  }

  /**
   * Whether etcd still holds the history after `sub.after`. A watch is answered 410 only for
   * versions etcd no longer holds (compaction is followed, whoever compacted), even when the ring
   * still has the events: a client told 410 once is told 410 again, from any server.
   */
  private async historyHeld(sub: Subscriber): Promise<boolean> {
    return this.inner.holdsRevision(sub.after + 1).catch(() => true);
  }

  /**
   * A watcher from before what the feed can replay reads history through its own underlying
   * watch, and moves over to the feed once it has caught up with what the feed holds: never a gap
   * or a duplicate, and at most a short while with two underlying watches.
   */
  private async catchUp(feed: Feed, sub: Subscriber): Promise<void> {
    const handlers = sub.handlers;
    let moved = false;
    let released = false;
    let scheduled = false;
    let own: StorageWatch | undefined;
    this.catchingUp++;
    const releaseFeed = async () => {
      if (released) return;
      released = true;
      this.catchingUp--;
      await feed.release();
    };
    const moveOver = () => {
      scheduled = false;
      if (moved || released || sub.closed || !feed.canServe(sub.after)) return;
      moved = true;
      this.catchingUp--;
      void own?.stop();
      feed.attach(sub);
    };
    // After the whole response that brought the event: the events of one revision arrive together.
    const later = () => {
      if (!scheduled) {
        scheduled = true;
        queueMicrotask(moveOver);
      }
    };
    try {
      own = await this.inner.watch(sub.key, { afterRevision: sub.after, recursive: sub.recursive }, {
        event: (e) => {
          if (moved || released || sub.closed) return;
          sub.after = e.revision;
          handlers.event(e);
          later();
        },
        progress: (revision) => {
          if (moved || released || sub.closed) return;
          sub.after = Math.max(sub.after, revision);
          handlers.progress(revision);
          later();
        },
        error: (err) => {
          if (moved || released || sub.closed) return;
          void releaseFeed();
          this.end(sub, err);
        },
      });
    } catch (e) {
      void releaseFeed();
      throw e;
    }
    const w = own;
    if (moved) {
      void w.stop();
      return;
    }
    sub.release = () => Promise.all([w.stop(), releaseFeed()]).then(() => undefined);
    if (sub.closed) void sub.release(); // stopped while it connected
  }

  /** Serves a subscriber through a watch of its own on the wrapped storage. */
  private async serveOnItsOwn(sub: Subscriber): Promise<void> {
    const w = await this.inner.watch(sub.key, { afterRevision: sub.after, recursive: sub.recursive }, {
      event: (e) => {
        if (!sub.closed) sub.handlers.event(e);
      },
      progress: (revision) => {
        if (!sub.closed) sub.handlers.progress(revision);
      },
      error: (err) => {
        if (!sub.closed) this.end(sub, err);
      },
    });
    this.direct++;
    let stopped = false;
    sub.release = async () => {
      if (!stopped) {
        stopped = true;
        this.direct--;
      }
      await w.stop();
    };
    if (sub.closed) void sub.release();
  }

  private async passThrough(key: string, opts: WatchOptions, handlers: WatchHandlers): Promise<StorageWatch> {
    const w = await this.inner.watch(key, opts, handlers);
    this.direct++;
    let stopped = false;
    return {
      stop: async () => {
        if (!stopped) {
          stopped = true;
          this.direct--;
        }
        await w.stop();
      },
    };
  }

  /** Ends a subscriber's watch with an error. */
  private end(sub: Subscriber, err: unknown): void {
    if (sub.closed) return;
    sub.closed = true;
    try {
      sub.handlers.error(err instanceof Error ? err : new Error(String(err)));
    } catch {
      // the subscriber's failure to take its error changes nothing here
    }
  }
}
