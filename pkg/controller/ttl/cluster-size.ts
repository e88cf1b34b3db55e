// The TTL a node agent may cache objects for, by cluster size (upstream's ttlBoundaries): the
// steps overlap so a cluster hovering around one size does not flip back and forth; the step
// moves up once the count passes its maximum and down once it falls below its minimum.
interface Boundary {
  sizeMin: number;
  sizeMax: number;
  ttlSeconds: number;
}

const boundaries: readonly Boundary[] = [
  { sizeMin: 0, sizeMax: 100, ttlSeconds: 0 },
  { sizeMin: 90, sizeMax: 500, ttlSeconds: 15 },
  { sizeMin: 450, sizeMax: 1000, ttlSeconds: 30 },
  { sizeMin: 900, sizeMax: 2000, ttlSeconds: 60 },
  { sizeMin: 1800, sizeMax: 2 ** 31 - 1, ttlSeconds: 300 },
];

/** The node count and the TTL it calls for, followed one node at a time. */
export class ClusterSize {
  private count = 0;
  private step = 0;

  /** The TTL every node should be annotated with now. */
  get ttlSeconds(): number {
    return boundaries[this.step]!.ttlSeconds;
  }

  added(): void {
    this.count++;
    if (this.count > boundaries[this.step]!.sizeMax && this.step < boundaries.length - 1) this.step++;
  }

  removed(): void {
    this.count--;
    if (this.count < boundaries[this.step]!.sizeMin && this.step > 0) this.step--;
  }
}
