// Cost estimation as cel-go's checker and Kubernetes' library cost estimator compute it: a walk of
// the checked expression in which identifiers and selections cost 1, calls their library's cost
// (string functions by the length of the strings, list functions by the length of the lists),
// and comprehensions their range's size times the cost of a step. Sizes come from the schema's
// bounds at each path (self.spec.items, then @items for an element) or, for the runtime budget,
// from the actual values.
import type { ASTNode } from '@marcbachmann/cel-js';

/** A range of costs or sizes; Infinity where nothing bounds it (cel-go's math.MaxUint64). */
export interface Range {
  min: number;
  max: number;
}

/** Sizes of the values at paths such as ['self', 'spec', 'items', '@items']; undefined when unknown. */
export type SizeEstimator = (path: readonly string[]) => Range | undefined;

const U64 = 18446744073709551615;
const clamp = (n: number) => (n >= U64 ? U64 : n);
const add = (a: Range, b: Range): Range => ({ min: clamp(a.min + b.min), max: clamp(a.max + b.max) });
const mul = (a: Range, b: Range): Range => ({ min: clamp(a.min * b.min), max: clamp(a.max * b.max) });
const factor = (a: Range, f: number): Range => ({ min: clamp(Math.ceil(a.min * f)), max: clamp(Math.ceil(a.max * f)) });
const union = (a: Range, b: Range): Range => ({ min: Math.min(a.min, b.min), max: Math.max(a.max, b.max) });
const fixed = (n: number): Range => ({ min: n, max: n });
const zero = fixed(0);
const unbounded: Range = { min: 0, max: U64 };

const STRING_TRAVERSAL = 0.1;
const REGEX_LENGTH = 0.25;

interface Est {
  cost: Range;
  /** The schema path the value was read from, for its size. */
  path?: string[];
  /** A size computed from the expression itself (literals, results of string functions). */
  size?: Range;
  type: string;
}

const scalarTypes = new Set(['int', 'uint', 'double', 'bool', 'null_type', 'timestamp', 'duration', 'google.protobuf.Timestamp', 'google.protobuf.Duration']);

function typeName(n: ASTNode | undefined): string {
  const t = (n as unknown as { checkedType?: { name?: string } } | undefined)?.checkedType;
  return t?.name ?? 'dyn';
}

const isMacro = (name: string) => ['all', 'exists', 'exists_one', 'map', 'filter'].includes(name);

export interface EstimateOptions {
  /**
   * The estimate bounds an evaluation about to run over known values: strings converted from
   * scalars get their printed length, where cel-go's static estimate leaves it unbounded (at run
   * time cel-go counts the actual cost instead).
   */
  runtime?: boolean;
}

/** Types whose string() is at most a few dozen characters. */
const printedScalars = new Set(['int', 'uint', 'double', 'bool', 'google.protobuf.Timestamp', 'google.protobuf.Duration']);

/** Estimates what evaluating `ast` (already type checked) may cost, as cel-go's EstimateCost. */
export function estimateCost(ast: ASTNode, sizes: SizeEstimator, opts: EstimateOptions = {}): Range {
  const iterRanges = new Map<string, Est[]>();

  const sizeOf = (e: Est): Range => {
    if (e.size) return e.size;
    if (e.path) {
      const s = sizes(e.path);
      if (s) return s;
    }
    if (scalarTypes.has(e.type)) return fixed(1);
    return unbounded;
  };

  const walk = (n: ASTNode): Est => {
    const type = typeName(n);
    const args = n.args as unknown;
    switch (n.op) {
      case 'value': {
        const v = args;
        const size = typeof v === 'string' ? fixed([...v].length) : v instanceof Uint8Array ? fixed(v.length) : fixed(1);
        return { cost: zero, size, type };
      }
      case 'id': {
        const name = args as string;
        const ranges = iterRanges.get(name);
        const range = ranges?.[ranges.length - 1];
        if (range) {
          const elem = range.type.startsWith('map<') ? '@keys' : '@items';
          return { cost: fixed(1), path: range.path ? [...range.path, elem] : undefined, type: elementType(range.type, elem) ?? type };
        }
        return { cost: fixed(1), path: [name], type };
      }
      case '.':
      case '.?': {
        const [operand, field] = args as [ASTNode, string];
        const o = walk(operand);
        const sel = o.type.startsWith('map<') || o.type === 'dyn' ? (o.type === 'dyn' ? zero : fixed(1)) : scalarTypes.has(o.type) ? zero : fixed(1);
        return { cost: add(o.cost, n.op === '.?' ? fixed(1) : sel), path: o.path ? [...o.path, field] : undefined, type };
      }
      case '[]':
      case '[?]': {
        const [target, index] = args as [ASTNode, ASTNode];
        const t = walk(target);
        const i = walk(index);
        const elem = t.type.startsWith('map<') ? '@values' : '@items';
        return { cost: add(add(t.cost, i.cost), fixed(1)), path: t.path ? [...t.path, elem] : undefined, type };
      }
      case '&&':
      case '||': {
        const [l, r] = (args as ASTNode[]).map(walk) as [Est, Est];
        return { cost: { min: l.cost.min, max: clamp(l.cost.max + r.cost.max) }, type };
      }
      case '?:': {
        const [c, t, f] = (args as ASTNode[]).map(walk) as [Est, Est, Est];
        return { cost: add(c.cost, union(t.cost, f.cost)), size: union(sizeOf(t), sizeOf(f)), type };
      }
      case '!_':
      case '-_':
        return { cost: add(walk(args as ASTNode).cost, fixed(1)), type };
      case 'list': {
        const items = (args as ASTNode[]).map(walk);
        return { cost: items.reduce((s, e) => add(s, e.cost), fixed(10)), size: fixed(items.length), type };
      }
      case 'map': {
        const entries = args as [ASTNode, ASTNode][];
        let cost = fixed(30);
        for (const [k, v] of entries) cost = add(add(cost, walk(k).cost), walk(v).cost);
        return { cost, size: fixed(entries.length), type };
      }
      case 'call':
      case 'rcall':
        return call(n, type);
      default:
        return binary(n, type);
    }
  };

  const elementType = (t: string, elem: string): string | undefined => {
    const m = /^list<(.*)>$/.exec(t);
    if (m) return m[1];
    const mm = /^map<([^,]+), (.*)>$/.exec(t);
    if (mm) return elem === '@keys' ? mm[1] : mm[2];
    return undefined;
  };

  const binary = (n: ASTNode, type: string): Est => {
    const [l, r] = (n.args as [ASTNode, ASTNode]).map(walk) as [Est, Est];
    const argCost = add(l.cost, r.cost);
    switch (n.op) {
      case '==':
      case '!=':
      case '<':
      case '<=':
      case '>':
      case '>=': {
        if (['<', '<=', '>', '>='].includes(n.op) && !['string', 'bytes'].includes(l.type)) return { cost: add(argCost, fixed(1)), type };
        const smallestMax = Math.min(sizeOf(l).max, sizeOf(r).max);
        return { cost: add(factor({ min: smallestMax > 0 ? 1 : 0, max: smallestMax }, STRING_TRAVERSAL), argCost), type };
      }
      case 'in':
        if (r.type.startsWith('list<') || r.type === 'dyn') return { cost: add(sizeOf(r), argCost), type };
        return { cost: add(argCost, fixed(1)), type };
      case '+':
        if (l.type === 'string' || l.type === 'bytes') {
          const size = add(sizeOf(l), sizeOf(r));
          return { cost: add(factor(size, STRING_TRAVERSAL), argCost), size, type };
        }
        if (l.type.startsWith('list<')) return { cost: add(argCost, fixed(1)), size: add(sizeOf(l), sizeOf(r)), type };
        return { cost: add(argCost, fixed(1)), type };
      default:
        return { cost: add(argCost, fixed(1)), type };
    }
  };

  const comprehension = (name: string, range: Est, iterVar: string, body: ASTNode[], type: string): Est => {
    const stack = iterRanges.get(iterVar) ?? [];
    stack.push(range);
    iterRanges.set(iterVar, stack);
    const costs = body.map((b) => walk(b).cost);
    stack.pop();
    const [first = zero, second = zero] = costs;
    // The macros' expansions (cel-go parser/macro.go) cost, per step: all: @not_strictly_false(accu)
    // (2) + accu && p (1 + p); exists: 3 + 1 + p; exists_one: p + (accu + 1 | accu); map: accu +
    // [t] (12 + t); map with a filter and filter: p ? accu + [..] : accu.
    let step: Range;
    let init = zero;
    let result = fixed(1);
    switch (name) {
      case 'all':
        step = add(fixed(2), { min: 1, max: clamp(1 + first.max) });
        break;
      case 'exists':
        step = add(fixed(3), { min: 1, max: clamp(1 + first.max) });
        break;
      case 'exists_one':
        step = add(first, { min: 1, max: 2 });
        result = fixed(2);
        break;
      case 'map':
        init = fixed(10);
        step = body.length === 2 ? add(first, union(fixed(1), add(fixed(12), second))) : add(fixed(12), first);
        break;
      default: // filter
        init = fixed(10);
        step = add(first, union(fixed(1), fixed(13)));
    }
    const count = sizeOf(range);
    return { cost: add(add(add(range.cost, init), result), mul(count, step)), size: name === 'map' || name === 'filter' ? count : undefined, type };
  };

  const call = (n: ASTNode, type: string): Est => {
    const rcall = n.op === 'rcall';
    const [name, ...rest] = n.args as [string, ...unknown[]];
    const targetNode = rcall ? rest[0] as ASTNode : undefined;
    const argNodes = (rcall ? rest[1] : rest[0]) as ASTNode[];
    if (!rcall && name === 'has' && argNodes.length === 1) {
      // Kubernetes keeps a presence test free (PresenceTestHasCost(false)).
      const sel = argNodes[0]!;
      const operand = sel.op === '.' ? (sel.args as [ASTNode, string])[0] : sel;
      return { cost: walk(operand).cost, type };
    }
    if (rcall && isMacro(name) && argNodes.length >= 2 && argNodes[0]!.op === 'id') {
      return comprehension(name, walk(targetNode!), argNodes[0]!.args as string, argNodes.slice(1), type);
    }
    const target = targetNode ? walk(targetNode) : undefined;
    const argEsts = argNodes.map(walk);
    const argCost = argEsts.reduce((s, e) => add(s, e.cost), target?.cost ?? zero);
    const fn = functionCost(name, target, argEsts, sizeOf, opts);
    return { cost: add(fn.cost, argCost), size: fn.size, type };
  };

  return walk(ast).cost;
}

/** The cost of one call itself (its arguments aside), and the size of its result where known. */
function functionCost(name: string, target: Est | undefined, args: Est[], sizeOf: (e: Est) => Range, opts: EstimateOptions): { cost: Range; size?: Range } {
  const arg = (i: number) => args[i] ? sizeOf(args[i]!) : unbounded;
  const tgt = () => target ? sizeOf(target) : unbounded;
  switch (name) {
    case 'check':
      return { cost: fixed(350000) };
    case 'isSorted': case 'sum': case 'max': case 'min': case 'indexOf': case 'lastIndexOf': {
      if (!target) return { cost: fixed(1) };
      const elem = /^list<(.*)>$/.exec(target.type)?.[1];
      if (elem === undefined) return { cost: factor(tgt(), STRING_TRAVERSAL) };
      let elCost = fixed(1);
      if (elem === 'string' || elem === 'bytes') {
        const elSize = target.path ? sizeOf({ path: [...target.path, '@items'], type: elem, cost: zero }) : unbounded;
        elCost = add(elCost, factor(elSize, STRING_TRAVERSAL));
      }
      return { cost: mul(tgt(), elCost) };
    }
    case 'url': case 'quantity': case 'isQuantity': case 'isURL':
      return { cost: factor(arg(0), STRING_TRAVERSAL) };
    case 'lowerAscii': case 'upperAscii': case 'substring': case 'trim':
      return { cost: factor(tgt(), STRING_TRAVERSAL), size: target ? tgt() : undefined };
    case 'replace':
      return { cost: factor(tgt(), 2 * STRING_TRAVERSAL) };
    case 'split':
      return { cost: factor(tgt(), 2 * STRING_TRAVERSAL), size: { min: 0, max: tgt().max } };
    case 'join': {
      const size = target ? tgt() : unbounded;
      return { cost: factor(size, STRING_TRAVERSAL), size };
    }
    case 'find': case 'findAll': {
      const strCost = factor(add(tgt(), fixed(1)), STRING_TRAVERSAL);
      const regexCost = factor(arg(0), REGEX_LENGTH);
      return { cost: mul(strCost, regexCost), size: { min: 0, max: tgt().max } };
    }
    case 'matches': {
      const subject = target ? tgt() : arg(0);
      const pattern = target ? arg(0) : arg(1);
      return { cost: mul(factor(add(subject, fixed(1)), STRING_TRAVERSAL), factor(pattern, REGEX_LENGTH)) };
    }
    case 'contains':
      if (target && target.type === 'string') return { cost: mul(factor(tgt(), STRING_TRAVERSAL), factor(arg(0), STRING_TRAVERSAL)) };
      return { cost: fixed(1) };
    case 'startsWith': case 'endsWith':
      return { cost: factor(arg(0), STRING_TRAVERSAL) };
    case 'cidr': case 'isIP': case 'isCIDR':
      return { cost: factor(arg(0), STRING_TRAVERSAL) };
    case 'ip':
      return target ? { cost: fixed(1) } : { cost: factor(arg(0), STRING_TRAVERSAL) };
    case 'isCanonical':
      return { cost: factor(arg(0), 2 * STRING_TRAVERSAL) };
    case 'containsIP': case 'containsCIDR': {
      const sz = { min: 4, max: 16 };
      let c = factor(add(sz, sz), STRING_TRAVERSAL);
      if (name === 'containsCIDR') c = add(add(c, factor(sz, STRING_TRAVERSAL)), fixed(1));
      if (args[0]?.type === 'string') c = add(c, factor(arg(0), STRING_TRAVERSAL));
      return { cost: c };
    }
    case 'quote': {
      const s = arg(0);
      return { cost: factor(s, STRING_TRAVERSAL), size: { min: s.min + 2, max: clamp(s.max * 2 + 2) } };
    }
    case 'format':
      return { cost: factor(tgt(), STRING_TRAVERSAL) };
    case 'string': case 'bytes':
      if (args[0] && (args[0].type === 'string' || args[0].type === 'bytes')) return { cost: factor(arg(0), STRING_TRAVERSAL), ...(opts.runtime ? { size: arg(0) } : {}) };
      // At run time an untyped argument (a parameter read as dyn) was measured: a string keeps its
      // length, a scalar prints in at most 40 characters.
      if (opts.runtime && args[0]?.type === 'dyn') {
        const s = arg(0);
        return { cost: factor(s, STRING_TRAVERSAL), size: { min: 0, max: Math.max(s.max, 40) } };
      }
      return { cost: fixed(1), ...(opts.runtime && args[0] && printedScalars.has(args[0].type) ? { size: { min: 1, max: 40 } } : {}) };
    default:
      return { cost: fixed(1) };
  }
}

/** Sizes read from a declared type tree, as the CRD cost estimator reads them from the schema. */
export function declTypeSizes(roots: Record<string, import('./types.js').DeclType | undefined>): SizeEstimator {
  return (path) => {
    let t = roots[path[0]!];
    for (const step of path.slice(1)) {
      if (!t) return undefined;
      if (step === '@items') t = t.kind === 'list' ? t.elem : undefined;
      else if (step === '@values') t = t.kind === 'map' ? t.value : t.kind === 'list' ? t.elem : undefined;
      else if (step === '@keys') return t.kind === 'map' ? { min: 0, max: maxKeyLength } : undefined;
      else t = t.kind === 'object' ? t.fields.get(step)?.type : undefined;
    }
    return t ? { min: 0, max: t.maxElements } : undefined;
  };
}

const maxKeyLength = 3 * 1024 * 1024 - 2;

/** Sizes of the actual values, for the runtime budget: string lengths, list and map sizes. */
export function valueSizes(roots: Record<string, unknown>): SizeEstimator {
  return (path) => {
    let values: unknown[] = [roots[path[0]!]];
    for (const step of path.slice(1)) {
      const next: unknown[] = [];
      for (const v of values) {
        if (v === null || v === undefined || typeof v !== 'object') continue;
        if (step === '@items' || step === '@values') next.push(...(Array.isArray(v) ? v : Object.values(v)));
        else if (step === '@keys') next.push(...Object.keys(v));
        else next.push((v as Record<string, unknown>)[step]);
      }
      values = next;
    }
    let max = 0;
    for (const v of values) {
      const n = typeof v === 'string' ? v.length : Array.isArray(v) ? v.length : v instanceof Uint8Array ? v.length : v !== null && typeof v === 'object' ? Object.keys(v).length : 1;
      if (n > max) max = n;
    }
    return { min: 0, max };
  };
}
