import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { bool, bytes, field, int32, list, mapOf, object, opt, raw, str, stringList, stringMap } from '../../api/schema.js';
import { intOrString, quantity, time } from '../../api/meta/v1/primitives.js';
import { StatefulSet } from '../../api/apps/v1/stateful-set.js';
import { ClusterRoleBinding } from '../../api/rbac/v1/cluster-role-binding.js';
import { CSIDriver } from '../../api/storage/v1/csi-driver.js';
import { dropEmpty, sameOnWire, shapeForWrite, shapedCopy, shapedView } from './wire-shape.js';

const Inner = object('io.orch.test.v1.Inner', {
  name: str(1),
  count: opt(int32(2)),
  at: opt(time(3, { 'x-orch-emit': 'always' })),
}, { required: ['name'] });

const Shape = object('io.orch.test.v1.Shape', {
  // Defaults: required is 'always', an optional struct 'pointer', any other optional 'omitempty'.
  id: str(1),
  text: opt(str(2)),
  n: opt(int32(3)),
  flag: opt(bool(4)),
  tags: opt(stringList(5)),
  labels: opt(stringMap(6)),
  blob: opt(bytes(7)),
  inner: opt(field(8, Inner)),
  // Explicit markers.
  ptrN: opt(int32(9, { 'x-orch-emit': 'pointer' })),
  ptrFlag: opt(bool(10, { 'x-orch-emit': 'pointer' })),
  ptrText: opt(str(11, { 'x-orch-emit': 'pointer' })),
  alwaysN: opt(int32(12, { 'x-orch-emit': 'always' })),
  alwaysText: opt(str(13, { 'x-orch-emit': 'always' })),
  alwaysFlag: opt(bool(14, { 'x-orch-emit': 'always' })),
  alwaysInner: opt(field(15, Inner, { 'x-orch-emit': 'always' })),
  alwaysList: opt(stringList(16, undefined, { 'x-orch-emit': 'always' })),
  alwaysMap: opt(stringMap(17, { 'x-orch-emit': 'always' })),
  alwaysTime: opt(time(18, { 'x-orch-emit': 'always' })),
  alwaysPort: opt(intOrString(19, { 'x-orch-emit': 'always' })),
  alwaysSize: opt(quantity(20, { 'x-orch-emit': 'always' })),
  requiredButOmitted: str(21, { 'x-orch-emit': 'omitempty' }),
  items: opt(list(22, Inner)),
  byName: opt(mapOf(23, Inner)),
  free: opt(raw(24)),
  literal: opt(Type.Literal('X')),
}, { required: ['id', 'requiredButOmitted'] });

/** What shapeForWrite adds to an object that has none of the 'always' fields. */
const fills = {
  alwaysN: 0,
  alwaysText: '',
  alwaysFlag: false,
  alwaysInner: { name: '', at: null },
  alwaysTime: null,
  alwaysPort: 0,
  alwaysSize: '0',
};

test("'omitempty' values are dropped when empty: \"\", 0, false, an empty list or map", () => {
  const obj: Record<string, unknown> = { id: 'a', text: '', n: 0, flag: false, tags: [], labels: {}, blob: '', requiredButOmitted: '' };
  dropEmpty(Shape, obj);
  assert.deepEqual(obj, { id: 'a' });
  const kept = { id: 'a', text: 'x', n: -1, flag: true, tags: [''], labels: { k: '' }, blob: 'AA==', requiredButOmitted: 'y' };
  const copy = structuredClone(kept);
  dropEmpty(Shape, copy);
  assert.deepEqual(copy, kept);
});

test("'pointer' values are kept when zero, and so is an empty optional struct", () => {
  const obj = { id: '', ptrN: 0, ptrFlag: false, ptrText: '', inner: {} };
  dropEmpty(Shape, obj);
  assert.deepEqual(obj, { id: '', ptrN: 0, ptrFlag: false, ptrText: '', inner: {} }, 'a required field is never dropped');
});

test("'always' fields that are absent get their zero value at write; lists and maps stay absent", () => {
  const obj: Record<string, unknown> = { id: 'a', requiredButOmitted: 'y' };
  shapeForWrite(Shape, obj);
  assert.deepEqual(obj, { id: 'a', requiredButOmitted: 'y', ...fills });
  assert.equal('alwaysList' in obj, false);
  assert.equal('alwaysMap' in obj, false);
  assert.equal('inner' in obj, false, 'a pointer struct is not filled in');
});

test("present 'always' values are kept as they are, empty ones included", () => {
  const obj = { id: 'a', requiredButOmitted: 'y', alwaysN: 0, alwaysText: '', alwaysList: [], alwaysMap: {}, alwaysTime: '2024-01-01T00:00:00Z' };
  shapeForWrite(Shape, obj);
  assert.deepEqual(obj.alwaysList, []);
  assert.deepEqual(obj.alwaysMap, {});
  assert.equal(obj.alwaysTime, '2024-01-01T00:00:00Z');
});

test('decode never fills in; write also drops empty values (server-side writes and schema defaults)', () => {
  const decoded: Record<string, unknown> = { id: 'a', n: 0 };
  dropEmpty(Shape, decoded);
  assert.deepEqual(decoded, { id: 'a' });
  const written: Record<string, unknown> = { id: 'a', n: 0, tags: [] };
  shapeForWrite(Shape, written);
  assert.equal('n' in written, false);
  assert.equal('tags' in written, false);
});

test('structs are shaped at any depth: nested structs, lists of structs, maps of structs', () => {
  const obj = {
    id: 'a',
    requiredButOmitted: 'y',
    inner: { name: 'i', count: 0 },
    alwaysInner: { name: 'j' },
    items: [{ name: 'x', count: 0 }, { name: 'y', count: 2 }],
    byName: { a: { name: 'a', count: 0 }, b: { name: '' } },
  };
  shapeForWrite(Shape, obj);
  assert.deepEqual(obj.inner, { name: 'i', at: null });
  assert.deepEqual(obj.alwaysInner, { name: 'j', at: null });
  assert.deepEqual(obj.items, [{ name: 'x', at: null }, { name: 'y', count: 2, at: null }]);
  assert.deepEqual(obj.byName, { a: { name: 'a', at: null }, b: { name: '', at: null } });
});

test('free-form values are left as they are', () => {
  const obj = { id: 'a', requiredButOmitted: 'y', free: { n: 0, s: '', l: [] } };
  shapeForWrite(Shape, obj);
  assert.deepEqual(obj.free, { n: 0, s: '', l: [] });
});

test('shaping is idempotent: a second write changes nothing', () => {
  const obj = { id: 'a', requiredButOmitted: 'y', items: [{ name: 'x' }], n: 0 };
  shapeForWrite(Shape, obj);
  const once = structuredClone(obj);
  shapeForWrite(Shape, obj);
  assert.deepEqual(obj, once);
  assert.equal(JSON.stringify(obj), JSON.stringify(once), 'same bytes, same key order');
});

test('sameOnWire: fill-ins and dropped empties are no difference, real changes are', () => {
  const stored = { id: 'a', requiredButOmitted: 'y', ...fills };
  assert.ok(sameOnWire(Shape, { id: 'a', requiredButOmitted: 'y', n: 0 }, stored));
  assert.ok(!sameOnWire(Shape, { id: 'a', requiredButOmitted: 'y', alwaysN: 1 }, stored));
  assert.ok(!sameOnWire(Shape, { id: 'a', requiredButOmitted: 'y', ptrN: 0 }, stored), 'a pointer set to 0 differs from unset');
  assert.ok(sameOnWire(Inner, undefined, { name: '', at: null }), 'an absent struct is its zero value');
  assert.deepEqual(shapedCopy(Inner, undefined), { name: '', at: null });
  const sent = { id: 'a', requiredButOmitted: 'y' };
  shapedCopy(Shape, sent);
  assert.deepEqual(sent, { id: 'a', requiredButOmitted: 'y' }, 'the compared values are not changed');
});

test('shapedView gives what shapedCopy gives, byte for byte, sharing what is already written and changing nothing', () => {
  const samples: Record<string, unknown>[] = [
    { id: 'a', requiredButOmitted: 'y', n: 0, text: '', tags: [], labels: {}, flag: false },
    {
      id: 'a', requiredButOmitted: 'y', inner: { name: 'i', count: 0 }, alwaysInner: { name: 'j' },
      items: [{ name: 'x', count: 0 }, { name: 'y', count: 2 }], byName: { a: { name: 'a', count: 0 }, b: { name: '' } },
      free: { n: 0, s: '', l: [] },
    },
    { id: 'a', requiredButOmitted: 'y', ...fills },
  ];
  for (const sample of samples) {
    const before = structuredClone(sample);
    const view = shapedView(Shape, sample);
    assert.equal(JSON.stringify(view), JSON.stringify(shapedCopy(Shape, sample)), 'same bytes, same key order');
    assert.deepEqual(sample, before, 'the input is not changed');
  }
  const written = structuredClone(samples[1]!);
  shapeForWrite(Shape, written);
  assert.equal(shapedView(Shape, written), written, 'an object in written form is the view itself');
  const partly = { ...written, n: 0 };
  const view = shapedView(Shape, partly) as Record<string, unknown>;
  assert.notEqual(view, partly);
  assert.equal(view.items, written.items, 'parts already written are shared');
  assert.deepEqual(shapedView(Inner, undefined), { name: '', at: null });
});

test('a new StatefulSet is written with upstream zero values: status counts, template creationTimestamp null', () => {
  const sts: Record<string, any> = {
    metadata: { name: 'web', creationTimestamp: '2024-01-01T00:00:00Z' },
    spec: {
      replicas: 0, minReadySeconds: 0, serviceName: 'web', selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    },
  };
  dropEmpty(StatefulSet, sts);
  assert.equal(sts.spec.replicas, 0, 'replicas is a pointer: 0 is kept');
  assert.equal('minReadySeconds' in sts.spec, false, 'minReadySeconds is omitempty');
  shapeForWrite(StatefulSet, sts);
  assert.deepEqual(sts.status, { replicas: 0, availableReplicas: 0 });
  assert.deepEqual(sts.spec.updateStrategy, {});
  assert.equal(sts.spec.template.metadata.creationTimestamp, null);
  assert.equal(sts.metadata.creationTimestamp, '2024-01-01T00:00:00Z');
});

test('a ServiceAccount subject loses its empty apiGroup; a CSIDriver keeps attachRequired: false', () => {
  const crb: Record<string, any> = {
    metadata: { name: 'b' },
    roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: 'view' },
    subjects: [{ kind: 'ServiceAccount', apiGroup: '', name: 'sa', namespace: 'default' }],
  };
  dropEmpty(ClusterRoleBinding, crb);
  assert.deepEqual(crb.subjects, [{ kind: 'ServiceAccount', name: 'sa', namespace: 'default' }]);
  const driver: Record<string, any> = { metadata: { name: 'd' }, spec: { attachRequired: false, podInfoOnMount: false, volumeLifecycleModes: [] } };
  shapeForWrite(CSIDriver, driver);
  assert.deepEqual(driver.spec, { attachRequired: false, podInfoOnMount: false });
});
