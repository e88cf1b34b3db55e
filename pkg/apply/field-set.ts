// A set of field paths, held as a trie: at each node the elements that are members (paths ending
// there) and the children (paths going on). A path can be both, which FieldsV1 writes as ".".
// Sets are immutable: every operation returns a new set, possibly sharing subtrees with its inputs.
import {
  compareElements, FieldsV1Error, parseElement, pathToString, serializeElement, UNKNOWN_ELEMENT,
  type Path, type PathElement,
} from './path.js';

interface Child {
  readonly pe: PathElement;
  readonly set: FieldSet;
}

/** Index of `pe` in a sorted array, or where it would go (negative: -(insertion point) - 1). */
function search<T>(items: readonly T[], pe: PathElement, get: (t: T) => PathElement): number {
  let lo = 0;
  let hi = items.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const c = compareElements(get(items[mid]!), pe);
    if (c === 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -lo - 1;
}

const self = (pe: PathElement) => pe;
const childPe = (c: Child) => c.pe;

export class FieldSet {
  static readonly EMPTY = new FieldSet([], []);

  private constructor(
    private readonly members: readonly PathElement[],
    private readonly children: readonly Child[],
  ) {}

  /** The set holding exactly these paths. */
  static of(...paths: Path[]): FieldSet {
    const b = new FieldSetBuilder();
    for (const p of paths) b.insert(p);
    return b.build();
  }

  /** @internal Used by FieldSetBuilder; arrays must be sorted and children non-empty. */
  static fromSorted(members: readonly PathElement[], children: readonly Child[]): FieldSet {
    return members.length === 0 && children.length === 0 ? FieldSet.EMPTY : new FieldSet(members, children);
  }

  /** This set with `p` added (the empty path adds nothing). */
  insert(p: Path): FieldSet {
    if (p.length === 0) return this;
    const [head, ...rest] = p as [PathElement, ...PathElement[]];
    if (rest.length === 0) {
      const at = search(this.members, head, self);
      if (at >= 0) return this;
      const members = this.members.slice();
      members.splice(-at - 1, 0, head);
      return new FieldSet(members, this.children);
    }
    const at = search(this.children, head, childPe);
    const children = this.children.slice();
    if (at >= 0) children[at] = { pe: head, set: children[at]!.set.insert(rest) };
    else children.splice(-at - 1, 0, { pe: head, set: FieldSet.EMPTY.insert(rest) });
    return new FieldSet(this.members, children);
  }

  /** Whether `p` itself is in the set (a path only leading to members is not). */
  has(p: Path): boolean {
    if (p.length === 0) return false;
    let s: FieldSet = this;
    for (let i = 0; i < p.length - 1; i++) {
      const at = search(s.children, p[i]!, childPe);
      if (at < 0) return false;
      s = s.children[at]!.set;
    }
    return search(s.members, p[p.length - 1]!, self) >= 0;
  }

  /** Whether `pe` is a member at the top of this set. */
  hasMember(pe: PathElement): boolean {
    return search(this.members, pe, self) >= 0;
  }

  /** The paths below `pe`, without the `pe` prefix (empty when there are none). */
  withPrefix(pe: PathElement): FieldSet {
    const at = search(this.children, pe, childPe);
    return at >= 0 ? this.children[at]!.set : FieldSet.EMPTY;
  }

  /** The elements with paths below them at the top of this set, in order. */
  childElements(): PathElement[] {
    return this.children.map(childPe);
  }

  /** The members at the top of this set, in order. */
  memberElements(): readonly PathElement[] {
    return this.members;
  }

  isEmpty(): boolean {
    return this.members.length === 0 && this.children.every((c) => c.set.isEmpty());
  }

  /** The number of paths in the set. */
  size(): number {
    return this.members.length + this.children.reduce((n, c) => n + c.set.size(), 0);
  }

  equals(other: FieldSet): boolean {
    if (this === other) return true;
    if (this.members.length !== other.members.length || this.children.length !== other.children.length) return false;
    for (let i = 0; i < this.members.length; i++) if (compareElements(this.members[i]!, other.members[i]!) !== 0) return false;
    for (let i = 0; i < this.children.length; i++) {
      const a = this.children[i]!;
      const b = other.children[i]!;
      if (compareElements(a.pe, b.pe) !== 0 || !a.set.equals(b.set)) return false;
    }
    return true;
  }

  union(other: FieldSet): FieldSet {
    if (other.isEmpty()) return this;
    if (this.isEmpty()) return other;
    const members = mergeSorted(this.members, other.members, self, 'union', (a) => a);
    const children = mergeSorted(this.children, other.children, childPe, 'union', (a, b) => ({ pe: a.pe, set: a.set.union(b.set) }));
    return FieldSet.fromSorted(members, children);
  }

  intersection(other: FieldSet): FieldSet {
    const members = mergeSorted(this.members, other.members, self, 'intersection', (a) => a);
    const children = mergeSorted(this.children, other.children, childPe, 'intersection', (a, b) => ({ pe: a.pe, set: a.set.intersection(b.set) }));
    return FieldSet.fromSorted(members, children.filter((c) => !c.set.isEmpty()));
  }

  /** The paths of this set that are not in `other` (a member of `other` removes only itself). */
  difference(other: FieldSet): FieldSet {
    if (other.isEmpty()) return this;
    const members = mergeSorted(this.members, other.members, self, 'difference', (a) => a);
    const children = mergeSorted(this.children, other.children, childPe, 'subtract', (a, b) => ({ pe: a.pe, set: a.set.difference(b.set) }));
    return FieldSet.fromSorted(members, children.filter((c) => !c.set.isEmpty()));
  }

  /** Like difference, but a member of `other` also removes every path below it. */
  recursiveDifference(other: FieldSet): FieldSet {
    if (other.isEmpty()) return this;
    const members = mergeSorted(this.members, other.members, self, 'difference', (a) => a);
    const children: Child[] = [];
    for (const c of this.children) {
      if (other.hasMember(c.pe)) continue;
      const below = other.withPrefix(c.pe);
      const set = below.isEmpty() ? c.set : c.set.recursiveDifference(below);
      if (!set.isEmpty()) children.push(set === c.set ? c : { pe: c.pe, set });
    }
    return FieldSet.fromSorted(members, children);
  }

  /** The members that have no paths below them. */
  leaves(): FieldSet {
    const members = this.members.filter((m) => search(this.children, m, childPe) < 0);
    const children = this.children.map((c) => ({ pe: c.pe, set: c.set.leaves() })).filter((c) => !c.set.isEmpty());
    return FieldSet.fromSorted(members, children);
  }

  /** Every path, in upstream's order: a node's members, then the paths below each child. */
  *paths(prefix: Path = []): Generator<Path> {
    for (const m of this.members) yield [...prefix, m];
    for (const c of this.children) yield* c.set.paths([...prefix, c.pe]);
  }

  /** One printed path per line, as upstream prints a set. */
  toString(): string {
    return [...this.paths()].map(pathToString).join('\n');
  }

  /** The FieldsV1 object upstream stores: keys in upstream's order, `{}` leaves, "." for a member with children. */
  toFieldsV1(): Record<string, unknown> {
    return this.emit(false);
  }

  private emit(includeSelf: boolean): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    if (includeSelf && !this.isEmpty()) out['.'] = {};
    let i = 0;
    let j = 0;
    while (i < this.members.length || j < this.children.length) {
      const m = this.members[i];
      const c = this.children[j];
      const order = m === undefined ? 1 : c === undefined ? -1 : compareElements(m, c.pe);
      if (order < 0) {
        out[serializeElement(m!)] = {};
        i++;
      } else {
        out[serializeElement(c!.pe)] = c!.set.emit(order === 0);
        if (order === 0) i++;
        j++;
      }
    }
    return out;
  }

  /** Reads FieldsV1 as a client sent or etcd holds it; throws FieldsV1Error, with upstream's wording, when malformed. */
  static fromFieldsV1(json: unknown): FieldSet {
    if (json === null || json === undefined) return FieldSet.EMPTY;
    return readNode(json).set;
  }
}

/** Builds a set by inserting paths in place, for walkers that produce many paths. */
export class FieldSetBuilder {
  private readonly members: PathElement[] = [];
  private readonly children: { pe: PathElement; b: FieldSetBuilder }[] = [];

  insert(p: Path): this {
    let node: FieldSetBuilder = this;
    for (let i = 0; i < p.length; i++) {
      const pe = p[i]!;
      if (i === p.length - 1) {
        const at = search(node.members, pe, self);
        if (at < 0) node.members.splice(-at - 1, 0, pe);
      } else {
        const at = search(node.children, pe, (c) => c.pe);
        if (at >= 0) node = node.children[at]!.b;
        else {
          const b = new FieldSetBuilder();
          node.children.splice(-at - 1, 0, { pe, b });
          node = b;
        }
      }
    }
    return this;
  }

  build(): FieldSet {
    const children = this.children.map((c) => ({ pe: c.pe, set: c.b.build() })).filter((c) => !c.set.isEmpty());
    return FieldSet.fromSorted(this.members.slice(), children);
  }
}

/** union and intersection combine items on both sides; difference drops them; subtract combines them (children). */
type Mode = 'union' | 'intersection' | 'difference' | 'subtract';

/** A merge of two sorted arrays: items on both sides combined by `both`, one-side items kept per mode. */
function mergeSorted<T>(a: readonly T[], b: readonly T[], pe: (t: T) => PathElement, mode: Mode, both: (x: T, y: T) => T): T[] {
  const out: T[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const c = compareElements(pe(a[i]!), pe(b[j]!));
    if (c < 0) {
      if (mode !== 'intersection') out.push(a[i]!);
      i++;
    } else if (c > 0) {
      if (mode === 'union') out.push(b[j]!);
      j++;
    } else {
      if (mode !== 'difference') out.push(both(a[i]!, b[j]!));
      i++;
      j++;
    }
  }
  if (mode !== 'intersection') while (i < a.length) out.push(a[i++]!);
  if (mode === 'union') while (j < b.length) out.push(b[j++]!);
  return out;
}

function readNode(json: unknown): { set: FieldSet; isMember: boolean } {
  if (json === null) return { set: FieldSet.EMPTY, isMember: true };
  if (typeof json !== 'object' || Array.isArray(json)) {
    throw new FieldsV1Error(`ReadMapCB: expect { or n, but found ${firstChar(json)}`);
  }
  let isMember = false;
  const b = new FieldSetBuilder();
  const children = new Map<PathElement, FieldSet>();
  let any = false;
  for (const [key, value] of Object.entries(json)) {
    if (key === '.') {
      isMember = true;
      continue;
    }
    let pe: PathElement | typeof UNKNOWN_ELEMENT;
    try {
      pe = parseElement(key);
    } catch (err) {
      throw new FieldsV1Error(`parsing key as path element: ${(err as Error).message}`);
    }
    // A key of a type a later version may define is dropped, as upstream drops it.
    if (pe === UNKNOWN_ELEMENT) continue;
    const sub = readNode(value);
    if (sub.isMember) {
      b.insert([pe]);
      any = true;
    }
    if (!sub.set.isEmpty()) {
      children.set(pe, sub.set);
      any = true;
    }
  }
  let set = b.build();
  for (const [pe, sub] of children) set = set.union(prefixed(pe, sub));
  return { set, isMember: isMember || !any };
}

function prefixed(pe: PathElement, set: FieldSet): FieldSet {
  return FieldSet.fromSorted([], [{ pe, set }]);
}

function firstChar(v: unknown): string {
  const text = JSON.stringify(v) ?? 'undefined';
  return text[0] ?? '';
}
