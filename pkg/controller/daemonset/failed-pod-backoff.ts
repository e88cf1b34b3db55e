// How soon a DaemonSet may delete the next failed pod on a node (client-go's flowcontrol.Backoff
// as the controller manager builds it for the DaemonSet controller: 1 s doubling to 15 min), so a
// node agent that keeps rejecting a daemon pod does not meet a hot loop of replacements.
const initialMs = 1_000;
const maxMs = 15 * 60_000;

interface Entry {
  backoffMs: number;
  lastUpdate: number;
}

export class FailedPodBackoff {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The delay now in force for `key` (0 when none). */
  get(key: string): number {
    return this.entries.get(key)?.backoffMs ?? 0;
  }

  /** Whether `key` is still within its delay since its last step. */
  inBackoff(key: string): boolean {
    const e = this.entries.get(key);
    return !!e && this.now() - e.lastUpdate < e.backoffMs;
  }

  /** Steps `key`'s delay: the initial one, or twice the last (up to the maximum); long idle keys start over. */
  next(key: string): void {
    const now = this.now();
    const e = this.entries.get(key);
    if (!e || now - e.lastUpdate > 2 * maxMs) this.entries.set(key, { backoffMs: initialMs, lastUpdate: now });
    else this.entries.set(key, { backoffMs: Math.min(e.backoffMs * 2, maxMs), lastUpdate: now });
  }

  /** Forgets keys idle for longer than twice the maximum delay. */
  gc(): void {
    const now = this.now();
    for (const [k, e] of this.entries) if (now - e.lastUpdate > 2 * maxMs) this.entries.delete(k);
  }
}
