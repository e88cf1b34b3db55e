// The initial events of a watch (a watch-list's state, or the synthetic ADDED events of a watch
// from resourceVersion unset or "0"), encoded a run at a time as the connection takes them. A
// watcher's initial state may be the whole collection: encoded at once, it would sit in the
// server's memory for as long as a slow client takes to read it (ARCHITECTURE section 4). Here the
// next run is encoded only when the connection has taken the last, so a watcher holds one run,
// and one that goes away stops the encoding.
import type { StoredObject } from '../storage/interface.js';
import { MAX_PIECE_BYTES } from './watch-frames.js';

export type EncodeEvent = (type: string, obj: Record<string, unknown>) => Buffer;

export class InitialEventRuns {
  /** The first run, encoded at once (see the constructor). */
  private head: Buffer | undefined;

  /**
   * `objects` go out as ADDED events, then `end` (if any) as a BOOKMARK. The first run is encoded
   * right away: the first event encoded is the first on the wire, which a Table watch relies on
   * (column definitions go with the first event), so no later event may be encoded before it.
   */
  constructor(private readonly objects: Iterator<StoredObject>, private end: Record<string, unknown> | undefined, private readonly encode: EncodeEvent) {
    this.head = this.take();
  }

  /** The next run: whole frames joined, up to MAX_PIECE_BYTES (or one larger frame); undefined when all were taken. */
  next(): Buffer | undefined {
    const head = this.head;
    if (head) {
      this.head = undefined;
      return head;
    }
    return this.take();
  }

  private take(): Buffer | undefined {
    const frames: Buffer[] = [];
    let size = 0;
    while (size < MAX_PIECE_BYTES) {
      const r = this.objects.next();
      if (r.done) {
        if (this.end) frames.push(this.encode('BOOKMARK', this.end));
        this.end = undefined;
        break;
      }
      const frame = this.encode('ADDED', r.value);
      frames.push(frame);
      size += frame.length;
    }
    if (frames.length <= 1) return frames[0];
    return Buffer.concat(frames);
  }
}
