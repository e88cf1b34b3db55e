// The index sets of an Indexed job (upstream's orderedIntervals): status.completedIndexes and
// status.failedIndexes are written as sorted, merged ranges such as "1,3-5,7"; a range of two is
// written as "3,4", as upstream does.

interface Interval {
  first: number;
  last: number;
}

export class IndexSet {
  private constructor(private readonly intervals: readonly Interval[]) {}

  static empty(): IndexSet {
    return new IndexSet([]);
  }

  /**
   * The indexes below `completions` in `text` (upstream's parseIndexesFromString): a part that does
   * not parse is skipped, one at or past `completions` ends the list, a range past it is cut.
   */
  static parse(text: string | undefined | null, completions: number): IndexSet {
    if (!text) return IndexSet.empty();
    const out: Interval[] = [];
    for (const part of text.split(',')) {
      const [a, b] = part.split('-');
      if (!/^\d+$/.test(a ?? '')) continue;
      const first = Number(a);
      if (first >= completions) break;
      let last = first;
      if (b !== undefined) {
        if (!/^\d+$/.test(b)) continue;
        last = Math.min(Number(b), completions - 1);
      }
      const prev = out[out.length - 1];
      if (prev && prev.last === first - 1) prev.last = last;
      else out.push({ first, last });
    }
    return new IndexSet(out);
  }

  /** This set with the given indexes added. */
  with(indexes: Iterable<number>): IndexSet {
    const sorted = [...new Set(indexes)].sort((x, y) => x - y);
    return this.merge(new IndexSet(sorted.map((i) => ({ first: i, last: i }))));
  }

  /** The union of both sets. */
  merge(other: IndexSet): IndexSet {
    const all = [...this.intervals, ...other.intervals].sort((x, y) => x.first - y.first);
    const out: Interval[] = [];
    for (const iv of all) {
      const prev = out[out.length - 1];
      if (!prev || iv.first > prev.last + 1) out.push({ ...iv });
      else if (prev.last < iv.last) prev.last = iv.last;
    }
    return new IndexSet(out);
  }

  has(i: number): boolean {
    return this.intervals.some((iv) => iv.first <= i && i <= iv.last);
  }

  /** How many indexes the set holds. */
  total(): number {
    return this.intervals.reduce((n, iv) => n + iv.last - iv.first + 1, 0);
  }

  /** The first `count` indexes below `completions` that are not in the set, in order. */
  firstMissing(count: number, completions: number): number[] {
    const out: number[] = [];
    let candidate = 0;
    for (const iv of this.intervals) {
      for (; candidate < completions && out.length < count && candidate < iv.first; candidate++) out.push(candidate);
      candidate = Math.max(candidate, iv.last + 1);
    }
    for (; candidate < completions && out.length < count; candidate++) out.push(candidate);
    return out;
  }

  toString(): string {
    return this.intervals.map((iv) => (iv.last === iv.first ? `${iv.first}` : `${iv.first}${iv.last === iv.first + 1 ? ',' : '-'}${iv.last}`)).join(',');
  }
}
