import assert from 'node:assert/strict';
import { test } from 'node:test';
import { warningHeaderValue, WarningRecorder, warningItemLimit, warningTotalLimit } from './warning-recorder.js';

const wire = (v: string) => Buffer.from(v, 'latin1').toString('utf8');

test('non-Latin-1 text goes out as its UTF-8 bytes, as Go writes it', () => {
  const v = warningHeaderValue('unknown field "spec.ünïcödé" 🚀');
  assert.ok(v !== undefined);
  assert.doesNotThrow(() => new Headers({ Warning: v }));
  assert.equal(wire(v), '299 - "unknown field \\"spec.ünïcödé\\" 🚀"');
});

test('quotes and backslashes are escaped; control characters and lone surrogates drop the warning', () => {
  assert.equal(warningHeaderValue('a"b\\c'), '299 - "a\\"b\\\\c"');
  for (const bad of ['a\nb', 'a\rb', 'a\u0000b', 'tab\there', 'del\u007f', 'c1\u0085', 'lone\ud800']) {
    assert.equal(warningHeaderValue(bad), undefined, JSON.stringify(bad));
  }
});

test('each text is sent once; empty texts are ignored', () => {
  const r = new WarningRecorder();
  for (const t of ['a', 'b', 'a', '', 'b\nc', 'c']) r.add(t);
  assert.deepEqual(r.headerValues(), ['299 - "a"', '299 - "b"', '299 - "c"']);
});

test('past the total limit every warning, earlier ones included, is cut to the item limit', () => {
  const r = new WarningRecorder();
  const long = (c: string) => c.repeat(1000);
  r.add(long('a'));
  r.add(long('b'));
  r.add(long('c'));
  r.add(long('d'));
  assert.deepEqual(r.headerValues(), ['a', 'b', 'c', 'd'].map((c) => `299 - "${long(c)}"`), 'under 4096 characters nothing is cut');
  r.add(long('e'));
  assert.deepEqual(r.headerValues(), ['a', 'b', 'c', 'd', 'e'].map((c) => `299 - "${c.repeat(warningItemLimit)}"`));
  // Truncated warnings keep coming until their sum reaches the total again; then the rest are dropped.
  for (let i = 0; i < 20; i++) r.add(`${i}`.padEnd(300, 'x'));
  const values = r.headerValues();
  assert.equal(values.length, Math.ceil(warningTotalLimit / warningItemLimit));
});

test('truncation counts code points, not UTF-16 units, and never splits a character', () => {
  const r = new WarningRecorder();
  r.add('🚀'.repeat(4000));
  r.add('é'.repeat(200));
  const [first, second] = r.headerValues().map(wire);
  assert.equal(first, `299 - "${'🚀'.repeat(warningItemLimit)}"`);
  assert.equal(second, `299 - "${'é'.repeat(200)}"`);
});
