// metav1.Time and metav1.MicroTime on the wire: {seconds since the Unix epoch, nanos}. In JSON
// they are RFC 3339 strings in UTC: Time with whole seconds, MicroTime with six fraction digits.

export interface Timestamp {
  seconds: number;
  nanos: number;
}

const rfc3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/** Seconds and nanoseconds of an RFC 3339 timestamp, or undefined when `text` is not one. */
export function parseTimestamp(text: string): Timestamp | undefined {
  const m = rfc3339.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return undefined;
  const date = new Date(0);
  // setUTCFullYear keeps years below 100 literal (Date.UTC would map them to 19xx).
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  let seconds = Math.floor(date.getTime() / 1000);
  if (m[9]) {
    const offset = (Number(m[10]) * 60 + Number(m[11])) * 60;
    seconds += m[9] === '+' ? -offset : offset;
  }
  const nanos = m[7] ? Number(m[7].padEnd(9, '0')) : 0;
  return { seconds, nanos };
}

function isoSeconds(seconds: number): string {
  // toISOString: YYYY-MM-DDTHH:MM:SS.sssZ for years 0-9999.
  return new Date(seconds * 1000).toISOString().slice(0, 19);
}

/** metav1.Time's JSON form: RFC 3339 in UTC, whole seconds (sub-second parts are dropped). */
export function formatTime(ts: Timestamp): string {
  return `${isoSeconds(ts.seconds)}Z`;
}

/** metav1.MicroTime's JSON form: RFC 3339 in UTC with exactly six fraction digits. */
export function formatMicroTime(ts: Timestamp): string {
  const micros = Math.floor(Math.max(0, Math.min(ts.nanos, 999_999_999)) / 1000);
  return `${isoSeconds(ts.seconds)}.${String(micros).padStart(6, '0')}Z`;
}
