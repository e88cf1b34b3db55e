// The YAML text gnostic stores for a JSON value (its `Any.yaml`): block style with four-space
// indentation, lines never folded, strings plain where YAML allows it, single-quoted where plain
// is ambiguous, double-quoted where a plain string would read as another type or holds characters
// only escapes can carry, and literal blocks for multi-line strings. Following that style keeps
// our protobuf bytes the same as upstream's for the same JSON document; any other valid YAML for
// the same value would parse the same in clients.
import { isJsonObject, type JsonValue } from './types.js';

const indentStep = 4;

/** The indentation of what nests under a mapping key: the next multiple of four. */
const nestedIndent = (indent: number): number => indent - (indent % indentStep) + indentStep;
/** What nests under a sequence's dash starts right after `- `. */
const itemIndent = (indent: number): number => indent + 2;

/** The YAML document (with its final newline) for a JSON value. */
export function gnosticYAML(v: JsonValue): string {
  if (isBlockCollection(v)) return (Array.isArray(v) ? sequenceLines(v, 0) : mappingLines(v, 0)).join('\n') + '\n';
  return inlineValue(v, indentStep).join('\n') + '\n';
}

/** A value that follows `key:` or `- ` on the same line; block scalars continue on further lines at `contentIndent`. */
function inlineValue(v: JsonValue, contentIndent: number): string[] {
  if (v === null) return ['null'];
  if (typeof v === 'boolean' || typeof v === 'number') return [JSON.stringify(v)];
  if (Array.isArray(v)) return ['[]'];
  if (isJsonObject(v)) return ['{}'];
  return stringLines(v, contentIndent);
}

const isBlockCollection = (v: JsonValue): v is JsonValue[] | { [k: string]: JsonValue } =>
  (Array.isArray(v) && v.length > 0) || (isJsonObject(v) && Object.keys(v).length > 0);

function mappingLines(obj: { [k: string]: JsonValue }, indent: number): string[] {
  const pad = ' '.repeat(indent);
  const out: string[] = [];
  for (const [k, v] of Object.entries(obj)) {
    const key = scalarString(k, true);
    if (isBlockCollection(v)) {
      const nested = nestedIndent(indent);
      out.push(`${pad}${key}:`, ...(Array.isArray(v) ? sequenceLines(v, nested) : mappingLines(v, nested)));
    } else {
      const [first, ...rest] = inlineValue(v, nestedIndent(indent));
      out.push(`${pad}${key}: ${first}`, ...rest);
    }
  }
  return out;
}

function sequenceLines(items: JsonValue[], indent: number): string[] {
  const pad = ' '.repeat(indent);
  const nested = itemIndent(indent);
  const out: string[] = [];
  for (const item of items) {
    if (isBlockCollection(item)) {
      // A collection in a sequence starts on the dash's line.
      const [first = '', ...rest] = Array.isArray(item) ? sequenceLines(item, nested) : mappingLines(item, nested);
      out.push(`${pad}- ${first.slice(nested)}`, ...rest);
    } else {
      const [first, ...rest] = inlineValue(item, nested);
      out.push(`${pad}- ${first}`, ...rest);
    }
  }
  return out;
}

function stringLines(s: string, contentIndent: number): string[] {
  if (s.includes('\n') && literalAllowed(s)) return literalLines(s, contentIndent);
  return [scalarString(s, false)];
}

/** A string on one line: plain, single- or double-quoted. */
function scalarString(s: string, isKey: boolean): string {
  if (s.includes('\n') || readsAsOtherType(s)) return doubleQuoted(s);
  const a = analyze(s);
  if (isKey && s.length > 128) return doubleQuoted(s);
  if (a.plain) return s;
  if (a.singleQuoted) return `'${s.replace(/'/g, "''")}'`;
  return doubleQuoted(s);
}

/** Literal block (`|`), with the chomping indicator that keeps the string's trailing newlines exact. */
function literalLines(s: string, contentIndent: number): string[] {
  const trailing = /\n*$/.exec(s)![0].length;
  const chomp = trailing === 0 ? '-' : trailing === 1 ? '' : '+';
  const body = trailing === 0 ? s : s.slice(0, -1);
  const pad = ' '.repeat(contentIndent);
  return [`|${chomp}`, ...body.split('\n').map((line) => (line === '' ? '' : pad + line))];
}

/** Literal blocks need no indentation indicator and carry only printable text without trailing blanks. */
function literalAllowed(s: string): boolean {
  if (s.startsWith(' ') || s.startsWith('\n') || s.endsWith(' ')) return false;
  if (/ \n/.test(s)) return false;
  for (const ch of s) if (ch !== '\n' && ch !== '\t' && (!printable(ch) || lineBreaks.has(ch))) return false;
  return true;
}

/** YAML's printable set, as the emitter judges it (characters outside the BMP count as unprintable). */
function printable(ch: string): boolean {
  const c = ch.codePointAt(0)!;
  return c === 0x0a || (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd && c !== 0xfeff);
}

/** Line breaks of YAML 1.1 beyond \\n, which only escapes carry safely. */
const lineBreaks = new Set(['\r', '\u0085', '\u2028', '\u2029']);

const blank = (ch: string | undefined): boolean => ch === undefined || ch === ' ' || ch === '\t' || ch === '\n';

/** Whether a one-line string may be written plain or single-quoted in block context. */
function analyze(s: string): { plain: boolean; singleQuoted: boolean } {
  const chars = [...s];
  let special = false;
  let indicators = false;
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (ch === '\t' || !printable(ch) || lineBreaks.has(ch)) special = true;
    const next = chars[i + 1];
    if (i === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(ch)) indicators = true;
      else if ((ch === '?' || ch === ':' || ch === '-') && blank(next)) indicators = true;
    } else if (ch === ':' && blank(next)) indicators = true;
    else if (ch === '#' && blank(chars[i - 1])) indicators = true;
  }
  const edgeSpace = s.startsWith(' ') || s.endsWith(' ');
  const documentMarker = s.startsWith('---') || s.startsWith('...');
  return {
    plain: s !== '' && !special && !indicators && !edgeSpace && !documentMarker,
    singleQuoted: !special,
  };
}

const floatPattern = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
// Integers as Go's strconv.ParseInt reads them with base 0 (0x, 0o, 0b and leading-zero octal).
const intPattern = /^[-+]?(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/;
const timestampPattern = /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}([Tt ].*)?$/;
const reserved = new Set(['', '~', 'null', 'Null', 'NULL', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE',
  '.nan', '.NaN', '.NAN', '.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF', '-.inf', '-.Inf', '-.INF']);

/**
 * A plain scalar that a YAML reader would take for null, a boolean, a number or a timestamp. Only
 * strings starting with a digit, a sign or a dot are tried as numbers, and underscores between
 * digits are ignored, as gnostic's YAML library resolves them.
 */
function readsAsOtherType(s: string): boolean {
  if (reserved.has(s)) return true;
  const first = s[0] ?? '';
  if (first === '.') return floatPattern.test(s);
  if (!/[-+0-9]/.test(first)) return false;
  const digits = s.replace(/_/g, '');
  return timestampPattern.test(s) || intPattern.test(digits) || floatPattern.test(digits);
}

const namedEscapes: Record<number, string> = {
  0x00: '\\0', 0x07: '\\a', 0x08: '\\b', 0x09: '\\t', 0x0a: '\\n', 0x0b: '\\v', 0x0c: '\\f', 0x0d: '\\r', 0x1b: '\\e',
  0x22: '\\"', 0x5c: '\\\\', 0x85: '\\N', 0xa0: '\\_', 0x2028: '\\L', 0x2029: '\\P',
};

function doubleQuoted(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    const breakChar = c === 0x0a || c === 0x0d || c === 0x85 || c === 0x2028 || c === 0x2029;
    if (printable(ch) && !breakChar && c !== 0x22 && c !== 0x5c) {
      out += ch;
      continue;
    }
    const hex = c.toString(16).toUpperCase();
    out += namedEscapes[c] ?? (c <= 0xff ? `\\x${hex.padStart(2, '0')}` : c <= 0xffff ? `\\u${hex.padStart(4, '0')}` : `\\U${hex.padStart(8, '0')}`);
  }
  return `${out}"`;
}
