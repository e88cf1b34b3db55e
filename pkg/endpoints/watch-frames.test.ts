import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_PIECE_BYTES, PendingFrames, writeAtEndOfJob } from './watch-frames.js';

const frame = (fill: string, size: number) => Buffer.alloc(size, fill);

test('the frames of a job come out as their exact concatenation, and push says when the first arrives', () => {
  const p = new PendingFrames();
  assert.equal(p.empty, true);
  assert.equal(p.push(Buffer.from('{"type":"ADDED"}\n')), true);
  assert.equal(p.push(Buffer.from('{"type":"MODIFIED"}\n')), false);
  const pieces = p.take();
  assert.deepEqual(pieces.map((b) => b.toString()), ['{"type":"ADDED"}\n{"type":"MODIFIED"}\n']);
  assert.equal(p.empty, true);
  assert.deepEqual(p.take(), []);
  assert.equal(p.push(Buffer.from('x')), true, 'first again after a take');
});

test('a lone frame is handed on as it is (the shared Buffer, no copy)', () => {
  const p = new PendingFrames();
  const f = frame('a', 10);
  p.push(f);
  const [piece] = p.take();
  assert.equal(piece, f);
});

test('a large backlog comes out in pieces of whole frames, none over the bound but a single larger frame', () => {
  const p = new PendingFrames();
  const frames = [frame('a', 30_000), frame('b', 30_000), frame('c', 30_000), frame('d', MAX_PIECE_BYTES + 5), frame('e', 10), frame('f', 20)];
  for (const f of frames) p.push(f);
  const pieces = p.take();
  assert.deepEqual(pieces.map((b) => b.length), [60_000, 30_000, MAX_PIECE_BYTES + 5, 30]);
  assert.ok(Buffer.concat(pieces).equals(Buffer.concat(frames)), 'the exact concatenation, in order');
});

test('clear drops what waits', () => {
  const p = new PendingFrames();
  p.push(frame('a', 3));
  p.clear();
  assert.equal(p.empty, true);
  assert.deepEqual(p.take(), []);
});

test('writes are due once the current job is done, all in one go, in the order they were asked', async () => {
  const order: string[] = [];
  writeAtEndOfJob(() => order.push('a'));
  writeAtEndOfJob(() => {
    throw new Error('a broken connection');
  });
  writeAtEndOfJob(() => order.push('b'));
  order.push('job');
  await Promise.resolve();
  assert.deepEqual(order, ['job', 'a', 'b'], 'one watcher failing does not keep the others from their writes');
  writeAtEndOfJob(() => order.push('c'));
  await Promise.resolve();
  assert.deepEqual(order, ['job', 'a', 'b', 'c'], 'and later jobs are served again');
});

test('watchers handed the same frames share one join; other frames get their own', () => {
  const a = frame('a', 100);
  const b = frame('b', 100);
  const c = frame('c', 100);
  const take = (...fs: Buffer[]) => {
    const p = new PendingFrames();
    for (const f of fs) p.push(f);
    return p.take();
  };
  const [first] = take(a, b);
  const [second] = take(a, b);
  assert.equal(second, first, 'the same Buffer');
  const [other] = take(a, c);
  assert.notEqual(other, first);
  assert.equal(other!.toString(), 'a'.repeat(100) + 'c'.repeat(100));
  const [equalBytes] = take(Buffer.from(a), b);
  assert.notEqual(equalBytes, first, 'only the same instances are shared (equal bytes are not looked at)');
  assert.equal(take(a, b)[0], first, 'several joins are remembered side by side');
});
