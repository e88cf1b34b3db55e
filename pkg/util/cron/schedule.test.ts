import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cronScheduleError, parseCronSchedule } from './parse.js';
import { Zone } from './zone.js';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();
/** The next firing of `spec` (in the zone given by TZ= or UTC) after `from`. */
function next(spec: string, from: string): string {
  const parsed = parseCronSchedule(spec.startsWith('TZ=') || spec.startsWith('@every') ? spec : `TZ=UTC ${spec}`);
  assert.ok(parsed.schedule, parsed.error);
  const n = parsed.schedule.next(at(from));
  return n === 0 ? 'never' : iso(n);
}

test('schedules parse as robfig/cron standard specs, with its error texts', () => {
  for (const ok of ['*/5 * * * *', '0 3 * * 1-5', '15,45 */2 1 jan-jun SUN', '@hourly', '@every 1h30m', '0 0 ? * *', 'CRON_TZ=Europe/Paris 0 3 * * *']) {
    assert.equal(cronScheduleError(ok), undefined, ok);
  }
  assert.equal(cronScheduleError(''), 'empty spec string');
  assert.equal(cronScheduleError('* * * *'), 'expected exactly 5 fields, found 4: [* * * *]');
  assert.equal(cronScheduleError('61 * * * *'), 'end of range (61) above maximum (59): 61');
  assert.equal(cronScheduleError('* * 0 * *'), 'beginning of range (0) below minimum (1): 0');
  assert.equal(cronScheduleError('5-1 * * * *'), 'beginning of range (5) beyond end of range (1): 5-1');
  assert.equal(cronScheduleError('*/0 * * * *'), 'step of range should be a positive number: */0');
  assert.equal(cronScheduleError('x * * * *'), 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax');
  assert.equal(cronScheduleError('@fortnightly'), 'unrecognized descriptor: @fortnightly');
  assert.equal(cronScheduleError('@every soon'), 'failed to parse duration @every soon: time: invalid duration "soon"');
  assert.equal(cronScheduleError('TZ=Mars/Olympus 0 3 * * *'), 'provided bad location Mars/Olympus: unknown time zone Mars/Olympus');
});

test('the next time a five-field schedule fires, as robfig/cron computes it', () => {
  assert.equal(next('*/5 * * * *', '2024-01-01T10:03:20Z'), '2024-01-01T10:05:00.000Z');
  assert.equal(next('*/5 * * * *', '2024-01-01T10:05:00Z'), '2024-01-01T10:10:00.000Z', 'strictly after');
  assert.equal(next('* * * * *', '2024-01-01T10:03:20.500Z'), '2024-01-01T10:04:00.000Z');
  assert.equal(next('0 3 * * 1-5', '2024-01-06T12:00:00Z'), '2024-01-08T03:00:00.000Z', 'Saturday to Monday');
  assert.equal(next('15,45 */2 * * *', '2024-01-01T01:50:00Z'), '2024-01-01T02:15:00.000Z');
  assert.equal(next('0 0 1 jan *', '2024-06-01T00:00:00Z'), '2025-01-01T00:00:00.000Z');
  // Day of month and day of week restrict together only when one is a star; otherwise either does.
  assert.equal(next('0 0 13 * 5', '2024-01-01T00:00:00Z'), '2024-01-05T00:00:00.000Z', 'the 13th or a Friday');
  assert.equal(next('0 0 13 * *', '2024-01-01T00:00:00Z'), '2024-01-13T00:00:00.000Z');
  assert.equal(next('0 0 */10 * 5', '2024-01-02T00:00:00Z'), '2024-01-05T00:00:00.000Z', 'a stepped star is no star');
  assert.equal(next('@hourly', '2024-01-01T10:59:59.500Z'), '2024-01-01T11:00:00.000Z');
  assert.equal(next('@daily', '2024-02-28T10:00:00Z'), '2024-02-29T00:00:00.000Z');
  assert.equal(next('@weekly', '2024-01-01T00:00:00Z'), '2024-01-07T00:00:00.000Z', 'Sundays');
  assert.equal(next('@monthly', '2024-01-31T00:00:00Z'), '2024-02-01T00:00:00.000Z');
  assert.equal(next('@yearly', '2024-01-01T00:00:00Z'), '2025-01-01T00:00:00.000Z');
  assert.equal(next('0 0 30 2 *', '2024-01-01T00:00:00Z'), 'never', 'no 30th of February within five years');
  assert.equal(next('@every 90s', '2024-01-01T00:00:00.700Z'), '2024-01-01T00:01:30.000Z');
  assert.equal(next('@every 10ms', '2024-01-01T00:00:00Z'), '2024-01-01T00:00:01.000Z', 'at least a second');
});

test('a schedule in a time zone fires on that zone\'s wall clock, skipping a time daylight saving skips', () => {
  assert.equal(next('TZ=America/New_York 0 9 * * *', '2024-03-09T15:00:00Z'), '2024-03-10T13:00:00.000Z', '9:00 EST then 9:00 EDT');
  assert.equal(next('TZ=Europe/Paris 0 9 * * *', '2024-07-01T00:00:00Z'), '2024-07-01T07:00:00.000Z');
  assert.equal(next('TZ=Asia/Kolkata 30 0 * * *', '2024-01-01T00:00:00Z'), '2024-01-01T19:00:00.000Z', 'a half-hour offset');
  // 2:30 does not exist in New York on 10 March 2024.
  assert.equal(next('TZ=America/New_York 30 2 * * *', '2024-03-10T05:00:00Z'), '2024-03-11T06:30:00.000Z');
});

test('a zone turns wall-clock dates into instants as Go\'s time.Date does', () => {
  const ny = new Zone('America/New_York');
  assert.equal(iso(ny.date(2024, 1, 15, 12)), '2024-01-15T17:00:00.000Z');
  assert.equal(iso(ny.date(2024, 13, 1)), '2025-01-01T05:00:00.000Z', 'month 13 is next January');
  assert.equal(iso(ny.date(2024, 2, 31)), '2024-03-02T05:00:00.000Z', '31 February is 2 March');
  assert.deepEqual(ny.fields(at('2024-03-10T07:00:00Z')), { year: 2024, month: 3, day: 10, hour: 3, minute: 0, second: 0, weekday: 0 });
  assert.equal(new Zone('UTC').offset(at('2024-07-01T00:00:00Z')), 0);
  assert.equal(new Zone('').rfc3339(at('2024-07-01T00:00:00.900Z')), '2024-07-01T00:00:00Z');
  assert.equal(new Zone('Asia/Kolkata').rfc3339(at('2024-07-01T00:00:00Z')), '2024-07-01T05:30:00+05:30');
  assert.equal(ny.rfc3339(at('2024-01-15T17:00:00Z')), '2024-01-15T12:00:00-05:00');
  assert.equal(new Zone('Europe/Paris').offset(at('2024-07-01T00:00:00Z')), 2 * 3_600_000);
});
