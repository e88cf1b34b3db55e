import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseQuantity } from './quantity.js';

test('plain numbers and decimals', () => {
  assert.equal(parseQuantity('2'), 2);
  assert.equal(parseQuantity(2), 2);
  assert.equal(parseQuantity(0.5), 0.5);
  assert.equal(parseQuantity('0.5'), 0.5);
  assert.equal(parseQuantity('.5'), 0.5);
  assert.equal(parseQuantity('1.'), 1);
  assert.equal(parseQuantity('+3'), 3);
  assert.equal(parseQuantity('-3'), -3);
});

test('decimal SI suffixes', () => {
  assert.equal(parseQuantity('100m'), 0.1);
  assert.equal(parseQuantity('1500m'), 1.5);
  assert.equal(parseQuantity('250u'), 250e-6);
  assert.equal(parseQuantity('5n'), 5e-9);
  assert.equal(parseQuantity('1k'), 1000);
  assert.equal(parseQuantity('128M'), 128e6);
  assert.equal(parseQuantity('1G'), 1e9);
  assert.equal(parseQuantity('2T'), 2e12);
  assert.equal(parseQuantity('1P'), 1e15);
  assert.equal(parseQuantity('1E'), 1e18);
});

test('binary suffixes', () => {
  assert.equal(parseQuantity('1Ki'), 1024);
  assert.equal(parseQuantity('512Mi'), 512 * 1024 * 1024);
  assert.equal(parseQuantity('1.5Gi'), 1.5 * 2 ** 30);
  assert.equal(parseQuantity('1Ti'), 2 ** 40);
  assert.equal(parseQuantity('1Pi'), 2 ** 50);
  assert.equal(parseQuantity('1Ei'), 2 ** 60);
});

test('exponents', () => {
  assert.equal(parseQuantity('1e3'), 1000);
  assert.equal(parseQuantity('1E3'), 1000);
  assert.equal(parseQuantity('5e-3'), 0.005);
  assert.equal(parseQuantity('2e+2'), 200);
});

test('comparisons that requests <= limits relies on', () => {
  assert.ok(parseQuantity('500m')! < parseQuantity('1')!);
  assert.ok(parseQuantity('1Gi')! > parseQuantity('1G')!);
  assert.equal(parseQuantity('1000m'), parseQuantity('1'));
  assert.equal(parseQuantity('1024Mi'), parseQuantity('1Gi'));
});

test('invalid quantities', () => {
  for (const bad of ['', 'abc', '1x', '1 Gi', 'Gi', '1.2.3', '1e', '1ki', '1GiB', '--1', '1e3.5', '0x10', ' 1']) {
    assert.equal(parseQuantity(bad), undefined, bad);
  }
  assert.equal(parseQuantity(Number.NaN), undefined);
  assert.equal(parseQuantity(Number.POSITIVE_INFINITY), undefined);
});
