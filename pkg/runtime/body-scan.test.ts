import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDocument } from 'yaml';
import {
  documentProblem, findJSONTooDeep, findYAMLTooDeep, isInexactLiteral, jsonTooDeepMessage, MAX_NESTING_DEPTH, scanJSONNumbers,
  valueTooDeep, yamlNumbers,
} from './body-scan.js';

const nestedJSON = (n: number) => '{"a":'.repeat(n - 1) + '[]' + '}'.repeat(n - 1);

test('JSON depth: the limit is inclusive, and the opener one level too deep is named', () => {
  assert.equal(findJSONTooDeep(nestedJSON(MAX_NESTING_DEPTH)), null);
  const found = findJSONTooDeep(nestedJSON(MAX_NESTING_DEPTH + 1));
  assert.deepEqual(found, { char: '[', offset: 5 * MAX_NESTING_DEPTH });
  assert.equal(jsonTooDeepMessage(found!), `invalid character '[' exceeded max depth of ${MAX_NESTING_DEPTH}`);
  assert.equal(findJSONTooDeep('[[[[', 3)!.offset, 3);
  assert.equal(findJSONTooDeep('[[]][[]][[]]', 2), null, 'siblings do not add up');
});

test('JSON depth: brackets inside strings, escaped quotes included, do not count', () => {
  assert.equal(findJSONTooDeep(`{"a":"${'['.repeat(1000)}"}`), null);
  assert.equal(findJSONTooDeep(`{"a\\"{{{{":"\\\\"}`, 1), null);
  assert.equal(findJSONTooDeep(`["\\"[[[", [[]]]`, 2)?.offset, 11, 'the string ends at the unescaped quote');
});

test('JSON depth: linear on a huge body, and on unterminated strings', () => {
  const huge = '['.repeat(3_000_000);
  const start = Date.now();
  assert.ok(findJSONTooDeep(huge));
  assert.equal(findJSONTooDeep(`"${'['.repeat(100_000)}`), null);
  assert.ok(Date.now() - start < 2000);
});

test('value depth is measured without recursion', () => {
  let v: unknown = 1;
  for (let i = 0; i < 100_000; i++) v = { a: [v] };
  assert.equal(valueTooDeep(v), true);
  let ok: unknown = 'x';
  for (let i = 0; i < MAX_NESTING_DEPTH; i++) ok = i % 2 ? { a: ok } : [ok];
  assert.equal(valueTooDeep(ok), false);
  assert.equal(valueTooDeep([ok]), true);
  assert.equal(valueTooDeep(null), false);
});

test('YAML depth: flow collections, with the line of the level too many', () => {
  const flow = (n: number) => `a:\n  b: ${'['.repeat(n)}${']'.repeat(n)}\n`;
  assert.equal(findYAMLTooDeep(flow(MAX_NESTING_DEPTH - 2)), null);
  assert.equal(findYAMLTooDeep(flow(MAX_NESTING_DEPTH - 1)), 2);
  assert.equal(findYAMLTooDeep(`{a: {b: {c: 1}}}`, 3), null);
  assert.equal(findYAMLTooDeep(`{a: {b: {c: {}}}}`, 3), 1);
  // `[k: v]` is a sequence holding a one-pair mapping: two levels
  assert.equal(findYAMLTooDeep('[a: [b: c]]', 4), null);
  assert.equal(findYAMLTooDeep('[a: [b: [c]]]', 4), 1);
  assert.equal(findYAMLTooDeep('[a: b, [c]]', 2), null, 'the pair ends at the comma');
});

test('YAML depth: block collections counted as go-yaml rolls its indentation', () => {
  const manifest = [
    'apiVersion: apps/v1', // 1: the document mapping
    'spec:',
    '  template:', // 2
    '    spec:', // 3
    '      containers:', // 4
    '      - name: web', // 5: the list at its key's column, 6: the container
    '        ports:',
    '        - containerPort: 80', // 7, 8
    '          name: http',
    '      volumes:',
    '      - name: data',
    '  replicas: 1',
    '',
  ].join('\n');
  assert.equal(findYAMLTooDeep(manifest, 8), null);
  assert.equal(findYAMLTooDeep(manifest, 7), 8);
  const parsed = parseDocument(manifest).toJS();
  assert.equal(parsed.spec.template.spec.containers[0].ports[0].containerPort, 80);
  assert.equal(findYAMLTooDeep('- - - - x\n', 4), null, 'compact nested sequences');
  assert.equal(findYAMLTooDeep('- - - - - x\n', 4), 1);
  let block = '';
  for (let i = 0; i < 10; i++) block += `${' '.repeat(i)}a:\n`;
  assert.equal(findYAMLTooDeep(block, 10), null);
  assert.equal(findYAMLTooDeep(block, 9), 10);
});

test('YAML depth: scalars, comments and block scalars never nest', () => {
  const text = [
    'a: "[[[[{{{{"',
    "b: '[[[['",
    'c: x[[[[ # [[[[',
    'd: |',
    '  [[[[[[[[',
    '    {{{{{{',
    'e: >',
    '  - - - - -',
    '',
  ].join('\n');
  assert.equal(findYAMLTooDeep(text, 1), null);
});

test('YAML depth: stops early on a huge flow nest', () => {
  const start = Date.now();
  assert.equal(findYAMLTooDeep('['.repeat(3_000_000)), 1);
  assert.ok(Date.now() - start < 2000);
});

test('documentProblem expands aliases as toJS does, and finds an alias inside its own anchor', () => {
  const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
  const twice = parseDocument(`a: &x ${deep(100)}\nb: [${'['.repeat(100)}*x${']'.repeat(100)}]\n`);
  assert.equal(documentProblem(twice, 202), null);
  assert.deepEqual(documentProblem(twice, 201), { tooDeep: true });
  assert.deepEqual(documentProblem(parseDocument('a: &a [*a]')), { tooDeep: false, anchor: 'a' });
  assert.deepEqual(documentProblem(parseDocument('a: &a {b: [1, *a]}')), { tooDeep: false, anchor: 'a' });
  assert.equal(documentProblem(parseDocument('a: &s 1\nb: *s\nc: &m {x: 1}\nd: *m\n')), null);
  assert.equal(documentProblem(parseDocument('')), null);
});

test('number literals a JS number would change', () => {
  for (const lit of ['9007199254740993', '-9007199254740993', '9223372036854775808', '1e999', '-1e400', '1e-999', '0.5e-400']) {
    assert.equal(isInexactLiteral(lit), true, lit);
  }
  for (const lit of ['9007199254740992', '-9007199254740992', '1e308', '0.1', '5e-324', '0e-999', '0.0', '-0', '1.7976931348623157e308']) {
    assert.equal(isInexactLiteral(lit), false, lit);
  }
});

test('JSON number scan: paths of the literals worth a second look, in text order', () => {
  const text = '{"spec":{"replicas":1e308,"x":[1, 2.5, {"a\\"b":9007199254740993}],"n":-12,"s":"1e999"},"z":123456789012345}';
  assert.deepEqual(scanJSONNumbers(text), [
    { path: ['spec', 'replicas'], literal: '1e308', inexact: false },
    { path: ['spec', 'x', 1], literal: '2.5', inexact: false },
    { path: ['spec', 'x', 2, 'a"b'], literal: '9007199254740993', inexact: true },
  ]);
  assert.deepEqual(scanJSONNumbers('[[1e999],[0,1e-999]]').map((n) => n.path), [[0, 0], [1, 1]]);
  assert.deepEqual(scanJSONNumbers('12345678901234567'), [{ path: [], literal: '12345678901234567', inexact: true }]);
});

test('YAML number scan: integers beyond 2^53 as go-yaml reads them, floats that overflow or underflow', () => {
  const doc = parseDocument([
    'a: 9007199254740993',
    'b: 0x20000000000001',
    'c: [1, 1e999, 1.5, 1e-999]',
    'd: {e: 18446744073709551616}',
    'f: .inf',
    'g: 9007199254740992',
    'h: "9007199254740993"',
    '',
  ].join('\n'), { version: '1.1' });
  assert.deepEqual(yamlNumbers(doc), [
    { path: ['a'], literal: '9007199254740993', inexact: true },
    { path: ['b'], literal: '9007199254740993', inexact: true },
    { path: ['c', 1], literal: '1e999', inexact: true },
    { path: ['c', 3], literal: '1e-999', inexact: true },
    { path: ['d', 'e'], literal: '18446744073709552000', inexact: true },
  ]);
});
