import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StoredObject } from '../storage/interface.js';
import { MAX_PIECE_BYTES } from './watch-frames.js';
import { InitialEventRuns } from './watch-initial-events.js';

/** `n` objects of about `size` bytes each, counting how many were taken. */
function objects(n: number, size: number) {
  const taken = { count: 0 };
  function* make(): Generator<StoredObject> {
    for (let i = 0; i < n; i++) {
      taken.count++;
      yield { metadata: { name: `o${i}` }, data: { v: 'x'.repeat(size) } } as StoredObject;
    }
  }
  return { iterator: make(), taken };
}

/** JSON lines, as the watch endpoint's encoder writes them. */
const encode = (type: string, obj: Record<string, unknown>) => Buffer.from(JSON.stringify({ type, object: obj }) + '\n');
const lines = (run: Buffer) => run.toString().trimEnd().split('\n').map((l) => JSON.parse(l) as { type: string; object: { metadata: { name?: string; resourceVersion?: string } } });

test('the initial events come in runs of whole events, each encoded only when it is asked for, the end mark last', () => {
  const { iterator, taken } = objects(100, 4000);
  const end = { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: '9' } };
  const runs = new InitialEventRuns(iterator, end, encode);
  // The first run is encoded at once (a Table watch's columns go with the first event), no more.
  const firstTaken = taken.count;
  assert.ok(firstTaken > 1 && firstTaken < 100, `the first run took ${firstTaken} objects`);
  const seen: string[] = [];
  for (let run = runs.next(); run; run = runs.next()) {
    assert.ok(run.length <= MAX_PIECE_BYTES + 5000, `a run of ${run.length} bytes`);
    for (const e of lines(run)) seen.push(`${e.type} ${e.object.metadata.name ?? e.object.metadata.resourceVersion}`);
    if (seen.length === firstTaken) assert.equal(taken.count, firstTaken, 'nothing more was taken before the next run was asked for');
  }
  assert.deepEqual(seen, [...Array.from({ length: 100 }, (_, i) => `ADDED o${i}`), 'BOOKMARK 9']);
  assert.equal(runs.next(), undefined);
});

test('an event larger than a run is a run of its own; an empty state is the end mark alone, or nothing', () => {
  const big = new InitialEventRuns(objects(2, MAX_PIECE_BYTES * 2).iterator, undefined, encode);
  assert.deepEqual([big.next(), big.next()].map((r) => lines(r!).length), [1, 1]);
  assert.equal(big.next(), undefined);
  const endOnly = new InitialEventRuns(objects(0, 0).iterator, { metadata: { resourceVersion: '3' } }, encode);
  assert.deepEqual(lines(endOnly.next()!).map((e) => e.type), ['BOOKMARK']);
  assert.equal(endOnly.next(), undefined);
  assert.equal(new InitialEventRuns(objects(0, 0).iterator, undefined, encode).next(), undefined);
});
