import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Deployment } from '../../api/apps/v1/deployment.js';
import { Event } from '../../api/core/v1/event.js';
import { PersistentVolume } from '../../api/core/v1/persistent-volume.js';
import { RuntimeClass } from '../../api/node/v1/runtime-class.js';
import { fieldsOf } from './fields-of.js';
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
  // Each owner reference is an atomic struct (upstream's +structType=atomic): owned whole by its key.
  assert.equal((owners.element as MapType).atomic, true);
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

test('a use\'s struct type wins over its shape\'s: PersistentVolume claimRef is granular, other ObjectReferences atomic', () => {
  const pv = typeOfSchema(PersistentVolume);
  assert.equal((at(pv, 'spec', 'claimRef') as MapType).atomic, false);
  const event = typeOfSchema(Event);
  assert.equal((at(event, 'involvedObject') as MapType).atomic, true);
});

test('an owner reference is one leaf of the field set, keyed by its uid, as upstream records it', () => {
  const owned = {
    metadata: { name: 'd', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: 'u-1', controller: true }] },
  };
  const metadata = (fieldsOf(deployment, owned).toFieldsV1() as Record<string, Record<string, Record<string, unknown>>>)['f:metadata']!;
  // No f:apiVersion, f:controller... below the item: the reference is owned whole.
  assert.deepEqual(metadata['f:ownerReferences']!['k:{"uid":"u-1"}'], {});
});
