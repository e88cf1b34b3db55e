// Published cases of structured-merge-diff's merge tests (merge/*_test.go), ported to our schemas
// and engine: the same operations, the same expected objects, field sets and conflicts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { key, path as P, value as V } from './path.js';
import { listOf, num, runScenario, str, struct, bool, mapList } from './scenario.js';
import { typeOfSchema } from './type.js';

// merge/set_test.go: a list of strings with associative (set) semantics.
const sets = typeOfSchema(struct({ list: listOf(str, { 'x-orch-list-type': 'set' }) }));

test('set: apply twice', () => runScenario(sets, {
  ops: [
    { manager: 'default', apply: 'list: [a, c]' },
    { manager: 'default', apply: 'list: [a, b, c, d]' },
  ],
  object: 'list: [a, b, c, d]',
  managed: { default: [P('list', V('a')), P('list', V('b')), P('list', V('c')), P('list', V('d'))] },
}));

for (const version of ['v1', 'v2']) {
  test(`set: apply, update, apply without overlap (controller at ${version})`, () => runScenario(sets, {
    ops: [
      { manager: 'default', apply: 'list: [a, c]' },
      { manager: 'controller', apiVersion: version, update: 'list: [a, b, c, d]' },
      { manager: 'default', apply: 'list: [a, aprime, c, cprime]' },
    ],
    object: 'list: [a, b, aprime, c, d, cprime]',
    managed: {
      default: [P('list', V('a')), P('list', V('aprime')), P('list', V('c')), P('list', V('cprime'))],
      controller: [P('list', V('b')), P('list', V('d'))],
    },
    versions: { controller: version },
  }));

  test(`set: apply, update, apply with overlap (controller at ${version})`, () => runScenario(sets, {
    ops: [
      { manager: 'default', apply: 'list: [a, c]' },
      { manager: 'controller', apiVersion: version, update: 'list: [a, b, c, d]' },
      { manager: 'default', apply: 'list: [a, b, c]' },
    ],
    object: 'list: [a, b, c, d]',
    managed: {
      default: [P('list', V('a')), P('list', V('b')), P('list', V('c'))],
      controller: [P('list', V('b')), P('list', V('d'))],
    },
  }));
}

test('set: apply twice reordered', () => runScenario(sets, {
  ops: [
    { manager: 'default', apply: 'list: [a, b, c, d]' },
    { manager: 'default', apply: 'list: [a, d, c, b]' },
  ],
  object: 'list: [a, d, c, b]',
  managed: { default: [P('list', V('a')), P('list', V('b')), P('list', V('c')), P('list', V('d'))] },
}));

test('set: a reordering update owns nothing and the next apply restores its order', () => runScenario(sets, {
  ops: [
    { manager: 'default', apply: 'list: [a, b, c, d]' },
    { manager: 'controller', update: 'list: [a, d, c, b]' },
    { manager: 'default', apiVersion: 'v2', apply: 'list: [a, b, c, d]' },
  ],
  object: 'list: [a, b, c, d]',
  managed: { default: [P('list', V('a')), P('list', V('b')), P('list', V('c')), P('list', V('d'))] },
}));

test('set: items no longer applied are removed', () => runScenario(sets, {
  ops: [
    { manager: 'default', apply: 'list: [a, b, c, d]' },
    { manager: 'default', apiVersion: 'v2', apply: 'list: [a, c, e]' },
  ],
  object: 'list: [a, c, e]',
  managed: { default: [P('list', V('a')), P('list', V('c')), P('list', V('e'))] },
}));

// merge/key_test.go
const assoc = typeOfSchema(struct({ list: mapList(struct({ name: str, value: num }), 'name') }));

test('map list: structs no longer applied are removed', () => runScenario(assoc, {
  ops: [
    { manager: 'default', apply: 'list: [{name: a, value: 1}]' },
    { manager: 'default', apply: 'list: [{name: b, value: 2}]' },
  ],
  object: 'list: [{name: b, value: 2}]',
  managed: { default: [P('list', key({ name: 'b' })), P('list', key({ name: 'b' }), 'name'), P('list', key({ name: 'b' }), 'value')] },
}));

// merge/leaf_test.go
const leaves = typeOfSchema(struct({ numeric: num, string: str, bool }));

for (const version of ['v1', 'v2']) {
  test(`leaf: apply twice (second at ${version})`, () => runScenario(leaves, {
    ops: [
      { manager: 'default', apply: 'numeric: 1\nstring: string' },
      { manager: 'default', apiVersion: version, apply: 'numeric: 2\nstring: string\nbool: false' },
    ],
    object: 'numeric: 2\nstring: string\nbool: false',
    managed: { default: [P('numeric'), P('string'), P('bool')] },
  }));

  test(`leaf: apply, update, apply without conflict (controller at ${version})`, () => runScenario(leaves, {
    ops: [
      { manager: 'default', apply: 'numeric: 1\nstring: string' },
      { manager: 'controller', apiVersion: version, update: 'numeric: 1\nstring: string\nbool: true' },
      { manager: 'default', apply: 'numeric: 2\nstring: string' },
    ],
    object: 'numeric: 2\nstring: string\nbool: true',
    managed: { default: [P('numeric'), P('string')], controller: [P('bool')] },
  }));

  test(`leaf: apply, update, apply with a conflict, then forced (controller at ${version})`, () => runScenario(leaves, {
    ops: [
      { manager: 'default', apply: 'numeric: 1\nstring: string' },
      { manager: 'controller', apiVersion: version, update: 'numeric: 1\nstring: controller string\nbool: true' },
      { manager: 'default', apply: 'numeric: 2\nstring: user string', conflicts: [['controller', P('string')]] },
      { manager: 'default', forceApply: 'numeric: 2\nstring: user string' },
    ],
    object: 'numeric: 2\nstring: user string\nbool: true',
    managed: { default: [P('numeric'), P('string')], controller: [P('bool')] },
  }));

  test(`leaf: fields no longer applied are removed (second at ${version})`, () => runScenario(leaves, {
    ops: [
      { manager: 'default', apply: 'numeric: 1\nstring: string\nbool: false' },
      { manager: 'default', apiVersion: version, apply: 'string: new string' },
    ],
    object: 'string: new string',
    managed: { default: [P('string')] },
  }));
}

test('leaf: a field another manager updated survives an empty apply', () => runScenario(leaves, {
  ops: [
    { manager: 'default', apply: 'numeric: 2' },
    { manager: 'controller', update: 'numeric: 1' },
    { manager: 'default', apply: '' },
  ],
  object: 'numeric: 1',
  managed: { controller: [P('numeric')] },
}));

test('leaf: an update that takes every field leaves the applier with nothing', () => runScenario(leaves, {
  ops: [
    { manager: 'default', apply: 'string: string' },
    { manager: 'controller', update: 'string: new string' },
  ],
  object: 'string: new string',
  managed: { controller: [P('string')] },
}));

test('leaf: an empty apply removes the applier', () => runScenario(leaves, {
  ops: [
    { manager: 'default', apply: 'string: string' },
    { manager: 'default', apply: '' },
  ],
  managed: {},
}));

// merge/nested_test.go: lists and maps of lists and maps.
const setOfStrings = listOf(str, { 'x-orch-list-type': 'set' });
const stringMap = { type: 'object', additionalProperties: str };
const recursive: Record<string, unknown> = { type: 'object' };
recursive.additionalProperties = recursive;
const nested = typeOfSchema(struct({
  listOfLists: mapList(struct({ name: str, value: setOfStrings }), 'name'),
  listOfMaps: mapList(struct({ name: str, value: stringMap }), 'name'),
  mapOfLists: { type: 'object', additionalProperties: setOfStrings },
  mapOfMaps: { type: 'object', additionalProperties: stringMap },
  mapOfMapsRecursive: recursive,
  struct: struct({ name: str, value: num }),
}));

for (const [what, second, k] of [['value', 'a', 'a'], ['key and value', 'b', 'b']] as const) {
  test(`nested: list of lists, change ${what}`, () => runScenario(nested, {
    ops: [
      { manager: 'default', apply: 'listOfLists: [{name: a, value: [b, c]}]' },
      { manager: 'default', apply: `listOfLists: [{name: ${second}, value: [a, c]}]` },
    ],
    object: `listOfLists: [{name: ${second}, value: [a, c]}]`,
    managed: { default: [
      P('listOfLists', key({ name: k })), P('listOfLists', key({ name: k }), 'name'),
      P('listOfLists', key({ name: k }), 'value', V('a')), P('listOfLists', key({ name: k }), 'value', V('c')),
    ] },
  }));

  test(`nested: list of maps, change ${what}`, () => runScenario(nested, {
    ops: [
      { manager: 'default', apply: 'listOfMaps: [{name: a, value: {b: x, c: y}}]' },
      { manager: 'default', apply: `listOfMaps: [{name: ${second}, value: {a: x, c: z}}]` },
    ],
    object: `listOfMaps: [{name: ${second}, value: {a: x, c: z}}]`,
    managed: { default: [
      P('listOfMaps', key({ name: k })), P('listOfMaps', key({ name: k }), 'name'),
      P('listOfMaps', key({ name: k }), 'value', 'a'), P('listOfMaps', key({ name: k }), 'value', 'c'),
    ] },
  }));

  const mk = what === 'value' ? 'a' : 'b';
  test(`nested: map of lists, change ${what}`, () => runScenario(nested, {
    ops: [
      { manager: 'default', apply: 'mapOfLists: {a: [b, c]}' },
      { manager: 'default', apply: `mapOfLists: {${mk}: [a, c]}` },
    ],
    object: `mapOfLists: {${mk}: [a, c]}`,
    managed: { default: [P('mapOfLists', mk), P('mapOfLists', mk, V('a')), P('mapOfLists', mk, V('c'))] },
  }));

  test(`nested: map of maps, change ${what}`, () => runScenario(nested, {
    ops: [
      { manager: 'default', apply: 'mapOfMaps: {a: {b: x, c: y}}' },
      { manager: 'default', apply: `mapOfMaps: {${mk}: {a: x, c: z}}` },
    ],
    object: `mapOfMaps: {${mk}: {a: x, c: z}}`,
    managed: { default: [P('mapOfMaps', mk), P('mapOfMaps', mk, 'a'), P('mapOfMaps', mk, 'c')] },
  }));
}

test('nested: recursive maps, change the middle key', () => runScenario(nested, {
  ops: [
    { manager: 'default', apply: 'mapOfMapsRecursive: {a: {b: {c: null}}}' },
    { manager: 'default', apply: 'mapOfMapsRecursive: {a: {d: {c: null}}}' },
  ],
  object: 'mapOfMapsRecursive: {a: {d: {c: null}}}',
  managed: { default: [P('mapOfMapsRecursive', 'a'), P('mapOfMapsRecursive', 'a', 'd'), P('mapOfMapsRecursive', 'a', 'd', 'c')] },
}));

test('nested: applying nothing removes the whole struct', () => runScenario(nested, {
  ops: [
    { manager: 'default', apply: 'struct: {name: a, value: 1}' },
    { manager: 'default', apply: '' },
  ],
  managed: {},
}));

test('nested: a null struct is owned as a leaf', () => runScenario(nested, {
  ops: [
    { manager: 'default', apply: 'struct: {name: a}' },
    { manager: 'default', apply: 'struct: null' },
  ],
  object: 'struct: null',
  managed: { default: [P('struct')] },
}));

for (const [name, last] of [['nothing', ''], ['an empty struct', 'struct: {}'], ['a null struct', 'struct: null']]) {
  test(`nested: applying ${name} keeps what an updater owns in the struct`, () => runScenario(nested, {
    ops: [
      { manager: 'default', apply: 'struct: {name: a}' },
      { manager: 'controller', update: 'struct: {name: a, value: 1}' },
      { manager: 'default', apply: last! },
    ],
    object: 'struct: {value: 1}',
  }));
}

test('nested: a field an updater took over is not removed', () => runScenario(nested, {
  ops: [
    { manager: 'default', apply: 'struct: {name: a}' },
    { manager: 'controller', update: 'struct: {name: b, value: 1}' },
    { manager: 'default', apply: 'struct: null' },
  ],
  object: 'struct: {name: b, value: 1}',
}));

// merge/schema_change_test.go: topology changes (spec 4.9.8).
const granularStruct = typeOfSchema(struct({ struct: struct({ numeric: num, string: str }) }));
const atomicStruct = typeOfSchema(struct({ struct: struct({ numeric: num, string: str }, { 'x-orch-struct-type': 'atomic' }) }));

test('schema change to atomic: an owner of a field owns the whole struct and conflicts', () => runScenario(granularStruct, {
  ops: [
    { manager: 'one', apply: 'struct: {numeric: 1}' },
    { changeType: atomicStruct },
    { manager: 'two', apply: 'struct: {string: string}', conflicts: [['one', P('struct')]] },
    { manager: 'two', forceApply: 'struct: {string: string}' },
  ],
  object: 'struct: {string: string}',
  managed: { two: [P('struct')] },
}));

test('schema change to atomic: a manager left with no child fields owns nothing', () => runScenario(granularStruct, {
  ops: [
    { manager: 'one', apply: 'struct: {numeric: 1}' },
    { manager: 'two', forceApply: 'struct: {numeric: 2}' },
    { changeType: atomicStruct },
    { manager: 'three', apply: 'struct: {string: string}', conflicts: [['two', P('struct')]] },
    { manager: 'two', forceApply: 'struct: {string: string}' },
  ],
  object: 'struct: {string: string}',
  managed: { two: [P('struct')] },
}));

test('schema change to granular: the whole-struct owner keeps the struct, no conflicts after', () => runScenario(atomicStruct, {
  ops: [
    { manager: 'one', apply: 'struct: {numeric: 1, string: a}' },
    { manager: 'two', apply: 'struct: {string: b}', conflicts: [['one', P('struct')]] },
    { changeType: granularStruct },
    { manager: 'two', apply: 'struct: {string: b}' },
  ],
  object: 'struct: {numeric: 1, string: b}',
  managed: { one: [P('struct')], two: [P('struct', 'string')] },
}));

const keyedByName = typeOfSchema(struct({ list: mapList(struct({ name: str, id: num, value: num }), 'name') }));
const keyedByNameAndId = typeOfSchema(struct({ list: mapList(struct({ name: str, id: num, value: num }), 'name', 'id') }));
const keyedWithDefault = typeOfSchema(struct({ list: mapList(struct({ name: str, id: { type: 'number', default: 1 }, value: num }), 'name', 'id') }));
const item = (name: string, id?: number) => (id === undefined ? key({ name }) : key({ name, id }));
const ownsItem = (pe: ReturnType<typeof key>, withId: boolean) =>
  [P('list', pe), P('list', pe, 'name'), ...(withId ? [P('list', pe, 'id')] : []), P('list', pe, 'value')];

test('schema change: a new key field with a default keys old items by the default', () => runScenario(keyedByName, {
  ops: [
    { manager: 'one', apply: 'list: [{name: a, value: 1}, {name: b, value: 1}, {name: c, value: 1}]' },
    { changeType: keyedWithDefault },
    { manager: 'one', apply: 'list: [{name: a, value: 2}, {name: b, id: 1, value: 2}, {name: c, value: 1}, {name: c, id: 2, value: 2}, {name: c, id: 3, value: 3}]' },
  ],
  object: 'list: [{name: a, value: 2}, {name: b, id: 1, value: 2}, {name: c, value: 1}, {name: c, id: 2, value: 2}, {name: c, id: 3, value: 3}]',
  managed: { one: [
    ...ownsItem(item('a', 1), false), ...ownsItem(item('b', 1), true), ...ownsItem(item('c', 1), false),
    ...ownsItem(item('c', 2), true), ...ownsItem(item('c', 3), true),
  ] },
}));

test('schema change: a new optional key field makes items without it distinct', () => runScenario(keyedByName, {
  ops: [
    { manager: 'one', apply: 'list: [{name: a, value: 1}]' },
    { changeType: keyedByNameAndId },
    { manager: 'one', apply: 'list: [{name: a, value: 2}, {name: a, id: 1, value: 1}]' },
  ],
  object: 'list: [{name: a, value: 2}, {name: a, id: 1, value: 1}]',
  managed: { one: [...ownsItem(item('a'), false), ...ownsItem(item('a', 1), true)] },
}));

for (const [name, second, expected] of [
  ['identical item merges', '[{name: a, id: 1, value: 2}]', [...ownsItem(item('a', 1), true)]],
  ['distinct item added', '[{name: a, id: 1, value: 1}, {name: a, id: 2, value: 2}]', [...ownsItem(item('a', 1), true), ...ownsItem(item('a', 2), true)]],
] as const) {
  test(`schema change: field promoted to a key, ${name}`, () => runScenario(keyedByName, {
    ops: [
      { manager: 'one', apply: 'list: [{name: a, id: 1, value: 1}]' },
      { changeType: keyedByNameAndId },
      { manager: 'one', apply: `list: ${second}` },
    ],
    object: `list: ${second}`,
    managed: { one: [...expected] },
  }));
}

test('schema change: field promoted to a key, an item missing it is distinct', () => runScenario(keyedByName, {
  ops: [
    { manager: 'one', apply: 'list: [{name: a, value: 1}]' },
    { changeType: keyedByNameAndId },
    { manager: 'one', apply: 'list: [{name: a, value: 1}, {name: a, id: 2, value: 2}]' },
  ],
  object: 'list: [{name: a, value: 1}, {name: a, id: 2, value: 2}]',
  managed: { one: [...ownsItem(item('a'), false), ...ownsItem(item('a', 2), true)] },
}));

// merge/multiple_appliers_test.go (one version: conversion between versions is not ours to test).
const named = (n: string, ...rest: string[]) => P('list', key({ name: n }), ...rest);

test('multiple appliers: removing one item keeps the other applier\'s', () => runScenario(assoc, {
  ops: [
    { manager: 'apply-one', apply: 'list: [{name: a}, {name: b}]' },
    { manager: 'apply-two', apiVersion: 'v2', apply: 'list: [{name: c}]' },
    { manager: 'apply-one', apiVersion: 'v3', apply: 'list: [{name: a}]' },
  ],
  object: 'list: [{name: a}, {name: c}]',
  managed: { 'apply-one': [named('a'), named('a', 'name')], 'apply-two': [named('c'), named('c', 'name')] },
}));

test('multiple appliers: the same value is shared without conflict', () => runScenario(assoc, {
  ops: [
    { manager: 'apply-one', apply: 'list: [{name: a, value: 0}]' },
    { manager: 'apply-two', apiVersion: 'v2', apply: 'list: [{name: a, value: 0}]' },
  ],
  object: 'list: [{name: a, value: 0}]',
  managed: {
    'apply-one': [named('a'), named('a', 'name'), named('a', 'value')],
    'apply-two': [named('a'), named('a', 'name'), named('a', 'value')],
  },
}));

test('multiple appliers: a different value conflicts and changes nothing', () => runScenario(assoc, {
  ops: [
    { manager: 'apply-one', apply: 'list: [{name: a, value: 0}]' },
    { manager: 'apply-two', apiVersion: 'v2', apply: 'list: [{name: a, value: 1}]', conflicts: [['apply-one', named('a', 'value')]] },
  ],
  object: 'list: [{name: a, value: 0}]',
  managed: { 'apply-one': [named('a'), named('a', 'name'), named('a', 'value')] },
}));

test('multiple appliers: an item another applier owns stays when one stops applying it', () => runScenario(assoc, {
  ops: [
    { manager: 'apply-one', apply: 'list: [{name: a}, {name: b}, {name: c}]' },
    { manager: 'apply-two', apiVersion: 'v2', apply: 'list: [{name: c}, {name: d}]' },
    { manager: 'apply-one', apiVersion: 'v3', apply: 'list: [{name: a}]' },
  ],
  object: 'list: [{name: a}, {name: c}, {name: d}]',
  managed: { 'apply-one': [named('a'), named('a', 'name')], 'apply-two': [named('c'), named('d'), named('c', 'name'), named('d', 'name')] },
}));

const multi = typeOfSchema(struct({ struct: struct({ name: str, scalarField_v1: str, complexField_v1: struct({ name: str }) }), version: str }));

test('multiple appliers: unsetting a scalar the applier alone owns removes it', () => runScenario(multi, {
  ops: [
    { manager: 'apply-one', apply: 'struct: {name: a, scalarField_v1: a}' },
    { manager: 'apply-one', apply: 'struct: {name: a}' },
  ],
  object: 'struct: {name: a}',
  managed: { 'apply-one': [P('struct', 'name')] },
}));

test('multiple appliers: unsetting a scalar shared with another applier keeps it', () => runScenario(multi, {
  ops: [
    { manager: 'apply-one', apply: 'struct: {name: a, scalarField_v1: a}' },
    { manager: 'apply-two', apply: 'struct: {scalarField_v1: a}' },
    { manager: 'apply-one', apply: 'struct: {name: a}' },
  ],
  object: 'struct: {name: a, scalarField_v1: a}',
  managed: { 'apply-one': [P('struct', 'name')], 'apply-two': [P('struct', 'scalarField_v1')] },
}));

test('multiple appliers: unsetting a scalar shared with an updater keeps it', () => runScenario(multi, {
  ops: [
    { manager: 'updater', update: 'struct: {name: a, scalarField_v1: a}' },
    { manager: 'applier', apply: 'struct: {name: a, scalarField_v1: a}' },
    { manager: 'applier', apply: 'struct: {name: a}' },
  ],
  object: 'struct: {name: a, scalarField_v1: a}',
  managed: { updater: [P('struct'), P('struct', 'name'), P('struct', 'scalarField_v1')], applier: [P('struct', 'name')] },
}));

test('multiple appliers: an updater changing a field takes it from the applier', () => runScenario(multi, {
  ops: [
    { manager: 'applier', apply: 'struct: {name: a, scalarField_v1: a}' },
    { manager: 'updater', update: 'struct: {name: a, scalarField_v1: b}' },
  ],
  object: 'struct: {name: a, scalarField_v1: b}',
  managed: { updater: [P('struct', 'scalarField_v1')], applier: [P('struct', 'name')] },
}));

test('multiple appliers: unsetting a struct the applier alone owns removes it', () => runScenario(multi, {
  ops: [
    { manager: 'apply-one', apply: 'struct: {name: a, complexField_v1: {name: b}}' },
    { manager: 'apply-one', apply: 'struct: {name: a}' },
  ],
  object: 'struct: {name: a}',
  managed: { 'apply-one': [P('struct', 'name')] },
}));

// merge/deduced_test.go: no schema (a custom resource without one, spec 4.9.7): every key a
// field, every list atomic.
const deduced = typeOfSchema({ 'x-orch-preserve-unknown-fields': true });

test('schema-less: leaves behave as declared fields', () => runScenario(deduced, {
  ops: [
    { manager: 'default', apply: 'numeric: 1\nstring: string' },
    { manager: 'controller', update: 'numeric: 1\nstring: controller string\nbool: true' },
    { manager: 'default', apply: 'numeric: 2\nstring: user string', conflicts: [['controller', P('string')]] },
    { manager: 'default', forceApply: 'numeric: 2\nstring: user string' },
  ],
  object: 'numeric: 2\nstring: user string\nbool: true',
  managed: { default: [P('numeric'), P('string')], controller: [P('bool')] },
}));

test('schema-less: lists are atomic', () => runScenario(deduced, {
  ops: [
    { manager: 'default', apply: 'list: [a, c]' },
    { manager: 'controller', update: 'list: [a, b, c, d]' },
    { manager: 'default', forceApply: 'list: [a, b, c]' },
  ],
  object: 'list: [a, b, c]',
  managed: { default: [P('list')] },
}));

test('schema-less: nested objects conflict field by field', () => runScenario(deduced, {
  ops: [
    { manager: 'default', apply: 'a: 1\nb: {c: {d: 2, e: [1, 2, 3], f: [{name: n, value: 1}]}}' },
    { manager: 'controller', apiVersion: 'v2', update: 'a: 1\nb: {c: {d: 3, e: [1, 2, 3, 4], f: [{name: n, value: 2}]}}\ng: 5' },
    {
      manager: 'default', apiVersion: 'v3', apply: 'a: 2\nb: {c: {d: 2, e: [3, 2, 1], f: [{name: n, value: 1}]}}',
      conflicts: [['controller', P('b', 'c', 'd')], ['controller', P('b', 'c', 'e')], ['controller', P('b', 'c', 'f')]],
    },
    { manager: 'default', apiVersion: 'v3', forceApply: 'a: 2\nb: {c: {d: 2, e: [3, 2, 1], f: [{name: n, value: 1}]}}' },
  ],
  object: 'a: 2\nb: {c: {d: 2, e: [3, 2, 1], f: [{name: n, value: 1}]}}\ng: 5',
}));

// merge/default_keys_test.go: a key field left out takes its schema default.
const ports = typeOfSchema(struct({ containerPorts: mapList(struct({ port: num, protocol: { type: 'string', default: 'TCP' }, name: str }), 'port', 'protocol') }));
const port80 = key({ port: 80, protocol: 'TCP' });

test('default keys: an item without a defaulted key is the item with the default, and conflicts on it', () => runScenario(ports, {
  ops: [
    { manager: 'apply-one', apply: 'containerPorts: [{port: 80, protocol: TCP, name: foo}]' },
    { manager: 'apply-two', apply: 'containerPorts: [{port: 80, name: bar}]', conflicts: [['apply-one', P('containerPorts', port80, 'name')]] },
  ],
  object: 'containerPorts: [{port: 80, protocol: TCP, name: foo}]',
  managed: { 'apply-one': [P('containerPorts', port80), P('containerPorts', port80, 'port'), P('containerPorts', port80, 'protocol'), P('containerPorts', port80, 'name')] },
}));

test('default keys: a key field without a default may be left out', () => runScenario(ports, {
  ops: [{ manager: 'default', apply: 'containerPorts: [{protocol: TCP, name: A}]' }],
  object: 'containerPorts: [{protocol: TCP, name: A}]',
  managed: { default: [P('containerPorts', key({ protocol: 'TCP' })), P('containerPorts', key({ protocol: 'TCP' }), 'name'), P('containerPorts', key({ protocol: 'TCP' }), 'protocol')] },
}));

for (const second of ['{port: 80}', '{port: 80, protocol: TCP}']) {
  test(`default keys: items equal once defaulted are duplicates (${second})`, () => {
    assert.throws(() => runScenario(ports, { ops: [{ manager: 'default', apply: `containerPorts: [{port: 80}, ${second}]` }] }),
      /duplicate entries for key \[port=80,protocol="TCP"\]/);
  });
}
