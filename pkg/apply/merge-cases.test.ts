// Published cases of structured-merge-diff's merge tests (merge/*_test.go), ported to our schemas
// and engine: the same operations, the same expected objects, field sets and conflicts.
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
