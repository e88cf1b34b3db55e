import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatDuration, parseDuration } from './duration.js';

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

test('durations print as Go prints them', () => {
  const cases: Array<[bigint, string]> = [[0n, '0s'], [1n, '1ns'], [1500n, '1.5µs'], [500_000_000n, '500ms'], [1_000_000_000n, '1s'],
    [1_500_000_000n, '1.5s'], [90_000_000_000n, '1m30s'], [300_000_000_000n, '5m0s'], [3_600_000_000_000n, '1h0m0s'], [-2_000_000_000n, '-2s'],
    [93_784_000_000_001n, '26h3m4.000000001s']];
  for (const [ns, want] of cases) assert.equal(formatDuration(ns), want, String(ns));
});
