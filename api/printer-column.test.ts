import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ageColumn,
  defaultPrinterColumns,
  formatLabelSelector,
  humanDuration,
  nameColumn,
  rfc3339,
  shortHumanDuration,
  timestampSince,
} from './printer-column.js';

const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;

test('humanDuration follows upstream HumanDuration at every boundary', () => {
  const cases: [number, string][] = [
    [-2 * s, '<invalid>'],
    [-1999, '0s'], // less than two seconds in the future is clock skew, read as now
    [-1 * s, '0s'],
    [0, '0s'],
    [999, '0s'],
    [1 * s, '1s'],
    [70 * s, '70s'],
    [2 * m - 1, '119s'],
    [2 * m, '2m'],
    [2 * m + 1 * s, '2m1s'],
    [3 * m + 10 * s, '3m10s'],
    [10 * m - 1, '9m59s'],
    [10 * m, '10m'],
    [70 * m, '70m'],
    [3 * h - 1, '179m'],
    [3 * h, '3h'],
    [3 * h + 10 * m, '3h10m'],
    [8 * h - 1, '7h59m'],
    [8 * h, '8h'],
    [47 * h + 59 * m, '47h'],
    [48 * h, '2d'],
    [2 * d + 4 * h, '2d4h'],
    [2 * d + 4 * h + 59 * m, '2d4h'],
    [8 * d - 1, '7d23h'],
    [8 * d, '8d'],
    [8 * d + 2 * h, '8d'],
    [367 * d, '367d'],
    [730 * d - 1, '729d'],
    [730 * d, '2y'],
    [731 * d + 1 * h, '2y1d'],
    [8 * 365 * d - 1, '7y364d'],
    [8 * 365 * d, '8y'],
    [9 * 365 * d + 100 * d, '9y'],
  ];
  for (const [ms, want] of cases) assert.equal(humanDuration(ms), want, `humanDuration(${ms})`);
});

test('shortHumanDuration follows upstream ShortHumanDuration', () => {
  const cases: [number, string][] = [
    [-2 * s, '<invalid>'],
    [-1 * s, '0s'],
    [59 * s, '59s'],
    [60 * s, '1m'],
    [60 * m - 1, '59m'],
    [60 * m, '1h'],
    [24 * h - 1, '23h'],
    [24 * h, '1d'],
    [365 * d - 1, '364d'],
    [365 * d, '1y'],
    [3 * 365 * d + 200 * d, '3y'],
  ];
  for (const [ms, want] of cases) assert.equal(shortHumanDuration(ms), want, `shortHumanDuration(${ms})`);
});

test('an age is measured from creationTimestamp to now, and is <unknown> when unset', () => {
  const now = new Date('2026-01-03T04:00:00Z');
  assert.equal(timestampSince('2026-01-01T00:00:00Z', now), '2d4h');
  assert.equal(timestampSince(undefined, now), '<unknown>');
  assert.equal(timestampSince('0001-01-01T00:00:00Z', now), '<unknown>');
  assert.equal(ageColumn.cell({ metadata: { creationTimestamp: '2026-01-03T03:55:00Z' } }, now), '5m');
  assert.equal(ageColumn.cell({ metadata: {} }, now), '<unknown>');
  assert.equal(ageColumn.cell({}, now), '<unknown>');
});

test('the default columns are Name (format name) and Created At (date, RFC 3339 in UTC)', () => {
  assert.deepEqual(defaultPrinterColumns.map((c) => [c.name, c.type, c.format ?? '', c.priority]), [
    ['Name', 'string', 'name', 0],
    ['Created At', 'date', '', 0],
  ]);
  const now = new Date('2026-02-01T00:00:00Z');
  const obj = { metadata: { name: 'a', creationTimestamp: '2026-01-01T01:02:03+01:00' } };
  assert.deepEqual(defaultPrinterColumns.map((c) => c.cell(obj, now)), ['a', '2026-01-01T00:02:03Z']);
  assert.deepEqual(defaultPrinterColumns.map((c) => c.cell({}, now)), ['', '0001-01-01T00:00:00Z']);
  assert.equal(rfc3339('2026-01-01T00:00:00.123456Z'), '2026-01-01T00:00:00Z');
  assert.equal(nameColumn.cell({ metadata: { name: 7 } }, now), '');
});

test('label selectors print in selector syntax, sorted by key', () => {
  assert.equal(formatLabelSelector(undefined), '<none>');
  assert.equal(formatLabelSelector({}), '<none>');
  assert.equal(formatLabelSelector({ matchLabels: {} , matchExpressions: [] }), '<none>');
  assert.equal(formatLabelSelector({ matchLabels: { app: 'db' } }), 'app=db');
  assert.equal(formatLabelSelector({
    matchLabels: { tier: 'back', app: 'db' },
    matchExpressions: [
      { key: 'env', operator: 'In', values: ['prod', 'dev'] },
      { key: 'zone', operator: 'NotIn', values: ['b'] },
      { key: 'canary', operator: 'Exists' },
      { key: 'legacy', operator: 'DoesNotExist' },
    ],
  }), 'app=db,canary,env in (dev,prod),!legacy,tier=back,zone notin (b)');
  assert.equal(formatLabelSelector({ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] }), '<error>');
  assert.equal(formatLabelSelector({ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] }), '<error>');
  assert.equal(formatLabelSelector({ matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] }), '<error>');
});
