// Upstream's TestPrune cases (pkg/apiserver/schema/pruning): the same objects, schemas (written as
// the CRD schemas they come from), pruned objects and pruned paths.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JSONSchemaProps } from './json-schema-props.js';
import { prune } from './pruning.js';
import { newStructural } from './structural.js';

interface Case {
  name: string;
  json: unknown;
  schema?: JSONSchemaProps;
  isResourceRoot?: boolean;
  expected: unknown;
  pruned?: string[];
}

const obj = (type: string | undefined, props: Record<string, JSONSchemaProps> = {}, extra: JSONSchemaProps = {}): JSONSchemaProps =>
  ({ ...(type ? { type } : {}), ...(Object.keys(props).length > 0 ? { properties: props } : {}), ...extra });
const embedded = (props: Record<string, JSONSchemaProps>, extra: JSONSchemaProps = {}) => obj('object', props, { 'x-kubernetes-embedded-resource': true, ...extra });

const resource = (meta: Record<string, unknown>) => ({
  apiVersion: 'foo/v1', kind: 'Foo', unspecified: 'bar', metadata: { ...meta, unspecified: 'bar' }, spec: { unspecified: 'bar' },
});

function embeddedCase(root: boolean): Case {
  const meta = root ? { name: 'instance', namespace: 'myns', labels: { foo: 'bar' } } : { name: 'instance' };
  const input = {
    apiVersion: 'foo/v1', kind: 'Foo', metadata: { ...meta, unspecified: 'bar' }, unspecified: 'bar',
    pruned: resource(meta),
    preserving: resource(meta),
    nested: { ...resource(meta), spec: { unspecified: 'bar', embedded: resource(meta) } },
  };
  const keptMeta = { ...meta, unspecified: 'bar' };
  const expected = {
    ...(root ? { apiVersion: 'foo/v1', kind: 'Foo', metadata: keptMeta } : {}),
    pruned: { apiVersion: 'foo/v1', kind: 'Foo', metadata: keptMeta, spec: {} },
    preserving: resource(meta),
    nested: { apiVersion: 'foo/v1', kind: 'Foo', metadata: keptMeta, spec: { embedded: { apiVersion: 'foo/v1', kind: 'Foo', metadata: keptMeta, spec: {} } } },
  };
  const metaSchema: Record<string, JSONSchemaProps> = root ? { metadata: obj('object') } : {};
  return {
    name: root ? 'x-kubernetes-embedded-resource, with root=true' : 'x-kubernetes-embedded-resource',
    json: input,
    isResourceRoot: root,
    schema: obj('object', {
      ...metaSchema,
      pruned: embedded({ ...metaSchema, spec: obj('object') }),
      preserving: embedded({}, { 'x-kubernetes-preserve-unknown-fields': true }),
      nested: embedded({ spec: obj('object', { embedded: embedded({ ...metaSchema, spec: obj('object') }) }) }),
    }),
    expected,
    pruned: ['nested.spec.embedded.spec.unspecified', 'nested.spec.embedded.unspecified', 'nested.spec.unspecified', 'nested.unspecified', 'pruned.spec.unspecified', 'pruned.unspecified', 'unspecified'],
  };
}

const cases: Case[] = [
  { name: 'empty', json: null, expected: null },
  { name: 'scalar', json: 4, schema: {}, expected: 4 },
  { name: 'scalar array', json: [1, 2], schema: { items: {} }, expected: [1, 2] },
  {
    name: 'object array', json: [{ a: 1 }, { b: 1 }, { a: 1, b: 2, c: 3 }], schema: { items: obj(undefined, { a: {}, c: {} }) },
    expected: [{ a: 1 }, {}, { a: 1, c: 3 }], pruned: ['[1].b', '[2].b'],
  },
  {
    name: 'object array with nil schema', json: [{ a: 1 }, { b: 1 }, { a: 1, b: 2, c: 3 }], expected: [{}, {}, {}],
    pruned: ['[0].a', '[1].b', '[2].a', '[2].b', '[2].c'],
  },
  {
    name: 'object array object',
    json: { array: [{ a: 1 }, { b: 1 }, { a: 1, b: 2, c: 3 }], unspecified: { a: 1 }, specified: { a: 1, b: 2, c: 3 } },
    schema: obj(undefined, { array: { items: obj(undefined, { a: {}, c: {} }) }, specified: obj(undefined, { a: {}, c: {} }) }),
    expected: { array: [{ a: 1 }, {}, { a: 1, c: 3 }], specified: { a: 1, c: 3 } },
    pruned: ['array[1].b', 'array[2].b', 'specified.b', 'unspecified'],
  },
  {
    name: 'nested x-kubernetes-preserve-unknown-fields',
    json: {
      unspecified: 'bar', alpha: 'abc', beta: 42.0, unspecifiedObject: { unspecified: 'bar' },
      pruning: { unspecified: 'bar', unspecifiedObject: { unspecified: 'bar' }, pruning: { unspecified: 'bar' }, apiVersion: 'unknown', preserving: { unspecified: 'bar' } },
      preserving: {
        unspecified: 'bar', unspecifiedObject: { unspecified: 'bar' }, pruning: { unspecified: 'bar' }, preserving: { unspecified: 'bar' },
        preservingUnknownType: [{ foo: true }, { bar: true }],
      },
      preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields: { foo: { specified: { unspecified: 'bar' }, unspecified: 'bar' } },
      preservingAdditionalPropertiesKeyPruneValues: { foo: { specified: { unspecified: 'bar' }, unspecified: 'bar' } },
    },
    schema: obj('object', {
      alpha: { type: 'string' },
      beta: { type: 'number' },
      pruning: obj('object', { preserving: obj('object', {}, { 'x-kubernetes-preserve-unknown-fields': true }), pruning: obj('object') }),
      preserving: obj('object', {
        preserving: obj('object', {}, { 'x-kubernetes-preserve-unknown-fields': true }),
        preservingUnknownType: { 'x-kubernetes-preserve-unknown-fields': true },
        pruning: obj('object'),
      }, { 'x-kubernetes-preserve-unknown-fields': true }),
      preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields: obj('object', {}, {
        'x-kubernetes-preserve-unknown-fields': true,
        additionalProperties: obj('object', { specified: obj('object') }),
      }),
      preservingAdditionalPropertiesKeyPruneValues: obj('object', {}, { additionalProperties: obj('object', { specified: obj('object') }) }),
    }, { 'x-kubernetes-preserve-unknown-fields': true }),
    expected: {
      unspecified: 'bar', alpha: 'abc', beta: 42.0, unspecifiedObject: { unspecified: 'bar' },
      pruning: { pruning: {}, preserving: { unspecified: 'bar' } },
      preserving: { unspecified: 'bar', unspecifiedObject: { unspecified: 'bar' }, pruning: {}, preserving: { unspecified: 'bar' }, preservingUnknownType: [{ foo: true }, { bar: true }] },
      preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields: { foo: { specified: {} } },
      preservingAdditionalPropertiesKeyPruneValues: { foo: { specified: {} } },
    },
    pruned: [
      'preserving.pruning.unspecified', 'preservingAdditionalPropertiesKeyPruneValues.foo.specified.unspecified',
      'preservingAdditionalPropertiesKeyPruneValues.foo.unspecified', 'preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields.foo.specified.unspecified',
      'preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields.foo.unspecified', 'pruning.apiVersion', 'pruning.pruning.unspecified',
      'pruning.unspecified', 'pruning.unspecifiedObject',
    ],
  },
  {
    name: 'additionalProperties with schema', json: { a: 1, b: 1, c: { a: 1, b: 2, c: { a: 1 } } },
    schema: obj(undefined, { a: {}, c: { additionalProperties: { type: 'integer' } } }),
    expected: { a: 1, c: { a: 1, b: 2, c: {} } }, pruned: ['b', 'c.c.a'],
  },
  {
    name: 'additionalProperties with bool', json: { a: 1, b: 1, c: { a: 1, b: 2, c: { a: 1, apiVersion: 'unknown' } } },
    schema: obj(undefined, { a: {}, c: { additionalProperties: false } }),
    expected: { a: 1, c: { a: 1, b: 2, c: {} } }, pruned: ['b', 'c.c.a', 'c.c.apiVersion'],
  },
  embeddedCase(false),
  embeddedCase(true),
];

for (const c of cases) {
  test(`TestPrune: ${c.name}`, () => {
    const schema = c.schema === undefined ? undefined : newStructural(c.schema);
    const tracked = structuredClone(c.json);
    assert.deepEqual(prune(tracked, schema, c.isResourceRoot ?? false, true), c.pruned ?? []);
    assert.deepEqual(tracked, c.expected);
    const untracked = structuredClone(c.json);
    assert.deepEqual(prune(untracked, schema, c.isResourceRoot ?? false), [], 'nothing is recorded unless asked');
    assert.deepEqual(untracked, c.expected);
  });
}
