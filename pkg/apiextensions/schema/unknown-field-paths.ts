// Paths of pruned fields as upstream records them for fieldValidation (UnknownFieldPathOptions):
// keys joined by dots, map keys too (`spec.labels.foo`), list items as `[i]`, sorted at the end.

export class UnknownFieldPaths {
  readonly paths: string[] = [];
  private parent: string[] = [];

  constructor(readonly track: boolean) {}

  /** Runs `fn` with `key` appended to the current path. */
  withKey<T>(key: string, fn: () => T): T {
    return this.within(this.parent.length > 0 ? ['.', key] : [key], fn);
  }

  withIndex<T>(i: number, fn: () => T): T {
    return this.within(['[', String(i), ']'], fn);
  }

  private within<T>(parts: string[], fn: () => T): T {
    if (!this.track) return fn();
    const n = this.parent.length;
    this.parent.push(...parts);
    try {
      return fn();
    } finally {
      this.parent.length = n;
    }
  }

  /** Whether the current place is below the object's root. */
  get nested(): boolean {
    return this.parent.length > 0;
  }

  record(key: string): void {
    if (this.track) this.withKey(key, () => this.paths.push(this.parent.join('')));
  }

  /** The recorded paths, sorted as Go's sort.Strings sorts them. */
  sorted(): string[] {
    return [...this.paths].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  }
}
