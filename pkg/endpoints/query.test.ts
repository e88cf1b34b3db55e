import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Query, queryBool } from './query.js';
import { parseRequestInfo } from './request-info.js';

const q = (s: string) => new Query(new URLSearchParams(s));

test('booleans convert as upstream converts query parameters: false only for 0 and false', () => {
  for (const v of ['0', 'false', 'False', 'FALSE', 'fAlSe', 'fal\u017fe']) assert.equal(queryBool([v]), false, v);
  for (const v of ['', '1', 'true', 'True', 'yes', 'no', 'f', 'n', 'off', '00', 'false ']) assert.equal(queryBool([v]), true, JSON.stringify(v));
  assert.equal(queryBool([]), false);
  assert.equal(queryBool(['false', 'true']), false, 'the first value counts');
  assert.equal(q('allowWatchBookmarks=True').bool('allowWatchBookmarks'), true);
  assert.equal(q('allowWatchBookmarks').bool('allowWatchBookmarks'), true);
  assert.equal(q('').bool('allowWatchBookmarks'), false);
});

test('the watch flag of a request uses the same rule', () => {
  const verb = (query: string, path = '/api/v1/namespaces/default/configmaps') => parseRequestInfo('GET', `${path}?${query}`).verb;
  assert.equal(verb('watch=True'), 'watch');
  assert.equal(verb('watch=1'), 'watch');
  assert.equal(verb('watch='), 'watch');
  assert.equal(verb('watch=yes'), 'watch');
  assert.equal(verb('watch=FALSE'), 'list');
  assert.equal(verb('watch=0'), 'list');
  assert.equal(verb(''), 'list');
  assert.equal(verb('watch=true', '/api/v1/namespaces/default/configmaps/x'), 'watch');
});

test('pretty is on only where strconv.ParseBool reads true', () => {
  for (const v of ['1', 't', 'T', 'true', 'True', 'TRUE']) assert.equal(q(`pretty=${v}`).pretty(), true, v);
  for (const v of ['', '0', 'false', 'yes', 'tRUE', 'on']) assert.equal(q(`pretty=${v}`).pretty(), false, v);
  assert.equal(q('').pretty(), false);
});

test('integers parse as strconv.ParseInt(s, 10, 64), with its error text', () => {
  assert.equal(q('limit=500').int('limit'), 500);
  assert.equal(q('limit=%2B5').int('limit'), 5);
  assert.equal(q('limit=-3').int('limit'), -3);
  assert.equal(q('').int('limit'), undefined);
  const bad = (s: string, message: string) =>
    assert.throws(() => q(s).int('limit'), (e: { code?: number; message?: string }) => e.code === 400 && e.message === message, s);
  bad('limit=abc', 'strconv.ParseInt: parsing "abc": invalid syntax');
  bad('limit=', 'strconv.ParseInt: parsing "": invalid syntax');
  bad('limit=1.5', 'strconv.ParseInt: parsing "1.5": invalid syntax');
  bad('limit=1e3', 'strconv.ParseInt: parsing "1e3": invalid syntax');
  bad('limit=%20 1', 'strconv.ParseInt: parsing "  1": invalid syntax');
  bad('limit=9223372036854775808', 'strconv.ParseInt: parsing "9223372036854775808": value out of range');
  bad('limit=%00', 'strconv.ParseInt: parsing "\\x00": invalid syntax');
});

test('fieldManager: at most 128 bytes, printable characters only (ValidateFieldManager)', () => {
  assert.deepEqual(q('').fieldManagerErrors(), []);
  assert.deepEqual(q(`fieldManager=${'x'.repeat(128)}`).fieldManagerErrors(), []);
  assert.deepEqual(q('fieldManager=kubectl%20client-side%20apply%20%C3%A9').fieldManagerErrors(), []);
  const long = q(`fieldManager=${'é'.repeat(65)}`).fieldManagerErrors();
  assert.equal(long.length, 1, '130 bytes in 65 characters');
  assert.equal(long[0]!.type, 'FieldValueTooLong');
  assert.equal(long[0]!.detail, 'may not be more than 128 bytes');
  const ctrl = q('fieldManager=%C3%A9a%07b%0A').fieldManagerErrors();
  assert.deepEqual(ctrl.map((e) => e.detail), ['invalid character U+0007 (at position 3)', 'invalid character U+000A (at position 5)']);
  assert.equal(ctrl[0]!.field, 'fieldManager');
  assert.deepEqual(q('fieldManager=a%C2%A0b').fieldManagerErrors().map((e) => e.detail), ['invalid character U+00A0 (at position 1)']);
});
