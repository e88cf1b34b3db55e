// Wall-clock time in an IANA time zone, as Go's time package reads it: the fields of an instant in
// the zone, and the instant of a wall-clock date (time.Date, with its normalisation of overflowing
// fields and its choice of offset in a gap or an overlap). Node's Intl carries the tz database.

/** The fields of an instant on the wall clock of a zone; month 1-12, weekday 0 (Sunday) to 6. */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  weekday: number;
}

/** Whether the runtime knows the IANA time zone (UTC and the empty name, Go's UTC, included). */
export function knownTimeZone(name: string): boolean {
  if (name === 'UTC' || name === '') return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string | undefined): Intl.DateTimeFormat {
  const key = zone ?? '';
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      ...(zone ? { timeZone: zone } : {}),
      hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    formatters.set(key, f);
  }
  return f;
}

/** A time zone: an IANA name, or the process's local zone (Go's time.Local) when undefined. */
export class Zone {
  /** `name` must be known (knownTimeZone); '' and 'UTC' are UTC. */
  constructor(readonly name: string | undefined) {}

  /** The wall clock at `ms` (whole seconds; milliseconds are dropped). */
  fields(ms: number): WallClock {
    const parts = formatter(this.name === '' ? 'UTC' : this.name).formatToParts(Math.floor(ms / 1000) * 1000);
    const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
    const year = get('year');
    const month = get('month');
    const day = get('day');
    return { year, month, day, hour: get('hour'), minute: get('minute'), second: get('second'), weekday: new Date(Date.UTC(year, month - 1, day)).getUTCDay() };
  }

  /** The zone's offset from UTC at `ms`, in milliseconds. */
  offset(ms: number): number {
    const f = this.fields(ms);
    return Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute, f.second) - Math.floor(ms / 1000) * 1000;
  }

  /** `ms` as Go's time.RFC3339 prints it in this zone: 2024-01-01T09:30:00+05:30, or ...Z at offset zero. */
  rfc3339(ms: number): string {
    const f = this.fields(ms);
    const off = this.offset(ms) / 60_000;
    const p2 = (n: number) => String(n).padStart(2, '0');
    const zone = off === 0 ? 'Z' : `${off < 0 ? '-' : '+'}${p2(Math.floor(Math.abs(off) / 60))}:${p2(Math.abs(off) % 60)}`;
    return `${String(f.year).padStart(4, '0')}-${p2(f.month)}-${p2(f.day)}T${p2(f.hour)}:${p2(f.minute)}:${p2(f.second)}${zone}`;
  }

  /**
   * Go's time.Date in this zone: overflowing fields carry over (month 13 is next January, 31
   * February is early March); a wall time a transition skips or repeats takes the offset Go takes.
   */
  date(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
    const local = Date.UTC(year, month - 1, day, hour, minute, second);
    const guess = this.offset(local);
    const utc = local - guess;
    const actual = this.offset(utc);
    return actual === guess ? utc : local - actual;
  }
}
