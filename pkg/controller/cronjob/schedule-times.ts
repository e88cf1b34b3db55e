// When a CronJob's next job is due (upstream's cronjob utils.go): the most recent scheduled time
// not yet run, how many were missed since the last run (more than 100 is reported, not replayed),
// and how long to wait for the next one. Times are epoch milliseconds.
import type { CronSchedule } from '../../util/cron/schedule.js';

/** Upstream's nextScheduleDelta: a requeue lands this long after the scheduled time, past any clock skew. */
const nextScheduleDeltaMs = 100;

export type Missed = 'none' | 'few' | 'many';

export interface ScheduleState {
  creationTimestamp: number;
  /** status.lastScheduleTime, if any. */
  lastScheduleTime?: number;
  /** spec.startingDeadlineSeconds, if any. */
  startingDeadlineSeconds?: number;
}

export interface MostRecent {
  /** The time counting starts from: the last run, the creation, or the start of the deadline window. */
  earliest: number;
  /** The latest scheduled time in (earliest, now], if any. */
  mostRecent?: number;
  missed: Missed;
  /** A schedule that never really advances (31 February): upstream's "less than 1 second" error. */
  error?: string;
}

/** Upstream's mostRecentScheduleTime. */
export function mostRecentScheduleTime(s: ScheduleState, now: number, schedule: CronSchedule, includeStartingDeadline: boolean): MostRecent {
  let earliest = s.lastScheduleTime ?? s.creationTimestamp;
  if (includeStartingDeadline && s.startingDeadlineSeconds !== undefined) {
    // Nothing older than the deadline is started any more.
    earliest = Math.max(earliest, now - s.startingDeadlineSeconds * 1000);
  }
  const t1 = schedule.next(earliest);
  const t2 = schedule.next(t1);
  if (now < t1) return { earliest, missed: 'none' };
  if (now < t2) return { earliest, mostRecent: t1, missed: 'none' };
  const between = Math.round((t2 - t1) / 1000);
  if (between < 1) return { earliest, missed: 'none', error: 'time difference between two schedules is less than 1 second' };
  // An estimate of the missed runs (exact for regular schedules), then the walk over the last two.
  const count = Math.trunc(Math.trunc((now - t1) / 1000) / between) + 1;
  let mostRecent: number | undefined;
  for (let t = schedule.next(t1 + (count - 2) * between * 1000); t !== 0 && t <= now; t = schedule.next(t)) mostRecent = t;
  const missed: Missed = count > 100 ? 'many' : count > 0 ? 'few' : 'none';
  return mostRecent === undefined ? { earliest, missed } : { earliest, mostRecent, missed };
}

/**
 * Upstream's nextScheduleTimeDuration: how long until the run after the most recent one, plus the
 * delta; undefined for a schedule that never fires again.
 */
export function nextScheduleDelay(s: ScheduleState, now: number, schedule: CronSchedule): number | undefined {
  const r = mostRecentScheduleTime(s, now, schedule, false);
  let from: number;
  if (r.error) from = now;
  else if (r.mostRecent !== undefined) from = r.mostRecent;
  else from = r.missed === 'none' ? r.earliest : now;
  const next = schedule.next(from);
  return next === 0 ? undefined : next + nextScheduleDeltaMs - now;
}
