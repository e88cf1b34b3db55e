// The controller's queue (client-go's RateLimitingInterface): a DelayingQueue whose items can be
// added after the wait the rate limiter gives them. A controller calls addRateLimited when a sync
// failed (or must look again without knowing when) and forget when it succeeded, so the item's
// backoff starts over.
import { DelayingQueue } from './delaying-queue.js';
import { defaultControllerRateLimiter, type RateLimiter } from './rate-limiters.js';

export class RateLimitingQueue<T = string> extends DelayingQueue<T> {
  constructor(private readonly limiter: RateLimiter<T> = defaultControllerRateLimiter<T>(), now: () => number = Date.now) {
    super(now);
  }

  /** Adds `item` after the wait the rate limiter gives it (a failure is counted). */
  addRateLimited(item: T): void {
    this.addAfter(item, this.limiter.when(item));
  }

  /** The item succeeded: its backoff starts over. */
  forget(item: T): void {
    this.limiter.forget(item);
  }

  /** Failures counted for `item` since it was last forgotten. */
  numRequeues(item: T): number {
    return this.limiter.numRequeues(item);
  }
}
