// The highest etcd revision any thread of the process has seen of something (the
// CustomResourceDefinitions): one 64-bit slot in memory every worker thread shares, so a thread
// can tell it is behind another and wait for its own informer instead of asking etcd.

export class RevisionWatermark {
  private readonly slot: BigInt64Array;

  /** Over `memory` (from RevisionWatermark.memory()) shared with other threads, or a slot of its own. */
  constructor(readonly memory: SharedArrayBuffer = RevisionWatermark.memory()) {
    this.slot = new BigInt64Array(memory, 0, 1);
  }

  /** Memory for one watermark, to hand to every thread. */
  static memory(): SharedArrayBuffer {
    return new SharedArrayBuffer(BigInt64Array.BYTES_PER_ELEMENT);
  }

  /** Raises the mark to `revision` unless it is higher already. */
  raise(revision: number): void {
    const next = BigInt(revision);
    for (let seen = Atomics.load(this.slot, 0); seen < next;) {
      const was = Atomics.compareExchange(this.slot, 0, seen, next);
      if (was === seen) return;
      seen = was;
    }
  }

  /** The highest revision raised by any thread. */
  value(): number {
    return Number(Atomics.load(this.slot, 0));
  }
}
