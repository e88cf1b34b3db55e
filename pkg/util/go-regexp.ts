// Go's regular expressions (RE2 syntax, as regexp.Compile reads them) run on JavaScript's engine.
// Patterns written for Kubernetes (OpenAPI `pattern`, CEL `matches`) are Go's: they are parsed
// here with Go's rules, refused with Go's own error text (`error parsing regexp: missing argument
// to repetition operator: `+``), and the parsed form is written out as an equivalent JS RegExp
// (flag `u`), so Go's meaning wins where the two syntaxes differ: `\s` is [\t\n\f\r ], `.` is
// anything but \n, (?m)/(?s)/(?U) and (?i) may be set for part of a pattern, `\z`, `\A`, `\Q..\E`,
// POSIX classes, and `{` `}` `]` are literals where Go reads them so.

/** A pattern Go's regexp.Compile refuses; `message` is Go's error text. */
export class GoRegexpError extends Error {
  constructor(readonly code: string, readonly expr: string) {
    super(`error parsing regexp: ${code}: \`${expr}\``);
    this.name = 'GoRegexpError';
  }
}

const ErrMissingRepeatArgument = 'missing argument to repetition operator';
const ErrInvalidRepeatOp = 'invalid nested repetition operator';
const ErrInvalidRepeatSize = 'invalid repeat count';
const ErrMissingParen = 'missing closing )';
const ErrUnexpectedParen = 'unexpected )';
const ErrMissingBracket = 'missing closing ]';
const ErrInvalidCharRange = 'invalid character class range';
const ErrInvalidEscape = 'invalid escape sequence';
const ErrTrailingBackslash = 'trailing backslash at end of expression';
const ErrInvalidPerlOp = 'invalid or unsupported Perl syntax';
const ErrInvalidNamedCapture = 'invalid named capture';
const ErrNestingDepth = 'expression nests too deeply';

interface Flags {
  fold: boolean;
  multiLine: boolean;
  dotNL: boolean;
  nonGreedy: boolean;
}

type Range = [number, number];

/** A character class: code point ranges and Unicode properties, optionally negated as a whole. */
interface ClassItems {
  ranges: Range[];
  props: string[];
}

type Node =
  | { t: 'lit'; cp: number; fold: boolean }
  | { t: 'class'; items: ClassItems; neg: boolean; fold: boolean }
  | { t: 'any'; dotNL: boolean }
  | { t: 'begin'; multiLine: boolean }
  | { t: 'end'; multiLine: boolean }
  | { t: 'beginText' }
  | { t: 'endText' }
  | { t: 'wordBoundary'; not: boolean }
  | { t: 'concat'; subs: Node[] }
  | { t: 'alt'; subs: Node[] }
  | { t: 'group'; sub: Node }
  | { t: 'repeat'; sub: Node; min: number; max: number; greedy: boolean };

const MAX_REPEAT = 1000;
const MAX_NESTING = 1000;

const posixClasses: Record<string, Range[]> = {
  alnum: [[0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a]],
  alpha: [[0x41, 0x5a], [0x61, 0x7a]],
  ascii: [[0x00, 0x7f]],
  blank: [[0x09, 0x09], [0x20, 0x20]],
  cntrl: [[0x00, 0x1f], [0x7f, 0x7f]],
  digit: [[0x30, 0x39]],
  graph: [[0x21, 0x7e]],
  lower: [[0x61, 0x7a]],
  print: [[0x20, 0x7e]],
  punct: [[0x21, 0x2f], [0x3a, 0x40], [0x5b, 0x60], [0x7b, 0x7e]],
  space: [[0x09, 0x0d], [0x20, 0x20]],
  upper: [[0x41, 0x5a]],
  word: [[0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a], [0x5f, 0x5f]],
  xdigit: [[0x30, 0x39], [0x41, 0x46], [0x61, 0x66]],
};

const perlClasses: Record<string, Range[]> = {
  d: [[0x30, 0x39]],
  s: [[0x09, 0x0a], [0x0c, 0x0d], [0x20, 0x20]],
  w: [[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]],
};

/** Go's unicode.Categories (the names \p{..} accepts besides scripts and Any). */
const categories = new Set([
  'C', 'Cc', 'Cf', 'Co', 'Cs', 'L', 'Ll', 'Lm', 'Lo', 'Lt', 'Lu', 'M', 'Mc', 'Me', 'Mn', 'N', 'Nd', 'Nl', 'No',
  'P', 'Pc', 'Pd', 'Pe', 'Pf', 'Pi', 'Po', 'Ps', 'S', 'Sc', 'Sk', 'Sm', 'So', 'Z', 'Zl', 'Zp', 'Zs',
]);

const MAX_CP = 0x10ffff;

function negate(ranges: Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Range[] = [];
  let next = 0;
  for (const [lo, hi] of sorted) {
    if (lo > next) out.push([next, lo - 1]);
    next = Math.max(next, hi + 1);
  }
  if (next <= MAX_CP) out.push([next, MAX_CP]);
  return out;
}

/** The JS property escape body for Go's \p{name}, or undefined when Go knows no such class. */
function unicodeProperty(name: string): string | undefined {
  if (name === 'Any') return 'Any';
  if (categories.has(name)) return `gc=${name}`;
  // Scripts: Go's names are the long Unicode script names (Greek, Han, Latin...), which JS knows too.
  if (/^[A-Z][A-Za-z_]*$/.test(name) && name.length > 4) {
    try {
      new RegExp(`\\p{Script=${name}}`, 'u');
      return `Script=${name}`;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

class Parser {
  private pos = 0;
  private flags: Flags = { fold: false, multiLine: false, dotNL: false, nonGreedy: false };
  private depth = 0;

  constructor(private readonly src: string) {}

  parse(): Node {
    return this.parseAlternation(true);
  }

  private fail(code: string, expr: string): never {
    throw new GoRegexpError(code, expr);
  }

  /** Reads alternatives until `)` (consumed by the caller) or the end. */
  private parseAlternation(top: boolean): Node {
    const alts: Node[] = [];
    let concat: Node[] = [];
    // Where the repetition operator just read began, for Go's refusal of `a**`.
    let lastRepeat = -1;
    const savedFlags = { ...this.flags };
    while (this.pos < this.src.length) {
      let repeatStart = -1;
      const c = this.src[this.pos]!;
      if (c === '|') {
        alts.push(seq(concat));
        concat = [];
        this.pos++;
      } else if (c === ')') {
        if (top) this.fail(ErrUnexpectedParen, this.src);
        break;
      } else if (c === '(') {
        const group = this.parseGroup();
        if (group !== undefined) concat.push(group);
      } else if (c === '*' || c === '+' || c === '?' || c === '{') {
        const before = this.pos;
        let min: number;
        let max: number;
        if (c === '{') {
          const parsed = parseRepeat(this.src, this.pos);
          if (parsed === undefined) {
            concat.push(this.literal(0x7b));
            this.pos++;
            lastRepeat = -1;
            continue;
          }
          ({ min, max } = parsed);
          this.pos = parsed.end;
          if (min < 0 || min > MAX_REPEAT || max > MAX_REPEAT || (max >= 0 && min > max)) {
            this.fail(ErrInvalidRepeatSize, this.src.slice(before, this.pos));
          }
        } else {
          [min, max] = c === '*' ? [0, -1] : c === '+' ? [1, -1] : [0, 1];
          this.pos++;
        }
        let greedy = !this.flags.nonGreedy;
        if (this.src[this.pos] === '?') {
          this.pos++;
          greedy = !greedy;
        }
        if (lastRepeat >= 0) this.fail(ErrInvalidRepeatOp, this.src.slice(lastRepeat, this.pos));
        const sub = concat.pop();
        if (sub === undefined) this.fail(ErrMissingRepeatArgument, this.src.slice(before, this.pos));
        const node: Node = { t: 'repeat', sub, min, max, greedy };
        if (c === '{' && (min >= 2 || max >= 2) && !repeatIsValid(node, MAX_REPEAT)) {
          this.fail(ErrInvalidRepeatSize, this.src.slice(before, this.pos));
        }
        concat.push(node);
        repeatStart = before;
      } else if (c === '^') {
        concat.push({ t: 'begin', multiLine: this.flags.multiLine });
        this.pos++;
      } else if (c === '$') {
        concat.push({ t: 'end', multiLine: this.flags.multiLine });
        this.pos++;
      } else if (c === '.') {
        concat.push({ t: 'any', dotNL: this.flags.dotNL });
        this.pos++;
      } else if (c === '[') {
        concat.push(this.parseClass());
      } else if (c === '\\') {
        concat.push(...this.parseEscapeAtom());
      } else {
        const cp = this.src.codePointAt(this.pos)!;
        this.pos += cp > 0xffff ? 2 : 1;
        concat.push(this.literal(cp));
      }
      lastRepeat = repeatStart;
    }
    if (!top && this.pos >= this.src.length) this.fail(ErrMissingParen, this.src);
    alts.push(seq(concat));
    // Flags set by (?i) and the like end with their group.
    this.flags = savedFlags;
    return alts.length === 1 ? alts[0]! : { t: 'alt', subs: alts };
  }

  private literal(cp: number): Node {
    return { t: 'lit', cp, fold: this.flags.fold };
  }

  /** `(`...: a group, or a flag setting (undefined: nothing to add to the sequence). */
  private parseGroup(): Node | undefined {
    const start = this.pos;
    if (this.src.startsWith('(?', start)) {
      const t = this.src.slice(start);
      if ((t.length > 4 && t[2] === 'P' && t[3] === '<') || (t.length > 3 && t[2] === '<')) {
        const begin = t[2] === '<' ? 3 : 4;
        const end = t.indexOf('>');
        if (end < 0) this.fail(ErrInvalidNamedCapture, t);
        const name = t.slice(begin, end);
        if (name === '' || !/^[A-Za-z0-9_]+$/.test(name)) this.fail(ErrInvalidNamedCapture, t.slice(0, end + 1));
        this.pos = start + end + 1;
        return this.subGroup();
      }
      // Flags: (?i) for the rest of the group, (?i:re) for re alone; `-` clears those after it.
      let i = start + 2;
      const flags = { ...this.flags };
      let sign = 1;
      let sawFlag = false;
      while (i < this.src.length) {
        const c = this.src[i]!;
        i++;
        if (c === 'i' || c === 'm' || c === 's' || c === 'U') {
          const key = c === 'i' ? 'fold' : c === 'm' ? 'multiLine' : c === 's' ? 'dotNL' : 'nonGreedy';
          flags[key] = sign > 0;
          sawFlag = true;
        } else if (c === '-') {
          if (sign < 0) break;
          sign = -1;
          sawFlag = false;
        } else if (c === ':' || c === ')') {
          if (sign < 0 && !sawFlag) break;
          this.pos = i;
          if (c === ')') {
            this.flags = flags;
            return undefined;
          }
          const outer = this.flags;
          this.flags = flags;
          const node = this.subGroup();
          this.flags = outer;
          return node;
        } else {
          break;
        }
      }
      this.fail(ErrInvalidPerlOp, this.src.slice(start, i));
    }
    this.pos++;
    return this.subGroup();
  }

  private subGroup(): Node {
    if (++this.depth > MAX_NESTING) this.fail(ErrNestingDepth, this.src);
    const sub = this.parseAlternation(false);
    this.depth--;
    this.pos++; // the `)`
    return { t: 'group', sub };
  }

  /** An escape outside a class: an assertion, a class (\d, \pL), quoted text (\Q..\E) or one character. */
  private parseEscapeAtom(): Node[] {
    const next = this.src[this.pos + 1];
    if (next === undefined) this.fail(ErrTrailingBackslash, '');
    switch (next) {
      case 'A': this.pos += 2; return [{ t: 'beginText' }];
      case 'z': this.pos += 2; return [{ t: 'endText' }];
      case 'b': this.pos += 2; return [{ t: 'wordBoundary', not: false }];
      case 'B': this.pos += 2; return [{ t: 'wordBoundary', not: true }];
      case 'C': return this.fail(ErrInvalidEscape, '\\C');
      case 'Q': {
        const end = this.src.indexOf('\\E', this.pos + 2);
        const text = end < 0 ? this.src.slice(this.pos + 2) : this.src.slice(this.pos + 2, end);
        this.pos = end < 0 ? this.src.length : end + 2;
        return Array.from(text, (ch) => this.literal(ch.codePointAt(0)!));
      }
    }
    const items: ClassItems = { ranges: [], props: [] };
    const neg = this.parseClassEscape(items);
    if (neg !== undefined) return [{ t: 'class', items, neg, fold: this.flags.fold }];
    return [this.literal(this.parseEscape())];
  }

  /**
   * A Perl (\d) or Unicode (\pL, \p{Greek}) class at `pos` added to `items`: whether it is
   * negated (\D, \P, \p{^..}), or undefined when there is none here.
   */
  private parseClassEscape(items: ClassItems): boolean | undefined {
    const c = this.src[this.pos + 1];
    if (c === undefined || this.src[this.pos] !== '\\') return undefined;
    const perl = perlClasses[c.toLowerCase()];
    if (perl !== undefined && 'dswDSW'.includes(c)) {
      this.pos += 2;
      items.ranges.push(...(c === c.toUpperCase() ? negate(perl) : perl));
      return false;
    }
    if (c !== 'p' && c !== 'P') return undefined;
    const start = this.pos;
    let neg = c === 'P';
    let name: string;
    if (this.src[this.pos + 2] === '{') {
      const end = this.src.indexOf('}', this.pos + 3);
      if (end < 0) this.fail(ErrInvalidCharRange, this.src.slice(start));
      name = this.src.slice(this.pos + 3, end);
      this.pos = end + 1;
      if (name.startsWith('^')) {
        neg = !neg;
        name = name.slice(1);
      }
    } else {
      const cp = this.src.codePointAt(this.pos + 2);
      if (cp === undefined) this.fail(ErrInvalidCharRange, this.src.slice(start));
      name = String.fromCodePoint(cp);
      this.pos += 2 + name.length;
    }
    const prop = unicodeProperty(name);
    if (prop === undefined) this.fail(ErrInvalidCharRange, this.src.slice(start, this.pos));
    items.props.push(neg ? `\\P{${prop}}` : `\\p{${prop}}`);
    return false;
  }

  /** One escaped character (`\n`, `\x41`, `\x{1F600}`, `\101`, `\.`) at `pos`. */
  private parseEscape(): number {
    const start = this.pos;
    this.pos++;
    const cp = this.src.codePointAt(this.pos);
    if (cp === undefined) this.fail(ErrTrailingBackslash, '');
    const c = String.fromCodePoint(cp);
    this.pos += c.length;
    const bad = () => this.fail(ErrInvalidEscape, this.src.slice(start, this.pos));
    const isOctal = (ch: string | undefined) => ch !== undefined && ch >= '0' && ch <= '7';
    if (c >= '1' && c <= '7' && !isOctal(this.src[this.pos])) bad(); // a backreference
    if (c >= '0' && c <= '7') {
      let r = Number(c);
      for (let i = 1; i < 3 && isOctal(this.src[this.pos]); i++) r = r * 8 + Number(this.src[this.pos++]);
      return r;
    }
    if (c === 'x') {
      if (this.src[this.pos] === '{') {
        // Go reads hex digits up to `}` and stops at the first character that is none.
        this.pos++;
        let r = 0;
        let digits = 0;
        for (;;) {
          const ch = this.src[this.pos];
          if (ch === undefined) bad();
          this.pos++;
          if (ch === '}') break;
          if (!/[0-9A-Fa-f]/.test(ch)) bad();
          r = r * 16 + parseInt(ch, 16);
          if (r > MAX_CP) bad();
          digits++;
        }
        if (digits === 0) bad();
        return r;
      }
      for (let i = 0; i < 2; i++) {
        const ch = this.src[this.pos];
        if (ch === undefined) bad();
        this.pos++;
        if (!/[0-9A-Fa-f]/.test(ch)) bad();
      }
      return parseInt(this.src.slice(this.pos - 2, this.pos), 16);
    }
    const cEscapes: Record<string, number> = { a: 7, f: 12, n: 10, r: 13, t: 9, v: 11 };
    if (cEscapes[c] !== undefined) return cEscapes[c];
    if (cp < 0x80 && !/[0-9A-Za-z]/.test(c)) return cp;
    return bad();
  }

  private parseClass(): Node {
    const start = this.pos;
    const whole = this.src.slice(start);
    this.pos++;
    let neg = false;
    if (this.src[this.pos] === '^') {
      neg = true;
      this.pos++;
    }
    const items: ClassItems = { ranges: [], props: [] };
    let first = true;
    while (this.pos >= this.src.length || this.src[this.pos] !== ']' || first) {
      first = false;
      if (this.src.startsWith('[:', this.pos)) {
        const end = this.src.indexOf(':]', this.pos + 2);
        if (end >= 0) {
          let name = this.src.slice(this.pos + 2, end);
          const negated = name.startsWith('^');
          if (negated) name = name.slice(1);
          const ranges = Object.hasOwn(posixClasses, name) ? posixClasses[name] : undefined;
          if (ranges === undefined) this.fail(ErrInvalidCharRange, this.src.slice(this.pos, end + 2));
          items.ranges.push(...(negated ? negate(ranges) : ranges));
          this.pos = end + 2;
          continue;
        }
      }
      if (this.parseClassEscape(items) !== undefined) continue;
      const rangeStart = this.pos;
      const lo = this.classChar(whole);
      let hi = lo;
      if (this.src[this.pos] === '-' && this.pos + 1 < this.src.length && this.src[this.pos + 1] !== ']') {
        this.pos++;
        hi = this.classChar(whole);
        if (hi < lo) this.fail(ErrInvalidCharRange, this.src.slice(rangeStart, this.pos));
      }
      items.ranges.push([lo, hi]);
    }
    this.pos++; // the `]`
    return { t: 'class', items, neg, fold: this.flags.fold };
  }

  private classChar(whole: string): number {
    if (this.pos >= this.src.length) this.fail(ErrMissingBracket, whole);
    if (this.src[this.pos] === '\\') return this.parseEscape();
    const cp = this.src.codePointAt(this.pos)!;
    this.pos += cp > 0xffff ? 2 : 1;
    return cp;
  }
}

function seq(nodes: Node[]): Node {
  return nodes.length === 1 ? nodes[0]! : { t: 'concat', subs: nodes };
}

/** `{n}`, `{n,}` or `{n,m}` at `pos`, or undefined when the text there is not a repetition (a literal `{`). */
function parseRepeat(src: string, pos: number): { min: number; max: number; end: number } | undefined {
  const m = /^\{(\d+)(,(\d*))?\}/.exec(src.slice(pos));
  if (m === null) return undefined;
  // Go reads numbers of more than 8 digits as -1, which the caller then refuses.
  const num = (s: string) => (s.length > 8 ? -1 : Number(s));
  const min = num(m[1]!);
  const max = m[2] === undefined ? min : m[3] === '' ? -1 : num(m[3]!);
  return { min, max, end: pos + m[0].length };
}

/** Whether nested repetitions stay within `n` copies in all (Go's repeatIsValid). */
function repeatIsValid(node: Node, n: number): boolean {
  if (node.t === 'repeat') {
    let m = node.max;
    if (m === 0) return true;
    if (m < 0) m = node.min;
    if (m > n) return false;
    if (m > 0) n = Math.floor(n / m);
    return repeatIsValid(node.sub, n);
  }
  if (node.t === 'concat' || node.t === 'alt') return node.subs.every((s) => repeatIsValid(s, n));
  if (node.t === 'group') return repeatIsValid(node.sub, n);
  return true;
}

// ---- writing the parsed pattern as a JS RegExp (flag u) ----

function hasFold(node: Node, want: boolean): boolean {
  switch (node.t) {
    case 'lit':
    case 'class':
      return node.fold === want;
    case 'concat':
    case 'alt':
      return node.subs.some((s) => hasFold(s, want));
    case 'group':
    case 'repeat':
      return hasFold(node.sub, want);
    default:
      return false;
  }
}

/** A code point as a JS pattern (flag u) writes it, outside a class or inside one. */
function escapeCp(cp: number, inClass = false): string {
  if (cp < 0x20 || cp === 0x7f || (cp >= 0xd800 && cp <= 0xdfff)) return `\\u{${cp.toString(16)}}`;
  const ch = String.fromCodePoint(cp);
  const special = inClass ? /[\\\]\[^/-]/ : /[\\^$.*+?()[\]{}|/]/;
  return special.test(ch) ? `\\${ch}` : ch;
}

/** The case variants of a code point JS knows (Go folds by Unicode's simple folding orbit). */
function caseVariants(cp: number): number[] {
  const ch = String.fromCodePoint(cp);
  const out = new Set([cp]);
  for (const v of [ch.toLowerCase(), ch.toUpperCase()]) {
    const c = v.codePointAt(0)!;
    if (String.fromCodePoint(c) === v) out.add(c);
  }
  return [...out];
}

function foldRanges(ranges: Range[]): Range[] {
  const out: Range[] = [...ranges];
  for (const [lo, hi] of ranges) {
    // Large ranges: folding every code point would be slow; letters of ASCII and Latin-1 matter most.
    const top = Math.min(hi, lo + 4096);
    for (let cp = lo; cp <= top; cp++) {
      for (const v of caseVariants(cp)) if (v !== cp) out.push([v, v]);
    }
  }
  return out;
}

function classBody(items: ClassItems, fold: boolean): string {
  const ranges = fold ? foldRanges(items.ranges) : items.ranges;
  return ranges.map(([lo, hi]) => (lo === hi ? escapeCp(lo, true) : `${escapeCp(lo, true)}-${escapeCp(hi, true)}`)).join('') + items.props.join('');
}

function emit(node: Node, foldByFlag: boolean): string {
  switch (node.t) {
    case 'lit': {
      if (!node.fold || foldByFlag) return escapeCp(node.cp);
      const variants = caseVariants(node.cp);
      return variants.length === 1 ? escapeCp(node.cp) : `[${variants.map((v) => escapeCp(v, true)).join('')}]`;
    }
    case 'class': {
      const body = classBody(node.items, node.fold && !foldByFlag);
      if (body === '') return node.neg ? '[\\s\\S]' : '[]';
      return `[${node.neg ? '^' : ''}${body}]`;
    }
    case 'any': return node.dotNL ? '[\\s\\S]' : '[^\\n]';
    case 'begin': return node.multiLine ? '(?<![^\\n])' : '^';
    case 'end': return node.multiLine ? '(?![^\\n])' : '$';
    case 'beginText': return '^';
    case 'endText': return '$';
    case 'wordBoundary': return node.not ? '\\B' : '\\b';
    case 'concat': return node.subs.map((s) => emit(s, foldByFlag)).join('');
    case 'alt': return `(?:${node.subs.map((s) => emit(s, foldByFlag)).join('|')})`;
    case 'group': return `(?:${emit(node.sub, foldByFlag)})`;
    case 'repeat': {
      const { min, max } = node;
      const op = min === 0 && max === -1 ? '*' : min === 1 && max === -1 ? '+' : min === 0 && max === 1 ? '?'
        : max === -1 ? `{${min},}` : min === max ? `{${min}}` : `{${min},${max}}`;
      return `(?:${emit(node.sub, foldByFlag)})${op}${node.greedy ? '' : '?'}`;
    }
  }
}

const cache = new Map<string, RegExp | GoRegexpError>();
const CACHE_LIMIT = 1024;

/**
 * `pattern` compiled as Go compiles it, for `test` (unanchored search, as Go's MatchString);
 * throws GoRegexpError with Go's message when Go refuses the pattern.
 */
export function compileGoRegexp(pattern: string): RegExp {
  let cached = cache.get(pattern);
  if (cached === undefined) {
    try {
      const node = new Parser(pattern).parse();
      // A pattern folded throughout uses the engine's own case folding.
      const foldByFlag = hasFold(node, true) && !hasFold(node, false);
      cached = new RegExp(emit(node, foldByFlag), foldByFlag ? 'iu' : 'u');
    } catch (e) {
      if (!(e instanceof GoRegexpError)) throw e;
      cached = e;
    }
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
    cache.set(pattern, cached);
  }
  if (cached instanceof GoRegexpError) throw cached;
  return cached;
}

/** Go's error text for a pattern it refuses, or undefined when it compiles. */
export function goRegexpProblem(pattern: string): string | undefined {
  try {
    compileGoRegexp(pattern);
    return undefined;
  } catch (e) {
    if (e instanceof GoRegexpError) return e.message;
    throw e;
  }
}
