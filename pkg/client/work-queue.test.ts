import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BucketRateLimiter, ItemExponentialFailureRateLimiter, MaxOfRateLimiter } from './rate-limiters.js';
import { RateLimitingQueue } from './rate-limiting-queue.js';
import { WorkQueue } from './work-queue.js';

describe('work queue', () => {
  test('an item queued once however often it is added, handed out in order', async () => {
    const q = new WorkQueue<string>();
    for (const k of ['a', 'b', 'a', 'c', 'b']) q.add(k);
    assert.equal(q.len(), 3);
    assert.deepEqual([await q.get(), await q.get(), await q.get()], ['a', 'b', 'c']);
  });

  test('never two workers on one item; added while processing means processed again after done', async () => {
    const q = new WorkQueue<string>();
    q.add('x');
    const first = await q.get();
    q.add('x');
    assert.equal(q.len(), 0, 'not handed to a second worker while the first has it');
    let second: string | undefined;
    const waiting = q.get().then((v) => (second = v));
    await new Promise((r) => setTimeout(r, 10));
    assert.equal(second, undefined);
    q.done(first!);
    await waiting;
    assert.equal(second, 'x');
    q.done('x');
    assert.equal(q.len(), 0, 'done without a re-add queues nothing');
  });

  test('shutdown releases waiting workers once empty and refuses new items; drain waits for the workers', async () => {
    const q = new WorkQueue<string>();
    q.add('last');
    const worker = q.get();
    const idle = q.get();
    q.shutDown();
    assert.equal(await worker, 'last');
    assert.equal(await idle, undefined);
    q.add('late');
    assert.equal(q.len(), 0);
    let drained = false;
    const drain = q.shutDownWithDrain().then(() => (drained = true));
    await new Promise((r) => setTimeout(r, 10));
    assert.equal(drained, false, 'an item is still being processed');
    q.done('last');
    await drain;
  });

  test('exponential per-item backoff, forget, and the larger of per-item and overall', () => {
    const exp = new ItemExponentialFailureRateLimiter<string>(5, 1000);
    assert.deepEqual([exp.when('a'), exp.when('a'), exp.when('a'), exp.when('b')], [5, 10, 20, 5]);
    assert.equal(exp.numRequeues('a'), 3);
    for (let i = 0; i < 20; i++) exp.when('a');
    assert.equal(exp.when('a'), 1000, 'capped');
    exp.forget('a');
    assert.equal(exp.when('a'), 5);
    const now = 0;
    const max = new MaxOfRateLimiter<string>(new ItemExponentialFailureRateLimiter(5, 1000), new BucketRateLimiter(10, 2, () => now));
    assert.deepEqual([max.when('a'), max.when('b'), max.when('c')], [5, 5, 100], 'the overall bucket holds the third back');
  });

  test('rate-limited adds wait their backoff; addAfter keeps the earliest time; shutdown drops waiting items', async () => {
    const q = new RateLimitingQueue<string>(new ItemExponentialFailureRateLimiter(20, 1000));
    q.addRateLimited('k');
    assert.equal(q.len(), 0);
    await new Promise((r) => setTimeout(r, 40));
    assert.equal(q.len(), 1);
    assert.equal(await q.get(), 'k');
    assert.equal(q.numRequeues('k'), 1);
    q.forget('k');
    assert.equal(q.numRequeues('k'), 0);
    q.done('k');
    q.addAfter('late', 10_000);
    q.addAfter('late', 10);
    await new Promise((r) => setTimeout(r, 40));
    assert.equal(await q.get(), 'late', 'the earlier time won');
    q.done('late');
    q.addAfter('never', 10_000);
    // Beyond setTimeout's range (a token expiring in years): still waits rather than firing at once.
    q.addAfter('next-year', 365 * 24 * 3600 * 1000);
    await new Promise((r) => setTimeout(r, 40));
    assert.equal(q.len(), 0, 'a delay past 2^31-1 ms does not fire at once');
    q.shutDown();
    assert.equal(await q.get(), undefined);
  });
});
