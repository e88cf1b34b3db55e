// A mutex between the threads of one process, over one cell of shared memory: what lets threads
// take turns at a resource they all use synchronously (one file they append to), with no message
// and no turn of an event loop. Uncontended, taking and giving it back is two atomic operations.

/** The shared memory a mutex lives in (pass it to every thread that takes it). */
export function mutexMemory(): SharedArrayBuffer {
  return new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
}

export class ThreadMutex {
  private readonly cell: Int32Array;

  /** `owner` names the thread taking it (a non-zero id no other thread uses, such as its threadId). */
  constructor(memory: SharedArrayBuffer, private readonly owner: number) {
    if (owner === 0) throw new Error('a mutex owner is never 0, which marks the mutex free');
    this.cell = new Int32Array(memory, 0, 1);
  }

  /** Blocks this thread until it holds the mutex. */
  lock(): void {
    for (;;) {
      const holder = Atomics.compareExchange(this.cell, 0, 0, this.owner);
      if (holder === 0) return;
      // Bounded, so a holder that ended without giving it back is waited out once it is released for it.
      Atomics.wait(this.cell, 0, holder, 100);
    }
  }

  unlock(): void {
    Atomics.compareExchange(this.cell, 0, this.owner, 0);
    Atomics.notify(this.cell, 0, 1);
  }

  /** Frees the mutex in `memory` if `owner` holds it: a thread that ended holding it cannot. */
  static releaseFor(memory: SharedArrayBuffer, owner: number): void {
    const cell = new Int32Array(memory, 0, 1);
    if (Atomics.compareExchange(cell, 0, owner, 0) === owner) Atomics.notify(cell, 0, 1);
  }
}
