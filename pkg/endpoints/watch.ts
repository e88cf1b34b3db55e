// Serves a watch as a chunked stream of JSON watch events, one per line.
import type { StatusError } from '../runtime/errors.js';
import type { ResourceInfo } from '../runtime/scheme.js';
import type { StoredObject } from '../storage/interface.js';
import type { ResourceRequest } from './resource-handlers.js';

export interface WatchServerOptions {
  /** The default timeout is randomised between this and twice this, as upstream does. */
  minRequestTimeoutSeconds: number;
  /** Registers the open stream for graceful shutdown; returns the function that unregisters it. */
  track?: (stop: () => void) => () => void;
  /** Called for every event sent (metrics). */
  sent?: (info: ResourceInfo) => void;
}

export async function serveWatch(r: ResourceRequest, opts: WatchServerOptions): Promise<void> {
  const q = r.query;
  const timeoutSeconds = q.int('timeoutSeconds') ?? Math.floor(opts.minRequestTimeoutSeconds * (1 + Math.random()));
  const params = {
    ...(q.str('labelSelector') !== undefined ? { labelSelector: q.str('labelSelector')! } : {}),
    ...(q.str('fieldSelector') !== undefined ? { fieldSelector: q.str('fieldSelector')! } : {}),
    ...(q.str('resourceVersion') !== undefined ? { resourceVersion: q.str('resourceVersion')! } : {}),
    allowWatchBookmarks: q.bool('allowWatchBookmarks'),
  };
  const { res, req } = r;
  const encoder = r.out.watchEncoder(r.resource);
  let ended = false;
  const pending: (string | Buffer)[] = [];
  let started = false;
  let failed = false;
  const send = (type: string, object: Record<string, unknown>) => {
    if (ended) return;
    const chunk = encoder.encode(type, object);
    if (!started) pending.push(chunk);
    else res.write(chunk);
    opts.sent?.(r.resource);
  };
  let stopWatch: (() => Promise<void>) | undefined;
  let untrack: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  const finish = () => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    untrack?.();
    void stopWatch?.();
    if (!res.writableEnded) res.end();
  };
  stopWatch = await r.store.watch(r.info.namespace, r.info.name || undefined, params, {
    event: (type, obj: StoredObject) => send(type, obj),
    bookmark: (rv) => send('BOOKMARK', { kind: r.resource.kind, apiVersion: r.resource.apiVersion, metadata: { resourceVersion: rv } }),
    error: (err: StatusError) => {
      send('ERROR', err.status as Record<string, unknown>);
      failed = true;
      if (started) finish();
    },
  });
  // Errors before this point (bad selectors, bad resourceVersion) are answered as plain Status responses.
  res.status(200);
  res.setHeader('Content-Type', encoder.contentType);
  res.setHeader('Cache-Control', 'no-cache, private');
  res.setHeader('Transfer-Encoding', 'chunked');
  res.flushHeaders();
  started = true;
  for (const chunk of pending.splice(0)) res.write(chunk);
  if (failed) {
    finish();
    return;
  }
  timer = setTimeout(finish, timeoutSeconds * 1000);
  untrack = opts.track?.(finish);
  req.on('close', finish);
  res.on('close', finish);
}
