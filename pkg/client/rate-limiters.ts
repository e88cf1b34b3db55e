// How long an item waits before it is retried (client-go's workqueue rate limiters): exponential
// per item, an overall token bucket, and the larger of several.
import { TokenBucket } from '../util/token-bucket.js';

export interface RateLimiter<T> {
  /** How long to wait before `item` is handed out again; counts a failure. */
  when(item: T): number;
  /** The item succeeded: its failures are forgotten. */
  forget(item: T): void;
  /** Failures counted for `item`. */
  numRequeues(item: T): number;
}

/** base * 2^failures, capped at max (client-go's ItemExponentialFailureRateLimiter). */
export class ItemExponentialFailureRateLimiter<T> implements RateLimiter<T> {
  private readonly failures = new Map<T, number>();
  constructor(private readonly baseMs: number, private readonly maxMs: number) {}

  when(item: T): number {
    const n = this.failures.get(item) ?? 0;
    this.failures.set(item, n + 1);
    const delay = this.baseMs * 2 ** n;
    return Number.isFinite(delay) ? Math.min(delay, this.maxMs) : this.maxMs;
  }

  forget(item: T): void {
    this.failures.delete(item);
  }

  numRequeues(item: T): number {
    return this.failures.get(item) ?? 0;
  }
}

/** One token bucket over all items: retries of everything together stay under qps (client-go's BucketRateLimiter). */
export class BucketRateLimiter<T> implements RateLimiter<T> {
  private readonly bucket: TokenBucket;
  constructor(qps: number, burst: number, now: () => number = Date.now) {
    this.bucket = new TokenBucket(qps, burst, now);
  }

  when(): number {
    return this.bucket.reserve();
  }

  forget(): void {}

  numRequeues(): number {
    return 0;
  }
}

/** The longest wait of its limiters (client-go's MaxOfRateLimiter). */
export class MaxOfRateLimiter<T> implements RateLimiter<T> {
  private readonly limiters: RateLimiter<T>[];
  constructor(...limiters: RateLimiter<T>[]) {
    this.limiters = limiters;
  }

  when(item: T): number {
    return Math.max(0, ...this.limiters.map((l) => l.when(item)));
  }

  forget(item: T): void {
    for (const l of this.limiters) l.forget(item);
  }

  numRequeues(item: T): number {
    return Math.max(0, ...this.limiters.map((l) => l.numRequeues(item)));
  }
}

/** client-go's DefaultControllerRateLimiter: 5ms doubling to 1000s per item, and 10 qps / 100 burst overall. */
export function defaultControllerRateLimiter<T>(now: () => number = Date.now): RateLimiter<T> {
  return new MaxOfRateLimiter<T>(new ItemExponentialFailureRateLimiter<T>(5, 1_000_000), new BucketRateLimiter<T>(10, 100, now));
}
