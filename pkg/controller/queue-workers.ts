// The loop every controller runs around its reconcile function (client-go's processNextWorkItem):
// `n` workers take keys off the rate-limited queue; a key that succeeds is forgotten, one that
// fails is re-queued with backoff, one that asks for a later look is re-queued after that delay.
import { isConflict } from '../client/errors.js';
import type { RateLimitingQueue } from '../client/rate-limiting-queue.js';
import type { Logger } from '../log/logger.js';

/** What a reconcile may answer besides success: look again after `afterMs`. */
export interface Requeue {
  requeueAfterMs: number;
  /**
   * Keep the failures counted so far (upstream's namespace controller on content that remains): the
   * later look is not a success, so a failure after it backs off from where it was. By default the
   * sync counts as a success and the backoff starts over.
   */
  keepFailures?: boolean;
}

/**
 * An expected outcome that still wants a later look (client-go's ignorable errors, e.g. a request
 * not yet authorized): re-queued with backoff like any failure, but logged at V(4), not as an error.
 */
export class RetryLater extends Error {}

export type SyncFunc = (key: string) => Promise<void | Requeue>;

export interface WorkerOptions {
  /**
   * Failures after which a key is dropped until its next event (upstream's maxRetries of the
   * deployment and endpoint controllers, 15, and the token controller, 10); retried forever when absent.
   */
  maxRetries?: number;
}

/** Runs `n` workers over `queue` until `signal` aborts; resolves once they stopped and the queue drained. */
export async function runWorkers(name: string, queue: RateLimitingQueue<string>, n: number, signal: AbortSignal, sync: SyncFunc, logger: Logger, options: WorkerOptions = {}): Promise<void> {
  const stop = () => queue.shutDown();
  if (signal.aborted) stop();
  else signal.addEventListener('abort', stop, { once: true });
  const failed = (key: string, e: unknown) => {
    const retries = queue.numRequeues(key);
    const err = e instanceof Error ? e.message : String(e);
    if (options.maxRetries !== undefined && retries >= options.maxRetries) {
      logger.info('Dropping the key out of the queue after too many failures', { controller: name, key, retries, err });
      queue.forget(key);
      return;
    }
    // A conflict only means our cache was behind a write: routine, retried like any failure.
    if (isConflict(e)) logger.v(4).info('sync met a conflict, will retry', { controller: name, key, retries });
    else if (e instanceof RetryLater) logger.v(4).info(err, { controller: name, key, retries });
    else logger.error('sync failed, will retry', { controller: name, key, err, retries });
    queue.addRateLimited(key);
  };
  const worker = async () => {
    for (;;) {
      const key = await queue.get();
      if (key === undefined) return;
      try {
        const r = await sync(key);
        if (!r?.keepFailures) queue.forget(key);
        if (r && r.requeueAfterMs > 0) queue.addAfter(key, r.requeueAfterMs);
      } catch (e) {
        if (!signal.aborted) failed(key, e);
      } finally {
        queue.done(key);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, n) }, worker));
}

/** Resolves once `signal` aborts. */
export function aborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

/** Resolves true once every informer has synced, false if `signal` aborts first. */
export async function waitForCaches(signal: AbortSignal, informers: readonly { hasSynced(): boolean }[]): Promise<boolean> {
  while (!informers.every((i) => i.hasSynced())) {
    if (signal.aborted) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !signal.aborted;
}
