import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseDuration } from './duration.js';

test('Go durations parse to milliseconds', () => {
  assert.equal(parseDuration('5m'), 300_000);
  assert.equal(parseDuration('1h30m'), 5_400_000);
  assert.equal(parseDuration('250ms'), 250);
  assert.equal(parseDuration('1.5s'), 1500);
  assert.equal(parseDuration('0'), 0);
  assert.equal(parseDuration('0s'), 0);
  assert.equal(parseDuration('-2s'), -2000);
});

test('anything else is rejected', () => {
  for (const bad of ['', '5', 'm', '5 m', '5x', '1h-3m', 'abc', '-']) assert.throws(() => parseDuration(bad), /invalid duration/, bad);
});
