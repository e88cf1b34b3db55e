// Linear, non-recursive looks at a request body before anything recursive touches it: how deep
// its nesting goes, and which number literals JSON.parse or the YAML parser would change.
//
// Upstream's JSON decoder stops at a nesting depth of 10,000 and go-yaml at 10,000 flow levels and
// 10,000 indentation levels. Our own recursive code cannot go that deep: the YAML library composes
// and stringifies documents recursively and overflows the stack at about 600 levels (and V8 can
// then abort the whole process while compiling a regular expression), structuredClone at about
// 1,500 and the merge patch at about 3,000. So our limit is MAX_NESTING_DEPTH, well below all of
// those even with the request path's own frames on the stack, and far above any real object (a
// StatefulSet's deepest field is about 15 levels down, its managedFields about 30).
import { CST, Lexer, isAlias, isCollection, isMap, isPair, isScalar, isSeq } from 'yaml';
import type { Document, Node } from 'yaml';

/** Deepest nesting of objects and arrays a body (or a patched object) may have. */
export const MAX_NESTING_DEPTH = 256;

// ---------------------------------------------------------------------------------------------
// Nesting depth
// ---------------------------------------------------------------------------------------------

/** Where a JSON text first nests deeper than the limit. */
export interface JSONTooDeep {
  /** The `{` or `[` that opened one level too many. */
  char: string;
  offset: number;
}

/**
 * The first `{` or `[` of a JSON text that opens a level beyond `max` (the top-level value is
 * level 1), or null. One pass, strings skipped; never throws, whatever the text.
 */
export function findJSONTooDeep(text: string, max = MAX_NESTING_DEPTH): JSONTooDeep | null {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = stringEnd(text, i);
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return { char: text[i]!, offset: i };
    } else if (c === 0x7d || c === 0x5d) {
      if (depth > 0) depth--;
    }
  }
  return null;
}

/** Upstream's wording for a JSON text nested too deeply, with our limit. */
export function jsonTooDeepMessage(found: JSONTooDeep, max = MAX_NESTING_DEPTH): string {
  return `invalid character '${found.char}' exceeded max depth of ${max}`;
}

/** Position of the quote closing the string that opens at `start`, or the text's last index. */
function stringEnd(text: string, start: number): number {
  let from = start + 1;
  for (;;) {
    const q = text.indexOf('"', from);
    if (q < 0) return text.length;
    let b = q - 1;
    while (b > start && text.charCodeAt(b) === 0x5c) b--;
    if (((q - 1 - b) & 1) === 0) return q; // an even number of backslashes: not escaped
    from = q + 1;
  }
}

/** True when a JSON-shaped value nests objects and arrays deeper than `max` (walked with an explicit stack). */
export function valueTooDeep(value: unknown, max = MAX_NESTING_DEPTH): boolean {
  const stack: unknown[] = [value];
  const depths: number[] = [0];
  while (stack.length > 0) {
    const v = stack.pop();
    const d = depths.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (d + 1 > max) return true;
    const children = Array.isArray(v) ? v : Object.values(v);
    for (const c of children) {
      if (typeof c === 'object' && c !== null) {
        stack.push(c);
        depths.push(d + 1);
      }
    }
  }
  return false;
}

/**
 * The 1-based line where a YAML text first nests deeper than `max`, or null. Runs the YAML
 * library's lexer (which is iterative) and stops as soon as the limit is passed; the parser and
 * composer, which recurse, must only see texts this accepts. Block levels are counted the way
 * go-yaml's scanner rolls its indentation (a sequence may sit at its parent key's column), flow
 * levels by their brackets, a `key: value` pair inside a flow sequence as one more level.
 * Aliases are not followed here: see documentTooDeep.
 */
export function findYAMLTooDeep(text: string, max = MAX_NESTING_DEPTH): number | null {
  const blockCols: number[] = [];
  const blockIsSeq: boolean[] = [];
  // Flow levels: whether each is a sequence, and whether a `:` in it opened an implicit pair map.
  const flowIsSeq: boolean[] = [];
  const flowPair: boolean[] = [];
  let pairs = 0;
  let line = 1;
  let col = 0;
  let scalarNext = false;
  /** Column where the current line's possible mapping key starts, or -1. */
  let keyCol = -1;

  const depth = () => blockCols.length + flowIsSeq.length + pairs;
  const blockItem = (c: number, seq: boolean): boolean => {
    while (blockCols.length > 0 && blockCols[blockCols.length - 1]! > c) {
      blockCols.pop();
      blockIsSeq.pop();
    }
    const top = blockCols.length - 1;
    if (top >= 0 && blockCols[top] === c) {
      if (blockIsSeq[top] === seq) return false; // the next item of the same collection
      if (blockIsSeq[top] && !seq) {
        // a key at the column of a sequence that hangs off that key's mapping: the sequence ended
        blockCols.pop();
        blockIsSeq.pop();
        if (blockCols.length > 0 && blockCols[blockCols.length - 1] === c && !blockIsSeq[blockCols.length - 1]) return false;
      }
    }
    blockCols.push(c);
    blockIsSeq.push(seq);
    return depth() > max;
  };

  for (const tok of new Lexer().lex(text)) {
    if (tok === CST.SCALAR) {
      scalarNext = true;
      continue;
    }
    if (tok === CST.DOCUMENT) continue;
    if (tok === CST.FLOW_END) {
      flowIsSeq.length = 0;
      flowPair.length = 0;
      pairs = 0;
      continue;
    }
    const start = col;
    const nl = tok.lastIndexOf('\n');
    if (nl < 0) col += tok.length;
    else {
      for (let i = tok.indexOf('\n'); i >= 0; i = tok.indexOf('\n', i + 1)) line++;
      col = tok.length - nl - 1;
    }
    const inFlow = flowIsSeq.length > 0;
    if (scalarNext) {
      scalarNext = false;
      if (!inFlow && keyCol < 0) keyCol = start;
      continue;
    }
    switch (CST.tokenType(tok)) {
      case 'newline':
        if (!inFlow) keyCol = -1;
        break;
      case 'doc-start':
      case 'doc-end':
        blockCols.length = 0;
        blockIsSeq.length = 0;
        keyCol = -1;
        break;
      case 'seq-item-ind':
        if (!inFlow && blockItem(start, true)) return line;
        keyCol = -1;
        break;
      case 'explicit-key-ind':
        if (!inFlow && blockItem(start, false)) return line;
        keyCol = -1;
        break;
      case 'map-value-ind':
        if (inFlow) {
          const top = flowIsSeq.length - 1;
          if (flowIsSeq[top] && !flowPair[top]) {
            flowPair[top] = true;
            pairs++;
            if (depth() > max) return line;
          }
        } else if (keyCol >= 0) {
          if (blockItem(keyCol, false)) return line;
          keyCol = -1;
        }
        break;
      case 'flow-seq-start':
      case 'flow-map-start':
        if (!inFlow && keyCol < 0) keyCol = start;
        flowIsSeq.push(tok === '[');
        flowPair.push(false);
        if (depth() > max) return line;
        break;
      case 'flow-seq-end':
      case 'flow-map-end':
        if (inFlow) {
          flowIsSeq.pop();
          if (flowPair.pop()) pairs--;
        }
        break;
      case 'comma':
        if (inFlow && flowPair[flowPair.length - 1]) {
          flowPair[flowPair.length - 1] = false;
          pairs--;
        }
        break;
      case 'alias':
      case 'anchor':
      case 'tag':
      case 'single-quoted-scalar':
      case 'double-quoted-scalar':
        if (!inFlow && keyCol < 0) keyCol = start;
        break;
      default:
        break;
    }
  }
  return null;
}

/** Why a composed YAML document cannot become a value: nested too deeply once aliases are expanded, or an alias inside its own anchor. */
export type DocumentProblem = { tooDeep: true } | { tooDeep: false; anchor: string };

/**
 * Checks the value a composed YAML document stands for, with aliases expanded as toJS expands
 * them: its nesting must stay within `max`, and no alias may sit inside the node it names (which
 * would make the value circular). Iterative; returns null when the document is fine.
 */
export function documentProblem(doc: Document, max = MAX_NESTING_DEPTH): DocumentProblem | null {
  const root = doc.contents as Node | null;
  if (!root) return null;
  const height = new Map<Node, number>();
  const anchors = new Map<string, Node>();
  interface Frame {
    node: Node;
    children: Node[];
    next: number;
    max: number;
  }
  const childrenOf = (node: Node): Node[] => {
    if (!isCollection(node)) return [];
    const out: Node[] = [];
    for (const item of node.items as unknown[]) {
      if (isPair(item)) {
        if (item.key && typeof item.key === 'object') out.push(item.key as Node);
        if (item.value && typeof item.value === 'object') out.push(item.value as Node);
      } else if (item && typeof item === 'object') out.push(item as Node);
    }
    return out;
  };
  const enter = (node: Node): Frame => {
    if (node.anchor) anchors.set(node.anchor, node);
    return { node, children: childrenOf(node), next: 0, max: 0 };
  };
  const stack: Frame[] = [enter(root)];
  let result = 0;
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.next < top.children.length) {
      const child = top.children[top.next++]!;
      if (isAlias(child)) {
        const target = anchors.get(child.source);
        if (!target) continue; // the parser has reported the unknown anchor
        const h = height.get(target);
        if (h === undefined) return { tooDeep: false, anchor: child.source };
        top.max = Math.max(top.max, h);
        continue;
      }
      if (isScalar(child)) {
        if (child.anchor) {
          anchors.set(child.anchor, child);
          height.set(child, 0);
        }
        continue;
      }
      stack.push(enter(child));
      if (stack.length > max) return { tooDeep: true };
      continue;
    }
    stack.pop();
    const h = isMap(top.node) || isSeq(top.node) ? top.max + 1 : top.max;
    if (h > max) return { tooDeep: true };
    height.set(top.node, h);
    if (stack.length > 0) {
      const parent = stack[stack.length - 1]!;
      parent.max = Math.max(parent.max, h);
    } else result = h;
  }
  return result > max ? { tooDeep: true } : null;
}

// ---------------------------------------------------------------------------------------------
// Number literals
// ---------------------------------------------------------------------------------------------

/** A path into a JSON value: object keys and array indices. */
export type ValuePath = (string | number)[];

/** A number literal of a body that a plain JS number does not carry faithfully. */
export interface NumberLiteral {
  path: ValuePath;
  /** The literal as upstream's JSON decoder would see it (the JSON text; for YAML, what go-yaml's JSON conversion writes). */
  literal: string;
  /** The literal cannot be represented exactly: an integer beyond 2^53, or a value that overflows to Infinity or underflows to 0. */
  inexact: boolean;
}

const TWO_53 = 2n ** 53n;
/** JSON integer literals of up to 15 digits are exact and need no second look. */
const SIMPLE_JSON_NUMBER = /^-?(0|[1-9][0-9]{0,14})$/;

/** Whether a decimal number literal (JSON syntax) cannot be represented exactly by a double, as defined by NumberLiteral. */
export function isInexactLiteral(literal: string): boolean {
  if (/^[-+]?[0-9]+$/.test(literal)) {
    const n = BigInt(literal.replace(/^\+/, ''));
    return (n < 0n ? -n : n) > TWO_53;
  }
  const v = Number(literal);
  if (Number.isNaN(v)) return false; // not a number literal at all: the parser rejects it
  if (!Number.isFinite(v)) return true;
  if (v === 0) {
    const mantissa = literal.split(/[eE]/)[0]!;
    return /[1-9]/.test(mantissa);
  }
  return false;
}

/**
 * The number literals of a JSON text that are not short integers, with their paths, in text
 * order. One linear pass with an explicit stack, like findJSONTooDeep; never throws (the result
 * for malformed JSON is unspecified: the caller rejects the text anyway).
 */
export function scanJSONNumbers(text: string): NumberLiteral[] {
  const found: NumberLiteral[] = [];
  const isObject: boolean[] = [];
  const index: number[] = [];
  const keyStart: number[] = [];
  const keyEnd: number[] = [];
  let depth = 0;
  let expectKey = false;
  const n = text.length;
  const pathHere = (): ValuePath => {
    const path: ValuePath = [];
    for (let d = 0; d < depth; d++) {
      if (isObject[d]) {
        const raw = text.slice(keyStart[d]!, keyEnd[d]!);
        let key: string;
        try {
          key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
        } catch {
          key = raw;
        }
        path.push(key);
      } else path.push(index[d]!);
    }
    return path;
  };
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    switch (c) {
      case 0x20: // space
      case 0x09: // \t
      case 0x0a: // \n
      case 0x0d: // \r
        i++;
        break;
      case 0x7b: // {
      case 0x5b: // [
        isObject[depth] = c === 0x7b;
        index[depth] = 0;
        keyStart[depth] = 0;
        keyEnd[depth] = 0;
        depth++;
        expectKey = c === 0x7b;
        i++;
        break;
      case 0x7d: // }
      case 0x5d: // ]
        if (depth > 0) depth--;
        expectKey = false;
        i++;
        break;
      case 0x2c: // ,
        if (depth > 0) {
          if (isObject[depth - 1]) expectKey = true;
          else index[depth - 1]!++;
        }
        i++;
        break;
      case 0x3a: // :
        expectKey = false;
        i++;
        break;
      case 0x22: {
        // "
        const end = stringEnd(text, i);
        if (expectKey && depth > 0 && isObject[depth - 1]) {
          keyStart[depth - 1] = i + 1;
          keyEnd[depth - 1] = end;
          expectKey = false;
        }
        i = end + 1;
        break;
      }
      default: {
        const start = i;
        i++;
        while (i < n) {
          const d = text.charCodeAt(i);
          if (d === 0x2c || d === 0x7d || d === 0x5d || d === 0x3a || d === 0x20 || d === 0x0a || d === 0x0d || d === 0x09 ||
            d === 0x22 || d === 0x7b || d === 0x5b) break;
          i++;
        }
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
          const literal = text.slice(start, i);
          if (!SIMPLE_JSON_NUMBER.test(literal)) found.push({ path: pathHere(), literal, inexact: isInexactLiteral(literal) });
        }
      }
    }
  }
  return found;
}

const INT64_MIN = -(2n ** 63n);
const UINT64_MAX = 2n ** 64n - 1n;

/**
 * The number scalars of a composed YAML document that a JS number does not carry faithfully,
 * with their paths (aliases are not followed: the anchored node is looked at where it stands).
 * For integers beyond 2^53 the literal is the exact integer, as go-yaml decodes it; for floats
 * that overflow or underflow it is the scalar's source. Iterative.
 */
export function yamlNumbers(doc: Document): NumberLiteral[] {
  const found: NumberLiteral[] = [];
  const root = doc.contents as Node | null;
  if (!root) return found;
  const stack: { node: unknown; path: ValuePath }[] = [{ node: root, path: [] }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    if (isScalar(node)) {
      if (typeof node.value !== 'number') continue;
      const source = typeof node.source === 'string' ? node.source : String(node.value);
      const lit = yamlNumberLiteral(source, node.value);
      if (lit) found.push({ path, ...lit });
      continue;
    }
    if (isSeq(node)) {
      node.items.forEach((item, i) => stack.push({ node: item, path: [...path, i] }));
    } else if (isMap(node)) {
      for (const pair of node.items) {
        const k = pair.key;
        const key = isScalar(k) ? String(k.value) : String(k);
        stack.push({ node: pair.value, path: [...path, key] });
      }
    }
  }
  return found.reverse();
}

/** A YAML number scalar's literal and exactness, or null when a JS number carries it faithfully. */
function yamlNumberLiteral(source: string, value: number): { literal: string; inexact: boolean } | null {
  const plain = source.replaceAll('_', '');
  const int = parseYAMLInteger(plain);
  if (int !== null) {
    if ((int < 0n ? -int : int) <= TWO_53) return null;
    // go-yaml keeps int64 and uint64 exactly; anything larger becomes a float64.
    const literal = int >= INT64_MIN && int <= UINT64_MAX ? int.toString() : String(Number(int));
    return { literal, inexact: true };
  }
  if (Number.isNaN(value) || /^[-+]?\.(inf|Inf|INF)$/.test(plain)) return null; // .nan and .inf are values, not literals gone wrong
  if (!Number.isFinite(value) || (value === 0 && /[1-9]/.test(plain.split(/[eE]/)[0]!))) return { literal: source, inexact: true };
  return null;
}

/** A YAML 1.1 integer (decimal, 0x, 0o, 0b or leading-zero octal, optionally signed), or null. */
function parseYAMLInteger(s: string): bigint | null {
  const m = /^([-+]?)(0x[0-9a-fA-F]+|0o[0-7]+|0b[01]+|0[0-7]+|[0-9]+)$/.exec(s);
  if (!m) return null;
  let body = m[2]!;
  if (/^0[0-7]+$/.test(body)) body = `0o${body.slice(1)}`;
  const v = BigInt(body);
  return m[1] === '-' ? -v : v;
}
