import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FieldSet } from './field-set.js';
import { comparePaths, FieldsV1Error, index, key, parseElement, path as P, pathToString, serializeElement, value as V } from './path.js';

test('paths print as upstream prints them in conflicts', () => {
  assert.equal(pathToString(P('spec', 'containers', key({ name: 'app' }), 'image')), '.spec.containers[name="app"].image');
  assert.equal(pathToString(P('metadata', 'labels', 'a')), '.metadata.labels.a');
  assert.equal(pathToString(P('data', 'key')), '.data.key');
  // Key fields are sorted by name whatever order they are given in.
  assert.equal(pathToString(P('spec', 'ports', key({ protocol: 'TCP', port: 80 }))), '.spec.ports[port=80,protocol="TCP"]');
  assert.equal(pathToString(P('metadata', 'finalizers', V('orch.io/pvc-protection'))), '.metadata.finalizers[="orch.io/pvc-protection"]');
  assert.equal(pathToString(P('list', index(3))), '.list[3]');
  assert.equal(pathToString(P('l', V(true), 'x')), '.l[=true].x');
  assert.equal(pathToString(P('l', V(null))), '.l[=null]');
  // Go's %v of a float and %q of a string with escapes.
  assert.equal(pathToString(P('l', V(1.5))), '.l[=1.5]');
  assert.equal(pathToString(P('l', V(0.00001))), '.l[=1e-05]');
  assert.equal(pathToString(P('l', V(1234567.5))), '.l[=1.2345675e+06]');
  assert.equal(pathToString(P('l', V('a"b\n\u0001é'))), '.l[="a\\"b\\n\\x01é"]');
});

test('path elements order as upstream: fields, keys, values, indices; values numbers < strings < booleans', () => {
  const sorted = [P(index(0)), P(V('a')), P(V(true)), P(V(2)), P(key({ a: 1 })), P('b'), P('a', 'x'), P('a')].sort(comparePaths);
  assert.deepEqual(sorted.map(pathToString), ['.a', '.a.x', '.b', '[a=1]', '[=2]', '["a"]'.replace('["a"]', '[="a"]'), '[=true]', '[0]']);
});

test('FieldsV1 is written as upstream writes it: sorted keys, "." first, empty leaves', () => {
  const set = FieldSet.of(
    P('spec', 'replicas'),
    P('metadata', 'labels', 'app'),
    P('metadata', 'labels'),
    P('spec', 'containers', key({ name: 'app' })),
    P('spec', 'containers', key({ name: 'app' }), 'image'),
    P('spec', 'containers', key({ name: 'app' }), 'ports', key({ protocol: 'TCP', containerPort: 80 })),
    P('metadata', 'finalizers', V('b')),
    P('metadata', 'finalizers', V('a')),
    P('spec', 'args', index(1)),
  );
  assert.equal(JSON.stringify(set.toFieldsV1()),
    '{"f:metadata":{"f:finalizers":{"v:\\"a\\"":{},"v:\\"b\\"":{}},"f:labels":{".":{},"f:app":{}}},'
    + '"f:spec":{"f:args":{"i:1":{}},"f:containers":{"k:{\\"name\\":\\"app\\"}":{".":{},"f:image":{},'
    + '"f:ports":{"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{}}}},"f:replicas":{}}}');
});

test('FieldsV1 round-trips, including keys of several fields and values that are not strings', () => {
  const set = FieldSet.of(
    P('a', key({ port: 80, protocol: 'TCP' })),
    P('a', key({ port: 80, protocol: 'TCP' }), 'name'),
    P('a', key({ on: true, n: null, f: 1.25 })),
    P('b', V(3)), P('b', V(false)), P('b', V('x<y&z')),
    P('c', index(0), 'd'),
    P('e'),
  );
  const json = set.toFieldsV1();
  assert.ok(Object.hasOwn(json['f:b'] as object, 'v:"x\\u003cy\\u0026z"'), 'HTML-safe escaping as Go writes it');
  assert.ok(Object.hasOwn(json['f:a'] as object, 'k:{"f":1.25,"n":null,"on":true}'));
  const back = FieldSet.fromFieldsV1(JSON.parse(JSON.stringify(json)));
  assert.ok(back.equals(set));
  assert.deepEqual(back.toFieldsV1(), json);
});

test('FieldsV1 is read leniently where upstream is: unknown element types dropped, null leaves, keys in any order', () => {
  const set = FieldSet.fromFieldsV1({ 'f:a': null, 'f:b': { 'x:future': {} }, 'f:c': { 'k:{"b":1,"a":2}': {} } });
  assert.equal(set.toString(), ['.a', '.b', '.c[a=2,b=1]'].join('\n'));
  assert.ok(FieldSet.fromFieldsV1(null).isEmpty());
  assert.ok(FieldSet.fromFieldsV1({}).isEmpty());
});

test('malformed FieldsV1 is a FieldsV1Error with upstream\'s wording, never a crash', () => {
  const cases: [unknown, RegExp][] = [
    [{ f: {} }, /^parsing key as path element: key must be 2 characters long:$/],
    [{ 'fx': {} }, /^parsing key as path element: missing colon: fx$/],
    [{ 'i:abc': {} }, /^parsing key as path element: strconv\.Atoi: parsing "abc": invalid syntax$/],
    [{ 'k:[1]': {} }, /^parsing key as path element: ReadObjectCB: expect \{ or n, but found \[$/],
    [{ 'v:{oops': {} }, /^parsing key as path element: /],
    [{ 'f:a': 'x' }, /^ReadMapCB: expect \{ or n, but found "$/],
    [{ 'f:a': [1] }, /^ReadMapCB: expect \{ or n, but found \[$/],
    ['text', /^ReadMapCB: expect \{ or n, but found "$/],
  ];
  for (const [input, message] of cases) {
    assert.throws(() => FieldSet.fromFieldsV1(input), (err: unknown) => err instanceof FieldsV1Error && message.test(err.message), JSON.stringify(input));
  }
  assert.equal(serializeElement(parseElement('k:{"b":"x","a":1}') as never), 'k:{"a":1,"b":"x"}');
});

test('set operations: union, intersection, difference, recursive difference, leaves, has', () => {
  const a = FieldSet.of(P('x'), P('x', 'y'), P('z', 'w'));
  const b = FieldSet.of(P('x'), P('z', 'q'));
  assert.equal(a.union(b).toString(), ['.x', '.x.y', '.z.q', '.z.w'].join('\n'));
  assert.equal(a.intersection(b).toString(), '.x');
  assert.equal(a.difference(b).toString(), ['.x.y', '.z.w'].join('\n'));
  assert.equal(a.recursiveDifference(b).toString(), '.z.w');
  assert.equal(a.leaves().toString(), ['.x.y', '.z.w'].join('\n'));
  assert.ok(a.has(P('x', 'y')) && !a.has(P('z')) && !a.has(P()));
  assert.equal(a.size(), 3);
  assert.ok(FieldSet.EMPTY.insert(P('x')).insert(P('x', 'y')).insert(P('z', 'w')).equals(a));
  assert.ok(a.difference(a).isEmpty());
});
