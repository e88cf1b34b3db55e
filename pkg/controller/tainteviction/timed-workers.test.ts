import assert from 'node:assert/strict';
import { test } from 'node:test';
import { minTolerationMs } from './controller.js';
import { TimedWorkerQueue } from './timed-workers.js';

test('the eviction delay is the smallest tolerationSeconds used: none used is now, none with seconds is never', () => {
  assert.equal(minTolerationMs([]), 0);
  assert.equal(minTolerationMs([{ key: 'a' }]), -1);
  assert.equal(minTolerationMs([{ key: 'a', tolerationSeconds: 30 }, { key: 'b', tolerationSeconds: 5 }, { key: 'c' }]), 5000);
  assert.equal(minTolerationMs([{ key: 'a', tolerationSeconds: 30 }, { key: 'b', tolerationSeconds: -1 }]), 0);
});

test('timed work runs once at its time, can be cancelled before, keeps its key after success and frees it after failure', async () => {
  const ran: string[] = [];
  let fail = false;
  const q = new TimedWorkerQueue(async (key) => {
    ran.push(key);
    return !fail;
  });
  const t = Date.now();
  assert.ok(q.add('a', t, t + 20));
  assert.ok(!q.add('a', t, t), 'one item per key');
  assert.ok(q.add('b', t, t + 20));
  assert.ok(q.cancel('b'));
  assert.deepEqual([q.pending('a')?.createdAt, q.pending('a')?.fireAt], [t, t + 20]);
  await new Promise((r) => setTimeout(r, 60));
  assert.deepEqual(ran, ['a']);
  assert.ok(!q.add('a', t, t), 'done work keeps its key');
  assert.ok(!q.cancel('a'), 'nothing pending to cancel');
  fail = true;
  assert.ok(q.add('a', t, t));
  await new Promise((r) => setTimeout(r, 20));
  assert.ok(q.add('a', Date.now(), Date.now() + 10_000), 'a failure frees the key');
  q.stop();
});
