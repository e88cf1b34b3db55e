import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { defaultBurst, defaultQPS } from './rest-config.js';
import { TokenBucket } from '../util/token-bucket.js';

describe('token bucket', () => {
  test('burst at once, then qps a second, waiters spaced in order', () => {
    let now = 0;
    const b = new TokenBucket(20, 30, () => now);
    for (let i = 0; i < 30; i++) assert.equal(b.reserve(), 0, `request ${i} of the burst`);
    assert.equal(b.reserve(), 50);
    assert.equal(b.reserve(), 100);
    assert.equal(b.tryAccept(), false);
    now += 100;
    assert.equal(b.tryAccept(), false, 'the two reservations took the refilled tokens');
    now += 50;
    assert.equal(b.tryAccept(), true);
    now += 10_000;
    for (let i = 0; i < 30; i++) assert.ok(b.tryAccept(), 'refilled up to burst, no further');
    assert.equal(b.tryAccept(), false);
  });

  test('a negative qps disables the limit; the defaults are the controller manager\'s', () => {
    const b = new TokenBucket(-1, 0);
    for (let i = 0; i < 1000; i++) assert.equal(b.reserve(), 0);
    assert.deepEqual([defaultQPS, defaultBurst], [20, 30]);
  });

  test('wait() resolves after the reserved delay, and an abort gives the token back', async () => {
    // The clock stands still while the test looks, so a loaded machine cannot refill the bucket
    // between two steps; the timer of wait() still runs on the real one.
    let now = 0;
    const b = new TokenBucket(50, 1, () => now);
    await b.wait();
    const started = Date.now();
    await b.wait();
    assert.ok(Date.now() - started >= 15, 'the second waited for its token');
    const ac = new AbortController();
    const pending = b.wait(ac.signal);
    ac.abort();
    await assert.rejects(pending);
    assert.equal(b.reserve(), 40, 'the aborted wait gave its token back: the next waits as if it had never asked');
    now += 1000;
    assert.equal(b.reserve(), 0);
  });
});
