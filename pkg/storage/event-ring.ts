// A bounded window of the most recent watch events of one resource, in revision order, from which
// a subscriber that starts a little behind the live stream is replayed.
import type { StorageWatchEvent } from './interface.js';

export interface RingEntry {
  /** Position in the stream of events the ring was given; never reused, so delivery can be de-duplicated. */
  seq: number;
  event: StorageWatchEvent;
  /** When the event was received (ms since the epoch). */
  at: number;
}

export interface EventRingOptions {
  /** At most this many events are held. */
  capacity: number;
  /** Events older than this are dropped. */
  maxAgeMs: number;
  now?: () => number;
}

export class EventRing {
  private readonly slots: (RingEntry | undefined)[];
  private head = 0;
  private size = 0;
  private seq = 0;
  private lastRevision: number;
  /** Every event with a revision above this one is held (events at it or below may be gone). */
  private floorRevision: number;
  private readonly now: () => number;

  /** `startRevision`: the stream begins after this revision, so everything after it is held. */
  constructor(startRevision: number, private readonly opts: EventRingOptions) {
    if (opts.capacity < 1) throw new RangeError('an event ring holds at least one event');
    this.slots = new Array<RingEntry | undefined>(opts.capacity);
    this.floorRevision = startRevision;
    this.lastRevision = startRevision;
    this.now = opts.now ?? Date.now;
  }

  get length(): number {
    return this.size;
  }

  /** The sequence number the next pushed event gets. */
  get nextSeq(): number {
    return this.seq;
  }

  /** The sequence number of the oldest held event (`nextSeq` when none is held). */
  get firstSeq(): number {
    return this.size > 0 ? this.at(0).seq : this.seq;
  }

  /** Whether every event after `revision` can still be replayed. */
  covers(revision: number): boolean {
    return revision >= this.floorRevision;
  }

  /** Appends an event (revisions never decrease), dropping the oldest ones beyond the bounds. */
  push(event: StorageWatchEvent): RingEntry {
    if (event.revision < this.lastRevision) {
      throw new RangeError(`event revision ${event.revision} is older than the ring's last revision ${this.lastRevision}`);
    }
    const entry: RingEntry = { seq: this.seq++, event, at: this.now() };
    if (this.size === this.slots.length) this.dropOldest();
    this.slots[(this.head + this.size) % this.slots.length] = entry;
    this.size++;
    this.lastRevision = event.revision;
    this.expire();
    return entry;
  }

  /** Drops the events older than the age bound. */
  expire(): void {
    const oldest = this.now() - this.opts.maxAgeMs;
    while (this.size > 0 && this.at(0).at < oldest) this.dropOldest();
  }

  /** The sequence number of the first held event with a revision above `revision` (`nextSeq` when none). */
  firstSeqAfter(revision: number): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.at(mid).event.revision <= revision) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.size ? this.at(lo).seq : this.seq;
  }

  /** The entry with this sequence number, unless it was dropped (or is not pushed yet). */
  get(seq: number): RingEntry | undefined {
    if (this.size === 0) return undefined;
    const i = seq - this.at(0).seq;
    return i >= 0 && i < this.size ? this.at(i) : undefined;
  }

  private at(i: number): RingEntry {
    return this.slots[(this.head + i) % this.slots.length]!;
  }

  private dropOldest(): void {
    const entry = this.at(0);
    this.slots[this.head] = undefined;
    this.head = (this.head + 1) % this.slots.length;
    this.size--;
    this.floorRevision = Math.max(this.floorRevision, entry.event.revision);
  }
}
