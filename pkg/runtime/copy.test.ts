import assert from 'node:assert/strict';
import { test } from 'node:test';
import { copyObject } from './copy.js';

test('a copy equals structuredClone: values, key order, own __proto__ keys, nothing shared', () => {
  const samples: unknown[] = [
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', labels: { b: '1', a: '2', 10: 'x', 2: 'y' }, finalizers: [] }, data: { x: 'y'.repeat(100) } },
    JSON.parse('{"metadata":{"__proto__":{"polluted":true},"name":"n"},"spec":{"list":[1,-0,null,true,"s",[[]],{}]}}'),
    { a: undefined, b: [undefined, 1.5e300, -1], c: { d: { e: { f: 'deep' } } } },
    Object.assign(Object.create(null), { k: 'null prototype' }),
    [1, { a: 2 }],
    'string', 42, null, undefined,
  ];
  for (const s of samples) {
    const c = copyObject(s);
    assert.deepStrictEqual(c, structuredClone(s));
    assert.equal(JSON.stringify(c), JSON.stringify(s));
    if (typeof s === 'object' && s !== null) assert.notEqual(c, s);
  }
  const parsed = JSON.parse('{"__proto__":{"x":1}}') as Record<string, unknown>;
  const copied = copyObject(parsed);
  assert.ok(Object.hasOwn(copied, '__proto__'), 'an own __proto__ key stays own');
  assert.equal((copied as { x?: unknown }).x, undefined, 'and does not become the prototype');
  assert.equal(({} as { x?: unknown }).x, undefined);

  const nested = { a: { b: [{ c: 1 }] } };
  const n = copyObject(nested);
  n.a.b[0]!.c = 2;
  n.a.b.push({ c: 3 });
  assert.deepEqual(nested, { a: { b: [{ c: 1 }] } }, 'changing the copy leaves the original');
});

test('values that are not plain objects or arrays are copied as structuredClone copies them', () => {
  const d = new Date(0);
  const bytes = new Uint8Array([1, 2, 3]);
  const c = copyObject({ d, bytes });
  assert.ok(c.d instanceof Date && c.d !== d && c.d.getTime() === 0);
  assert.ok(c.bytes instanceof Uint8Array && c.bytes !== bytes);
  assert.deepEqual([...c.bytes], [1, 2, 3]);
});
