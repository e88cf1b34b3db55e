import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ItemExponentialFailureRateLimiter } from '../client/rate-limiters.js';
import { RateLimitingQueue } from '../client/rate-limiting-queue.js';
import { Logger } from '../log/logger.js';
import { runWorkers, type Requeue } from './queue-workers.js';

const quiet = new Logger(0, () => undefined);

test('a key that keeps failing is retried with backoff, then dropped after maxRetries until it is added again', async () => {
  const queue = new RateLimitingQueue<string>(new ItemExponentialFailureRateLimiter(1, 50));
  const stop = new AbortController();
  const tries: number[] = [];
  const running = runWorkers('test', queue, 2, stop.signal, async () => {
    tries.push(Date.now());
    throw new Error('nope');
  }, quiet, { maxRetries: 3 });
  queue.add('k');
  const deadline = Date.now() + 5_000;
  while (tries.length < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(tries.length, 4, 'the first try and three retries, then no more');
  assert.equal(queue.numRequeues('k'), 0, 'dropped: its failures are forgotten');
  assert.equal(queue.len() + queue.waitingLen(), 0);
  queue.add('k');
  while (tries.length < 5 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  assert.ok(tries.length >= 5, 'an event brings it back');
  stop.abort();
  await running;
});

test('a later look forgets the failures unless the sync keeps them', async () => {
  const queue = new RateLimitingQueue<string>(new ItemExponentialFailureRateLimiter(1, 50));
  const stop = new AbortController();
  const answers: (Requeue | Error)[] = [new Error('first'), { requeueAfterMs: 1, keepFailures: true }, new Error('second'), { requeueAfterMs: 1 }];
  const seen: number[] = [];
  const running = runWorkers('test', queue, 1, stop.signal, async (key) => {
    seen.push(queue.numRequeues(key));
    const a = answers.shift();
    if (a instanceof Error) throw a;
    return a;
  }, quiet);
  queue.add('k');
  const deadline = Date.now() + 5_000;
  while (seen.length < 5 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  assert.deepEqual(seen, [0, 1, 1, 2, 0], 'kept across the look that kept them, forgotten by the one that did not');
  stop.abort();
  await running;
});
