// A watch stream as an async iterable of events, in either encoding: newline-delimited JSON
// documents, or protobuf WatchEvent frames each preceded by a 4-byte big-endian length. A stream
// the server ends, or a connection that drops, simply ends the iteration: the caller resumes from
// the last resourceVersion it saw (spec 4.5), as client-go's reflector does.
import type { IncomingMessage } from 'node:http';
import type { Json } from './codec.js';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface WatchEvent<T = Json> {
  type: WatchEventType;
  /** The object; a Status for ERROR; only metadata.resourceVersion for BOOKMARK. */
  object: T;
}

export type FrameDecoder = (frame: Buffer) => { type: string; object: Json };

export class Watch<T = Json> implements AsyncIterable<WatchEvent<T>> {
  private stopped = false;

  /** `decodeFrame` given: protobuf frames; otherwise JSON lines. */
  constructor(private readonly res: IncomingMessage, private readonly decodeFrame?: FrameDecoder) {}

  /** Ends the stream; a pending iteration finishes without error. */
  stop(): void {
    this.stopped = true;
    this.res.destroy();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<WatchEvent<T>> {
    let pending: Buffer = Buffer.alloc(0);
    try {
      for await (const chunk of this.res) {
        pending = pending.length ? Buffer.concat([pending, chunk as Buffer]) : (chunk as Buffer);
        for (;;) {
          const next = this.decodeFrame ? this.nextFrame(pending) : nextLine(pending);
          if (!next) break;
          pending = next.rest;
          if (next.event) yield next.event as WatchEvent<T>;
        }
      }
    } catch (e) {
      // A dropped connection (a server restart, a network failure) ends the watch; so does stop().
      if (this.stopped || isConnectionError(e)) return;
      throw e;
    }
  }

  private nextFrame(buf: Buffer): { event?: WatchEvent<Json>; rest: Buffer } | undefined {
    if (buf.length < 4) return undefined;
    const len = buf.readUInt32BE(0);
    if (buf.length < 4 + len) return undefined;
    const e = this.decodeFrame!(buf.subarray(4, 4 + len));
    return { event: { type: e.type as WatchEventType, object: e.object }, rest: buf.subarray(4 + len) };
  }
}

function nextLine(buf: Buffer): { event?: WatchEvent<Json>; rest: Buffer } | undefined {
  const nl = buf.indexOf(0x0a);
  if (nl < 0) return undefined;
  const line = buf.subarray(0, nl).toString('utf8').trim();
  const rest = buf.subarray(nl + 1);
  if (!line) return { rest };
  const doc = JSON.parse(line) as { type?: unknown; object?: unknown };
  if (typeof doc.type !== 'string' || doc.object === null || typeof doc.object !== 'object') throw new Error(`malformed watch event: ${line.slice(0, 200)}`);
  return { event: { type: doc.type as WatchEventType, object: doc.object as Json }, rest };
}

function isConnectionError(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'EPIPE' || code === 'ABORT_ERR'
    || (e instanceof Error && e.message === 'aborted');
}
