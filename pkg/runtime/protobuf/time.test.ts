import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatMicroTime, formatTime, parseTimestamp } from './time.js';

test('RFC 3339 timestamps parse to seconds and nanos since the epoch', () => {
  assert.deepEqual(parseTimestamp('1970-01-01T00:00:00Z'), { seconds: 0, nanos: 0 });
  assert.deepEqual(parseTimestamp('2026-01-02T03:04:05Z'), { seconds: Date.UTC(2026, 0, 2, 3, 4, 5) / 1000, nanos: 0 });
  assert.deepEqual(parseTimestamp('2026-01-02T05:04:05+02:00'), { seconds: Date.UTC(2026, 0, 2, 3, 4, 5) / 1000, nanos: 0 });
  assert.deepEqual(parseTimestamp('2026-01-01T23:30:00-01:00'), { seconds: Date.UTC(2026, 0, 2, 0, 30, 0) / 1000, nanos: 0 });
  assert.deepEqual(parseTimestamp('2026-01-02T03:04:05.123456Z'), { seconds: Date.UTC(2026, 0, 2, 3, 4, 5) / 1000, nanos: 123_456_000 });
  assert.deepEqual(parseTimestamp('2026-01-02t03:04:05.000000001z'), { seconds: Date.UTC(2026, 0, 2, 3, 4, 5) / 1000, nanos: 1 });
  assert.deepEqual(parseTimestamp('1969-12-31T23:59:59.5Z'), { seconds: -1, nanos: 500_000_000 });
  // Go's zero time and the last representable second.
  assert.deepEqual(parseTimestamp('0001-01-01T00:00:00Z'), { seconds: -62_135_596_800, nanos: 0 });
  assert.deepEqual(parseTimestamp('9999-12-31T23:59:59Z'), { seconds: 253_402_300_799, nanos: 0 });
  // Years below 100 stay literal (not 19xx).
  assert.equal(parseTimestamp('0050-06-01T00:00:00Z')!.seconds, Date.UTC(2050, 5, 1) / 1000 - 2000 * 365.2425 * 86400);
});

test('non-RFC 3339 strings are not timestamps', () => {
  for (const s of ['', 'yesterday', '2026-01-02', '2026-01-02T03:04Z', '2026-13-01T00:00:00Z', '2026-01-02T03:04:05', '2026-01-02T03:04:05+0200', '2026-01-02T24:00:00Z']) {
    assert.equal(parseTimestamp(s), undefined, s);
  }
});

test('Time formats whole seconds in UTC; MicroTime with six fraction digits', () => {
  const ts = { seconds: Date.UTC(2026, 0, 2, 3, 4, 5) / 1000, nanos: 123_456_789 };
  assert.equal(formatTime(ts), '2026-01-02T03:04:05Z');
  assert.equal(formatMicroTime(ts), '2026-01-02T03:04:05.123456Z');
  assert.equal(formatMicroTime({ seconds: 0, nanos: 0 }), '1970-01-01T00:00:00.000000Z');
  assert.equal(formatTime({ seconds: -62_135_596_800, nanos: 0 }), '0001-01-01T00:00:00Z');
  assert.equal(formatTime({ seconds: 253_402_300_799, nanos: 0 }), '9999-12-31T23:59:59Z');
  for (const s of ['0050-06-01T00:00:00Z', '1999-12-31T23:59:59Z', '2024-02-29T12:00:00Z']) {
    assert.equal(formatTime(parseTimestamp(s)!), s);
  }
});
