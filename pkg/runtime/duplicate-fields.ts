// Finds fields a request body sets more than once. JSON.parse and the YAML parser keep one of the
// values silently; upstream's strict decoding reports each duplicate so fieldValidation can warn
// or reject. The two formats are reported the way upstream's two decoders word them:
//
//   JSON (sigs.k8s.io/json strict decoding):  duplicate field "spec.template.spec.containers[0].name"
//   YAML (go-yaml v2 UnmarshalStrict):        line 14: key "paused" already set in map
import { parseDocument, isAlias, isMap, isPair, isScalar, isSeq, visit } from 'yaml';
import type { Alias, Document, Node, Pair } from 'yaml';
import { goQuote } from '../util/go-quote.js';

/** Upstream keeps at most this many strict decoding errors per JSON body. */
const MAX_JSON_DUPLICATES = 100;

// ---------------------------------------------------------------------------------------------
// JSON
// ---------------------------------------------------------------------------------------------

/** Objects with more keys than this check duplicates with a Set instead of a linear scan. */
const SMALL_OBJECT_KEYS = 16;

/**
 * Paths of the fields a JSON text sets more than once, in document order, as upstream's strict
 * JSON decoder names them: object keys joined with `.` (also map keys and keys that contain dots:
 * `metadata.labels.app.kubernetes.io/name`), list indices as `[i]`, e.g.
 * `spec.template.spec.containers[0].imagePullPolicy`. Keys are compared after unescaping, so
 * `"a"` and `"\u0061"` are the same field. A key repeated three times is reported once, and at
 * most 100 paths are returned (upstream dedupes and caps the same way).
 *
 * One linear pass over the text with an explicit stack: nothing is parsed into values, and any
 * nesting depth works. Never throws; for malformed JSON it returns what it found before the text
 * stopped making sense (the caller reports the syntax error).
 */
export function findDuplicateFieldsJSON(text: string): string[] {
  try {
    return scanJSON(text);
  } catch {
    return [];
  }
}

/** The messages upstream's strict JSON decoder gives for the same duplicates: `duplicate field "spec.paused"`. */
export function findDuplicateFieldMessagesJSON(text: string): string[] {
  return findDuplicateFieldsJSON(text).map((path) => `duplicate field ${goQuote(path)}`);
}

function scanJSON(text: string): string[] {
  const found: string[] = [];
  const reported = new Set<string>();
  // One slot per open container, outermost first; the slots are reused by later siblings.
  const isObject: boolean[] = [];
  const index: number[] = []; // arrays: index of the element being read
  const key: string[] = []; // objects: key whose value is being read
  const small: string[][] = []; // objects: keys seen so far while few
  const big: Set<string>[] = []; // objects: keys seen so far once many
  const usesBig: boolean[] = [];
  let depth = 0;
  let expectKey = false;
  const n = text.length;
  let i = 0;

  const pathOf = (field: string): string => {
    // Same as upstream's strictFieldStack: keys joined by `.`, indices appended as `[i]`.
    let path = '';
    for (let d = 0; d < depth - 1; d++) {
      if (isObject[d]) path += d === 0 ? key[d] : `.${key[d]}`;
      else path += `[${index[d]}]`;
    }
    return depth > 1 ? `${path}.${field}` : field;
  };

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
        isObject[depth] = true;
        key[depth] = '';
        if (small[depth] === undefined) small[depth] = [];
        else small[depth]!.length = 0;
        usesBig[depth] = false;
        depth++;
        expectKey = true;
        i++;
        break;
      case 0x5b: // [
        isObject[depth] = false;
        index[depth] = 0;
        depth++;
        expectKey = false;
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
          const d = depth - 1;
          let k = text.slice(i + 1, end);
          if (k.includes('\\')) k = unescapeJSON(k);
          let seen: boolean;
          if (usesBig[d]) {
            const set = big[d]!;
            seen = set.has(k);
            if (!seen) set.add(k);
          } else {
            const list = small[d]!;
            seen = list.includes(k);
            if (!seen) {
              if (list.length < SMALL_OBJECT_KEYS) list.push(k);
              else {
                const set = big[d] ?? new Set<string>();
                set.clear();
                for (const s of list) set.add(s);
                set.add(k);
                big[d] = set;
                usesBig[d] = true;
              }
            }
          }
          if (seen) {
            const path = pathOf(k);
            if (!reported.has(path)) {
              reported.add(path);
              found.push(path);
              if (found.length >= MAX_JSON_DUPLICATES) return found;
            }
          }
          key[d] = k;
          expectKey = false;
        }
        i = end + 1;
        break;
      }
      default:
        // A number or literal (or garbage): skip to the next delimiter.
        i++;
        while (i < n) {
          const d = text.charCodeAt(i);
          if (d === 0x2c || d === 0x7d || d === 0x5d || d === 0x3a || d === 0x20 || d === 0x0a || d === 0x0d || d === 0x09 ||
            d === 0x22 || d === 0x7b || d === 0x5b) break;
          i++;
        }
    }
  }
  return found;
}

/** Position of the quote closing the string that opens at `start`, or the text's length. */
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

/** The value of a JSON string's contents (without the quotes), as JSON.parse would give it. */
function unescapeJSON(s: string): string {
  let out = '';
  let last = 0;
  for (let i = s.indexOf('\\'); i >= 0 && i < s.length; i = s.indexOf('\\', last)) {
    out += s.slice(last, i);
    const e = s[i + 1];
    last = i + 2;
    switch (e) {
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'u': {
        const hex = s.slice(i + 2, i + 6);
        if (/^[0-9a-fA-F]{4}$/.test(hex)) {
          out += String.fromCharCode(parseInt(hex, 16)); // surrogate pairs join up by themselves
          last = i + 6;
        } else out += 'u';
        break;
      }
      case undefined: break;
      default: out += e; // \" \\ \/ (and, in invalid JSON, anything else)
    }
    if (last >= s.length) break;
  }
  return out + s.slice(last);
}

// ---------------------------------------------------------------------------------------------
// YAML
// ---------------------------------------------------------------------------------------------

const TAG = 'tag:yaml.org,2002:';
/** Upper bound on mappings and keys visited while expanding `<<` merges, against alias bombs. */
const MERGE_BUDGET = 10_000;

/**
 * The messages upstream's strict YAML decoding (go-yaml v2 `UnmarshalStrict`, run by
 * `yaml.YAMLToJSONStrict`) gives for keys a YAML text sets more than once in a mapping, e.g.
 * `line 14: key "paused" already set in map`. Upstream names only the key, not its path; the
 * line (1-based) is where the duplicate's value starts. Keys compare as go-yaml resolves them
 * (YAML 1.1: `yes` and `true` are the same key, `1` and `"1"` are not), and the key is printed as
 * Go's `%#v` prints it (`key "a"`, `key 1`, `key true`, `key <nil>`). Order is upstream's: a
 * duplicate is reported after the duplicates nested in its value. Keys brought in by `<<` merges
 * count, as upstream. Identical messages (e.g. from an aliased node) are reported once.
 *
 * Only the first document is looked at, as upstream decodes only the first. Never throws;
 * for malformed YAML it returns what it found in the part that parsed.
 *
 * Parsing is most of the cost: a caller that parses the body anyway can pass its Document,
 * parsed from `text` with `{ uniqueKeys: false, version: '1.1', keepSourceTokens: true }`
 * (without keepSourceTokens, lines of values with an anchor or tag may be off).
 */
export function findDuplicateFieldMessagesYAML(text: string, parsed?: Document): string[] {
  try {
    return scanYAML(text, parsed ?? parseDocument(text, { uniqueKeys: false, version: '1.1', keepSourceTokens: true }));
  } catch {
    return [];
  }
}

interface PendingKey {
  id: string;
  repr: string;
  pair: Pair<unknown, unknown>;
  flow: boolean;
}

interface MapFrame {
  map: true;
  pairs: unknown[];
  i: number;
  /** Keys of the mapping being filled; merge frames share their target's set. */
  seen: Set<string>;
  /** The key to check once its value has been walked (upstream checks after decoding the value). */
  pending: PendingKey | null;
  /** False for mappings merged in through an alias: walked already where they are defined. */
  walkValues: boolean;
  merged: boolean;
  /** A flow mapping (`{a: 1}`), where go-yaml places empty values differently. */
  flow: boolean;
}

interface SeqFrame {
  map: false;
  items: unknown[];
  i: number;
}

function scanYAML(text: string, doc: Document): string[] {
  const found: string[] = [];
  const reported = new Set<string>();
  const stack: (MapFrame | SeqFrame)[] = [];
  let lineStarts: number[] | null = null;
  let mergeBudget = MERGE_BUDGET;
  let nanCount = 0;

  const lineOf = (offset: number): number => {
    if (lineStarts === null) {
      lineStarts = [0];
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
    }
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    // At the end of a text without a final line break go-yaml's scanner has moved to a new line.
    const pastLastLine = offset >= text.length && text.length > 0 && !text.endsWith('\n');
    return lo + (pastLastLine ? 2 : 1);
  };

  const pushNode = (node: unknown): void => {
    if (isMap(node)) {
      stack.push({ map: true, pairs: node.items, i: 0, seen: new Set(), pending: null, walkValues: true, merged: false, flow: node.flow === true });
    } else if (isSeq(node)) {
      stack.push({ map: false, items: node.items, i: 0 });
    }
  };

  // Alias.resolve() walks the whole document on each call; resolve them all in one walk instead.
  let anchored: Map<Alias, Node | undefined> | null = null;
  const resolveAlias = (alias: Alias): Node | undefined => {
    if (anchored === null) {
      anchored = new Map();
      const byName = new Map<string, Node>();
      const aliases = anchored;
      visit(doc, {
        Node(_, node) {
          if (isAlias(node)) aliases.set(node, byName.get(node.source));
          else if (node.anchor) byName.set(node.anchor, node);
        },
      });
    }
    return anchored.get(alias);
  };

  const pushMerge = (target: MapFrame, source: unknown): void => {
    const viaAlias = isAlias(source);
    const node = viaAlias ? resolveAlias(source) : source;
    if (!isMap(node) || --mergeBudget < 0) return; // not a mapping: upstream fails the whole decode
    stack.push({
      map: true, pairs: node.items, i: 0, seen: target.seen, pending: null,
      walkValues: target.walkValues && !viaAlias, merged: true, flow: node.flow === true,
    });
  };

  const check = (frame: MapFrame, pending: PendingKey): void => {
    if (!frame.seen.has(pending.id)) {
      frame.seen.add(pending.id);
      return;
    }
    const msg = `line ${lineOf(valueOffset(text, pending.pair, pending.flow))}: key ${pending.repr} already set in map`;
    if (!reported.has(msg)) {
      reported.add(msg);
      found.push(msg);
    }
  };

  pushNode(doc.contents);
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (!top.map) {
      if (top.i >= top.items.length) stack.pop();
      else pushNode(top.items[top.i++]);
      continue;
    }
    if (top.pending) {
      const pending = top.pending;
      top.pending = null;
      check(top, pending);
      continue;
    }
    if (top.i >= top.pairs.length) {
      stack.pop();
      continue;
    }
    const pair = top.pairs[top.i++];
    if (!isPair(pair)) continue;
    if (top.merged && --mergeBudget < 0) {
      stack.pop();
      continue;
    }
    if (isMergeKey(pair.key)) {
      const value = pair.value;
      if (isSeq(value)) {
        // Upstream merges a list of mappings last to first; the stack runs the last push first.
        for (const item of value.items) pushMerge(top, item);
      } else pushMerge(top, value);
      continue;
    }
    const goKey = resolveGoKey(isAlias(pair.key) ? resolveAlias(pair.key) : pair.key);
    if (goKey === null) continue; // a collection as key: upstream fails the whole decode
    const id = goKey.id ?? `NaN#${nanCount++}`; // NaN never equals a key already in a Go map
    top.pending = { id, repr: goKey.repr, pair, flow: top.flow };
    if (top.walkValues) pushNode(pair.value);
  }
  return found;
}

function isMergeKey(node: unknown): boolean {
  return isScalar(node) && node.type === 'PLAIN' && node.source === '<<' && (node.tag === undefined || node.tag === `${TAG}merge`);
}

/**
 * Where go-yaml's node for a pair's value starts: its anchor or tag if it has one, else its
 * content. An empty value sits right after the `:` in a block mapping, and at the next token
 * (`,`, `}`, the next key) in a flow mapping or when there is no `:` (go-yaml's parser puts the
 * empty scalar event there).
 */
function valueOffset(text: string, pair: Pair<unknown, unknown>, flow: boolean): number {
  const tok = pair.srcToken;
  let from: number | undefined;
  if (tok) {
    let indicator = -1;
    for (const t of tok.sep ?? []) {
      if (t.type === 'map-value-ind') indicator = t.offset;
      else if (indicator >= 0 && (t.type === 'anchor' || t.type === 'tag')) return t.offset;
    }
    const value = tok.value;
    if (value && !(value.type === 'scalar' && value.source === '')) return value.offset;
    if (indicator >= 0 && !flow) return indicator + 1;
    if (value) from = value.offset;
    else {
      const last = tok.sep?.[tok.sep.length - 1];
      if (last) from = last.offset + last.source.length;
    }
  }
  if (from === undefined) {
    const v = pair.value as { range?: [number, number, number] } | null;
    const k = pair.key as { range?: [number, number, number] } | null;
    from = v?.range?.[0] ?? k?.range?.[1] ?? 0;
  }
  return nextTokenOffset(text, from);
}

/** The first offset at or after `from` that is not whitespace, a line break or a comment. */
function nextTokenOffset(text: string, from: number): number {
  let i = from;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0xfeff) i++;
    else if (c === 0x23) {
      // # comment
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl + 1;
    } else break;
  }
  return i;
}

interface GoKey {
  /** Identity in a Go map[interface{}]interface{}; null for NaN, which equals nothing. */
  id: string | null;
  /** The key as Go's `%#v` prints it. */
  repr: string;
}

const NIL_KEY: GoKey = { id: 'nil', repr: '<nil>' };

/** A mapping key as go-yaml v2 decodes it into interface{}; null for collections. */
function resolveGoKey(node: unknown): GoKey | null {
  if (node === null || node === undefined) return NIL_KEY;
  if (!isScalar(node)) return null;
  const source = typeof node.source === 'string' ? node.source : String(node.value);
  const tag = node.tag;
  if (tag !== undefined) {
    const resolvable = [`${TAG}bool`, `${TAG}int`, `${TAG}float`, `${TAG}null`, `${TAG}timestamp`].includes(tag);
    return resolvable ? resolvePlain(source) : stringKey(source);
  }
  return node.type === 'PLAIN' ? resolvePlain(source) : stringKey(source);
}

function stringKey(s: string): GoKey {
  return { id: `s:${s}`, repr: goQuote(s) };
}

const TRUE_WORDS = new Set(['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON']);
const FALSE_WORDS = new Set(['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF']);
const NULL_WORDS = new Set(['', '~', 'null', 'Null', 'NULL']);
const YAML_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const INT64_MAX = (1n << 63n) - 1n;
const UINT64_MAX = (1n << 64n) - 1n;

/** go-yaml v2's resolve() for an untagged plain scalar (timestamps stay strings for interface{}). */
function resolvePlain(s: string): GoKey {
  if (NULL_WORDS.has(s)) return NIL_KEY;
  if (TRUE_WORDS.has(s)) return { id: 'b:true', repr: 'true' };
  if (FALSE_WORDS.has(s)) return { id: 'b:false', repr: 'false' };
  switch (s) {
    case '.nan': case '.NaN': case '.NAN':
      return floatKey(NaN);
    case '.inf': case '.Inf': case '.INF': case '+.inf': case '+.Inf': case '+.INF':
      return floatKey(Infinity);
    case '-.inf': case '-.Inf': case '-.INF':
      return floatKey(-Infinity);
  }
  const c = s[0]!;
  if (c === '.') {
    if (/^\.[0-9]+([eE][-+]?[0-9]+)?$/.test(s)) {
      const f = Number(s);
      if (Number.isFinite(f)) return floatKey(f);
    }
    return stringKey(s);
  }
  if (c !== '+' && c !== '-' && !(c >= '0' && c <= '9')) return stringKey(s);
  const plain = s.replaceAll('_', '');
  const signed = parseGoInt(plain, true);
  if (signed !== null && signed >= -INT64_MAX - 1n && signed <= INT64_MAX) return { id: `i:${signed}`, repr: signed.toString() };
  const unsigned = parseGoInt(plain, false);
  if (unsigned !== null && unsigned <= UINT64_MAX) return { id: `u:${unsigned}`, repr: `0x${unsigned.toString(16)}` };
  if (YAML_FLOAT.test(plain)) {
    const f = Number(plain);
    if (Number.isFinite(f)) return floatKey(f);
  }
  return stringKey(s);
}

/** strconv.ParseInt/ParseUint with base 0, without the range check. */
function parseGoInt(s: string, allowSign: boolean): bigint | null {
  let neg = false;
  let t = s;
  if (allowSign && (t[0] === '+' || t[0] === '-')) {
    neg = t[0] === '-';
    t = t.slice(1);
  }
  let digits: RegExp = /^[0-9]+$/;
  let prefix = '';
  if (t.length > 1 && t[0] === '0') {
    const p = t[1]!.toLowerCase();
    if (p === 'x') [digits, prefix, t] = [/^[0-9a-fA-F]+$/, '0x', t.slice(2)];
    else if (p === 'o') [digits, prefix, t] = [/^[0-7]+$/, '0o', t.slice(2)];
    else if (p === 'b') [digits, prefix, t] = [/^[01]+$/, '0b', t.slice(2)];
    else [digits, prefix, t] = [/^[0-7]+$/, '0o', t.slice(1)];
  }
  if (!digits.test(t)) return null;
  const v = BigInt(prefix + t);
  return neg ? -v : v;
}

function floatKey(f: number): GoKey {
  if (Number.isNaN(f)) return { id: null, repr: 'NaN' };
  return { id: `f:${f === 0 ? 0 : f}`, repr: goFloat(f) }; // +0 and -0 are the same Go map key
}

/** A float64 as Go's `%v` prints it (strconv 'g', shortest). */
function goFloat(f: number): string {
  if (f === Infinity) return '+Inf';
  if (f === -Infinity) return '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const [mantissa, exp] = Math.abs(f).toExponential().split('e') as [string, string];
  const e = Number(exp);
  const sign = f < 0 ? '-' : '';
  if (e < -4 || e >= 6) return `${sign}${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  return String(f);
}

