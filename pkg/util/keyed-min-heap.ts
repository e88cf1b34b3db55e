// A binary min-heap of keys by a numeric priority, each key at most once, whose priority can be
// lowered in place (client-go's waitForPriorityQueue with its knownEntries map): what a delaying
// queue needs to hand items out by ready time with one timer, however many are waiting.

interface Entry<K> {
  key: K;
  priority: number;
  index: number;
}

export class KeyedMinHeap<K> {
  private readonly heap: Entry<K>[] = [];
  private readonly entries = new Map<K, Entry<K>>();

  get size(): number {
    return this.heap.length;
  }

  /** Adds `key` at `priority`, or lowers the priority it holds; answers whether anything changed. */
  offer(key: K, priority: number): boolean {
    const e = this.entries.get(key);
    if (e) {
      if (e.priority <= priority) return false;
      e.priority = priority;
      this.up(e.index);
      return true;
    }
    const entry: Entry<K> = { key, priority, index: this.heap.length };
    this.heap.push(entry);
    this.entries.set(key, entry);
    this.up(entry.index);
    return true;
  }

  /** The key of the lowest priority and that priority, without taking it. */
  peek(): { key: K; priority: number } | undefined {
    const e = this.heap[0];
    return e && { key: e.key, priority: e.priority };
  }

  /** Takes the key of the lowest priority. */
  pop(): K | undefined {
    const top = this.heap[0];
    if (!top) return undefined;
    const last = this.heap.pop()!;
    if (last !== top) {
      this.heap[0] = last;
      last.index = 0;
      this.down(0);
    }
    this.entries.delete(top.key);
    return top.key;
  }

  clear(): void {
    this.heap.length = 0;
    this.entries.clear();
  }

  private swap(i: number, j: number): void {
    const a = this.heap[i]!;
    const b = this.heap[j]!;
    this.heap[i] = b;
    this.heap[j] = a;
    a.index = j;
    b.index = i;
  }

  private up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.heap[parent]!.priority <= this.heap[i]!.priority) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(i: number): void {
    const n = this.heap.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let least = i;
      if (l < n && this.heap[l]!.priority < this.heap[least]!.priority) least = l;
      if (r < n && this.heap[r]!.priority < this.heap[least]!.priority) least = r;
      if (least === i) return;
      this.swap(i, least);
      i = least;
    }
  }
}
