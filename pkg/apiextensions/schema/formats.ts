// The string formats a CRD schema may name and upstream checks (kube-openapi's strfmt default
// registry, as apiextensions-apiserver keeps it): a format outside this set is dropped from the
// schema before validation, so `format: int32` or `format: quantity` checks nothing. Names are
// compared with dashes removed (`date-time` is `datetime`), as strfmt normalizes them.
import ipaddr from 'ipaddr.js';
import { parseGoURL } from '../../util/go-url.js';
import { compileGoRegexp } from '../../util/go-regexp.js';

type Check = (s: string) => boolean;

/** A format name as strfmt compares it. */
export function normalizeFormat(name: string): string {
  return name.replaceAll('-', '');
}

const re = (pattern: string, flags = ''): Check => {
  const r = new RegExp(pattern, flags);
  return (s) => r.test(s);
};

// ---- addresses ----

/** k8s.io/utils/net's ParseIPSloppy for IPv4: four decimal parts up to 255, leading zeros allowed. */
function isIPv4Sloppy(s: string): boolean {
  const parts = s.split('.');
  return parts.length === 4 && parts.every((p) => /^\d+$/.test(p) && Number(p) <= 255);
}

function isIPv6(s: string): boolean {
  return s.includes(':') && !s.includes('%') && ipaddr.IPv6.isValid(s);
}

function parseIPSloppy(s: string): boolean {
  return isIPv4Sloppy(s) || isIPv6(s);
}

function isCIDR(s: string): boolean {
  const slash = s.indexOf('/');
  if (slash < 0) return false;
  const addr = s.slice(0, slash);
  const bits = s.slice(slash + 1);
  if (!/^\d+$/.test(bits)) return false;
  const max = isIPv4Sloppy(addr) ? 32 : isIPv6(addr) ? 128 : -1;
  return max >= 0 && Number(bits) <= max;
}

/** Go's net.ParseMAC: 6, 8 or 20 octets as `xx:xx:..`, `xx-xx-..` or `xxxx.xxxx.xxxx`. */
function isMAC(s: string): boolean {
  if (s.length < 14) return false;
  const octets = (n: number) => n === 6 || n === 8 || n === 20;
  if (s[2] === ':' || s[2] === '-') {
    if ((s.length + 1) % 3 !== 0 || !octets((s.length + 1) / 3)) return false;
    const sep = s[2]!;
    for (let x = 0; x < s.length; x += 3) {
      if (!/^[0-9A-Fa-f]{2}$/.test(s.slice(x, x + 2))) return false;
      if (x + 2 < s.length && s[x + 2] !== sep) return false;
    }
    return true;
  }
  if (s[4] === '.') {
    if ((s.length + 1) % 5 !== 0 || !octets((2 * (s.length + 1)) / 5)) return false;
    for (let x = 0; x < s.length; x += 5) {
      if (!/^[0-9A-Fa-f]{4}$/.test(s.slice(x, x + 4))) return false;
      if (x + 4 < s.length && s[x + 4] !== '.') return false;
    }
    return true;
  }
  return false;
}

/** Go's url.ParseRequestURI succeeds: an absolute URI, or an absolute path; never a fragment. */
function isRequestURI(s: string): boolean {
  if (s === '' || /[\x00-\x1f\x7f]/.test(s)) return false;
  if (s === '*') return true;
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(s);
  if (scheme === null) {
    if (/^[0-9+.-]*:/.test(s) && s.indexOf(':') === 0) return false;
    if (!s.startsWith('/')) return false;
    // A path: only its escapes are checked.
    const path = s.split('?')[0]!;
    return !/%(?![0-9A-Fa-f]{2})/.test(path);
  }
  // A request URI has no fragment: `#` belongs to the path or query, where %23 stands for it.
  return parseGoURL(s.replaceAll('#', '%23')).error === undefined;
}

// net/mail.ParseAddress, as far as single addresses go: `local@domain` or `Name <local@domain>`.
const atext = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~\u0080-\u{10FFFF}]$/u;

class MailParser {
  constructor(private s: string) {}
  empty(): boolean {
    return this.s === '';
  }
  skipSpace(): void {
    this.s = this.s.replace(/^[ \t]+/, '');
  }
  consume(c: string): boolean {
    if (!this.s.startsWith(c)) return false;
    this.s = this.s.slice(c.length);
    return true;
  }
  atom(dot: boolean, permissive: boolean): string | undefined {
    let i = 0;
    const chars = Array.from(this.s);
    while (i < chars.length && (atext.test(chars[i]!) || (dot && chars[i] === '.'))) i++;
    if (i === 0) return undefined;
    const a = chars.slice(0, i).join('');
    this.s = chars.slice(i).join('');
    if (!permissive && (a.startsWith('.') || a.includes('..') || a.endsWith('.'))) return undefined;
    return a;
  }
  quotedString(): string | undefined {
    const m = /^"((?:[^"\\\r\n]|\\[\s\S])*)"/.exec(this.s);
    if (m === null) return undefined;
    this.s = this.s.slice(m[0].length);
    return m[1]!;
  }
  addrSpec(): boolean {
    const orig = this.s;
    this.skipSpace();
    const local = this.s.startsWith('"') ? this.quotedString() : this.atom(true, false);
    if (!local || !this.consume('@')) {
      this.s = orig;
      return false;
    }
    this.skipSpace();
    let domain: string | undefined;
    if (this.s.startsWith('[')) {
      const m = /^\[[\x21-\x5a\x5e-\x7e \t]*\]/.exec(this.s);
      domain = m?.[0];
      if (m) this.s = this.s.slice(m[0].length);
    } else {
      domain = this.atom(true, false);
    }
    if (!domain) {
      this.s = orig;
      return false;
    }
    return true;
  }
  /** Spaces and (nested) comments; false for an unclosed comment. */
  skipCFWS(): boolean {
    this.skipSpace();
    while (this.s.startsWith('(')) {
      let depth = 0;
      let i = 0;
      for (; i < this.s.length; i++) {
        if (this.s[i] === '\\') i++;
        else if (this.s[i] === '(') depth++;
        else if (this.s[i] === ')' && --depth === 0) break;
      }
      if (depth !== 0) return false;
      this.s = this.s.slice(i + 1);
      this.skipSpace();
    }
    return true;
  }
  phrase(): boolean {
    let words = 0;
    for (;;) {
      if (words > 0 && !this.skipCFWS()) return false;
      this.skipSpace();
      if (this.empty()) break;
      const w = this.s.startsWith('"') ? this.quotedString() : this.atom(true, true);
      if (w === undefined) break;
      words++;
    }
    return words > 0;
  }
}

function isEmail(s: string): boolean {
  const p = new MailParser(s);
  p.skipSpace();
  if (p.empty()) return false;
  if (p.addrSpec()) {
    // An address may be followed by a comment naming its owner.
  } else {
    if (!s.trimStart().startsWith('<') && !p.phrase()) return false;
    p.skipSpace();
    if (!p.consume('<') || !p.addrSpec() || !p.consume('>')) return false;
  }
  return p.skipCFWS() && p.empty();
}

// ---- times ----

function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (m === null) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  const days = [31, (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1]!;
  return d <= days;
}

/** strfmt's IsDateTime: a date, `t`, then a time matched loosely (any character before the fraction). */
function isDateTime(s: string): boolean {
  if (s.length < 4) return false;
  const parts = s.toLowerCase().split('t');
  if (parts.length < 2 || !isDate(parts[0]!)) return false;
  const m = /^([0-9]{2}):([0-9]{2}):([0-9]{2})([^\n][0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/u.exec(parts[1]!);
  return m !== null && m[1]! <= '23' && m[2]! <= '59' && m[3]! <= '59';
}

/** Go's time.ParseDuration accepts `s` ("1h30m", "-1.5s", "0"). */
function isGoDuration(s: string): boolean {
  if (s === '0' || s === '+0' || s === '-0') return true;
  return /^[-+]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+$/u.test(s);
}

const durationUnits: string[][] = [['ns', 'nano'], ['us', 'µs', 'micro'], ['ms', 'milli'], ['s', 'sec'], ['m', 'min'], ['h', 'hr', 'hour'], ['d', 'day'], ['w', 'wk', 'week']];

/** strfmt's duration: Go's, or any `<number> <unit>` inside the text with a unit it knows ("3 days"). */
function isDuration(s: string): boolean {
  if (isGoDuration(s)) return true;
  for (const m of s.matchAll(/(\d+)\s*([A-Za-zµ]+)/gu)) {
    if (m[1]!.length > 18) return false; // strconv.Atoi overflows
    const unit = m[2]!.toLowerCase().trim();
    for (const variants of durationUnits) {
      const last = variants.length - 1;
      if (variants.some((v, i) => (i === last && unit.startsWith(v)) || v.toLowerCase() === unit)) return true;
    }
  }
  return false;
}

// ---- numbers with check digits ----

function isISBN10(s: string): boolean {
  const d = s.replace(/[\t\n\f\r -]+/g, '');
  if (!/^(?:[0-9]{9}X|[0-9]{10})$/.test(d)) return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (i + 1) * Number(d[i]);
  sum += 10 * (d[9] === 'X' ? 10 : Number(d[9]));
  return sum % 11 === 0;
}

function isISBN13(s: string): boolean {
  const d = s.replace(/[\t\n\f\r -]+/g, '');
  if (!/^[0-9]{13}$/.test(d)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += (i % 2 === 0 ? 1 : 3) * Number(d[i]);
  return Number(d[12]) - ((10 - (sum % 10)) % 10) === 0;
}

const creditCardRe = /^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$/;

function isCreditCard(s: string): boolean {
  const d = s.replace(/[^0-9]+/g, '');
  if (!creditCardRe.test(d)) return false;
  let sum = 0;
  let double = false;
  for (let i = d.length - 1; i >= 0; i--) {
    let n = Number(d[i]);
    if (double) {
      n *= 2;
      sum += n >= 10 ? (n % 10) + 1 : n;
    } else {
      sum += n;
    }
    double = !double;
  }
  return sum % 10 === 0;
}

const hostnameRe = compileGoRegexp('^([a-zA-Z0-9\\p{S}\\p{L}]((-?[a-zA-Z0-9\\p{S}\\p{L}]{0,62})?)|([a-zA-Z0-9\\p{S}\\p{L}](([a-zA-Z0-9-\\p{S}\\p{L}]{0,61}[a-zA-Z0-9\\p{S}\\p{L}])?)(\\.)){1,}([a-zA-Z\\p{L}]){2,63})$');

function isHostname(s: string): boolean {
  return hostnameRe.test(s) && Buffer.byteLength(s) <= 255 && s.split('.').every((p) => Buffer.byteLength(p) <= 63);
}

const rgbPart = '\\s*(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])\\s*';

/** The formats strfmt's default registry knows, by normalized name, and what each accepts. */
const registry = new Map<string, Check>([
  ['uri', isRequestURI],
  ['email', isEmail],
  ['hostname', isHostname],
  ['ipv4', (s) => parseIPSloppy(s) && s.includes('.')],
  ['ipv6', isIPv6],
  ['cidr', isCIDR],
  ['mac', isMAC],
  ['uuid', re('^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$', 'i')],
  ['uuid3', re('^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$', 'i')],
  ['uuid4', re('^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$', 'i')],
  ['uuid5', re('^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$', 'i')],
  ['isbn', (s) => isISBN10(s) || isISBN13(s)],
  ['isbn10', isISBN10],
  ['isbn13', isISBN13],
  ['creditcard', isCreditCard],
  ['ssn', (s) => s.length === 11 && /^[0-9]{3}[- ]?[0-9]{2}[- ]?[0-9]{4}$/.test(s)],
  ['hexcolor', re('^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$')],
  ['rgbcolor', re(`^rgb\\(${rgbPart},${rgbPart},${rgbPart}\\)$`.replaceAll('\\s', '[\\t\\n\\f\\r ]'))],
  ['byte', re('^(?:[A-Za-z0-9+\\/]{4})*(?:[A-Za-z0-9+\\/]{2}==|[A-Za-z0-9+\\/]{3}=|[A-Za-z0-9+\\/]{4})$')],
  ['password', () => true],
  ['date', isDate],
  ['datetime', isDateTime],
  ['duration', isDuration],
  ['bsonobjectid', re('^[0-9A-Fa-f]{24}$')],
]);

/**
 * The format upstream validates against, or '' when it drops it from the schema (unknown to
 * strfmt: `int32`, `int64`, `float`, `double`, `quantity`, anything else).
 */
export function supportedFormat(format: string): string {
  return format !== '' && registry.has(normalizeFormat(format)) ? format : '';
}

/** Whether strfmt knows the format. */
export function isKnownFormat(format: string): boolean {
  return registry.has(normalizeFormat(format));
}

/** Whether `value` is valid in the (known) format. */
export function validatesFormat(format: string, value: string): boolean {
  return registry.get(normalizeFormat(format))?.(value) ?? false;
}
