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
