// The per-zone queue of nodes waiting for their NoExecute taint (upstream's RateLimitedTimedQueue
// over a UniqueQueue): a node is queued once; each pass hands out the due nodes at most as fast as
// the zone's token bucket allows (--node-eviction-rate, burst 1), so a zone-wide outage does not
// taint, and so evict from, every node at once. A node handled successfully stays known until it
// is removed explicitly, so it is not queued again while its taint stands.
import { TokenBucket } from '../../util/token-bucket.js';

/** Upstream's EvictionRateLimiterBurst. */
const burst = 1;

export interface TimedValue {
  value: string;
  uid: string;
  addedAt: number;
  processAt: number;
}

/** A token bucket, or one that never accepts (a rate of 0 stops the zone's evictions). */
class ZoneLimiter {
  private readonly bucket: TokenBucket | undefined;

  constructor(readonly qps: number, now: () => number) {
    this.bucket = qps > 0 ? new TokenBucket(qps, burst, now) : undefined;
  }

  tryAccept(): boolean {
    return this.bucket?.tryAccept() ?? false;
  }
}

export class RateLimitedTimedQueue {
  private queue: TimedValue[] = [];
  /** Every value added and not removed, queued or already handled. */
  private readonly known = new Set<string>();
  private limiter: ZoneLimiter;

  constructor(qps: number, private readonly now: () => number = Date.now) {
    this.limiter = new ZoneLimiter(qps, now);
  }

  /** Queues `value` unless it is already known; says whether it was added. */
  add(value: string, uid: string): boolean {
    if (this.known.has(value)) return false;
    const at = this.now();
    this.known.add(value);
    this.push({ value, uid, addedAt: at, processAt: at });
    return true;
  }

  /** Forgets `value` (queued or handled); says whether it was known. */
  remove(value: string): boolean {
    const had = this.known.delete(value);
    this.queue = this.queue.filter((v) => v.value !== value);
    return had;
  }

  /**
   * Hands the due values to `fn` while tokens last (a token is spent per look, as upstream). A
   * value `fn` accepts leaves the queue but stays known; one it refuses comes back after `retryMs`.
   */
  async try(fn: (v: TimedValue) => Promise<{ done: boolean; retryMs: number }>): Promise<void> {
    for (let head = this.queue[0]; head; head = this.queue[0]) {
      if (!this.limiter.tryAccept()) return;
      const now = this.now();
      if (now < head.processAt) return;
      const { done, retryMs } = await fn(head);
      // The value may have been removed or replaced while fn ran.
      const i = this.queue.indexOf(head);
      if (i < 0) continue;
      this.queue.splice(i, 1);
      if (!done) this.push({ ...head, processAt: now + retryMs + 1 });
    }
  }

  /** Changes the rate; a rate <= 0 stops handing out values. A bucket in debt stays in debt. */
  swapLimiter(qps: number): void {
    if (this.limiter.qps === qps) return;
    const next = new ZoneLimiter(qps, this.now);
    if (qps > 0 && !this.limiter.tryAccept()) next.tryAccept();
    this.limiter = next;
  }

  /** The values waiting, in order. */
  pending(): string[] {
    return this.queue.map((v) => v.value);
  }

  private push(v: TimedValue): void {
    const i = this.queue.findIndex((q) => q.processAt > v.processAt);
    if (i < 0) this.queue.push(v);
    else this.queue.splice(i, 0, v);
  }
}
