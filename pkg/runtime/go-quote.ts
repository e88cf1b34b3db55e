// Go's strconv.Quote, which upstream's messages quote names and values with. Its own module, as
// many callers need it that need nothing else of the decoders (and not the YAML parser they load).

const GO_PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

/**
 * A string quoted the way Go's strconv.Quote (and so `%q` and `%#v`) quotes it: `"` and `\`
 * escaped, non-printable characters as `\n`, `\x1b`, `\u00a0`, ...; lone surrogates print as
 * U+FFFD, as Go's decoders turn them into that.
 */
export function goQuote(s: string): string {
  if (/^[\x20-\x21\x23-\x5b\x5d-\x7e]*$/.test(s)) return `"${s}"`;
  let out = '"';
  for (const ch of s) {
    let r = ch.codePointAt(0)!;
    if (r >= 0xd800 && r <= 0xdfff) r = 0xfffd;
    if (r === 0x22) out += '\\"';
    else if (r === 0x5c) out += '\\\\';
    else if (r === 0x20 || GO_PRINTABLE.test(String.fromCodePoint(r))) out += String.fromCodePoint(r);
    else if (r === 0x07) out += '\\a';
    else if (r === 0x08) out += '\\b';
    else if (r === 0x0c) out += '\\f';
    else if (r === 0x0a) out += '\\n';
    else if (r === 0x0d) out += '\\r';
    else if (r === 0x09) out += '\\t';
    else if (r === 0x0b) out += '\\v';
    else if (r < 0x20 || r === 0x7f) out += `\\x${r.toString(16).padStart(2, '0')}`;
    else if (r < 0x10000) out += `\\u${r.toString(16).padStart(4, '0')}`;
    else out += `\\U${r.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}
