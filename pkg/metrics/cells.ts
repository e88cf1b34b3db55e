// Fast observers of label sets ("cells", histogram-cell.ts and counter-cell.ts), kept by a string
// key the caller builds from its label values: cheaper than hashing a label object per observation.

export class Cells<L extends string, C> {
  private readonly cells = new Map<string, C>();

  constructor(private readonly make: (labels: Record<L, string>) => C) {}

  /** The cell of `key`, made from `labels()` the first time. */
  get(key: string, labels: () => Record<L, string>): C {
    let cell = this.cells.get(key);
    if (!cell) this.cells.set(key, (cell = this.make(labels())));
    return cell;
  }
}
