import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ExpiringLRU } from './expiring-lru.js';

test('entries live for their own TTL; a TTL of 0 keeps nothing', () => {
  let now = 1000;
  const c = new ExpiringLRU<string>(10, () => now);
  c.add('a', 'A', 300);
  c.add('b', 'B', 30);
  c.add('z', 'Z', 0);
  assert.equal(c.get('z'), undefined);
  now += 29;
  assert.equal(c.get('b'), 'B');
  now += 1;
  assert.equal(c.get('b'), undefined, 'expired at its TTL');
  assert.equal(c.get('a'), 'A');
  now += 270;
  assert.equal(c.get('a'), undefined);
});

test('full: the least recently used goes first', () => {
  const c = new ExpiringLRU<number>(3, () => 0);
  c.add('1', 1, 100);
  c.add('2', 2, 100);
  c.add('3', 3, 100);
  assert.equal(c.get('1'), 1); // 2 is now the least recently used
  c.add('4', 4, 100);
  assert.equal(c.size, 3);
  assert.equal(c.get('2'), undefined);
  assert.deepEqual([c.get('1'), c.get('3'), c.get('4')], [1, 3, 4]);
});
