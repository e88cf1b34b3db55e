// Work to be done at a given time, one item per key (upstream's TimedWorkerQueue): a pod's eviction
// is scheduled when it stops tolerating its node's taints and cancelled when it tolerates them
// again. An eviction that ran keeps its key, so the same pod is not scheduled twice while it goes;
// one that failed lets its key go, so the next change schedules it anew.
export interface TimedWork {
  /** When the work was scheduled first (a later, shorter toleration counts from here). */
  createdAt: number;
  fireAt: number;
}

interface Entry extends TimedWork {
  timer: NodeJS.Timeout | undefined;
}

export class TimedWorkerQueue {
  /** undefined: the work ran and its key is kept. */
  private readonly workers = new Map<string, Entry | undefined>();

  /** `work` reports its own failures and answers whether it succeeded. */
  constructor(private readonly work: (key: string, fireAt: number) => Promise<boolean>, private readonly now: () => number = Date.now) {}

  /** Schedules the work of `key` at `fireAt` (at once when due) unless the key is already known; says whether it did. */
  add(key: string, createdAt: number, fireAt: number): boolean {
    if (this.workers.has(key)) return false;
    const entry: Entry = { createdAt, fireAt, timer: undefined };
    this.workers.set(key, entry);
    entry.timer = setTimeout(() => void this.fire(key, entry), Math.max(0, fireAt - this.now()));
    return true;
  }

  /** Cancels the pending work of `key` and forgets it; says whether work was pending. */
  cancel(key: string): boolean {
    if (!this.workers.has(key)) return false;
    const entry = this.workers.get(key);
    this.workers.delete(key);
    if (!entry) return false;
    clearTimeout(entry.timer);
    return true;
  }

  /** The pending work of `key`, if any. */
  pending(key: string): TimedWork | undefined {
    return this.workers.get(key);
  }

  /** Cancels everything (the controller is stopping). */
  stop(): void {
    for (const e of this.workers.values()) if (e) clearTimeout(e.timer);
    this.workers.clear();
  }

  private async fire(key: string, entry: Entry): Promise<void> {
    const ok = await this.work(key, entry.fireAt);
    // Only if the key still holds this work (it may have been cancelled and scheduled anew meanwhile).
    if (this.workers.get(key) !== entry) return;
    if (ok) this.workers.set(key, undefined);
    else this.workers.delete(key);
  }
}
