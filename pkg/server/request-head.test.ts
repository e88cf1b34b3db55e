import assert from 'node:assert/strict';
import { test } from 'node:test';
import { headEnd, isRequestHead, leadingMethod, parseRequestHead } from './request-head.js';

const b = (s: string) => Buffer.from(s, 'latin1');

test('a head ends at its first blank line, CRLF or bare LF', () => {
  assert.equal(headEnd(b('GET / HTTP/1.1\r\nHost: x\r\n\r\nbody')), 27);
  assert.equal(headEnd(b('GET / HTTP/1.1\nHost: x\n\nbody')), 24);
  assert.equal(headEnd(b('GET / HTTP/1.1\r\nHost: x\r\n')), -1);
});

test('any token is a method, as in Go', () => {
  assert.equal(leadingMethod(b('FOO /x HTTP/1.1\r\n')), 'FOO');
  assert.equal(leadingMethod(b('X-CUSTOM_1 /x HTTP/1.1\r\n')), 'X-CUSTOM_1');
  assert.equal(leadingMethod(b('G@T /x HTTP/1.1\r\n')), undefined);
  assert.equal(leadingMethod(b(' /x HTTP/1.1\r\n')), undefined);
  assert.equal(leadingMethod(b('\u0000\u0001')), undefined);
});

test('a well-formed head is read with its headers in order', () => {
  const h = parseRequestHead(b('FOO /api/v1/x?a=b HTTP/1.1\r\nHost: x\r\nX-A:  spaced \t\r\nx-a: again\r\n\r\n'));
  assert.ok(isRequestHead(h));
  assert.deepEqual(h, { method: 'FOO', url: '/api/v1/x?a=b', httpVersionMajor: 1, httpVersionMinor: 1, rawHeaders: ['Host', 'x', 'X-A', 'spaced', 'x-a', 'again'] });
  const other = parseRequestHead(b('FOO * HTTP/2.0\r\n\r\n'));
  assert.ok(isRequestHead(other));
  assert.equal(other.httpVersionMajor, 2, 'the version is judged by the protocol checks');
});

test('what Go refuses while reading the head is a 400', () => {
  for (const head of [
    'FOO /x\r\n\r\n', 'FOO /x HTTP/1.x\r\n\r\n', 'FOO /x HTTP/11\r\n\r\n', 'FOO /x SPDY/3.1\r\n\r\n', 'F@O /x HTTP/1.1\r\n\r\n',
    'FOO x HTTP/1.1\r\n\r\n', 'FOO /a\u0001b HTTP/1.1\r\n\r\n', 'FOO /x HTTP/1.1\r\nNo colon\r\n\r\n', 'FOO /x HTTP/1.1\r\nBad name: v\r\n\r\n',
    'FOO /x HTTP/1.1\r\n folded: v\r\n\r\n', 'FOO /x HTTP/1.1\r\n: v\r\n\r\n',
  ]) {
    const r = parseRequestHead(b(head));
    assert.ok(!isRequestHead(r), JSON.stringify(head));
    assert.equal(r.code, 400, JSON.stringify(head));
  }
  assert.deepEqual(parseRequestHead(b('FOO /x HTTP/1.1\r\nX: a\u0000b\r\n\r\n')), { code: 400, text: 'invalid header value' });
});
