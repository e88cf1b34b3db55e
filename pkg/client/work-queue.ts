// A work queue with client-go's guarantees: an item is queued once however often it is added; an
// item is never handed to two workers at once; an item added while a worker has it is handed out
// again after that worker calls done(). So a controller keyed by object reconciles each object
// serially and never misses a change.

export class WorkQueue<T = string> {
  private readonly queue: T[] = [];
  /** Items waiting to be processed (queued, or re-added while processing). */
  private readonly dirty = new Set<T>();
  private readonly processing = new Set<T>();
  private waiters: (() => void)[] = [];
  private drainWaiters: (() => void)[] = [];
  private shuttingDown = false;

  /** Queues `item` unless it is already waiting; an item being processed is queued again when done. */
  add(item: T): void {
    if (this.shuttingDown || this.dirty.has(item)) return;
    this.dirty.add(item);
    if (this.processing.has(item)) return;
    this.queue.push(item);
    this.wake();
  }

  private wake(): void {
    const w = this.waiters.shift();
    w?.();
  }

  /** Items waiting (not those being processed). */
  len(): number {
    return this.queue.length;
  }

  /** The next item, waiting for one; undefined once the queue is shut down and empty. */
  async get(): Promise<T | undefined> {
    while (this.queue.length === 0) {
      if (this.shuttingDown) return undefined;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    const item = this.queue.shift()!;
    this.processing.add(item);
    this.dirty.delete(item);
    return item;
  }

  /** The worker is finished with `item`; if it was added meanwhile, it is queued again. */
  done(item: T): void {
    this.processing.delete(item);
    if (this.dirty.has(item)) {
      this.queue.push(item);
      this.wake();
    }
    if (this.processing.size === 0) for (const d of this.drainWaiters.splice(0)) d();
  }

  /** Refuses new items and releases every waiting worker once the queue is empty. */
  shutDown(): void {
    this.shuttingDown = true;
    for (const w of this.waiters.splice(0)) w();
  }

  /** shutDown, then resolves once every item being processed is done. */
  async shutDownWithDrain(): Promise<void> {
    this.shutDown();
    if (this.processing.size === 0) return;
    await new Promise<void>((resolve) => this.drainWaiters.push(resolve));
  }

  isShuttingDown(): boolean {
    return this.shuttingDown;
  }
}
