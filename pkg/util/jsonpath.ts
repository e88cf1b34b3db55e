// The JSONPath expressions kubectl and upstream's Table printers evaluate against JSON objects
// (client-go's jsonpath, as printer columns use it): `.a.b`, `['a.b']`, `[0]`, `[-1]`, `[1:3]`,
// `[*]`, `.*`, `..name` and filters such as `[?(@.type=="Ready")]`. Evaluation yields every match
// in document order; a missing field yields nothing.

type Step =
  | { kind: 'field'; name: string }
  | { kind: 'wildcard' }
  | { kind: 'recursive'; name: string | undefined }
  | { kind: 'index'; index: number }
  | { kind: 'slice'; start: number | undefined; end: number | undefined }
  | { kind: 'filter'; left: Step[]; op: string | undefined; right: unknown };

export class JSONPathError extends Error {}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A parsed expression, evaluated as often as needed. */
export class JSONPath {
  private constructor(private readonly steps: Step[]) {}

  /** Parses `.a.b[0]` (the braces client-go's templates put around it are optional); throws JSONPathError. */
  static parse(text: string): JSONPath {
    let t = text.trim();
    if (t.startsWith('{') && t.endsWith('}')) t = t.slice(1, -1).trim();
    const p = new Parser(t);
    const steps = p.steps();
    if (!p.done()) throw new JSONPathError(`unrecognized character in action: ${JSON.stringify(t.slice(p.pos))}`);
    return new JSONPath(steps);
  }

  /** Every value the expression selects in `root`, in document order. */
  find(root: unknown): unknown[] {
    return run(this.steps, [root]);
  }
}

function run(steps: Step[], start: unknown[]): unknown[] {
  let values = start;
  for (const step of steps) values = values.flatMap((v) => apply(step, v));
  return values;
}

function apply(step: Step, v: unknown): unknown[] {
  switch (step.kind) {
    case 'field':
      return isObject(v) && Object.hasOwn(v, step.name) ? [v[step.name]] : [];
    case 'wildcard':
      return Array.isArray(v) ? v : isObject(v) ? Object.keys(v).sort().map((k) => v[k]) : [];
    case 'recursive': {
      const out: unknown[] = [];
      const visit = (x: unknown) => {
        if (step.name === undefined) out.push(x);
        else if (isObject(x) && Object.hasOwn(x, step.name)) out.push(x[step.name]);
        if (Array.isArray(x)) x.forEach(visit);
        else if (isObject(x)) for (const k of Object.keys(x).sort()) visit(x[k]);
      };
      visit(v);
      return out;
    }
    case 'index': {
      if (!Array.isArray(v)) return [];
      const i = step.index < 0 ? v.length + step.index : step.index;
      return i >= 0 && i < v.length ? [v[i]] : [];
    }
    case 'slice': {
      if (!Array.isArray(v)) return [];
      const norm = (x: number | undefined, dflt: number) => (x === undefined ? dflt : x < 0 ? Math.max(0, v.length + x) : Math.min(x, v.length));
      return v.slice(norm(step.start, 0), norm(step.end, v.length));
    }
    case 'filter': {
      const items = Array.isArray(v) ? v : isObject(v) ? Object.keys(v).sort().map((k) => v[k]) : [];
      return items.filter((item) => {
        const found = run(step.left, [item]);
        if (step.op === undefined) return found.length > 0;
        return found.some((x) => compare(x, step.op!, step.right));
      });
    }
  }
}

function compare(a: unknown, op: string, b: unknown): boolean {
  if (op === '==') return a === b;
  if (op === '!=') return a !== b;
  if (typeof a !== 'number' || typeof b !== 'number') return false;
  switch (op) {
    case '<': return a < b;
    case '>': return a > b;
    case '<=': return a <= b;
    default: return a >= b;
  }
}

class Parser {
  pos = 0;
  constructor(private readonly s: string) {}

  done(): boolean {
    return this.pos >= this.s.length;
  }

  private peek(n = 0): string {
    return this.s[this.pos + n] ?? '';
  }

  private fail(why: string): never {
    throw new JSONPathError(why);
  }

  /** Steps until the end, or until a character no step starts with (a filter's operator or its closing parenthesis). */
  steps(): Step[] {
    const steps: Step[] = [];
    for (;;) {
      const c = this.peek();
      if (c === '.') {
        if (this.peek(1) === '.') {
          this.pos += 2;
          const name = this.identifier();
          steps.push({ kind: 'recursive', name: name || undefined });
        } else {
          this.pos++;
          if (this.peek() === '*') {
            this.pos++;
            steps.push({ kind: 'wildcard' });
          } else if (this.peek() === '[' || this.done()) {
            // A lone dot is the current object (`{.}`); `.[0]` indexes it.
          } else {
            const name = this.identifier();
            if (!name) this.fail(`invalid field name at ${this.pos}`);
            steps.push({ kind: 'field', name });
          }
        }
      } else if (c === '[') {
        this.pos++;
        steps.push(this.bracket());
      } else {
        return steps;
      }
    }
  }

  private identifier(): string {
    const m = /^[A-Za-z0-9_\-$\\/]+/.exec(this.s.slice(this.pos));
    if (!m) return '';
    this.pos += m[0].length;
    return m[0];
  }

  private bracket(): Step {
    this.skipSpace();
    const c = this.peek();
    let step: Step;
    if (c === '*') {
      this.pos++;
      step = { kind: 'wildcard' };
    } else if (c === "'" || c === '"') {
      step = { kind: 'field', name: this.quoted() };
    } else if (c === '?') {
      this.pos++;
      step = this.filter();
    } else {
      step = this.indexOrSlice();
    }
    this.skipSpace();
    if (this.peek() !== ']') this.fail(`unclosed array expect ]`);
    this.pos++;
    return step;
  }

  private quoted(): string {
    const q = this.peek();
    this.pos++;
    let out = '';
    while (!this.done() && this.peek() !== q) {
      if (this.peek() === '\\') this.pos++;
      out += this.peek();
      this.pos++;
    }
    if (this.done()) this.fail('unterminated string');
    this.pos++;
    return out;
  }

  private number(): number | undefined {
    const m = /^-?\d+/.exec(this.s.slice(this.pos));
    if (!m) return undefined;
    this.pos += m[0].length;
    return Number(m[0]);
  }

  private indexOrSlice(): Step {
    const start = this.number();
    this.skipSpace();
    if (this.peek() !== ':') {
      if (start === undefined) this.fail(`invalid array index ${JSON.stringify(this.s.slice(this.pos))}`);
      return { kind: 'index', index: start };
    }
    this.pos++;
    const end = this.number();
    // A step (`[::2]`) is read and ignored beyond 1, as no printer column needs it.
    if (this.peek() === ':') {
      this.pos++;
      this.number();
    }
    return { kind: 'slice', start, end };
  }

  private filter(): Step {
    this.skipSpace();
    if (this.peek() !== '(') this.fail('unrecognized filter');
    this.pos++;
    this.skipSpace();
    if (this.peek() !== '@') this.fail('a filter starts with @');
    this.pos++;
    const left = this.steps();
    this.skipSpace();
    let op: string | undefined;
    let right: unknown;
    const m = /^(==|!=|<=|>=|<|>)/.exec(this.s.slice(this.pos));
    if (m) {
      op = m[1];
      this.pos += m[0].length;
      this.skipSpace();
      right = this.literal();
      this.skipSpace();
    }
    if (this.peek() !== ')') this.fail('unclosed filter expect )');
    this.pos++;
    return { kind: 'filter', left, op, right };
  }

  private literal(): unknown {
    const c = this.peek();
    if (c === "'" || c === '"') return this.quoted();
    const m = /^(-?\d+(\.\d+)?|true|false|nil|null)/.exec(this.s.slice(this.pos));
    if (!m) this.fail(`unrecognized filter value at ${this.pos}`);
    this.pos += m[0].length;
    if (m[0] === 'true') return true;
    if (m[0] === 'false') return false;
    if (m[0] === 'nil' || m[0] === 'null') return null;
    return Number(m[0]);
  }

  private skipSpace(): void {
    while (this.peek() === ' ') this.pos++;
  }
}
