import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EventRing } from './event-ring.js';
import type { StorageWatchEvent } from './interface.js';

const ev = (revision: number, key = `/core/configmaps/ns/o-${revision}`): StorageWatchEvent => ({
  type: 'ADDED',
  key,
  object: { metadata: { name: key.split('/').pop()!, resourceVersion: String(revision) } },
  revision,
});

test('covers everything after its start until it drops events, then everything after the last dropped one', () => {
  const ring = new EventRing(10, { capacity: 3, maxAgeMs: 60_000 });
  assert.ok(ring.covers(10));
  assert.ok(ring.covers(50), 'a later revision: nothing to replay yet');
  assert.ok(!ring.covers(9), 'before its start');
  for (const r of [11, 12, 13]) ring.push(ev(r));
  assert.ok(ring.covers(10));
  ring.push(ev(14)); // drops 11
  assert.equal(ring.length, 3);
  assert.ok(!ring.covers(10), 'the event at 11 is gone');
  assert.ok(ring.covers(11));
  assert.deepEqual([ring.firstSeq, ring.nextSeq], [1, 4]);
});

test('finds the first event after a revision and hands out entries by sequence number', () => {
  const ring = new EventRing(0, { capacity: 10, maxAgeMs: 60_000 });
  for (const r of [2, 5, 5, 9]) ring.push(ev(r, `/k/${ring.nextSeq}`));
  assert.equal(ring.firstSeqAfter(0), 0);
  assert.equal(ring.firstSeqAfter(2), 1);
  assert.equal(ring.firstSeqAfter(4), 1);
  assert.equal(ring.firstSeqAfter(5), 3, 'both events of revision 5 are skipped');
  assert.equal(ring.firstSeqAfter(9), 4, 'none after the last: nextSeq');
  assert.equal(ring.get(2)?.event.key, '/k/2');
  assert.equal(ring.get(4), undefined, 'not pushed yet');
});

test('drops events older than its age bound', () => {
  let now = 1000;
  const ring = new EventRing(0, { capacity: 10, maxAgeMs: 100, now: () => now });
  ring.push(ev(1));
  now += 60;
  ring.push(ev(2));
  now += 60;
  ring.expire();
  assert.equal(ring.length, 1);
  assert.equal(ring.get(0), undefined);
  assert.equal(ring.get(1)?.event.revision, 2);
  assert.ok(!ring.covers(0) && ring.covers(1));
  now += 1000;
  ring.push(ev(3)); // pushing expires too
  assert.equal(ring.length, 1);
  assert.ok(ring.covers(2));
});

test('refuses events that go back in revision', () => {
  const ring = new EventRing(5, { capacity: 10, maxAgeMs: 60_000 });
  assert.throws(() => ring.push(ev(4)), RangeError);
  ring.push(ev(6));
  assert.throws(() => ring.push(ev(5)), RangeError);
});
