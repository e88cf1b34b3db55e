import { seededRandom } from '../util/seeded-random.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyStrategicMergePatch, StrategicMergePatchError } from './strategic-merge-patch.js';
import { applyMergePatch } from './merge-patch.js';
import { StatefulSet } from '../../api/apps/v1/stateful-set.js';
import { ObjectMeta } from '../../api/meta/v1/types.js';

type Json = Record<string, unknown>;

/** Follows a dotted path (numbers index lists) through a result. */
function dig(value: unknown, path: string): unknown {
  let v = value;
  for (const part of path.split('.')) {
    if (Array.isArray(v)) v = v[Number(part)];
    else if (typeof v === 'object' && v !== null) v = (v as Json)[part];
    else return undefined;
  }
  return v;
}

const names = (list: unknown, key = 'name'): unknown[] => (list as Json[]).map((item) => item[key]);

// ---- a schema shaped like upstream's test type, in our own words -------------------------------

const partProperties: Json = {};
/** A "part": scalar fields, lists of each strategy, a string map, a replaced blob, retainKeys fields. */
const Part: Json = { type: 'object', properties: partProperties };
Object.assign(partProperties, {
  name: { type: 'string' },
  value: { type: 'string' },
  note: { type: 'string' },
  parts: { type: 'array', items: Part, 'x-orch-patch-strategy': 'merge', 'x-orch-patch-merge-key': 'name' },
  stack: { type: 'array', items: Part },
  ids: { type: 'array', items: { type: 'integer' }, 'x-orch-patch-strategy': 'merge' },
  fixedIds: { type: 'array', items: { type: 'integer' } },
  tags: { type: 'object', patternProperties: { '^(.*)$': { type: 'string' } } },
  blob: { 'x-orch-patch-strategy': 'replace', 'x-orch-preserve-unknown-fields': true },
  source: { ...Part, 'x-orch-patch-strategy': 'retainKeys' },
  sources: { type: 'array', items: Part, 'x-orch-patch-strategy': 'merge,retainKeys', 'x-orch-patch-merge-key': 'name' },
});

const part = (original: unknown, patch: unknown): unknown => applyStrategicMergePatch(original, patch, Part);

function rejects(original: unknown, patch: unknown, schema: object, message: RegExp): void {
  assert.throws(() => applyStrategicMergePatch(original, patch, schema), (err: unknown) => {
    assert.ok(err instanceof StrategicMergePatchError, `expected a StrategicMergePatchError, got ${String(err)}`);
    assert.match(err.message, message);
    return true;
  });
}

// ---- maps ----------------------------------------------------------------------------------------

test('maps merge recursively and null deletes a key', () => {
  assert.deepEqual(
    part({ name: 'p', value: 'v', tags: { a: '1', b: '2' } }, { value: null, note: 'n', tags: { b: null, c: '3' } }),
    { name: 'p', note: 'n', tags: { a: '1', c: '3' } },
  );
  assert.deepEqual(part({ name: 'p' }, {}), { name: 'p' });
  assert.deepEqual(part({ name: 'p' }, { value: null, note: null }), { name: 'p' });
});

test('$patch: replace on a map takes the patch without the directive', () => {
  assert.deepEqual(part({ name: 'p', value: 'v' }, { $patch: 'replace' }), {});
  assert.deepEqual(part({ name: 'p', value: 'v' }, { note: 'n', $patch: 'replace' }), { note: 'n' });
  assert.deepEqual(
    part({ tags: { a: '1' }, name: 'p' }, { tags: { $patch: 'replace', b: '2', c: null } }),
    { tags: { b: '2' }, name: 'p' },
  );
});

test('$patch: delete on a map removes it, like null', () => {
  assert.deepEqual(part({ name: 'p', tags: { a: '1', b: '2' } }, { tags: { $patch: 'delete' } }), { name: 'p' });
  assert.deepEqual(part({ name: 'p' }, { tags: { $patch: 'delete', a: '1' } }), { name: 'p' });
  assert.deepEqual(part({ name: 'p' }, { $patch: 'delete' }), {});
});

test('$patch: merge is the default and is accepted on maps and merge-list items', () => {
  assert.deepEqual(part({ tags: { a: '1' } }, { tags: { $patch: 'merge', b: '2' } }), { tags: { a: '1', b: '2' } });
  assert.deepEqual(
    part({ parts: [{ name: 'a', value: '1' }] }, { parts: [{ name: 'a', $patch: 'merge', note: 'x' }] }),
    { parts: [{ name: 'a', value: '1', note: 'x' }] },
  );
});

test('a field whose strategy is replace is replaced, not merged', () => {
  assert.deepEqual(part({ blob: { a: 1, b: 2 } }, { blob: { c: 3 } }), { blob: { c: 3 } });
});

// ---- merging lists of objects -------------------------------------------------------------------

test('items with the same merge key merge; new items come before the others, as upstream', () => {
  assert.deepEqual(
    part({ parts: [{ name: 'a', value: '1' }, { name: 'b', value: '2' }] }, { parts: [{ name: 'b', note: 'n' }, { name: 'c' }] }),
    { parts: [{ name: 'a', value: '1' }, { name: 'b', value: '2', note: 'n' }, { name: 'c' }] },
  );
  // Without $setElementOrder, upstream places an item the server lacks ahead of the server's items.
  assert.deepEqual(names(dig(part({ parts: [{ name: 'a' }, { name: 'b' }] }, { parts: [{ name: 'z' }] }), 'parts')), ['z', 'a', 'b']);
});

test('the patch order of existing items wins; items the patch leaves out keep their place (upstream)', () => {
  const original = { parts: [{ name: 'a' }, { name: 'b', value: 'vb' }, { name: 'c' }] };
  assert.deepEqual(part(original, { parts: [{ name: 'c', value: 'vc' }, { name: 'a', value: 'va' }, { name: 'b', note: 'n' }] }), {
    parts: [{ name: 'c', value: 'vc' }, { name: 'a', value: 'va' }, { name: 'b', value: 'vb', note: 'n' }],
  });
  assert.deepEqual(names(dig(part(original, { parts: [{ name: 'c' }, { name: 'a' }] }), 'parts')), ['b', 'c', 'a']);
});

test('an item with $patch: delete removes every item with that key', () => {
  const original = { parts: [{ name: 'a' }, { name: 'a' }, { name: 'b', value: 'v' }, { name: 'c' }, { name: 'c' }] };
  assert.deepEqual(
    part(original, { parts: [{ name: 'a', $patch: 'delete' }, { name: 'c', $patch: 'delete' }] }),
    { parts: [{ name: 'b', value: 'v' }] },
  );
  assert.deepEqual(part({ parts: [{ name: 'b' }] }, { parts: [{ name: 'gone', $patch: 'delete' }] }), { parts: [{ name: 'b' }] });
  assert.deepEqual(part({}, { parts: [{ name: 'gone', $patch: 'delete' }] }), { parts: [] });
});

test('an item {$patch: replace} replaces the whole list with the other items', () => {
  assert.deepEqual(part({ parts: [{ name: 'a' }, { name: 'b' }] }, { parts: [{ $patch: 'replace' }] }), { parts: [] });
  assert.deepEqual(
    part({ parts: [{ name: 'a', value: '1' }] }, { parts: [{ name: 'x', value: null }, { $patch: 'replace' }, { name: 'a' }] }),
    { parts: [{ name: 'x' }, { name: 'a' }] },
  );
});

test('lists nested in merged items follow their own strategy', () => {
  const original = { parts: [{ name: 'a', stack: [{ name: 's1' }, { name: 's2', value: 'v' }], parts: [{ name: 'i', value: 'x' }] }, { name: 'b' }] };
  const patched = part(original, { parts: [{ name: 'a', stack: [{ name: 's1', value: 'new' }], parts: [{ name: 'i', note: 'y' }] }] });
  assert.deepEqual(patched, {
    parts: [{ name: 'a', stack: [{ name: 's1', value: 'new' }], parts: [{ name: 'i', value: 'x', note: 'y' }] }, { name: 'b' }],
  });
});

test('empty merging lists stay empty', () => {
  assert.deepEqual(part({ parts: [] }, { parts: [] }), { parts: [] });
  assert.deepEqual(part({ parts: [] }, {}), { parts: [] });
});

// ---- merging lists of scalars -------------------------------------------------------------------

test('merging scalar lists are unions in patch order; other lists are replaced', () => {
  assert.deepEqual(part({ ids: [1, 2] }, { ids: [2, 3] }), { ids: [1, 2, 3] });
  assert.deepEqual(part({ ids: [1, 2, 3] }, { ids: [3, 1, 2] }), { ids: [3, 1, 2] });
  assert.deepEqual(part({ ids: [1, 2, 3] }, { ids: [3, 1] }), { ids: [2, 3, 1] });
  assert.deepEqual(part({ fixedIds: [1, 2] }, { fixedIds: [2, 3] }), { fixedIds: [2, 3] });
  assert.deepEqual(part({ stack: [{ name: 'a', value: 'x' }] }, { stack: [{ name: 'a' }] }), { stack: [{ name: 'a' }] });
});

test('$deleteFromPrimitiveList removes values, and never creates the list', () => {
  assert.deepEqual(part({ ids: [1, 2, 3, 3] }, { '$deleteFromPrimitiveList/ids': [3] }), { ids: [1, 2] });
  assert.deepEqual(part({ ids: [1, 2] }, { '$deleteFromPrimitiveList/ids': [9] }), { ids: [1, 2] });
  assert.deepEqual(part({ name: 'p' }, { '$deleteFromPrimitiveList/ids': [9] }), { name: 'p' });
  assert.deepEqual(part({ ids: null }, { '$deleteFromPrimitiveList/ids': [9] }), { ids: null });
  // Upstream also deletes from lists without the merge strategy.
  assert.deepEqual(part({ fixedIds: [1, 2, 3] }, { '$deleteFromPrimitiveList/fixedIds': [2] }), { fixedIds: [1, 3] });
  // Adding and deleting in one patch: the deletion applies after the merge, whatever the key order.
  assert.deepEqual(part({ ids: [1, 2, 3] }, { '$deleteFromPrimitiveList/ids': [3], ids: [4] }), { ids: [4, 1, 2] });
});

// ---- $setElementOrder ---------------------------------------------------------------------------

test('$setElementOrder orders a list of objects by merge key and scalars by value', () => {
  assert.deepEqual(
    names(dig(part({ parts: [{ name: 'a' }, { name: 'c', value: 'c' }, { name: 'd' }, { name: 'b' }] }, {
      '$setElementOrder/parts': [{ name: 'd' }, { name: 'b' }, { name: 'c' }, { name: 'a' }],
    }), 'parts')),
    ['d', 'b', 'c', 'a'],
  );
  assert.deepEqual(part({ ids: [1, 3, 4, 2] }, { '$setElementOrder/ids': [4, 2, 3, 1] }), { ids: [4, 2, 3, 1] });
});

test('$setElementOrder places new items where it says and merges the patch list', () => {
  const patched = part({ parts: [{ name: 'a', note: 'x' }, { name: 'b', value: 'vb' }] }, {
    '$setElementOrder/parts': [{ name: 'd' }, { name: 'a' }, { name: 'b' }, { name: 'c' }],
    parts: [{ name: 'd', value: 'vd' }, { name: 'c', value: 'vc' }],
  });
  assert.deepEqual(patched, {
    parts: [{ name: 'd', value: 'vd' }, { name: 'a', note: 'x' }, { name: 'b', value: 'vb' }, { name: 'c', value: 'vc' }],
  });
  assert.deepEqual(part({ ids: [1, 2] }, { '$setElementOrder/ids': [1, 4, 2, 3], ids: [4, 3] }), { ids: [1, 4, 2, 3] });
});

test('$setElementOrder interleaves items only the server has by their place on the server (upstream)', () => {
  const order = [{ name: 'b' }, { name: 'a' }, { name: 'd' }, { name: 'c' }];
  const server = { parts: [{ name: 'a' }, { name: 'b' }, { name: 'x' }, { name: 'y' }, { name: 'c' }, { name: 'd' }] };
  assert.deepEqual(names(dig(part(server, { '$setElementOrder/parts': order }), 'parts')), ['b', 'a', 'x', 'y', 'd', 'c']);
  assert.deepEqual(part({ ids: [1, 2, 7, 9, 8, 3, 4] }, { '$setElementOrder/ids': [2, 1, 4, 3] }), { ids: [2, 1, 7, 9, 8, 4, 3] });
  assert.deepEqual(part({ ids: [1, 3, 4, 2, 9] }, { '$setElementOrder/ids': [4, 2, 3, 1] }), { ids: [4, 2, 3, 1, 9] });
  // A new item goes right after the item before it in the order, ahead of a later server-only item.
  assert.deepEqual(
    names(dig(part({ parts: [{ name: 'a', note: 'x' }, { name: 'z' }] }, { '$setElementOrder/parts': [{ name: 'a' }, { name: 'b' }], parts: [{ name: 'b' }] }), 'parts')),
    ['a', 'b', 'z'],
  );
  assert.deepEqual(part({ ids: [1, 2, 3] }, { '$setElementOrder/ids': [1, 2, 4], ids: [4] }), { ids: [1, 2, 4, 3] });
});

test('$setElementOrder with deletions orders as upstream does', () => {
  assert.deepEqual(
    names(dig(part({ parts: [{ name: 'a' }, { name: 'b', note: 'x' }, { name: 'z', note: 'y' }] }, {
      '$setElementOrder/parts': [{ name: 'b' }, { name: 'c' }],
      parts: [{ name: 'c' }, { name: 'a', $patch: 'delete' }],
    }), 'parts')),
    ['b', 'z', 'c'],
  );
  assert.deepEqual(
    names(dig(part({ parts: [{ name: 'a' }, { name: 'z' }] }, {
      '$setElementOrder/parts': [{ name: 'b' }, { name: 'c' }],
      parts: [{ name: 'b' }, { name: 'c' }, { name: 'a', $patch: 'delete' }],
    }), 'parts')),
    ['z', 'b', 'c'],
  );
  assert.deepEqual(part({ ids: [1, 2, 3] }, { '$setElementOrder/ids': [2, 1], '$deleteFromPrimitiveList/ids': [3] }), { ids: [2, 1] });
  assert.deepEqual(
    part({ ids: [1, 2, 3] }, { '$setElementOrder/ids': [4, 2, 1], ids: [4], '$deleteFromPrimitiveList/ids': [3] }),
    { ids: [4, 2, 1] },
  );
});

test('$setElementOrder naming items the list lacks only orders what is there', () => {
  assert.deepEqual(
    part({ parts: [{ name: 'a' }, { name: 'c' }] }, {
      '$setElementOrder/parts': [{ name: 'c' }, { name: 'b' }, { name: 'a' }],
      parts: [{ name: 'c', value: '3' }, { name: 'a', value: '1' }],
    }),
    { parts: [{ name: 'c', value: '3' }, { name: 'a', value: '1' }] },
  );
  assert.deepEqual(part({ ids: [1, 3] }, { '$setElementOrder/ids': [3, 2, 1] }), { ids: [3, 1] });
});

test('$setElementOrder keeps duplicates together at the first place of their key', () => {
  const server = { parts: [{ name: 'a' }, { name: 'b', value: '1' }, { name: 'c' }, { name: 'b', value: '2' }, { name: 'd' }] };
  const patched = part(server, { '$setElementOrder/parts': [{ name: 'b' }, { name: 'a' }, { name: 'd' }, { name: 'c' }, { name: 'b' }] });
  assert.deepEqual(dig(patched, 'parts'), [{ name: 'b', value: '1' }, { name: 'b', value: '2' }, { name: 'a' }, { name: 'd' }, { name: 'c' }]);
});

test('$setElementOrder in several lists and nested items', () => {
  const patched = part(
    { parts: [{ name: 'a', value: 'a' }, { name: 'b', value: 'b', parts: [{ name: 'i' }, { name: 'j' }] }], sources: [{ name: 'c' }, { name: 'd' }] },
    {
      '$setElementOrder/parts': [{ name: 'b' }],
      '$setElementOrder/sources': [{ name: 'd' }, { name: 'c' }],
      parts: [{ name: 'a', $patch: 'delete' }, { name: 'b', '$setElementOrder/parts': [{ name: 'j' }, { name: 'i' }] }],
    },
  );
  assert.deepEqual(patched, {
    parts: [{ name: 'b', value: 'b', parts: [{ name: 'j' }, { name: 'i' }] }],
    sources: [{ name: 'd' }, { name: 'c' }],
  });
});

test('$setElementOrder on a list without the merge strategy is ignored', () => {
  assert.deepEqual(part({ fixedIds: [1, 2] }, { '$setElementOrder/fixedIds': [2, 1], fixedIds: [3] }), { fixedIds: [3] });
});

// ---- $retainKeys --------------------------------------------------------------------------------

test('$retainKeys keeps only the listed keys of a map after merging', () => {
  assert.deepEqual(part({ source: { value: 'v' } }, { source: { $retainKeys: ['note'], note: 'n' } }), { source: { note: 'n' } });
  assert.deepEqual(
    part({ source: { name: 'one', value: 'v' } }, { source: { $retainKeys: ['name', 'note'], name: 'two', note: 'n' } }),
    { source: { name: 'two', note: 'n' } },
  );
  assert.deepEqual(
    part({ source: { name: 'p', value: 'v', note: 'x' } }, { source: { $retainKeys: ['name'], value: null } }),
    { source: { name: 'p' } },
  );
  assert.deepEqual(
    part({ source: { name: 'p', tags: { a: '1', c: '3' } } }, { source: { $retainKeys: ['name', 'tags', 'value'], value: 'v', tags: { b: '2' } } }),
    { source: { name: 'p', value: 'v', tags: { a: '1', b: '2', c: '3' } } },
  );
  // Without the directive a retainKeys map merges like any other.
  assert.deepEqual(part({ source: { name: 'p', value: 'a' } }, { source: { value: 'b' } }), { source: { name: 'p', value: 'b' } });
});

test('$retainKeys works together with ordered and pruned lists inside the map', () => {
  assert.deepEqual(
    part({ source: { name: 'p', ids: [1, 2, 3] } }, { source: { '$setElementOrder/ids': [1, 2, 4], $retainKeys: ['ids', 'name'], ids: [4] } }),
    { source: { name: 'p', ids: [1, 2, 4, 3] } },
  );
  assert.deepEqual(
    part({ source: { name: 'p', ids: [1, 2, 3, 4] } }, {
      source: { $retainKeys: ['ids', 'name'], ids: [5], '$deleteFromPrimitiveList/ids': [2], '$setElementOrder/ids': [1, 3, 5] },
    }),
    { source: { name: 'p', ids: [1, 3, 5, 4] } },
  );
  assert.deepEqual(
    part({ source: { name: 'p', parts: [{ name: 'a' }, { name: 'b' }, { name: 'x' }] } }, {
      source: { $retainKeys: ['parts', 'name'], '$setElementOrder/parts': [{ name: 'a' }], parts: [{ name: 'b', $patch: 'delete' }] },
    }),
    { source: { name: 'p', parts: [{ name: 'a' }, { name: 'x' }] } },
  );
});

test('$retainKeys in the items of a merge,retainKeys list', () => {
  const patched = part({ sources: [{ name: 'x' }, { name: 'y', value: 'old', note: 'server' }] }, {
    '$setElementOrder/sources': [{ name: 'x' }, { name: 'y' }],
    sources: [{ $retainKeys: ['name', 'value'], name: 'y', value: 'new' }],
  });
  assert.deepEqual(patched, { sources: [{ name: 'x' }, { name: 'y', value: 'new' }] });
});

// ---- schema navigation and unknown fields ----------------------------------------------------------

test('unknown fields merge as in JSON merge patch; nulls never reach the result', () => {
  assert.deepEqual(part({}, { complex: { nested: null } }), { complex: {} });
  assert.deepEqual(part({}, { complex: { nested: null, other: 'x' } }), { complex: { other: 'x' } });
  assert.deepEqual(part({ thing: null }, { nested: { value: 5 } }), { thing: null, nested: { value: 5 } });
  assert.deepEqual(part({ list: [1, 2] }, { list: [3] }), { list: [3] });
  assert.deepEqual(part({}, { list: [{ inner: { a: 'x', b: null } }] }), { list: [{ inner: { a: 'x' } }] });
  assert.deepEqual(part({}, { list: ['a', null, 'b'] }), { list: ['a', null, 'b'] });
  assert.deepEqual(part({ complex: { a: 1, b: { c: 2 } } }, { complex: { b: { d: 3 } } }), { complex: { a: 1, b: { c: 2, d: 3 } } });
});

test('a value of another type replaces the old one', () => {
  assert.deepEqual(part({ tags: { a: '1' } }, { tags: 'x' }), { tags: 'x' });
  assert.deepEqual(part({ parts: [{ name: 'a' }] }, { parts: {} }), { parts: {} });
  assert.deepEqual(part({ parts: 'x' }, { parts: [{ name: 'a', value: null }] }), { parts: [{ name: 'a' }] });
});

// ---- real schemas ------------------------------------------------------------------------------------

function statefulSet(): Json {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: {
      name: 'web',
      namespace: 'default',
      labels: { app: 'web', tier: 'front' },
      annotations: { note: 'x' },
      finalizers: ['orch.io/a', 'orch.io/b'],
      ownerReferences: [
        { apiVersion: 'v1', kind: 'Thing', name: 'one', uid: 'u1' },
        { apiVersion: 'v1', kind: 'Thing', name: 'two', uid: 'u2', controller: true },
      ],
    },
    spec: {
      replicas: 2,
      serviceName: 'web',
      selector: { matchLabels: { app: 'web' } },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 1 } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [
            {
              name: 'app',
              image: 'app:1',
              env: [{ name: 'A', value: 'a' }, { name: 'B', value: 'b' }],
              ports: [{ containerPort: 80, name: 'http' }, { containerPort: 443, name: 'https' }],
              volumeMounts: [{ name: 'data', mountPath: '/data' }, { name: 'conf', mountPath: '/etc/app' }],
              resources: { limits: { cpu: '1', memory: '1Gi' } },
            },
            { name: 'sidecar', image: 'side:1' },
          ],
          volumes: [{ name: 'data', emptyDir: {} }, { name: 'conf', configMap: { name: 'app' } }],
          tolerations: [{ key: 'k1', operator: 'Exists' }, { key: 'k2', operator: 'Exists' }],
          nodeSelector: { zone: 'a', disk: 'ssd' },
          affinity: { nodeAffinity: {} },
        },
      },
    },
    status: {
      replicas: 2,
      conditions: [{ type: 'Ready', status: 'True' }, { type: 'Progressing', status: 'False' }],
    },
  };
}

const sts = (patch: unknown, original: unknown = statefulSet()): unknown => applyStrategicMergePatch(original, patch, StatefulSet);
const podSpec = (body: Json): Json => ({ spec: { template: { spec: body } } });

test('StatefulSet: containers merge by name and env by name', () => {
  const patched = sts(podSpec({ containers: [{ name: 'app', image: 'app:2', env: [{ name: 'B', value: 'b2' }, { name: 'C', value: 'c' }] }] }));
  const containers = dig(patched, 'spec.template.spec.containers');
  assert.deepEqual(names(containers), ['app', 'sidecar']);
  assert.equal(dig(containers, '0.image'), 'app:2');
  assert.deepEqual(dig(containers, '0.env'), [{ name: 'A', value: 'a' }, { name: 'B', value: 'b2' }, { name: 'C', value: 'c' }]);
  assert.deepEqual(dig(containers, '0.ports'), dig(statefulSet(), 'spec.template.spec.containers.0.ports'));
  assert.deepEqual(dig(containers, '1'), { name: 'sidecar', image: 'side:1' });
});

test('StatefulSet: env items are deleted by name, a value source replaces a value', () => {
  const patched = sts(podSpec({
    containers: [{ name: 'app', env: [{ name: 'A', $patch: 'delete' }, { name: 'B', value: null, valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }] }],
  }));
  assert.deepEqual(dig(patched, 'spec.template.spec.containers.0.env'), [{ name: 'B', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }]);
});

test('StatefulSet: a new container goes first without $setElementOrder, where told with it', () => {
  const added = sts(podSpec({ containers: [{ name: 'debug', image: 'busybox' }] }));
  assert.deepEqual(names(dig(added, 'spec.template.spec.containers')), ['debug', 'app', 'sidecar']);
  const ordered = sts(podSpec({
    '$setElementOrder/containers': [{ name: 'app' }, { name: 'sidecar' }, { name: 'debug' }],
    containers: [{ name: 'debug', image: 'busybox' }],
  }));
  assert.deepEqual(names(dig(ordered, 'spec.template.spec.containers')), ['app', 'sidecar', 'debug']);
  assert.deepEqual(dig(ordered, 'spec.template.spec.containers.2'), { name: 'debug', image: 'busybox' });
});

test('StatefulSet: ports merge by containerPort and volumeMounts by mountPath', () => {
  const patched = sts(podSpec({
    containers: [{
      name: 'app',
      ports: [{ containerPort: 443, name: 'tls' }, { containerPort: 80, $patch: 'delete' }, { containerPort: 9090, name: 'metrics' }],
      volumeMounts: [{ mountPath: '/etc/app', readOnly: true }, { name: 'cache', mountPath: '/cache' }],
    }],
  }));
  assert.deepEqual(dig(patched, 'spec.template.spec.containers.0.ports'), [
    { containerPort: 443, name: 'tls' }, { containerPort: 9090, name: 'metrics' },
  ]);
  assert.deepEqual(dig(patched, 'spec.template.spec.containers.0.volumeMounts'), [
    { name: 'data', mountPath: '/data' }, { name: 'conf', mountPath: '/etc/app', readOnly: true }, { name: 'cache', mountPath: '/cache' },
  ]);
});

test('StatefulSet: a port without its merge key is refused', () => {
  rejects(statefulSet(), podSpec({ containers: [{ name: 'app', ports: [{ name: 'nokey' }] }] }), StatefulSet,
    /spec\.template\.spec\.containers\[name="app"\]\.ports\[0\].*merge key "containerPort"/);
});

test('StatefulSet: finalizers are a merged set of strings', () => {
  assert.deepEqual(dig(sts({ metadata: { finalizers: ['orch.io/b', 'orch.io/c'] } }), 'metadata.finalizers'), ['orch.io/a', 'orch.io/b', 'orch.io/c']);
  assert.deepEqual(dig(sts({ metadata: { '$deleteFromPrimitiveList/finalizers': ['orch.io/a'] } }), 'metadata.finalizers'), ['orch.io/b']);
  assert.deepEqual(dig(sts({ metadata: { '$setElementOrder/finalizers': ['orch.io/b', 'orch.io/a'] } }), 'metadata.finalizers'), ['orch.io/b', 'orch.io/a']);
  assert.deepEqual(dig(sts({ metadata: { finalizers: null } }), 'metadata.finalizers'), undefined);
});

test('StatefulSet: ownerReferences merge by uid', () => {
  const patched = sts({ metadata: { ownerReferences: [{ uid: 'u2', blockOwnerDeletion: true }, { uid: 'u1', $patch: 'delete' }] } });
  assert.deepEqual(dig(patched, 'metadata.ownerReferences'), [
    { apiVersion: 'v1', kind: 'Thing', name: 'two', uid: 'u2', controller: true, blockOwnerDeletion: true },
  ]);
});

test('StatefulSet: tolerations (atomic) are replaced', () => {
  const patched = sts(podSpec({ tolerations: [{ key: 'k3', operator: 'Exists' }] }));
  assert.deepEqual(dig(patched, 'spec.template.spec.tolerations'), [{ key: 'k3', operator: 'Exists' }]);
});

test('StatefulSet: volumes merge by name and honour $retainKeys to switch a source', () => {
  const patched = sts(podSpec({ volumes: [{ name: 'data', $retainKeys: ['name', 'configMap'], configMap: { name: 'seed' } }] }));
  assert.deepEqual(dig(patched, 'spec.template.spec.volumes'), [{ name: 'data', configMap: { name: 'seed' } }, { name: 'conf', configMap: { name: 'app' } }]);
  // Without it the sources merge side by side (and validation refuses two sources later).
  const merged = sts(podSpec({ volumes: [{ name: 'data', hostPath: { path: '/x' } }] }));
  assert.deepEqual(dig(merged, 'spec.template.spec.volumes.0'), { name: 'data', emptyDir: {}, hostPath: { path: '/x' } });
});

test('StatefulSet: labels and annotations (string maps) merge, null deletes', () => {
  const patched = sts({ metadata: { labels: { tier: null, track: 'beta' }, annotations: { more: 'y' } } });
  assert.deepEqual(dig(patched, 'metadata.labels'), { app: 'web', track: 'beta' });
  assert.deepEqual(dig(patched, 'metadata.annotations'), { note: 'x', more: 'y' });
});

test('StatefulSet: status conditions merge by type', () => {
  const patched = sts({ status: { conditions: [{ type: 'Progressing', status: 'True', reason: 'Rolling' }] } });
  assert.deepEqual(dig(patched, 'status.conditions'), [{ type: 'Ready', status: 'True' }, { type: 'Progressing', status: 'True', reason: 'Rolling' }]);
});

test('StatefulSet: quantity maps merge by key; int-or-string unions are scalars', () => {
  const patched = sts({
    spec: {
      updateStrategy: { rollingUpdate: { maxUnavailable: '50%' } },
      template: { spec: { containers: [{ name: 'app', resources: { limits: { memory: '2Gi', cpu: null }, requests: { cpu: 0.5 } } }] } },
    },
  });
  assert.deepEqual(dig(patched, 'spec.updateStrategy'), { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: '50%' } });
  assert.deepEqual(dig(patched, 'spec.template.spec.containers.0.resources'), { limits: { memory: '2Gi' }, requests: { cpu: 0.5 } });
});

test('StatefulSet: $patch directives on maps and on the containers list', () => {
  const replacedSelector = sts(podSpec({ nodeSelector: { $patch: 'replace', zone: 'b' } }));
  assert.deepEqual(dig(replacedSelector, 'spec.template.spec.nodeSelector'), { zone: 'b' });
  const noAffinity = sts(podSpec({ affinity: { $patch: 'delete' } }));
  assert.equal(Object.hasOwn(dig(noAffinity, 'spec.template.spec') as Json, 'affinity'), false);
  const oneContainer = sts(podSpec({ containers: [{ $patch: 'replace' }, { name: 'only', image: 'only:1' }] }));
  assert.deepEqual(dig(oneContainer, 'spec.template.spec.containers'), [{ name: 'only', image: 'only:1' }]);
});

test('StatefulSet: unknown fields are merged like JSON merge patch for the caller to report', () => {
  const patched = sts({ spec: { bogus: { a: 1, b: null }, template: { spec: { extra: [{ x: 1 }] } } } });
  assert.deepEqual(dig(patched, 'spec.bogus'), { a: 1 });
  assert.deepEqual(dig(patched, 'spec.template.spec.extra'), [{ x: 1 }]);
  assert.deepEqual(dig(sts({ spec: { bogus: { c: 3 } } }, sts({ spec: { bogus: { a: 1 } } })), 'spec.bogus'), { a: 1, c: 3 });
});

test('ObjectMeta alone works as a schema; a new finalizer goes first, as upstream', () => {
  assert.deepEqual(
    applyStrategicMergePatch({ name: 'x', finalizers: ['a'] }, { finalizers: ['b'], labels: { k: 'v' } }, ObjectMeta),
    { name: 'x', finalizers: ['b', 'a'], labels: { k: 'v' } },
  );
});

test('neither input is modified, and the result shares nothing with them', () => {
  const original = statefulSet();
  const patch = podSpec({
    '$setElementOrder/containers': [{ name: 'sidecar' }, { name: 'app' }],
    containers: [{ name: 'app', env: [{ name: 'A', $patch: 'delete' }, { name: 'Z', value: 'z' }] }],
    volumes: [{ name: 'data', $retainKeys: ['name', 'hostPath'], hostPath: { path: '/h' } }],
  });
  const before = JSON.stringify([original, patch]);
  const patched = sts(patch, original) as Json;
  assert.equal(JSON.stringify([original, patch]), before);
  (dig(patched, 'spec.template.spec.containers.1') as Json).image = 'changed';
  (dig(patched, 'metadata.labels') as Json).app = 'changed';
  assert.equal(JSON.stringify([original, patch]), before);
});

test('"__proto__" is an ordinary key', () => {
  const patch = JSON.parse('{"metadata": {"labels": {"__proto__": "x"}}, "__proto__": {"polluted": true}}') as unknown;
  const patched = sts(patch) as Json;
  assert.equal(Object.getPrototypeOf(patched), Object.prototype);
  assert.equal(Object.hasOwn(patched, '__proto__'), true);
  assert.equal(Object.hasOwn(dig(patched, 'metadata.labels') as Json, '__proto__'), true);
  assert.equal(({} as Json).polluted, undefined);
});

// ---- malformed patches ---------------------------------------------------------------------------

test('malformed patches are refused with StrategicMergePatchError', () => {
  const s = statefulSet();
  rejects(s, [], StatefulSet, /must be a JSON object, not a list/);
  rejects(s, 'x', StatefulSet, /must be a JSON object/);
  rejects(s, null, StatefulSet, /must be a JSON object, not null/);
  rejects(s, { spec: { $patch: 'remove' } }, StatefulSet, /^spec: unknown \$patch directive "remove"/);
  rejects(s, { $patch: 7 }, StatefulSet, /unknown \$patch directive 7/);
  rejects(s, podSpec({ containers: [{ name: 'app', $patch: 'nope' }] }), StatefulSet, /containers\[0\]: unknown \$patch directive "nope"/);
  rejects(s, podSpec({ containers: [{ image: 'x' }] }), StatefulSet, /merge key "name"/);
  rejects(s, podSpec({ containers: [{ $patch: 'delete' }] }), StatefulSet, /merge key "name"/);
  rejects(s, podSpec({ containers: [{ $patch: 'replace' }, { image: 'x' }] }), StatefulSet, /merge key "name"/);
  rejects(s, podSpec({ '$setElementOrder/containers': { name: 'app' } }), StatefulSet, /\$setElementOrder\/containers must be a list/);
  rejects(s, podSpec({ '$setElementOrder/containers': [{ image: 'x' }] }), StatefulSet, /merge key "name"/);
  rejects(s, podSpec({ '$setElementOrder/containers': [{ name: 'app' }], containers: null }), StatefulSet, /containers must be a list/);
  rejects(s, { metadata: { '$setElementOrder/finalizers': [{ a: 1 }] } }, StatefulSet, /must be a scalar/);
  rejects(s, { metadata: { '$deleteFromPrimitiveList/finalizers': 'orch.io/a' } }, StatefulSet, /\$deleteFromPrimitiveList\/finalizers must be a list/);
  rejects(s, { metadata: { '$deleteFromPrimitiveList/finalizers': null } }, StatefulSet, /must be a list, not null/);
  rejects(s, { metadata: { $deleteFromPrimitiveList: ['a'] } }, StatefulSet, /must have the form \$deleteFromPrimitiveList\/<field>/);
  rejects(s, { metadata: { '$setElementOrder/': [] } }, StatefulSet, /must have the form \$setElementOrder\/<field>/);
  rejects(s, podSpec({ volumes: [{ name: 'data', $retainKeys: 'name' }] }), StatefulSet, /\$retainKeys must be a list/);
  rejects(s, podSpec({ volumes: [{ name: 'data', $retainKeys: ['name'], hostPath: { path: '/x' } }] }), StatefulSet,
    /field "hostPath" is set by the patch but not listed in \$retainKeys/);
  rejects(s, podSpec({ containers: ['app'] }), StatefulSet, /only objects or only scalars/);
  rejects(s, { metadata: { finalizers: [['a']] } }, StatefulSet, /cannot hold lists/);
  rejects({ parts: [{ name: 'a' }, { name: 'c' }, { name: 'b' }] }, {
    '$setElementOrder/parts': [{ name: 'a' }, { name: 'b' }, { name: 'c' }],
    parts: [{ name: 'c', value: '3' }, { name: 'a', value: '1' }],
  }, Part, /doesn't match \$setElementOrder\/parts/);
  rejects({ ids: [1, 3, 2] }, { '$setElementOrder/ids': [1, 2, 3], ids: [3, 1] }, Part, /doesn't match/);
  rejects({}, { parts: [{ name: 'a', parts: [{ value: 'x' }] }] }, Part, /parts\[name="a"\]\.parts\[0\].*merge key "name"/);
  rejects({}, { x: { parts: 1 }, list: [{ $patch: 'bad' }] }, Part, /list\[0\]: unknown \$patch directive/);
});

test('a list of objects marked merge but without a merge key cannot merge', () => {
  const schema = { type: 'object', properties: { things: { type: 'array', 'x-orch-patch-strategy': 'merge', items: { type: 'object' } } } };
  rejects({ things: [{ a: 1 }] }, { things: [{ a: 2 }] }, schema, /no merge key/);
  assert.deepEqual(applyStrategicMergePatch({ things: ['a'] }, { things: ['b', 'a'] }, schema), { things: ['b', 'a'] });
});

test('absurdly deep nesting is refused, not a crash', () => {
  let deep: Json = {};
  for (let i = 0; i < 200_000; i++) deep = { a: deep };
  rejects({}, deep, {}, /nested too deeply/);
});

// ---- fuzzing --------------------------------------------------------------------------------------


const fieldKeys = [
  'metadata', 'spec', 'status', 'template', 'containers', 'initContainers', 'env', 'ports', 'volumeMounts', 'volumes',
  'finalizers', 'ownerReferences', 'labels', 'annotations', 'tolerations', 'conditions', 'name', 'containerPort',
  'mountPath', 'uid', 'type', 'value', 'image', 'resources', 'limits', 'emptyDir', 'configMap', 'selector',
  'matchLabels', 'updateStrategy', 'rollingUpdate', 'maxUnavailable', 'replicas', 'nodeSelector', 'affinity',
  'parts', 'ids', 'tags', 'source', 'sources', 'stack', 'blob', 'x', '', 'constructor', 'toString', '__proto__',
];
const directiveKeys = [
  '$patch', '$retainKeys', '$setElementOrder/containers', '$setElementOrder/finalizers', '$setElementOrder/env',
  '$setElementOrder/parts', '$setElementOrder/ids', '$deleteFromPrimitiveList/finalizers', '$deleteFromPrimitiveList/ids',
  '$setElementOrder', '$deleteFromPrimitiveList/', '$setElementOrder/tolerations', '$other',
];
const scalars: unknown[] = [
  null, true, false, 0, 1, -1, 80, 443, 2.5, '', 'a', 'b', 'app', 'sidecar', 'replace', 'delete', 'merge', 'orch.io/a', 'u1',
];

function generator(seed: number, options: { directives: boolean; objectsInLists: boolean }) {
  const rnd = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)] as T;
  const value = (depth: number): unknown => {
    const r = rnd();
    if (depth <= 0 || r < 0.3) return pick(scalars);
    if (r < 0.65) return object(depth - 1);
    const n = Math.floor(rnd() * 4);
    return Array.from({ length: n }, () => (options.objectsInLists ? value(depth - 1) : pick(scalars)));
  };
  const object = (depth: number): Json => {
    const out: Json = {};
    const n = Math.floor(rnd() * 5);
    for (let i = 0; i < n; i++) {
      const key = options.directives && rnd() < 0.3 ? pick(directiveKeys) : pick(fieldKeys);
      let v = value(depth);
      if (key === '$patch' && rnd() < 0.8) v = pick(['replace', 'delete', 'merge']);
      Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
    }
    return out;
  };
  return { value, object, rnd, pick };
}

function hasDirectiveKeys(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasDirectiveKeys);
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(value).some(([k, v]) => k === '$patch' || k === '$retainKeys' || k.startsWith('$setElementOrder')
    || k.startsWith('$deleteFromPrimitiveList') || hasDirectiveKeys(v));
}

/** The same JSON with the keys of every object in another order. */
function shuffleKeys(value: unknown, rnd: () => number): unknown {
  if (Array.isArray(value)) return value.map((v) => shuffleKeys(v, rnd));
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).sort(() => rnd() - 0.5);
  const out: Json = {};
  for (const [k, v] of entries) Object.defineProperty(out, k, { value: shuffleKeys(v, rnd), enumerable: true, writable: true, configurable: true });
  return out;
}

test('fuzz: random patches only ever fail with StrategicMergePatchError and leave inputs alone', () => {
  const schemas: object[] = [StatefulSet, Part, {}];
  let applied = 0;
  let refused = 0;
  for (let seed = 1; seed <= 4000; seed++) {
    const g = generator(seed, { directives: true, objectsInLists: true });
    const original = g.rnd() < 0.5 ? statefulSet() : g.object(4);
    const patch = g.rnd() < 0.05 ? g.value(3) : g.object(5);
    const schema = g.pick(schemas);
    const before = JSON.stringify([original, patch]);
    let result: unknown;
    try {
      result = applyStrategicMergePatch(original, patch, schema);
      applied++;
    } catch (err) {
      if (!(err instanceof StrategicMergePatchError)) {
        assert.fail(`seed ${seed}: unexpected ${String(err)}\noriginal ${JSON.stringify(original)}\npatch ${JSON.stringify(patch)}`);
      }
      refused++;
      continue;
    } finally {
      assert.equal(JSON.stringify([original, patch]), before, `seed ${seed}: an input was modified`);
    }
    assert.doesNotThrow(() => JSON.stringify(result));
    if (!hasDirectiveKeys(original)) assert.equal(hasDirectiveKeys(result), false, `seed ${seed}: a directive leaked into the result`);
    // The result never depends on the order of keys in the patch (upstream iterates a Go map).
    assert.deepEqual(applyStrategicMergePatch(original, shuffleKeys(patch, g.rnd), schema), result, `seed ${seed}: key order matters`);
  }
  // Both outcomes must be exercised, or the generator is broken.
  assert.ok(applied > 500 && refused > 200, `applied ${applied}, refused ${refused}`);
});

test('fuzz: without directives or list merging, it is exactly JSON merge patch', () => {
  for (let seed = 1; seed <= 2000; seed++) {
    const g = generator(seed, { directives: false, objectsInLists: false });
    const original = g.object(4);
    const patch = g.object(5);
    const withoutProto = (v: unknown) => !JSON.stringify(v).includes('"__proto__"');
    if (!withoutProto(original) || !withoutProto(patch)) continue;
    assert.deepEqual(applyStrategicMergePatch(original, patch, {}), applyMergePatch(original, patch), `seed ${seed}`);
  }
});
