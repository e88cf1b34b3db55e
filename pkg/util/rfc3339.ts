// RFC 3339 times as Go's time.Parse(time.RFC3339, s) reads them: the strict form upstream uses
// for values such as a bootstrap token's `expiration`, so a value accepted here is one
// kube-apiserver accepts, and the other way round.

const shape = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:Z|([+-])(\d{2}):(\d{2}))$/;

function daysIn(month: number, year: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * Milliseconds since the Unix epoch of an RFC 3339 time (upper-case `T`, `Z` or a `±hh:mm`
 * offset, optional fraction), or undefined when `text` is not one or names no real date.
 */
export function parseRFC3339(text: string): number | undefined {
  const m = shape.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > daysIn(month, year)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const date = new Date(0);
  // setUTCFullYear keeps years below 100 literal (Date.UTC would map them to 19xx).
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  let ms = date.getTime();
  if (m[7]) ms += Number(`0.${m[7]}`) * 1000;
  if (m[8]) {
    const offsetHours = Number(m[9]);
    const offsetMinutes = Number(m[10]);
    if (offsetHours > 23 || offsetMinutes > 59) return undefined;
    const offset = (offsetHours * 60 + offsetMinutes) * 60_000;
    ms += m[8] === '+' ? -offset : offset;
  }
  return ms;
}

const goLayout = '2006-01-02T15:04:05Z07:00';

/** Go's time-package quoting of a value in a parse error: `"` and `\` escaped, other bytes outside printable ASCII as `\xNN`. */
function goTimeQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c < 0x20 || c >= 0x80) {
      for (const b of Buffer.from(ch, 'utf8')) out += `\\x${b.toString(16).padStart(2, '0')}`;
    } else {
      out += c === 0x22 || c === 0x5c ? `\\${ch}` : ch;
    }
  }
  return `${out}"`;
}

const isDigit = (s: string, i: number) => i < s.length && s.charCodeAt(i) >= 0x30 && s.charCodeAt(i) <= 0x39;

/** Go's getnum: one or two leading digits (exactly two when `fixed`), or undefined. */
function getnum(s: string, fixed: boolean): { n: number; rest: string } | undefined {
  if (!isDigit(s, 0)) return undefined;
  if (!isDigit(s, 1)) return fixed ? undefined : { n: Number(s[0]), rest: s.slice(1) };
  return { n: Number(s.slice(0, 2)), rest: s.slice(2) };
}

/**
 * An RFC 3339 time as Go's time.Parse(time.RFC3339, s) reads it, element by element (so as leniently:
 * a one-digit hour, a comma before the fraction, a ±24:00 offset), to epoch milliseconds, or Go's
 * error text (`parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"`).
 */
export function parseGoRFC3339(text: string): { ms: number } | { error: string } {
  const cannot = (valueElem: string, layoutElem: string) =>
    ({ error: `parsing time ${goTimeQuote(text)} as ${goTimeQuote(goLayout)}: cannot parse ${goTimeQuote(valueElem)} as ${goTimeQuote(layoutElem)}` });
  const outOfRange = (what: string) => ({ error: `parsing time ${goTimeQuote(text)}: ${what} out of range` });
  let v = text;
  const literal = (ch: string) => {
    if (v[0] !== ch) return false;
    v = v.slice(1);
    return true;
  };
  // 2006: four characters read as a (signed) decimal number.
  const yearText = v.slice(0, 4);
  if (v.length < 4 || !/^[+-]?\d+$/.test(yearText)) return cannot(v, '2006');
  const year = Number(yearText);
  v = v.slice(4);
  const field = (layoutElem: string, fixed: boolean, max: number, name: string): number | { error: string } => {
    const got = getnum(v, fixed);
    if (!got) return cannot(v, layoutElem);
    v = got.rest;
    return got.n > max || (name === 'month' && got.n === 0) ? outOfRange(name) : got.n;
  };
  const parts: number[] = [];
  for (const [sep, elem, fixed, max, name] of [
    ['-', '01', true, 12, 'month'], ['-', '02', true, 99, 'day'], ['T', '15', false, 23, 'hour'], [':', '04', true, 59, 'minute'], [':', '05', true, 59, 'second'],
  ] as const) {
    if (!literal(sep)) return cannot(v, sep);
    const n = field(elem, fixed, max, name);
    if (typeof n !== 'number') return n;
    parts.push(n);
  }
  const [month, day, hour, minute, second] = parts as [number, number, number, number, number];
  let fraction = 0;
  if (v.length >= 2 && (v[0] === '.' || v[0] === ',') && isDigit(v, 1)) {
    let n = 2;
    while (isDigit(v, n)) n++;
    fraction = Number(`0.${v.slice(1, n)}`);
    v = v.slice(n);
  }
  let offsetMinutes = 0;
  if (v[0] === 'Z') {
    v = v.slice(1);
  } else {
    if (v.length < 6 || v[3] !== ':') return cannot(v, 'Z07:00');
    const hh = getnum(v.slice(1, 3), true);
    const mm = getnum(v.slice(4, 6), true);
    if (hh && hh.n > 24) return outOfRange('time zone offset hour');
    if (hh && mm && mm.n > 60) return outOfRange('time zone offset minute');
    if (!hh || !mm || (v[0] !== '+' && v[0] !== '-')) return cannot(v, 'Z07:00');
    offsetMinutes = (v[0] === '-' ? -1 : 1) * (hh.n * 60 + mm.n);
    v = v.slice(6);
  }
  if (v !== '') return { error: `parsing time ${goTimeQuote(text)}: extra text: ${goTimeQuote(v)}` };
  if (day < 1 || day > daysIn(month, year)) return outOfRange('day');
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  return { ms: date.getTime() + Math.floor(fraction * 1000) - offsetMinutes * 60_000 };
}
