import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { collectStartupGarbage } from './startup-garbage.js';

// An object nothing refers to any more, watched through a WeakRef (which holds its target only
// until the turn that made it ends).
function abandoned(): WeakRef<object> {
  return new WeakRef({ scratch: new Array(100_000).fill('x') });
}

test('the garbage this thread holds is collected', async () => {
  const ref = abandoned();
  await nextTurn();
  collectStartupGarbage();
  assert.equal(ref.deref(), undefined);
});

test('worker threads collecting at once each collect their own garbage', async () => {
  const source = `
    const { parentPort } = require('node:worker_threads');
    import(${JSON.stringify(new URL('./startup-garbage.js', import.meta.url).href)}).then(async ({ collectStartupGarbage }) => {
      const ref = new WeakRef({ scratch: new Array(100_000).fill('x') });
      await new Promise((r) => setImmediate(r));
      collectStartupGarbage();
      parentPort.postMessage(ref.deref() === undefined);
    });`;
  const collected = await Promise.all([1, 2, 3].map(() => new Promise<unknown>((resolve, reject) => {
    const w = new Worker(source, { eval: true });
    w.once('message', (m) => {
      resolve(m);
      void w.terminate();
    });
    w.once('error', reject);
  })));
  assert.deepEqual(collected, [true, true, true]);
});
