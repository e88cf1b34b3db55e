// A token bucket (golang.org/x/time/rate's reservations): `burst` requests at once, then `qps` a
// second on average. Each caller reserves its token up front, so waiters are served in order and a
// burst of callers is spread out rather than woken together.

export class TokenBucket {
  private tokens: number;
  private last: number;

  /** qps <= 0 or a non-finite qps accepts everything at once (a disabled limiter). */
  constructor(
    readonly qps: number,
    readonly burst: number,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = burst;
    this.last = now();
  }

  private get unlimited(): boolean {
    return !(this.qps > 0) || !Number.isFinite(this.qps);
  }

  private refill(): void {
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.qps);
    this.last = t;
  }

  /** Takes a token and says how many milliseconds its holder must wait before using it. */
  reserve(): number {
    if (this.unlimited) return 0;
    this.refill();
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens / this.qps) * 1000;
  }

  /** Takes a token only if one is free now. */
  tryAccept(): boolean {
    if (this.unlimited) return true;
    this.refill();
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Resolves when a reserved token may be used; rejects (and returns nothing) when `signal` aborts first. */
  async wait(signal?: AbortSignal): Promise<void> {
    const ms = this.reserve();
    if (ms <= 0) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        // Give the token back: the request it was for will not be made.
        this.tokens += 1;
        reject(signal?.reason instanceof Error ? signal.reason : new Error('rate limiter wait aborted'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
