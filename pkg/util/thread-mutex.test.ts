import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { mutexMemory, ThreadMutex } from './thread-mutex.js';

// Each thread adds to a counter with a read, a pause and a write: only turns taken keep every addition.
const adder = `
const { workerData, parentPort, threadId } = require('node:worker_threads');
import(workerData.module).then(({ ThreadMutex }) => {
  const mutex = new ThreadMutex(workerData.memory, threadId);
  const counter = new Int32Array(workerData.counter);
  for (let i = 0; i < workerData.times; i++) {
    mutex.lock();
    const v = counter[0];
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, i % 50 === 0 ? 1 : 0);
    counter[0] = v + 1;
    mutex.unlock();
  }
  parentPort.postMessage('done');
});
`;

test('threads holding the mutex take turns: no addition is lost', async () => {
  const memory = mutexMemory();
  const counter = new SharedArrayBuffer(4);
  const times = 2000;
  const module = new URL('./thread-mutex.js', import.meta.url).href;
  const workers = [1, 2, 3].map(() => new Worker(adder, { eval: true, workerData: { memory, counter, times, module } }));
  await Promise.all(workers.map((w) => new Promise((resolve, reject) => {
    w.once('message', resolve);
    w.once('error', reject);
  })));
  await Promise.all(workers.map((w) => w.terminate()));
  assert.equal(new Int32Array(counter)[0], 3 * times);
});

test('a mutex its holder cannot give back (the thread ended) is freed for it; another holder\'s is not', () => {
  const memory = mutexMemory();
  const ended = new ThreadMutex(memory, 7);
  ended.lock();
  ThreadMutex.releaseFor(memory, 8);
  assert.equal(new Int32Array(memory)[0], 7, 'only its holder\'s release frees it');
  ThreadMutex.releaseFor(memory, 7);
  const next = new ThreadMutex(memory, 9);
  next.lock();
  assert.equal(new Int32Array(memory)[0], 9);
  next.unlock();
  assert.throws(() => new ThreadMutex(memory, 0), /never 0/);
});
