// Strings quoted as Go's strconv.Quote (and fmt's %q) quotes them. Upstream's logs quote every
// message and string value this way, and it differs from JSON.stringify where it matters to a
// reader: control bytes as \x01, DEL and other unprintable characters escaped, printable Unicode
// kept as it is.

/** Printable ASCII other than `"` and `\`: the common case, kept as it is. */
const plain = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
/** Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
const named: Record<number, string> = { 0x07: '\\a', 0x08: '\\b', 0x0c: '\\f', 0x0a: '\\n', 0x0d: '\\r', 0x09: '\\t', 0x0b: '\\v', 0x22: '\\"', 0x5c: '\\\\' };

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

/** `s` in double quotes with Go's escapes (strconv.Quote). */
export function goQuote(s: string): string {
  if (plain.test(s)) return `"${s}"`;
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    const escape = named[c];
    if (escape !== undefined) out += escape;
    else if (c >= 0xd800 && c <= 0xdfff) out += '\ufffd'; // a lone surrogate is written out as U+FFFD, which Go prints as it is
    else if (printable.test(ch)) out += ch;
    else if (c < 0x80) out += `\\x${hex(c, 2)}`;
    else if (c < 0x10000) out += `\\u${hex(c, 4)}`;
    else out += `\\U${hex(c, 8)}`;
  }
  return `${out}"`;
}
