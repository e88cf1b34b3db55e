import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addQuantity, compareQuantity, formatQuantity, mustParse, parseExact, quantityMilliValue, quantityValue, subQuantity } from './quantity-exact.js';

const canon = (s: string) => formatQuantity(mustParse(s));

test('canonical forms as upstream prints them', () => {
  assert.equal(canon('1000m'), '1');
  assert.equal(canon('1500m'), '1500m');
  assert.equal(canon('0.1'), '100m');
  assert.equal(canon('2000'), '2k');
  assert.equal(canon('1500'), '1500');
  assert.equal(canon('1Gi'), '1Gi');
  assert.equal(canon('1.5Gi'), '1536Mi');
  assert.equal(canon('1024'), '1024');
  assert.equal(canon('512Ki'), '512Ki');
  assert.equal(canon('0.5Ki'), '512');
  assert.equal(canon('1e3'), '1e3');
  assert.equal(canon('1.5e3'), '1500');
  assert.equal(canon('0'), '0');
  assert.equal(canon('0Gi'), '0');
  assert.equal(canon('-100m'), '-100m');
  assert.equal(canon('12e6'), '12e6');
  assert.equal(canon('1M'), '1M');
  assert.equal(canon('0.5n'), '1n');
  assert.equal(canon('5'), '5');
});

test('arithmetic is exact and keeps the first operand format', () => {
  assert.equal(formatQuantity(addQuantity(mustParse('1Gi'), mustParse('512Mi'))), '1536Mi');
  assert.equal(formatQuantity(addQuantity(mustParse('0'), mustParse('1Gi'))), '1Gi');
  assert.equal(formatQuantity(addQuantity(mustParse('100m'), mustParse('200m'))), '300m');
  assert.equal(formatQuantity(addQuantity(mustParse('0.1'), mustParse('0.2'))), '300m');
  assert.equal(formatQuantity(subQuantity(mustParse('1'), mustParse('300m'))), '700m');
  assert.equal(formatQuantity(addQuantity(mustParse('1'), mustParse('1Gi'))), '1073741825');
  assert.equal(compareQuantity(mustParse('1Gi'), mustParse('1073741824')), 0);
  assert.equal(compareQuantity(mustParse('1G'), mustParse('1Gi')), -1);
  assert.equal(compareQuantity(mustParse('2'), mustParse('1999m')), 1);
});

test('values round up', () => {
  assert.equal(quantityValue(mustParse('100m')), 1n);
  assert.equal(quantityMilliValue(mustParse('1n')), 1n);
  assert.equal(quantityMilliValue(mustParse('1')), 1000n);
});

test('invalid input', () => {
  for (const s of ['', 'abc', '1Zi', '.', '1e', '--1', '1 Gi']) assert.equal(parseExact(s), undefined, s);
  assert.equal(parseExact(Number.NaN), undefined);
});
