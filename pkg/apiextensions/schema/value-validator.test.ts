// Upstream's TestValidateCustomResource cases (apiextensions-apiserver pkg/apiserver/validation):
// the same schemas, objects and expected error strings, compared as sets as upstream compares them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { errorMessage } from '../../runtime/field-errors.js';
import type { JSONSchemaProps } from './json-schema-props.js';
import { toFieldErrors } from './openapi-errors.js';
import { valueSchemaOf } from './value-schema.js';
import { validateValue } from './value-validator.js';

function errors(schema: JSONSchemaProps, obj: unknown): string[] {
  return toFieldErrors(validateValue(valueSchemaOf(schema), obj).errors).map(errorMessage);
}

interface Case {
  name: string;
  schema: JSONSchemaProps;
  objects?: unknown[];
  failing?: { object: unknown; errs: string[] }[];
}

const obj = (props: Record<string, JSONSchemaProps>, extra: JSONSchemaProps = {}): JSONSchemaProps => ({ type: 'object', properties: props, ...extra });
const typeErr = (field: string, want: string, got: string) => `${field}: Invalid value: "${got}": ${field} in body must be of type ${want}: "${got}"`;

const cases: Case[] = [
  {
    name: '!nullable',
    schema: obj({ field: { type: 'object', nullable: false } }),
    objects: [{}, { field: {} }],
    failing: [
      { object: { field: 'foo' }, errs: [typeErr('field', 'object', 'string')] },
      { object: { field: 42 }, errs: [typeErr('field', 'object', 'integer')] },
      { object: { field: true }, errs: [typeErr('field', 'object', 'boolean')] },
      { object: { field: 1.2 }, errs: [typeErr('field', 'object', 'number')] },
      { object: { field: [] }, errs: [typeErr('field', 'object', 'array')] },
      { object: { field: null }, errs: [typeErr('field', 'object', 'null')] },
    ],
  },
  {
    name: 'nullable',
    schema: obj({ field: { type: 'object', nullable: true } }),
    objects: [{}, { field: {} }, { field: null }],
    failing: [
      { object: { field: 'foo' }, errs: [typeErr('field', 'object', 'string')] },
      { object: { field: 42 }, errs: [typeErr('field', 'object', 'integer')] },
      { object: { field: true }, errs: [typeErr('field', 'object', 'boolean')] },
      { object: { field: 1.2 }, errs: [typeErr('field', 'object', 'number')] },
      { object: { field: [] }, errs: [typeErr('field', 'object', 'array')] },
    ],
  },
  {
    name: 'nullable and no type',
    schema: obj({ field: { nullable: true } }),
    objects: [{}, { field: {} }, { field: null }, { field: 'foo' }, { field: 42 }, { field: true }, { field: 1.2 }, { field: [] }],
  },
  {
    name: 'x-kubernetes-int-or-string',
    schema: obj({ field: { 'x-kubernetes-int-or-string': true } }),
    objects: [{}, { field: 42 }, { field: 'foo' }],
    failing: [
      { object: { field: null }, errs: [typeErr('field', 'integer,string', 'null')] },
      { object: { field: true }, errs: [typeErr('field', 'integer,string', 'boolean')] },
      { object: { field: 1.2 }, errs: [typeErr('field', 'integer,string', 'number')] },
      { object: { field: {} }, errs: [typeErr('field', 'integer,string', 'object')] },
      { object: { field: [] }, errs: [typeErr('field', 'integer,string', 'array')] },
    ],
  },
  {
    name: 'nullable and x-kubernetes-int-or-string',
    schema: obj({ field: { nullable: true, 'x-kubernetes-int-or-string': true } }),
    objects: [{}, { field: 42 }, { field: 'foo' }, { field: null }],
    failing: [
      { object: { field: true }, errs: [typeErr('field', 'integer,string', 'boolean')] },
      { object: { field: 1.2 }, errs: [typeErr('field', 'integer,string', 'number')] },
      { object: { field: {} }, errs: [typeErr('field', 'integer,string', 'object')] },
      { object: { field: [] }, errs: [typeErr('field', 'integer,string', 'array')] },
    ],
  },
  {
    name: 'nullable, x-kubernetes-int-or-string and user-provided anyOf',
    schema: obj({ field: { nullable: true, 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] } }),
    objects: [{}, { field: null }, { field: 42 }, { field: 'foo' }],
    failing: (['boolean', 'number', 'object', 'array'] as const).map((t) => ({
      object: { field: t === 'boolean' ? true : t === 'number' ? 1.2 : t === 'object' ? {} : [] },
      errs: ['<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)', typeErr('field', 'integer,string', t), typeErr('field', 'integer', t)],
    })),
  },
  {
    name: 'nullable, x-kubernetes-int-or-string and user-provider allOf',
    schema: obj({ field: { nullable: true, 'x-kubernetes-int-or-string': true, allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }] } }),
    objects: [{}, { field: null }, { field: 42 }, { field: 'foo' }],
    failing: (['boolean', 'number', 'object', 'array'] as const).map((t) => ({
      object: { field: t === 'boolean' ? true : t === 'number' ? 1.2 : t === 'object' ? {} : [] },
      errs: [
        '<nil>: Invalid value: "": "field" must validate all the schemas (allOf). None validated',
        '<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)',
        typeErr('field', 'integer,string', t), typeErr('field', 'integer', t),
      ],
    })),
  },
  {
    name: 'invalid regex',
    schema: obj({ field: { type: 'string', pattern: '+' } }),
    failing: [{ object: { field: 'foo' }, errs: ["field: Invalid value: \"foo\": field in body should match '+, but pattern is invalid: error parsing regexp: missing argument to repetition operator: `+`'"] }],
  },
  {
    name: 'required field',
    schema: obj({ field: obj({ nested: {} }, { required: ['nested'] }) }, { required: ['field'] }),
    failing: [
      { object: { test: 'a' }, errs: ['field: Required value'] },
      { object: { field: {} }, errs: ['field.nested: Required value'] },
    ],
  },
  {
    name: 'enum',
    schema: obj({ field: obj({ nestedint: { type: 'integer', enum: [1, 2] }, nestedstring: { type: 'string', enum: ['a', 'b'] } }, { required: ['nestedint', 'nestedstring'] }) }),
    failing: [
      { object: { field: {} }, errs: ['field.nestedint: Required value', 'field.nestedstring: Required value'] },
      {
        object: { field: { nestedint: 'x', nestedstring: true } },
        errs: [
          'field.nestedint: Invalid value: "string": field.nestedint in body must be of type integer: "string"',
          'field.nestedint: Unsupported value: "x": supported values: "1", "2"',
          'field.nestedstring: Invalid value: "boolean": field.nestedstring in body must be of type string: "boolean"',
          'field.nestedstring: Unsupported value: true: supported values: "a", "b"',
        ],
      },
    ],
  },
  {
    name: 'maxProperties',
    schema: obj({ fieldX: { type: 'object', maxProperties: 2 } }),
    failing: [{ object: { fieldX: { a: true, b: true, c: true } }, errs: ['fieldX: Too many: 3: must have at most 2 items'] }],
  },
  {
    name: 'maxItems',
    schema: obj({ fieldX: { type: 'array', maxItems: 2 } }),
    failing: [{ object: { fieldX: ['a', 'b', 'c'] }, errs: ['fieldX: Too many: 3: must have at most 2 items'] }],
  },
  {
    name: 'maxLength',
    schema: obj({ fieldX: { type: 'string', maxLength: 2 } }),
    failing: [{ object: { fieldX: 'abc' }, errs: ['fieldX: Too long: may not be longer than 2'] }],
  },
  {
    name: 'items in object and in array (TestItemsProperty)',
    schema: { properties: { spec: { properties: { replicas: { type: 'integer' } } }, secrets: { type: 'array', items: { type: 'string' } } } },
    objects: [{ spec: { replicas: 1, items: ['1', '2'] } }, { secrets: ['1', '2'] }],
  },
];

for (const c of cases) {
  test(`TestValidateCustomResource: ${c.name}`, () => {
    for (const o of c.objects ?? []) assert.deepEqual(errors(c.schema, o), [], JSON.stringify(o));
    for (const f of c.failing ?? []) assert.deepEqual(new Set(errors(c.schema, f.object)), new Set(f.errs), JSON.stringify(f.object));
  });
}
