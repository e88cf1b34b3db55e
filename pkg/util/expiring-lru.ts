// Upstream's LRUExpireCache: each entry kept for its own TTL, the least recently used dropped when
// full. The webhook authorizer and ImagePolicyWebhook keep their answers in one (allowed answers for
// one TTL, the others for another); EventRateLimit keeps its per-key buckets in one without expiry.

export class ExpiringLRU<V> {
  private readonly entries = new Map<string, { expires: number; value: V }>();

  constructor(
    private readonly maxEntries = 8192,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.entries.delete(key);
    if (e.expires <= this.now()) return undefined;
    this.entries.set(key, e); // most recently used last
    return e.value;
  }

  /** Keeps `value` for `ttlMs`; a TTL of 0 or less keeps nothing. */
  add(key: string, value: V, ttlMs: number): void {
    if (ttlMs > 0) this.addUntil(key, value, this.now() + ttlMs);
  }

  /** Keeps `value` until the clock reads `expires` (ms); a moment already past keeps nothing. */
  addUntil(key: string, value: V, expires: number): void {
    if (expires <= this.now()) return;
    this.entries.delete(key);
    this.entries.set(key, { expires, value });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }

  get size(): number {
    return this.entries.size;
  }
}
