import assert from 'node:assert/strict';
import { test } from 'node:test';
import { goQuote } from './go-quote.js';

test('strings are quoted as Go\'s strconv.Quote quotes them', () => {
  // Each expectation is what Go's strconv.Quote returns for the same string.
  assert.equal(goQuote(''), '""');
  assert.equal(goQuote('the API server is ready'), '"the API server is ready"');
  assert.equal(goQuote('a "quoted" \\ path'), '"a \\"quoted\\" \\\\ path"');
  assert.equal(goQuote('\x07\b\f\n\r\t\v'), '"\\a\\b\\f\\n\\r\\t\\v"');
  assert.equal(goQuote('\x00\x1b\x7f'), '"\\x00\\x1b\\x7f"');
  assert.equal(goQuote('\u0080\u00a0\u2028\ufeff'), '"\\u0080\\u00a0\\u2028\\ufeff"');
  assert.equal(goQuote('é ü 日本 😀 ✓'), '"é ü 日本 😀 ✓"');
  assert.equal(goQuote('\u{e0001}'), '"\\U000e0001"');
  // JSON.stringify would keep DEL and NBSP as they are and write \u0000 where Go writes \x00.
  assert.notEqual(goQuote('\x00\x7f'), JSON.stringify('\x00\x7f'));
});
