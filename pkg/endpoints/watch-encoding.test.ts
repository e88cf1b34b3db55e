import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Response } from 'express';
import { allGroupVersions } from '../../api/index.js';
import { apiDomain, defaultApiDomain } from '../../api/domain.js';
import type { ListMeta, Status } from '../../api/meta/v1/types.js';
import { Scheme, type ResourceInfo } from '../runtime/scheme.js';
import type { OutputTarget } from './negotiation.js';
import { ResponseWriter, type ProtobufEncoder } from './output.js';
import { bookmarkObject, encodedOnce, ENCODING_KEEP_MS, initialEventsEndObject } from './watch-encoding.js';

const scheme = new Scheme(allGroupVersions);
const info = scheme.resources().find((r) => r.kind === 'ConfigMap' && r.group === '') as ResourceInfo;

/** A protobuf encoder that counts its watch frames. */
function countingProtobuf(): ProtobufEncoder & { frames: number } {
  const p = {
    frames: 0,
    encodeObject: (_i: ResourceInfo, _o: Record<string, unknown>) => Buffer.alloc(0),
    encodeList: (_i: ResourceInfo, _l: { metadata: ListMeta; items: Record<string, unknown>[] }) => Buffer.alloc(0),
    encodeStatus: (_s: Status) => Buffer.alloc(0),
    encodeWatchFrame: (_i: ResourceInfo, type: string) => {
      p.frames++;
      return Buffer.from(type);
    },
  };
  return p;
}

const writer = (target: OutputTarget, protobuf: ProtobufEncoder = countingProtobuf()) =>
  new ResponseWriter({} as Response, target, false, protobuf, defaultApiDomain);

const object = () => Object.freeze({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'one', namespace: 'ns', resourceVersion: '5', creationTimestamp: '2024-01-01T00:00:00Z' } });

test('watchers of one form are written the same bytes, encoded once', () => {
  const obj = object();
  const a = writer({ format: 'json' }).watchEncoder(info);
  const b = writer({ format: 'json' }).watchEncoder(info);
  const bytes = a.encode('ADDED', obj);
  assert.equal(b.encode('ADDED', obj), bytes, 'the same Buffer');
  assert.deepEqual(JSON.parse(bytes.toString()), { type: 'ADDED', object: obj });
  assert.ok(bytes.toString().endsWith('}\n'));
  assert.notEqual(a.encode('MODIFIED', obj), bytes, 'another event type is another form');
  // Another conversion of the same object is another form.
  const partial = writer({ format: 'json', as: 'PartialObjectMetadata' }).watchEncoder(info).encode('ADDED', obj);
  assert.deepEqual(JSON.parse(partial.toString()).object, { kind: 'PartialObjectMetadata', apiVersion: 'meta.orch.io/v1', metadata: obj.metadata });
  assert.equal(writer({ format: 'json', as: 'PartialObjectMetadata' }).watchEncoder(info).encode('ADDED', obj), partial);
  assert.notEqual(writer({ format: 'json', as: 'PartialObjectMetadata', group: 'meta.k8s.io' }).watchEncoder(info).encode('ADDED', obj), partial, 'the group asked in is part of the form');
});

test('protobuf frames are encoded once per object and type', () => {
  const pb = countingProtobuf();
  const obj = object();
  for (let i = 0; i < 10; i++) writer({ format: 'protobuf' }, pb).watchEncoder(info).encode('ADDED', obj);
  assert.equal(pb.frames, 1);
  writer({ format: 'protobuf' }, pb).watchEncoder(info).encode('DELETED', obj);
  assert.equal(pb.frames, 2);
});

test('Tables: column definitions with each watcher\'s first event only, both forms shared', () => {
  const o1 = object();
  const o2 = Object.freeze({ ...object(), metadata: { ...object().metadata, name: 'two' } });
  const a = writer({ format: 'json', as: 'Table' }).watchEncoder(info);
  const b = writer({ format: 'json', as: 'Table' }).watchEncoder(info);
  const a1 = a.encode('ADDED', o1);
  const a2 = a.encode('ADDED', o2);
  assert.ok(JSON.parse(a1.toString()).object.columnDefinitions.length > 0);
  assert.deepEqual(JSON.parse(a2.toString()).object.columnDefinitions, []);
  const b2 = b.encode('ADDED', o2);
  assert.notEqual(b2, a2, 'b\'s first event carries the columns');
  assert.ok(JSON.parse(b2.toString()).object.columnDefinitions.length > 0);
  const b1 = b.encode('ADDED', o1);
  assert.deepEqual(JSON.parse(b1.toString()).object.columnDefinitions, []);
  const d = writer({ format: 'json', as: 'Table' }).watchEncoder(info);
  d.encode('ADDED', o2);
  assert.equal(d.encode('ADDED', o1), b1, 'a later event in the same form: the same bytes');
  const c = writer({ format: 'json', as: 'Table' }).watchEncoder(info);
  assert.equal(c.encode('ADDED', o1), a1, 'a first event in the same form: the same bytes');
});

test('an ERROR is the watcher\'s own; bookmarks of one revision share one object', () => {
  const status = { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 410 };
  const a = writer({ format: 'json' }).watchEncoder(info);
  assert.notEqual(a.encode('ERROR', status), a.encode('ERROR', status));
  assert.equal(bookmarkObject('ConfigMap', 'v1', '9'), bookmarkObject('ConfigMap', 'v1', '9'));
  assert.notEqual(bookmarkObject('ConfigMap', 'v1', '9'), bookmarkObject('ConfigMap', 'v1', '10'));
  assert.deepEqual(bookmarkObject('Secret', 'v1', '10'), { kind: 'Secret', apiVersion: 'v1', metadata: { resourceVersion: '10' } });
});

test('an encoding is shared while watchers keep asking for it, and let go once none has for a while', () => {
  const obj = object();
  let encodings = 0;
  const encode = () => Buffer.from(`bytes ${++encodings}`);
  // Clear of the real clock the other tests' encodings ran on.
  const t0 = performance.now() + ENCODING_KEEP_MS;
  const first = encodedOnce(obj, 'form', encode, t0);
  let t = t0;
  for (let i = 0; i < 5; i++) {
    t += ENCODING_KEEP_MS * 0.9;
    // Other events are encoded in between (each may start a new period).
    encodedOnce(object(), 'form', () => Buffer.from('another event'), t);
    assert.equal(encodedOnce(obj, 'form', encode, t), first, `asked for again after ${t - t0} ms`);
  }
  assert.equal(encodings, 1);
  t += 2 * ENCODING_KEEP_MS;
  // The encodings are let go as the next event is encoded.
  encodedOnce(object(), 'form', () => Buffer.from('another event'), t);
  const again = encodedOnce(obj, 'form', encode, t);
  assert.equal(encodings, 2, 'encoded again after twice the keep time without a watcher asking');
  assert.equal(again.toString(), 'bytes 2');
  assert.equal(encodedOnce(obj, 'form', encode, t + 1), again);
  assert.equal(encodings, 2);
});

test('the end mark of a watch-list carries the domain\'s annotation and upstream\'s (one key under k8s.io), in every form', () => {
  assert.deepEqual(initialEventsEndObject('ConfigMap', 'v1', '7', defaultApiDomain),
    { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: '7', annotations: { 'orch.io/initial-events-end': 'true', 'k8s.io/initial-events-end': 'true' } } });
  assert.deepEqual(initialEventsEndObject('ConfigMap', 'v1', '7', apiDomain('k8s.io')).metadata, { resourceVersion: '7', annotations: { 'k8s.io/initial-events-end': 'true' } });
  const end = initialEventsEndObject('ConfigMap', 'v1', '7', defaultApiDomain);
  const annotations = (end.metadata as { annotations: unknown }).annotations;
  // A Table keeps the mark on the one row it has for it, as metadata whatever includeObject says; a plain bookmark has no row.
  for (const includeObject of ['None', 'Object'] as const) {
    const table = new ResponseWriter({} as Response, { format: 'json', as: 'Table' }, false, countingProtobuf(), defaultApiDomain, includeObject).watchEncoder(info);
    const marked = JSON.parse(table.encode('BOOKMARK', end).toString()).object;
    assert.deepEqual(marked.rows.map((r: { object: unknown }) => r.object), [{ kind: 'PartialObjectMetadata', apiVersion: 'meta.orch.io/v1', metadata: { resourceVersion: '7', annotations } }], includeObject);
    assert.deepEqual(JSON.parse(table.encode('BOOKMARK', bookmarkObject('ConfigMap', 'v1', '8')).toString()).object.rows, [], includeObject);
  }
  const partial = JSON.parse(writer({ format: 'json', as: 'PartialObjectMetadata' }).watchEncoder(info).encode('BOOKMARK', end).toString());
  assert.deepEqual(partial, { type: 'BOOKMARK', object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.orch.io/v1', metadata: { resourceVersion: '7', annotations } } });
});

test('every kind\'s Table encodes its end mark: the printer columns take an object with nothing but metadata', () => {
  for (const kind of scheme.resources()) {
    const end = initialEventsEndObject(kind.kind, kind.apiVersion, '7', defaultApiDomain);
    const table = writer({ format: 'json', as: 'Table' }).watchEncoder(kind);
    const row = JSON.parse(table.encode('BOOKMARK', end).toString()).object.rows[0];
    assert.equal(row.cells.length, (kind.printerColumns ?? [1, 2]).length, `${kind.kind}: a cell per column`);
  }
});
