// Serves a watch as a chunked stream of watch events (JSON lines or length-prefixed protobuf).
// Watchers of one resource share the work of an event: the registry prepares it once and the
// encoder's bytes are shared (watch-encoding.ts), so what is left per watcher is the write.
import type { Logger } from '../log/logger.js';
import { qualifiedResource, type StatusError } from '../runtime/errors.js';
import type { ResourceInfo } from '../runtime/scheme.js';
import type { StoredObject } from '../storage/interface.js';
import type { ResourceRequest } from './resource-handlers.js';
import { watchSendsInitialEvents } from './list-options.js';
import { bookmarkObject, initialEventsEndObject } from './watch-encoding.js';
import { PendingFrames, writeAtEndOfJob } from './watch-frames.js';
import { InitialEventRuns } from './watch-initial-events.js';

export interface WatchServerOptions {
  /** The default timeout is randomised between this and twice this, as upstream does. */
  minRequestTimeoutSeconds: number;
  /** Registers the open stream for graceful shutdown; returns the function that unregisters it. */
  track?: (stop: () => void) => () => void;
  /** The tally of events sent to watchers of a resource (metrics), asked once per watch; one is added per event sent. */
  eventTally?: (info: ResourceInfo) => { count: number };
  /**
   * A watcher whose events wait for its connection to drain beyond this many bytes (for more than
   * a moment) is closed (default 4 MiB): it does not keep up, and buffering for it without bound
   * would cost the server its memory. The initial events do not count: they are encoded a run at
   * a time as the connection takes them (watch-initial-events.ts).
   */
  maxBufferedBytes?: number;
  /** Likewise a watcher whose connection has not drained for this long while events wait (default 60 s). */
  maxBlockedMs?: number;
  /** After such a close, how long the watcher may take to read what its connection already holds before it is cut (default 30 s). */
  slowDrainMs?: number;
  logger?: Logger;
}

const DEFAULT_MAX_BUFFERED_BYTES = 4 << 20;
const DEFAULT_MAX_BLOCKED_MS = 60_000;
const DEFAULT_SLOW_DRAIN_MS = 30_000;
/**
 * Storage pushes events without waiting (a watcher catching up from etcd gets history in large
 * batches), so a burst may pass the byte bound for a moment; a watcher is too slow when its
 * waiting bytes stay above the bound for longer than this.
 */
const OVER_BOUND_GRACE_MS = 1000;

export async function serveWatch(r: ResourceRequest, opts: WatchServerOptions): Promise<void> {
  const q = r.query;
  const { res, req, resource } = r;
  // The ListOptions of a watch are decoded as a list's: a malformed limit is a 400 here too.
  const timeoutSeconds = q.listIntegers().timeoutSeconds ?? Math.floor(opts.minRequestTimeoutSeconds * (1 + Math.random()));
  const sendInitialEvents = watchSendsInitialEvents(q, resource.domain.metaGroup);
  const params = {
    ...(q.str('labelSelector') !== undefined ? { labelSelector: q.str('labelSelector')! } : {}),
    ...(q.str('fieldSelector') !== undefined ? { fieldSelector: q.str('fieldSelector')! } : {}),
    ...(q.str('resourceVersion') !== undefined ? { resourceVersion: q.str('resourceVersion')! } : {}),
    allowWatchBookmarks: q.bool('allowWatchBookmarks'),
    ...(sendInitialEvents !== undefined ? { sendInitialEvents } : {}),
  };
  const encoder = r.out.watchEncoder(resource);
  const tally = opts.eventTally?.(resource);
  let maxBuffered = opts.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
  const maxBlockedMs = opts.maxBlockedMs ?? DEFAULT_MAX_BLOCKED_MS;
  let ended = false;
  /** The initial events not yet written: they go before anything else. */
  let initial: InitialEventRuns | undefined;
  /**
   * Events waiting for the connection: those before the headers went out (an early ERROR), those
   * that came while the initial events were written, then those that came while the socket had
   * not drained. They are
   * the encoder's shared Buffers, so a waiting watcher holds references, not copies, and TLS
   * encrypts for it only as fast as it reads.
   */
  const queue: Buffer[] = [];
  let queued = 0;
  /** Events of the current job, written together at its end (watch-frames.ts). */
  const pending = new PendingFrames();
  let flowing = false;
  let blockedSince = 0;
  /** Since when the waiting bytes are over the bound (0: they are not). */
  let overSince = 0;
  let failed = false;
  let stopWatch: (() => Promise<void>) | undefined;
  let untrack: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  const finish = () => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    untrack?.();
    void stopWatch?.();
    initial = undefined;
    queue.length = 0;
    pending.clear();
    if (!res.writableEnded) res.end();
  };
  /**
   * The watcher does not read fast enough: nothing more is written, so what it receives is a clean
   * prefix of the stream (whole events, no gap) and it resumes from the last resourceVersion it
   * saw, as after any end of a watch. It may still read what its connection holds, for a while.
   */
  const tooSlow = () => {
    opts.logger?.warn('Forcing watcher close due to unresponsiveness', {
      resource: qualifiedResource(resource.groupResource), namespace: r.info.namespace, waitingBytes: queued,
      blockedMs: Math.round(performance.now() - blockedSince),
    });
    finish();
    const cut = setTimeout(() => res.destroy(), opts.slowDrainMs ?? DEFAULT_SLOW_DRAIN_MS);
    cut.unref();
    res.once('close', () => clearTimeout(cut));
  };
  /** Writes the initial events left, then the events waiting, until the connection pushes back. */
  const flush = () => {
    while (initial && !ended) {
      const run = initial.next();
      if (!run) initial = undefined;
      else if (!res.write(run)) {
        blockedSince = queue.length > 0 ? performance.now() : 0;
        return;
      }
    }
    let i = 0;
    while (i < queue.length && !ended) {
      const chunk = queue[i++]!;
      queued -= chunk.length;
      if (!res.write(chunk)) break;
    }
    queue.splice(0, i);
    blockedSince = queue.length > 0 ? performance.now() : 0;
    if (queued <= maxBuffered) overSince = 0;
  };
  /** The stream ends with what waits (an ERROR last): handed to the connection whole, whatever it holds. */
  const endWithQueue = () => {
    for (const chunk of queue.splice(0)) res.write(chunk);
    queued = 0;
    finish();
  };
  /** Queues a piece of whole events, or closes a watcher that does not keep up. */
  const enqueue = (piece: Buffer) => {
    if (flowing) {
      const now = performance.now();
      if (blockedSince === 0) blockedSince = now;
      else if (now - blockedSince > maxBlockedMs) return tooSlow();
      if (overSince > 0 && now - overSince > OVER_BOUND_GRACE_MS) return tooSlow();
    }
    queue.push(piece);
    queued += piece.length;
    if (flowing && overSince === 0 && queued > maxBuffered) overSince = performance.now();
  };
  /** Puts what is pending behind what waits, whatever the bound (the initial events, the events before an error). */
  const queuePending = () => {
    for (const piece of pending.take()) {
      queue.push(piece);
      queued += piece.length;
    }
  };
  /** Writes the events of the job that just ended: at once if the connection takes them, else after what waits. */
  const writePending = () => {
    if (ended || pending.empty) return;
    for (const piece of pending.take()) {
      if (ended) return;
      if (flowing && !initial && queue.length === 0 && !res.writableNeedDrain) res.write(piece);
      else enqueue(piece);
    }
  };
  const encode = (type: string, object: Record<string, unknown>) => {
    if (tally) tally.count++;
    return encoder.encode(type, object);
  };
  const send = (type: string, object: Record<string, unknown>) => {
    if (ended) return;
    if (pending.push(encode(type, object))) writeAtEndOfJob(writePending);
  };
  stopWatch = await r.store.watch(r.info.namespace, r.info.name || undefined, params, {
    initial: (state) => {
      const end = state.endBookmark ? initialEventsEndObject(resource.kind, resource.apiVersion, state.resourceVersion, resource.domain) : undefined;
      initial = new InitialEventRuns(state.objects, end, encode);
    },
    event: (type, obj: StoredObject) => send(type, obj),
    bookmark: (rv) => send('BOOKMARK', bookmarkObject(resource.kind, resource.apiVersion, rv)),
    error: (err: StatusError) => {
      if (ended) return;
      failed = true;
      if (initial) {
        // The stream ends short of the initial events: the changes after them cannot go either.
        initial = undefined;
        pending.clear();
        queue.length = 0;
        queued = 0;
      }
      // After the events before it, which wait for the end of the job or for the connection.
      queuePending();
      queue.push(encoder.encode('ERROR', err.status as Record<string, unknown>));
      if (flowing) endWithQueue();
    },
  });
  // Errors before this point (bad selectors, bad resourceVersion) are answered as plain Status responses.
  res.status(200);
  res.setHeader('Content-Type', encoder.contentType);
  res.setHeader('Cache-Control', 'no-cache, private');
  res.setHeader('Transfer-Encoding', 'chunked');
  res.flushHeaders();
  // The events so far wait with the others, and the bound allows for them.
  queuePending();
  maxBuffered += queued;
  flowing = true;
  if (failed) {
    endWithQueue();
    return;
  }
  res.on('drain', flush);
  flush();
  timer = setTimeout(finish, timeoutSeconds * 1000);
  untrack = opts.track?.(finish);
  req.on('close', finish);
  res.on('close', finish);
}
