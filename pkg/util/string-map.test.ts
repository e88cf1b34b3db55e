import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sameStringMap } from './string-map.js';

test('string maps are the same by content, in any order, a missing map being empty', () => {
  assert.ok(sameStringMap({ a: '1', b: '2' }, { b: '2', a: '1' }));
  assert.ok(sameStringMap(undefined, {}));
  assert.ok(!sameStringMap({ a: '1' }, { a: '2' }));
  assert.ok(!sameStringMap({ a: '1' }, { b: '1' }));
  assert.ok(!sameStringMap({ a: '1' }, undefined));
  assert.ok(!sameStringMap(undefined, { a: '' }));
  assert.ok(!sameStringMap({ a: '1' }, { a: '1', b: '2' }));
});
