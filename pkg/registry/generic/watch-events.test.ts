import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StorageWatchEvent, StoredObject } from '../../storage/interface.js';
import { EVERYTHING, SharedWatchEvents, type WatchFilter } from './watch-events.js';

const cm = (name: string, rv: number, labels: Record<string, string> = {}): StoredObject => ({ metadata: { name, namespace: 'ns', resourceVersion: String(rv), labels } });
const typed = (obj: StoredObject): StoredObject => ({ kind: 'ConfigMap', apiVersion: 'v1', ...obj });

/** A filter on label a=b that counts how often it is asked. */
function counting(key = 'a=b'): WatchFilter & { calls: number } {
  const f = { key, calls: 0, matches: (o: StoredObject) => (f.calls++, o.metadata.labels?.a === 'b') };
  return f;
}

test('every watcher of an event is handed the same typed, frozen object', () => {
  const shared = new SharedWatchEvents(typed);
  const e: StorageWatchEvent = { type: 'ADDED', key: '/core/configmaps/ns/one', object: cm('one', 5), revision: 5 };
  const first = shared.delivery(e, EVERYTHING);
  const second = shared.delivery(e, EVERYTHING);
  assert.deepEqual(first, { type: 'ADDED', object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'one', namespace: 'ns', resourceVersion: '5', labels: {} } } });
  assert.equal(second!.object, first!.object, 'one instance for all');
  assert.ok(Object.isFrozen(first!.object));
  // Another selector sees the same object when it matches.
  const other = shared.delivery({ ...e }, EVERYTHING);
  assert.notEqual(other!.object, first!.object, 'another event is prepared on its own');
});

test('a selector is evaluated once per event however many watchers share it', () => {
  const shared = new SharedWatchEvents(typed);
  const e: StorageWatchEvent = { type: 'MODIFIED', key: 'k', object: cm('one', 7, { a: 'b' }), prevObject: cm('one', 6, { a: 'b' }), revision: 7 };
  const filters = Array.from({ length: 100 }, () => counting());
  const verdicts = filters.map((f) => shared.delivery(e, f));
  assert.equal(filters.reduce((n, f) => n + f.calls, 0), 2, 'the object and its previous state, once');
  assert.ok(verdicts.every((v) => v === verdicts[0]));
  assert.equal(verdicts[0]!.type, 'MODIFIED');
  // A different selector string is its own verdict.
  const other = counting('a=c');
  shared.delivery(e, other);
  assert.equal(other.calls, 2);
});

test('entering and leaving a selector: ADDED, and DELETED of the last state seen at the event\'s revision', () => {
  const shared = new SharedWatchEvents(typed);
  const f = counting();
  const entering: StorageWatchEvent = { type: 'MODIFIED', key: 'k', object: cm('one', 8, { a: 'b' }), prevObject: cm('one', 7), revision: 8 };
  assert.equal(shared.delivery(entering, f)!.type, 'ADDED');
  const leaving: StorageWatchEvent = { type: 'MODIFIED', key: 'k', object: cm('one', 9), prevObject: cm('one', 8, { a: 'b' }), revision: 9 };
  const d = shared.delivery(leaving, f)!;
  assert.equal(d.type, 'DELETED');
  assert.deepEqual(d.object.metadata, { name: 'one', namespace: 'ns', resourceVersion: '9', labels: { a: 'b' } });
  assert.equal(shared.delivery(leaving, counting())!.object, d.object);
  const outside: StorageWatchEvent = { type: 'MODIFIED', key: 'k', object: cm('one', 10), prevObject: cm('one', 9), revision: 10 };
  assert.equal(shared.delivery(outside, f), null);
  const deleted: StorageWatchEvent = { type: 'DELETED', key: 'k', object: cm('one', 11, { a: 'b' }), prevObject: cm('one', 10, { a: 'b' }), revision: 11 };
  assert.equal(shared.delivery(deleted, f)!.type, 'DELETED');
  assert.equal(shared.delivery({ type: 'ADDED', key: 'k', object: cm('two', 12), revision: 12 }, f), null);
});
