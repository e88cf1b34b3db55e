// The controller's queue (client-go's RateLimitingInterface): a WorkQueue whose items can be added
// after a delay, or after the wait the rate limiter gives them. While an item waits it is not in
// the queue; added again meanwhile, it waits for the earlier of the two times.
import { defaultControllerRateLimiter, type RateLimiter } from './rate-limiters.js';
import { WorkQueue } from './work-queue.js';

/** The longest delay setTimeout honours. */
const maxTimerMs = 2 ** 31 - 1;

export class RateLimitingQueue<T = string> extends WorkQueue<T> {
  private readonly waiting = new Map<T, { at: number; timer: NodeJS.Timeout }>();

  constructor(private readonly limiter: RateLimiter<T> = defaultControllerRateLimiter<T>(), private readonly now: () => number = Date.now) {
    super();
  }

  /** Adds `item` once `ms` have passed (at once when ms <= 0). */
  addAfter(item: T, ms: number): void {
    if (this.isShuttingDown()) return;
    if (ms <= 0) {
      this.add(item);
      return;
    }
    const at = this.now() + ms;
    const w = this.waiting.get(item);
    if (w && w.at <= at) return;
    if (w) clearTimeout(w.timer);
    // Node fires a timer longer than 2^31-1 ms at once: a far-off time (a token expiring next year)
    // is added at the longest timer instead, and the controller asks again for the rest.
    const timer = setTimeout(() => {
      this.waiting.delete(item);
      this.add(item);
    }, Math.min(ms, maxTimerMs));
    this.waiting.set(item, { at, timer });
  }

  /** Adds `item` after the wait the rate limiter gives it (a failure is counted). */
  addRateLimited(item: T): void {
    this.addAfter(item, this.limiter.when(item));
  }

  /** The item succeeded: its backoff starts over. */
  forget(item: T): void {
    this.limiter.forget(item);
  }

  numRequeues(item: T): number {
    return this.limiter.numRequeues(item);
  }

  /** Also drops the items still waiting, so no timer outlives the queue. */
  override shutDown(): void {
    for (const w of this.waiting.values()) clearTimeout(w.timer);
    this.waiting.clear();
    super.shutDown();
  }
}
