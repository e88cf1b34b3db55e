import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { RevisionWatermark } from './revision-watermark.js';

test('the mark only rises', () => {
  const w = new RevisionWatermark();
  w.raise(7);
  w.raise(3);
  assert.equal(w.value(), 7);
  w.raise(12);
  assert.equal(w.value(), 12);
});

test('threads sharing the memory see one mark: the highest any raised', async () => {
  const mark = new RevisionWatermark();
  const url = new URL('./revision-watermark.js', import.meta.url).href;
  const raise = (rev: number) => new Promise<void>((resolve, reject) => {
    const w = new Worker(`import { workerData } from 'node:worker_threads'; const { RevisionWatermark } = await import(${JSON.stringify(url)}); new RevisionWatermark(workerData).raise(${rev});`,
      { eval: true, workerData: mark.memory });
    w.once('error', reject);
    w.once('exit', () => resolve());
  });
  await Promise.all([raise(40), raise(90), raise(65)]);
  assert.equal(mark.value(), 90);
  assert.equal(new RevisionWatermark(mark.memory).value(), 90);
});
