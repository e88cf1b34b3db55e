import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BucketRateLimiter, ItemExponentialFailureRateLimiter, MaxOfRateLimiter, defaultControllerRateLimiter } from './rate-limiters.js';
import { DelayingQueue } from './delaying-queue.js';
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

  test('the default controller rate limiter: 5 ms doubling to 1000 s per item, and an overall bucket of 100 then 10 a second', () => {
    let now = 0;
    const per = defaultControllerRateLimiter<string>(() => now);
    const waits = Array.from({ length: 20 }, () => per.when('x'));
    assert.deepEqual(waits.slice(0, 4), [5, 10, 20, 40]);
    assert.equal(waits[17], 5 * 2 ** 17, 'still doubling after 18 failures (655 s)');
    assert.equal(waits[18], 1_000_000, 'capped at 1000 s');
    assert.equal(per.numRequeues('x'), 20);
    per.forget('x');
    assert.equal(per.when('x'), 5, 'forget starts the backoff over');
    const overall = defaultControllerRateLimiter<string>(() => now);
    const firsts = Array.from({ length: 100 }, (_, i) => overall.when(`item-${i}`));
    assert.ok(firsts.every((w) => w === 5), 'a burst of 100 distinct items waits only its own backoff');
    assert.equal(overall.when('item-100'), 100, 'the 101st waits for the bucket: 10 a second');
    assert.equal(overall.when('item-101'), 200);
    now += 1000;
    assert.equal(overall.when('item-102'), 5, 'the bucket refills at 10 a second');
  });

  test('a delaying queue hands items out by due time with one timer however many wait', async () => {
    const q = new DelayingQueue<string>();
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    for (let i = 0; i < 1000; i++) q.addAfter(`far-${i}`, 60_000 + i);
    q.addAfter('b', 60);
    q.addAfter('a', 30);
    q.addAfter('b', 5_000);
    assert.equal(q.waitingLen(), 1002);
    assert.ok(timers() - before <= 1, `one timer for 1002 waiting items (${timers() - before})`);
    assert.equal(q.len(), 0, 'nothing is due yet');
    assert.equal(await q.get(), 'a', 'the earliest first');
    assert.equal(await q.get(), 'b', 'a later addAfter does not push an item back');
    q.addAfter('far-7', 1);
    assert.equal(await q.get(), 'far-7', 'an earlier addAfter brings an item forward');
    q.add('now');
    assert.equal(await q.get(), 'now');
    q.shutDown();
    assert.equal(q.waitingLen(), 0);
    assert.equal(timers() - before, 0, 'shutdown leaves no timer behind');
  });

  test('a rate-limited re-add while a worker has the item is processed once more, after done', async () => {
    const q = new RateLimitingQueue<string>(new ItemExponentialFailureRateLimiter(1, 10));
    q.add('k');
    const first = await q.get();
    q.addRateLimited('k');
    q.addRateLimited('k');
    let second: string | undefined;
    const waiting = q.get().then((v) => (second = v));
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(second, undefined, 'not handed to a second worker while the first has it');
    q.done(first!);
    await waiting;
    assert.equal(second, 'k', 'handed out again once done');
    q.done('k');
    assert.equal(q.len() + q.waitingLen(), 0, 'once, however often it was re-added');
    q.shutDown();
  });
});
