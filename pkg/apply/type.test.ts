import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Deployment } from '../../api/apps/v1/deployment.js';
import { RuntimeClass } from '../../api/node/v1/runtime-class.js';
import { fieldType, typeOfSchema, type ListType, type MapType, type TypeNode } from './type.js';

function at(t: TypeNode, ...names: string[]): TypeNode {
  let cur = t;
  for (const n of names) {
    if (cur.kind === 'list') cur = cur.element;
    if (cur.kind !== 'map') throw new Error(`${n}: not a map but ${cur.kind}`);
    const next = fieldType(cur, n);
    if (next === undefined) throw new Error(`no field ${n}`);
    cur = next;
  }
  return cur;
}

const deployment = typeOfSchema(Deployment);

test('list markers of real kinds: map lists by key, sets, atomic lists', () => {
  const containers = at(deployment, 'spec', 'template', 'spec', 'containers') as ListType;
  assert.deepEqual([containers.listType, containers.keys], ['map', ['name']]);
  const ports = at(containers, 'ports') as ListType;
  assert.deepEqual([ports.listType, ports.keys], ['map', ['containerPort', 'protocol']]);
  const owners = at(deployment, 'metadata', 'ownerReferences') as ListType;
  assert.deepEqual([owners.listType, owners.keys], ['map', ['uid']]);
  assert.equal((at(deployment, 'metadata', 'finalizers') as ListType).listType, 'set');
  assert.equal((at(deployment, 'spec', 'template', 'spec', 'tolerations') as ListType).listType, 'atomic');
  assert.equal((at(containers, 'args') as ListType).listType, 'atomic');
});

test('maps are granular, atomic where marked; structs granular unless marked', () => {
  const labels = at(deployment, 'metadata', 'labels') as MapType;
  assert.deepEqual([labels.kind, labels.atomic, labels.field('x'), labels.element?.kind], ['map', false, undefined, 'scalar']);
  const selector = at(deployment, 'spec', 'selector') as MapType;
  assert.equal(selector.atomic, true, 'LabelSelector is atomic');
  assert.equal((at(deployment, 'spec', 'strategy') as MapType).atomic, false);
  const nodeSelector = at(typeOfSchema(RuntimeClass), 'scheduling', 'nodeSelector') as MapType;
  assert.equal(nodeSelector.atomic, true, 'an atomic map');
  assert.equal(at(deployment, 'spec', 'replicas').kind, 'scalar');
  assert.equal(at(deployment, 'spec', 'template', 'spec', 'containers', 'resources', 'limits', 'cpu').kind, 'scalar', 'Quantity, a union of scalars');
});

test('the strategic merge `merge` strategy is a map list by its merge key when no list type is set (4.9.7)', () => {
  const t = typeOfSchema({ type: 'object', properties: {
    byKey: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } }, 'x-orch-patch-strategy': 'merge', 'x-orch-patch-merge-key': 'name' },
    retain: { type: 'array', items: { type: 'object' }, 'x-orch-patch-strategy': 'merge,retainKeys', 'x-orch-patch-merge-key': 'name' },
    scalars: { type: 'array', items: { type: 'string' }, 'x-orch-patch-strategy': 'merge' },
    replace: { type: 'array', items: { type: 'string' }, 'x-orch-patch-strategy': 'replace' },
    plain: { type: 'array', items: { type: 'string' } },
    typed: { type: 'array', items: { type: 'string' }, 'x-orch-list-type': 'atomic', 'x-orch-patch-strategy': 'merge' },
  } }) as MapType;
  const list = (n: string) => t.field(n) as ListType;
  assert.deepEqual([list('byKey').listType, list('byKey').keys], ['map', ['name']]);
  assert.deepEqual([list('retain').listType, list('retain').keys], ['map', ['name']]);
  assert.equal(list('scalars').listType, 'set');
  assert.equal(list('replace').listType, 'atomic');
  assert.equal(list('plain').listType, 'atomic', 'a list without markers is atomic');
  assert.equal(list('typed').listType, 'atomic', 'the list type wins over the patch strategy');
});

test('struct and map type markers, and schema-less places', () => {
  const t = typeOfSchema({ type: 'object', properties: {
    s: { type: 'object', properties: { a: { type: 'string' } }, 'x-orch-struct-type': 'atomic' },
    g: { type: 'object', properties: { a: { type: 'string' } }, 'x-orch-struct-type': 'granular' },
    m: { type: 'object', additionalProperties: { type: 'string' }, 'x-orch-map-type': 'atomic' },
    free: { 'x-orch-preserve-unknown-fields': true },
  } }) as MapType;
  assert.equal((t.field('s') as MapType).atomic, true);
  assert.equal((t.field('g') as MapType).atomic, false);
  assert.equal((t.field('m') as MapType).atomic, true);
  assert.equal(t.field('free')?.kind, 'deduced');
  assert.equal(typeOfSchema(undefined).kind, 'deduced');
});
