// Go's spellings of values where upstream's text reaches clients: encoding/json (HTML-safe
// escaping, sorted map keys) inside FieldsV1 keys, and fmt's %q and %v in printed field paths.

/** JSON as Go's encoding/json writes it: map keys sorted, <, > and & escaped, U+2028/9 escaped. */
export function goJson(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return goJsonString(v);
  if (typeof v === 'number' || typeof v === 'boolean') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(goJson).join(',')}]`;
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o).sort(byBytes);
    return `{${keys.map((k) => `${goJsonString(k)}:${goJson(o[k])}`).join(',')}}`;
  }
  return 'null';
}

function byBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

function goJsonString(s: string): string {
  return JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
const shortEscapes: Record<string, string> = { '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v', '"': '\\"', '\\': '\\\\' };

/** A string as Go's %q prints it: double-quoted, printable characters kept, others escaped. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const short = shortEscapes[ch];
    if (short !== undefined) out += short;
    else if (printable.test(ch)) out += ch;
    else {
      const cp = ch.codePointAt(0)!;
      if (cp < 0x80) out += `\\x${cp.toString(16).padStart(2, '0')}`;
      else if (cp >= 0xd800 && cp <= 0xdfff) out += '\\ufffd'; // a lone surrogate is not UTF-8; Go sees U+FFFD
      else if (cp < 0x10000) out += `\\u${cp.toString(16).padStart(4, '0')}`;
      else out += `\\U${cp.toString(16).padStart(8, '0')}`;
    }
  }
  return `${out}"`;
}

/**
 * A number as Go's %v prints it: an integer plainly, any other number in the shortest form
 * with an exponent below 1e-4 and from 1e6 on (`1.5`, `1e-05`, `1.2345675e+06`).
 */
export function formatGoNumber(n: number): string {
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN';
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return BigInt(n).toString();
  const [mantissa, exp] = n.toExponential().split('e') as [string, string];
  const e = Number(exp);
  if (e < -4 || e >= 6) return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  return String(n);
}
