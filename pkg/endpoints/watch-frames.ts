// The frames a watcher is sent within one turn of the event loop, written as one.
//
// Storage hands a watcher its events one by one (a delivery round of the watch hub gives each
// watcher all it has not had yet, an etcd response often carries several events). Written one
// res.write each, every event costs a chunked-encoding frame and four entries in the socket's
// write queue, each with its own completion callback; with a thousand watchers that bookkeeping
// costs more than the encryption of the bytes. Frames waiting for the end of the current job are
// concatenated instead and written once per watcher (a microtask, not a timer: an event still
// leaves in the same turn of the event loop it came in). Frames are joined whole, so every piece
// is a run of whole events (the exact concatenation of the length-prefixed protobuf frames or
// the JSON lines), and joined only up to a size, so a watcher handed a large backlog (history from
// etcd, after an old resourceVersion) still holds references, not one huge copy, and gets it
// encrypted only as fast as it reads. (Initial events are encoded as the connection takes them:
// watch-initial-events.ts.)

/** A run of frames is joined up to this many bytes (one TLS record holds 16 KiB). */
export const MAX_PIECE_BYTES = 64 * 1024;

export class PendingFrames {
  private frames: Buffer[] = [];
  private bytes = 0;

  get empty(): boolean {
    return this.frames.length === 0;
  }

  /** Adds a frame; true when it is the first since the last take (the caller schedules the write then). */
  push(frame: Buffer): boolean {
    this.frames.push(frame);
    this.bytes += frame.length;
    return this.frames.length === 1;
  }

  /** The frames waiting, in order, as pieces of whole frames of at most MAX_PIECE_BYTES (or one larger frame). */
  take(): Buffer[] {
    const frames = this.frames;
    const total = this.bytes;
    this.frames = [];
    this.bytes = 0;
    if (frames.length <= 1) return frames;
    if (total <= MAX_PIECE_BYTES) return [join(frames, 0, frames.length, total)];
    const pieces: Buffer[] = [];
    let from = 0;
    let size = 0;
    for (let i = 0; i < frames.length; i++) {
      const n = frames[i]!.length;
      if (i > from && size + n > MAX_PIECE_BYTES) {
        pieces.push(join(frames, from, i, size));
        from = i;
        size = 0;
      }
      size += n;
    }
    pieces.push(join(frames, from, frames.length, size));
    return pieces;
  }

  clear(): void {
    this.frames = [];
    this.bytes = 0;
  }
}

/**
 * The last few joins. A delivery turn hands the watchers of a resource the same events one watcher
 * after the other, and those wanting the same form get the same Buffers, so the next watcher mostly
 * needs exactly the join the previous one made: it shares it (the Buffers are never written to)
 * instead of copying the bytes again. A few are kept for watchers of several forms side by side.
 */
const recentJoins: { frames: Buffer[]; joined: Buffer }[] = [];
const RECENT_JOINS = 4;

function join(frames: Buffer[], from: number, to: number, size: number): Buffer {
  if (to - from === 1) return frames[from]!;
  for (let k = 0; k < recentJoins.length; k++) {
    const j = recentJoins[k]!;
    if (sameRun(j.frames, frames, from, to)) {
      if (k > 0) {
        recentJoins.splice(k, 1);
        recentJoins.unshift(j);
      }
      return j.joined;
    }
  }
  const run = frames.slice(from, to);
  const joined = Buffer.concat(run, size);
  recentJoins.unshift({ frames: run, joined });
  if (recentJoins.length > RECENT_JOINS) recentJoins.pop();
  return joined;
}

/** Whether `run` is frames[from..to), the same Buffer instances in the same order. */
function sameRun(run: Buffer[], frames: Buffer[], from: number, to: number): boolean {
  if (run.length !== to - from) return false;
  for (let i = 0; i < run.length; i++) if (run[i] !== frames[from + i]) return false;
  return true;
}

/**
 * The watchers with frames waiting, each written once the current job (a delivery turn, an etcd
 * response) is done. One microtask serves them all.
 */
const due: (() => void)[] = [];

/** Runs `write` at the end of the current job, with every other write due then. */
export function writeAtEndOfJob(write: () => void): void {
  due.push(write);
  if (due.length === 1) queueMicrotask(writeDue);
}

function writeDue(): void {
  // A write may make another due (it does not today); the loop picks that up too.
  for (let i = 0; i < due.length; i++) {
    try {
      due[i]!();
    } catch {
      // One watcher's broken connection is its own end (its close handler finishes it), not the others'.
    }
  }
  due.length = 0;
}
