import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_NESTING_DEPTH } from './body-scan.js';
import { parseBody } from './decoder.js';

const badRequest = (message: string | RegExp) => (e: { code?: number; message?: string }) =>
  e.code === 400 && (typeof message === 'string' ? e.message === message : message.test(e.message ?? ''));

test('JSON nested beyond the limit is refused before it is parsed, in upstream\'s words', () => {
  const deep = '['.repeat(MAX_NESTING_DEPTH + 1) + ']'.repeat(MAX_NESTING_DEPTH + 1);
  assert.throws(() => parseBody(Buffer.from(deep), 'json'), badRequest(`error decoding JSON: invalid character '[' exceeded max depth of ${MAX_NESTING_DEPTH}`));
  assert.throws(() => parseBody(Buffer.from(deep), 'json', true, 'patch'), badRequest(`invalid JSON patch: invalid character '[' exceeded max depth of ${MAX_NESTING_DEPTH}`));
  assert.throws(() => parseBody(Buffer.from('{"a":'), 'json', true, 'patch'), badRequest(/^invalid JSON patch: /));
  const ok = '['.repeat(MAX_NESTING_DEPTH) + ']'.repeat(MAX_NESTING_DEPTH);
  assert.ok(Array.isArray(parseBody(Buffer.from(ok), 'json').value));
});

test('YAML nested beyond the limit, by text or through aliases, is refused before it is composed', () => {
  assert.throws(() => parseBody(Buffer.from(`a:\n  b: ${'['.repeat(100_000)}`), 'yaml'),
    badRequest(`error decoding YAML: yaml: line 2: exceeded max depth of ${MAX_NESTING_DEPTH}`));
  const half = MAX_NESTING_DEPTH / 2 + 1;
  const aliased = `a: &x ${'['.repeat(half)}${']'.repeat(half)}\nb: ${'['.repeat(half)}*x${']'.repeat(half)}\n`;
  assert.throws(() => parseBody(Buffer.from(aliased), 'yaml'), badRequest(`error decoding YAML: yaml: exceeded max depth of ${MAX_NESTING_DEPTH}`));
  assert.throws(() => parseBody(Buffer.from('a: &a [1, *a]\n'), 'yaml'), badRequest("error decoding YAML: yaml: anchor 'a' value contains itself"));
});

test('YAML keeps timestamps as strings and reads YAML 1.1 as kubectl does', () => {
  const { value } = parseBody(Buffer.from('metadata:\n  creationTimestamp: 2026-01-02T03:04:05Z\n  day: 2026-01-02\nmode: 0644\nenabled: yes\n'), 'yaml');
  assert.deepEqual(value, { metadata: { creationTimestamp: '2026-01-02T03:04:05Z', day: '2026-01-02' }, mode: 420, enabled: true });
});

test('the number literals of a body come with it, for the decoder to judge', () => {
  assert.deepEqual(parseBody(Buffer.from('{"spec":{"replicas":1e308}}'), 'json').numbers, [{ path: ['spec', 'replicas'], literal: '1e308', inexact: false }]);
  assert.deepEqual(parseBody(Buffer.from('spec:\n  x: 9007199254740993\n'), 'yaml').numbers,
    [{ path: ['spec', 'x'], literal: '9007199254740993', inexact: true }]);
});
