import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { field, int32, list, mapOf, object, opt, raw, str, stringMap } from '../../../api/schema.js';
import { intOrString, quantity, time } from '../../../api/meta/v1/primitives.js';
import { embedded } from '../../../api/embedded-fields.js';
import { DefinitionSet } from './definitions.js';
import type { Dialect, JsonObject } from './types.js';

const Inner = object('io.orch.test.v1.Inner', { a: opt(str(1)) }, { 'x-orch-map-type': 'atomic' });

const Outer = object('io.orch.test.v1.Outer', {
  inner: opt(field(1, Inner)),
  replaced: opt(field(2, Inner, { 'x-orch-patch-strategy': 'replace', default: {} })),
  items: opt(list(3, Inner, { listType: 'map', mapKeys: ['a'], patchStrategy: 'merge', patchMergeKey: 'a' })),
  labels: opt(stringMap(4, { 'x-orch-map-type': 'granular' })),
  limits: opt(mapOf(5, Type.Unsafe<string>(Type.String({ format: 'byte' })))),
  port: intOrString(6),
  size: opt(quantity(7)),
  at: opt(time(8)),
  blob: opt(raw(9)),
  count: opt(int32(10, { default: 3, minimum: 0 })),
  kind: opt(Type.Literal('Outer')),
  ...embedded(11, { handler: opt(str(1)) }),
});

function build(dialect: Dialect): { defs: DefinitionSet; outer: JsonObject } {
  const defs = new DefinitionSet(dialect);
  defs.add(Outer);
  return { defs, outer: defs.get('io.orch.test.v1.Outer')! };
}

const props = (s: JsonObject) => s.properties as Record<string, JsonObject>;

test('named shapes are hoisted into definitions and referenced in each dialect', () => {
  const v2 = build('v2');
  const v3 = build('v3');
  assert.deepEqual(props(v2.outer).inner, { $ref: '#/definitions/io.orch.test.v1.Inner' });
  assert.deepEqual(props(v3.outer).inner, { $ref: '#/components/schemas/io.orch.test.v1.Inner' });
  // The shape's own markers live on the definition, once.
  assert.deepEqual(v3.defs.get('io.orch.test.v1.Inner'), {
    type: 'object',
    properties: { a: { type: 'string' } },
    'x-orch-map-type': 'atomic',
    'x-kubernetes-map-type': 'atomic',
  });
});

test("a field's own keywords stay beside the $ref: as siblings in v2, around an allOf in v3", () => {
  assert.deepEqual(props(build('v2').outer).replaced, {
    $ref: '#/definitions/io.orch.test.v1.Inner',
    'x-orch-patch-strategy': 'replace',
    'x-kubernetes-patch-strategy': 'replace',
  });
  assert.deepEqual(props(build('v3').outer).replaced, {
    allOf: [{ $ref: '#/components/schemas/io.orch.test.v1.Inner' }],
    default: {},
    'x-orch-patch-strategy': 'replace',
    'x-kubernetes-patch-strategy': 'replace',
  });
});

test('list markers are published under our names and upstream names', () => {
  assert.deepEqual(props(build('v3').outer).items, {
    type: 'array',
    items: { $ref: '#/components/schemas/io.orch.test.v1.Inner' },
    'x-orch-list-type': 'map',
    'x-kubernetes-list-type': 'map',
    'x-orch-list-map-keys': ['a'],
    'x-kubernetes-list-map-keys': ['a'],
    'x-orch-patch-strategy': 'merge',
    'x-kubernetes-patch-strategy': 'merge',
    'x-orch-patch-merge-key': 'a',
    'x-kubernetes-patch-merge-key': 'a',
  });
});

test('maps become additionalProperties', () => {
  const p = props(build('v2').outer);
  assert.deepEqual(p.labels, {
    type: 'object', additionalProperties: { type: 'string' }, 'x-orch-map-type': 'granular', 'x-kubernetes-map-type': 'granular',
  });
  assert.deepEqual(p.limits, { type: 'object', additionalProperties: { type: 'string', format: 'byte' } });
});

test('IntOrString and Quantity: formatted strings in Swagger 2.0, oneOf their JSON types in OpenAPI 3.0 (as upstream)', () => {
  for (const dialect of ['v2', 'v3'] as const) {
    const { defs, outer } = build(dialect);
    const prefix = dialect === 'v2' ? '#/definitions/' : '#/components/schemas/';
    const p = props(outer);
    assert.deepEqual(p.port, { $ref: `${prefix}io.orch.apimachinery.pkg.util.intstr.IntOrString` });
    assert.deepEqual(p.size, { $ref: `${prefix}io.orch.apimachinery.pkg.api.resource.Quantity` });
    assert.deepEqual(p.at, { $ref: `${prefix}io.orch.apimachinery.pkg.apis.meta.v1.Time` });
    const { description: iosDescription, ...ios } = defs.get('io.orch.apimachinery.pkg.util.intstr.IntOrString')!;
    assert.match(String(iosDescription), /integer/);
    assert.deepEqual(ios, dialect === 'v2'
      ? { type: 'string', format: 'int-or-string' }
      : { format: 'int-or-string', oneOf: [{ type: 'integer' }, { type: 'string' }] });
    const { description: qDescription, ...q } = defs.get('io.orch.apimachinery.pkg.api.resource.Quantity')!;
    assert.match(String(qDescription), /Gi/);
    assert.deepEqual(q, dialect === 'v2' ? { type: 'string' } : { oneOf: [{ type: 'string' }, { type: 'number' }] });
    assert.equal(defs.get('io.orch.apimachinery.pkg.apis.meta.v1.Time')!.format, 'date-time');
  }
});

test('free-form values are objects that keep unknown fields', () => {
  assert.deepEqual(props(build('v3').outer).blob, {
    type: 'object', 'x-orch-preserve-unknown-fields': true, 'x-kubernetes-preserve-unknown-fields': true,
  });
});

test('defaults are published in v3 only; const becomes a one-value enum; validation keywords stay', () => {
  assert.deepEqual(props(build('v3').outer).count, { type: 'integer', format: 'int32', default: 3, minimum: 0, maximum: 2147483647 });
  assert.deepEqual(props(build('v2').outer).count, { type: 'integer', format: 'int32', minimum: 0, maximum: 2147483647 });
  assert.deepEqual(props(build('v2').outer).kind, { type: 'string', enum: ['Outer'] });
});

test('protobuf numbering and the naming marker are dropped everywhere', () => {
  for (const dialect of ['v2', 'v3'] as const) {
    const { defs } = build(dialect);
    const text = JSON.stringify(defs.names().map((n) => defs.get(n)));
    for (const key of ['x-proto', 'x-orch-proto-embedded', 'x-orch-type', 'patternProperties', '"const"']) {
      assert.equal(text.includes(key), false, `${dialect} still has ${key}`);
    }
  }
  assert.deepEqual(props(build('v2').outer).handler, { type: 'string' });
});

test('two different shapes under one name are refused', () => {
  const A = object('io.orch.test.v1.Same', { a: opt(str(1)) });
  const B = object('io.orch.test.v1.Same', { b: opt(str(1)) });
  const defs = new DefinitionSet('v3');
  defs.add(A);
  assert.throws(() => defs.add(B), /two different schemas are named io\.orch\.test\.v1\.Same/);
  // The same shape used again (a clone with its own field number) is fine.
  defs.add(object('io.orch.test.v1.Holder', { x: opt(field(7, A)) }));
});

test("a shape's description goes on its definition, a field's beside the $ref; the encoding marker is never published", () => {
  const Shape = object('io.orch.test.v1.Described', { n: opt(int32(1, { description: 'A count.', 'x-orch-emit': 'pointer' })) }, { description: 'The shape.' });
  const Holder = object('io.orch.test.v1.Holder', {
    plain: opt(field(1, Shape)),
    told: opt(field(2, Shape, { description: 'What this field holds.', 'x-orch-emit': 'always' })),
    at: opt(time(3, { description: 'When.' })),
  }, { description: 'Holds shapes.' });
  for (const dialect of ['v2', 'v3'] as const) {
    const defs = new DefinitionSet(dialect);
    defs.add(Holder);
    const prefix = dialect === 'v2' ? '#/definitions/' : '#/components/schemas/';
    const holder = defs.get('io.orch.test.v1.Holder')!;
    assert.equal(holder.description, 'Holds shapes.');
    const p = props(holder);
    assert.deepEqual(p.plain, { $ref: `${prefix}io.orch.test.v1.Described` }, dialect);
    assert.deepEqual(p.told, dialect === 'v2'
      ? { $ref: `${prefix}io.orch.test.v1.Described`, description: 'What this field holds.' }
      : { allOf: [{ $ref: `${prefix}io.orch.test.v1.Described` }], description: 'What this field holds.' });
    assert.equal(p.at!.description, 'When.');
    assert.deepEqual(defs.get('io.orch.test.v1.Described'), {
      type: 'object', description: 'The shape.', properties: { n: { type: 'integer', format: 'int32', minimum: -2147483648, maximum: 2147483647, description: 'A count.' } },
    });
    assert.doesNotMatch(JSON.stringify([...defs.names()].map((n) => defs.get(n))), /x-orch-emit|x-orch-type-description/);
  }
});

test("a use's own struct type stays beside the $ref, published as upstream's map type; the shape keeps its own", () => {
  // Upstream: ObjectReference is +structType=atomic, PersistentVolumeSpec.claimRef says +structType=granular.
  const Holder = object('io.orch.test.v1.StructHolder', {
    atomic: opt(field(1, Inner)),
    granular: opt(field(2, Inner, { 'x-orch-struct-type': 'granular' })),
  });
  for (const dialect of ['v2', 'v3'] as const) {
    const defs = new DefinitionSet(dialect);
    defs.add(Holder);
    const prefix = dialect === 'v2' ? '#/definitions/' : '#/components/schemas/';
    const p = props(defs.get('io.orch.test.v1.StructHolder')!);
    assert.deepEqual(p.atomic, { $ref: `${prefix}io.orch.test.v1.Inner` });
    const marker = { 'x-orch-struct-type': 'granular', 'x-kubernetes-map-type': 'granular' };
    assert.deepEqual(p.granular, dialect === 'v2'
      ? { $ref: `${prefix}io.orch.test.v1.Inner`, ...marker }
      : { allOf: [{ $ref: `${prefix}io.orch.test.v1.Inner` }], ...marker });
    assert.equal(defs.get('io.orch.test.v1.Inner')!['x-kubernetes-map-type'], 'atomic');
  }
});
