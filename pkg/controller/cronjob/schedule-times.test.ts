import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseCronSchedule } from '../../util/cron/parse.js';
import { mostRecentScheduleTime, nextScheduleDelay } from './schedule-times.js';

const at = (iso: string) => Date.parse(iso);
const schedule = (spec: string) => parseCronSchedule(`TZ=UTC ${spec}`).schedule!;
const everyMinute = schedule('* * * * *');

test('the most recent unmet time: none before the first, the one due, the latest of several; more than 100 is many', () => {
  const created = at('2024-01-01T10:00:30Z');
  assert.deepEqual(mostRecentScheduleTime({ creationTimestamp: created }, at('2024-01-01T10:00:50Z'), everyMinute, true), { earliest: created, missed: 'none' });
  assert.deepEqual(mostRecentScheduleTime({ creationTimestamp: created }, at('2024-01-01T10:01:10Z'), everyMinute, true),
    { earliest: created, mostRecent: at('2024-01-01T10:01:00Z'), missed: 'none' });
  assert.deepEqual(mostRecentScheduleTime({ creationTimestamp: created, lastScheduleTime: at('2024-01-01T10:01:00Z') }, at('2024-01-01T10:05:10Z'), everyMinute, true),
    { earliest: at('2024-01-01T10:01:00Z'), mostRecent: at('2024-01-01T10:05:00Z'), missed: 'few' });
  const late = mostRecentScheduleTime({ creationTimestamp: created }, at('2024-01-01T13:00:10Z'), everyMinute, true);
  assert.deepEqual([late.mostRecent, late.missed], [at('2024-01-01T13:00:00Z'), 'many']);
  // The starting deadline bounds how far back anything counts.
  const bounded = mostRecentScheduleTime({ creationTimestamp: created, startingDeadlineSeconds: 90 }, at('2024-01-01T13:00:10Z'), everyMinute, true);
  assert.deepEqual([bounded.mostRecent, bounded.missed], [at('2024-01-01T13:00:00Z'), 'few']);
  assert.equal(mostRecentScheduleTime({ creationTimestamp: created }, at('2030-01-01T00:00:00Z'), schedule('0 0 30 2 *'), true).error,
    'time difference between two schedules is less than 1 second');
});

test('the next look is 100 ms after the next scheduled time', () => {
  const s = { creationTimestamp: at('2024-01-01T10:00:30Z') };
  assert.equal(nextScheduleDelay(s, at('2024-01-01T10:00:40Z'), everyMinute), 20_100);
  assert.equal(nextScheduleDelay({ ...s, lastScheduleTime: at('2024-01-01T10:05:00Z') }, at('2024-01-01T10:05:01Z'), everyMinute), 59_100);
  assert.equal(nextScheduleDelay(s, at('2024-01-01T10:00:40Z'), schedule('0 0 30 2 *')), undefined, 'never again');
});
