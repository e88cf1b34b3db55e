// client-go's DelayingInterface: a WorkQueue whose items can be added once a delay has passed.
// Waiting items sit in a heap by the time they are due and one timer wakes the queue for the
// earliest, so a thousand waiting items cost one timer, not a thousand. An item added again while
// it waits keeps the earlier of its two times.
import { KeyedMinHeap } from '../util/keyed-min-heap.js';
import { WorkQueue } from './work-queue.js';

/** The longest delay setTimeout honours; a later time is reached in several waits. */
const maxTimerMs = 2 ** 31 - 1;

export class DelayingQueue<T = string> extends WorkQueue<T> {
  private readonly waiting = new KeyedMinHeap<T>();
  private timer: NodeJS.Timeout | undefined;
  /** When the armed timer fires (Infinity when none is armed). */
  private timerAt = Infinity;

  constructor(protected readonly now: () => number = Date.now) {
    super();
  }

  /** Adds `item` once `ms` have passed (at once when ms <= 0). */
  addAfter(item: T, ms: number): void {
    if (this.isShuttingDown()) return;
    if (!(ms > 0)) {
      this.add(item);
      return;
    }
    if (this.waiting.offer(item, this.now() + ms)) this.arm();
  }

  /** Items waiting for their time (not yet in the queue). */
  waitingLen(): number {
    return this.waiting.size;
  }

  /** Points the one timer at the earliest waiting item. */
  private arm(): void {
    const next = this.waiting.peek();
    if (!next) return this.disarm();
    if (this.timer && this.timerAt <= next.priority) return;
    this.disarm();
    const delay = Math.min(Math.max(0, next.priority - this.now()), maxTimerMs);
    this.timerAt = this.now() + delay;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerAt = Infinity;
      this.release();
    }, delay);
  }

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
  }

  /** Queues every item whose time has come, then waits for the next. */
  private release(): void {
    const t = this.now();
    for (let next = this.waiting.peek(); next && next.priority <= t; next = this.waiting.peek()) this.add(this.waiting.pop()!);
    this.arm();
  }

  /** Also drops the items still waiting, so no timer outlives the queue. */
  override shutDown(): void {
    this.disarm();
    this.waiting.clear();
    super.shutDown();
  }
}
