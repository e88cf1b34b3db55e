import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseGoRFC3339, parseRFC3339 } from './rfc3339.js';

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

test('Go\'s time.Parse(RFC3339): its lenient corners read, its error texts for the rest', () => {
  assert.deepEqual(parseGoRFC3339('2026-03-04T05:06:07.25Z'), { ms: Date.UTC(2026, 2, 4, 5, 6, 7, 250) });
  assert.deepEqual(parseGoRFC3339('2026-03-04T5:06:07,5+02:00'), { ms: Date.UTC(2026, 2, 4, 3, 6, 7, 500) });
  assert.deepEqual(parseGoRFC3339('2026-03-04T05:06:07+24:00'), { ms: Date.UTC(2026, 2, 3, 5, 6, 7) });
  const as = (v: string, elem: string, layoutElem: string) =>
    `parsing time ${JSON.stringify(v)} as "2006-01-02T15:04:05Z07:00": cannot parse ${JSON.stringify(elem)} as ${JSON.stringify(layoutElem)}`;
  for (const [text, error] of [
    ['', as('', '', '2006')],
    ['tomorrow', as('tomorrow', 'tomorrow', '2006')],
    ['2026-03-04', as('2026-03-04', '', 'T')],
    ['2026-03-04 05:06:07Z', as('2026-03-04 05:06:07Z', ' 05:06:07Z', 'T')],
    ['2026-3-04T05:06:07Z', as('2026-3-04T05:06:07Z', '3-04T05:06:07Z', '01')],
    ['2026-03-04T05:06:07', as('2026-03-04T05:06:07', '', 'Z07:00')],
    ['2026-03-04T05:06:07+0200', as('2026-03-04T05:06:07+0200', '+0200', 'Z07:00')],
    ['2026-13-04T05:06:07Z', 'parsing time "2026-13-04T05:06:07Z": month out of range'],
    ['2026-03-04T24:00:00Z', 'parsing time "2026-03-04T24:00:00Z": hour out of range'],
    ['2025-02-29T00:00:00Z', 'parsing time "2025-02-29T00:00:00Z": day out of range'],
    ['2026-03-04T05:06:07+25:00', 'parsing time "2026-03-04T05:06:07+25:00": time zone offset hour out of range'],
    ['2026-03-04T05:06:07Zjunk', 'parsing time "2026-03-04T05:06:07Zjunk": extra text: "junk"'],
    ['2026-03-04T05:06:07\u00e9', 'parsing time "2026-03-04T05:06:07\\xc3\\xa9" as "2006-01-02T15:04:05Z07:00": cannot parse "\\xc3\\xa9" as "Z07:00"'],
  ]) {
    assert.deepEqual(parseGoRFC3339(text!), { error }, text);
  }
});
