import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyMergePatch } from './merge-patch.js';

test('RFC 7386 examples', () => {
  assert.deepEqual(applyMergePatch({ a: 'b' }, { a: 'c' }), { a: 'c' });
  assert.deepEqual(applyMergePatch({ a: 'b' }, { b: 'c' }), { a: 'b', b: 'c' });
  assert.deepEqual(applyMergePatch({ a: 'b' }, { a: null }), {});
  assert.deepEqual(applyMergePatch({ a: [{ b: 'c' }] }, { a: [1] }), { a: [1] });
  assert.deepEqual(applyMergePatch({ a: { b: 'c' } }, { a: { b: 'd', c: null } }), { a: { b: 'd' } });
  assert.deepEqual(applyMergePatch({ e: null }, { a: 1 }), { e: null, a: 1 });
  assert.deepEqual(applyMergePatch([1, 2], { a: 'b', c: null }), { a: 'b' });
  assert.deepEqual(applyMergePatch({}, { a: { bb: { ccc: null } } }), { a: { bb: {} } });
});

test('inputs are not modified and "__proto__" is an ordinary key', () => {
  const target = { a: { b: 1 } };
  const patch = JSON.parse('{"a":{"c":2},"__proto__":{"polluted":true}}') as unknown;
  const out = applyMergePatch(target, patch) as Record<string, unknown>;
  assert.deepEqual(target, { a: { b: 1 } });
  assert.equal(Object.getPrototypeOf(out), Object.prototype);
  assert.deepEqual(Object.getOwnPropertyDescriptor(out, '__proto__')?.value, { polluted: true });
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});
