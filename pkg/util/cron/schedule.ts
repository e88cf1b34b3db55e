// The times a parsed cron schedule fires, as robfig/cron v3 computes them (SpecSchedule.Next and
// ConstantDelaySchedule.Next): the first matching second after a given instant, walked on the wall
// clock of the schedule's zone month by month, day by day, hour by hour, minute by minute, so that
// daylight-saving jumps land where upstream's land.
import { Zone } from './zone.js';

/** One field's allowed values (index = value); `star` when it was written `*` or `?` (robfig's starBit). */
export interface Field {
  bits: boolean[];
  star: boolean;
}

export interface CronSchedule {
  /** The first time the schedule fires strictly after `ms` (epoch milliseconds), or 0 when none within five years. */
  next(ms: number): number;
}

const second = 1000;
const minute = 60 * second;
const hour = 60 * minute;

/** A five-field schedule (seconds always 0), read in `zone` (the process's local zone when undefined). */
export class SpecSchedule implements CronSchedule {
  private readonly minute: Field;
  private readonly hour: Field;
  private readonly dom: Field;
  private readonly month: Field;
  private readonly dow: Field;
  private readonly zone: Zone;

  constructor(fields: Field[], zone: string | undefined) {
    [this.minute, this.hour, this.dom, this.month, this.dow] = fields as [Field, Field, Field, Field, Field];
    this.zone = new Zone(zone);
  }

  /** Day of month and day of week both restrict only when neither is a star; otherwise either matches. */
  private dayMatches(day: number, weekday: number): boolean {
    const dom = this.dom.bits[day] === true;
    const dow = this.dow.bits[weekday] === true;
    return this.dom.star || this.dow.star ? dom && dow : dom || dow;
  }

  next(from: number): number {
    const z = this.zone;
    // The upcoming whole second.
    let t = Math.floor(from / second) * second + second;
    let added = false;
    const yearLimit = z.fields(t).year + 5;
    for (;;) {
      let f = z.fields(t);
      if (f.year > yearLimit) return 0;
      let wrapped = false;
      while (!this.month.bits[f.month]) {
        if (!added) {
          added = true;
          t = z.date(f.year, f.month, 1);
        }
        f = z.fields(t);
        t = z.date(f.year, f.month + 1, f.day, f.hour, f.minute, f.second);
        f = z.fields(t);
        if (f.month === 1) {
          wrapped = true;
          break;
        }
      }
      if (wrapped) continue;
      while (!this.dayMatches(f.day, f.weekday)) {
        if (!added) {
          added = true;
          t = z.date(f.year, f.month, f.day);
        }
        f = z.fields(t);
        t = z.date(f.year, f.month, f.day + 1, f.hour, f.minute, f.second);
        f = z.fields(t);
        // Midnight may not exist on a day daylight saving starts: back to the day's start.
        if (f.hour !== 0) {
          t += f.hour > 12 ? (24 - f.hour) * hour : -f.hour * hour;
          f = z.fields(t);
        }
        if (f.day === 1) {
          wrapped = true;
          break;
        }
      }
      if (wrapped) continue;
      while (!this.hour.bits[f.hour]) {
        if (!added) {
          added = true;
          t = z.date(f.year, f.month, f.day, f.hour);
        }
        t += hour;
        f = z.fields(t);
        if (f.hour === 0) {
          wrapped = true;
          break;
        }
      }
      if (wrapped) continue;
      while (!this.minute.bits[f.minute]) {
        if (!added) {
          added = true;
          t = Math.floor(t / minute) * minute;
        }
        t += minute;
        f = z.fields(t);
        if (f.minute === 0) {
          wrapped = true;
          break;
        }
      }
      if (wrapped) continue;
      // Standard schedules fire at second 0.
      while (f.second !== 0) {
        if (!added) {
          added = true;
          t = Math.floor(t / second) * second;
        }
        t += second;
        f = z.fields(t);
        if (f.second === 0) {
          wrapped = true;
          break;
        }
      }
      if (wrapped) continue;
      return t;
    }
  }
}

/** `@every <duration>`: fires every duration (whole seconds, at least one) after the given time. */
export class ConstantDelaySchedule implements CronSchedule {
  readonly delayMs: number;

  constructor(durationMs: number) {
    this.delayMs = Math.max(second, Math.floor(durationMs / second) * second);
  }

  next(from: number): number {
    return Math.floor(from / second) * second + this.delayMs;
  }
}
