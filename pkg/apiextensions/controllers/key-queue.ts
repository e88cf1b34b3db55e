// The work queue of the API server's own CustomResourceDefinition controllers: each key is
// synced by one call at a time, a key added while its sync runs is synced again afterwards, and
// a failed sync is retried later (100 ms doubling to 30 s) unless the key is added anew first.
// A serial queue syncs one key at a time (upstream's controllers with a single worker).

const firstRetryMs = 100;
const maxRetryMs = 30_000;

export class KeyQueue {
  private readonly running = new Set<string>();
  private readonly dirty = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private stopped = false;
  /** With `serial`, the sync under way: the next one starts after it. */
  private last: Promise<void> = Promise.resolve();

  constructor(
    private readonly sync: (key: string) => Promise<void>,
    private readonly failed: (key: string, err: unknown) => void,
    private readonly serial = false,
  ) {}

  /** Syncs `key` (after `delayMs`), unless a sync of it is already waiting. */
  add(key: string, delayMs = 0): void {
    if (this.stopped) return;
    if (delayMs > 0) {
      if (this.timers.has(key)) return;
      const t = setTimeout(() => {
        this.timers.delete(key);
        this.add(key);
      }, delayMs);
      t.unref();
      this.timers.set(key, t);
      return;
    }
    if (this.running.has(key)) {
      this.dirty.add(key);
      return;
    }
    this.running.add(key);
    if (this.serial) this.last = this.last.then(() => this.run(key));
    else void this.run(key);
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }

  private async run(key: string): Promise<void> {
    let retryMs = 0;
    try {
      if (this.stopped) return;
      await this.sync(key);
      this.failures.delete(key);
    } catch (err) {
      const n = (this.failures.get(key) ?? 0) + 1;
      this.failures.set(key, n);
      retryMs = Math.min(firstRetryMs * 2 ** (n - 1), maxRetryMs);
      this.failed(key, err);
    } finally {
      this.running.delete(key);
    }
    if (this.dirty.delete(key)) this.add(key);
    else if (retryMs > 0) this.add(key, retryMs);
  }
}
