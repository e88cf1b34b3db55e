import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseRFC3339 } from './rfc3339.js';

test('RFC 3339 times parse to epoch milliseconds, offsets applied', () => {
  assert.equal(parseRFC3339('1970-01-01T00:00:00Z'), 0);
  assert.equal(parseRFC3339('2026-03-04T05:06:07Z'), Date.UTC(2026, 2, 4, 5, 6, 7));
  assert.equal(parseRFC3339('2026-03-04T05:06:07.25Z'), Date.UTC(2026, 2, 4, 5, 6, 7, 250));
  assert.equal(parseRFC3339('2026-03-04T07:06:07+02:00'), Date.UTC(2026, 2, 4, 5, 6, 7));
  assert.equal(parseRFC3339('2026-03-04T00:06:07-05:00'), Date.UTC(2026, 2, 4, 5, 6, 7));
  assert.equal(parseRFC3339('2024-02-29T00:00:00Z'), Date.UTC(2024, 1, 29));
});

test('what Go refuses is refused', () => {
  for (const bad of [
    '',
    '2026-03-04',
    '2026-03-04 05:06:07Z',
    '2026-03-04t05:06:07Z',
    '2026-03-04T05:06:07',
    '2026-03-04T05:06:07z',
    '2026-03-04T05:06Z',
    '2026-13-04T05:06:07Z',
    '2025-02-29T00:00:00Z',
    '2026-04-31T00:00:00Z',
    '2026-03-04T24:00:00Z',
    '2026-03-04T05:60:00Z',
    '2026-03-04T05:06:60Z',
    '2026-03-04T05:06:07+0200',
    '2026-03-04T05:06:07+24:00',
    '2026-03-04T05:06:07.Z',
    ' 2026-03-04T05:06:07Z',
    'tomorrow',
  ]) {
    assert.equal(parseRFC3339(bad), undefined, bad);
  }
});
