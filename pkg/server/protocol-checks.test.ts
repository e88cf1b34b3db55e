import assert from 'node:assert/strict';
import { test } from 'node:test';
import { asksForUpgrade, protocolViolation, type HeadFacts } from './protocol-checks.js';

const head = (rawHeaders: string[], over: Partial<HeadFacts> = {}): HeadFacts => ({ method: 'GET', url: '/api', httpVersionMajor: 1, httpVersionMinor: 1, rawHeaders, ...over });
const limit = (1 << 20) + 4096;

test('Host: exactly one on HTTP/1.1 (CONNECT excepted), none needed on HTTP/1.0, only URI characters', () => {
  assert.equal(protocolViolation(head(['Host', 'example.com:6443']), limit), undefined);
  assert.equal(protocolViolation(head(['Host', '']), limit), undefined, 'empty is allowed, as in Go');
  assert.equal(protocolViolation(head(['Host', '[::1]:443']), limit), undefined);
  assert.deepEqual(protocolViolation(head([]), limit), { code: 400, text: 'missing required Host header' });
  assert.equal(protocolViolation(head([], { method: 'CONNECT' }), limit), undefined);
  assert.equal(protocolViolation(head([], { httpVersionMinor: 0 }), limit), undefined);
  assert.deepEqual(protocolViolation(head(['Host', 'a', 'HOST', 'a']), limit), { code: 400, text: 'too many Host headers' });
  assert.deepEqual(protocolViolation(head(['Host', 'a b']), limit), { code: 400, text: 'malformed Host header' });
  assert.deepEqual(protocolViolation(head(['Host', 'a/b']), limit), { code: 400, text: 'malformed Host header' });
});

test('only HTTP/1.x is served: another major version is 505, a request line without one (HTTP/0.9 to Node) is 400', () => {
  assert.deepEqual(protocolViolation(head(['Host', 'x'], { httpVersionMajor: 2, httpVersionMinor: 0 }), limit), { code: 505, text: 'unsupported protocol version' });
  assert.deepEqual(protocolViolation(head(['Host', 'x'], { httpVersionMajor: 0, httpVersionMinor: 9 }), limit), { code: 400 });
});

test('a head over the limit on the wire is 431, however its headers are split', () => {
  const tiny = Array.from({ length: 2 * Math.ceil(limit / 5) }, (_, i) => (i % 2 === 0 ? 'a' : 'b'));
  assert.deepEqual(protocolViolation(head(['Host', 'x', ...tiny]), limit), { code: 431 });
  assert.equal(protocolViolation(head(['Host', 'x', ...tiny.slice(0, 2 * 200_000)]), limit), undefined);
});

test('an upgrade needs both the Upgrade header and the upgrade token in Connection', () => {
  assert.equal(asksForUpgrade(head(['Upgrade', 'websocket', 'Connection', 'keep-alive, Upgrade'])), true);
  assert.equal(asksForUpgrade(head(['Upgrade', 'h2c'])), false);
  assert.equal(asksForUpgrade(head(['Connection', 'upgrade'])), false);
  assert.equal(asksForUpgrade(head(['Upgrade', 'websocket', 'Connection', 'upgraded'])), false);
});
