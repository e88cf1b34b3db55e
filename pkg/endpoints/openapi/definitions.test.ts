// The definitions of the real scheme, in both published dialects.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allGroupVersions } from '../../../api/index.js';
import { Scheme } from '../../runtime/scheme.js';
import { objectsIn, schemasIn } from './document-walk.js';
import { groupVersionKey } from './paths.js';
import { buildOpenAPIV2 } from './v2.js';
import { buildOpenAPIV3Documents } from './v3.js';
import { isJsonObject, type JsonObject } from './types.js';

const scheme = new Scheme(allGroupVersions);
const version = { gitVersion: 'v0.1.0-test' };
const v2 = buildOpenAPIV2(scheme, version) as JsonObject;
const v3 = buildOpenAPIV3Documents(scheme, version) as Map<string, JsonObject>;
const v2Defs = v2.definitions as Record<string, JsonObject>;
const v3Defs = (key: string) => (v3.get(key)!.components as JsonObject).schemas as Record<string, JsonObject>;

const kinds = allGroupVersions.flatMap((gv) => gv.kinds.map((k) => ({ gv, k, name: String(k.schema['x-orch-type']) })));

/** Both dialects, as [label, definitions] pairs; each v3 document on its own. */
const dialects = (): [string, Record<string, JsonObject>][] => [
  ['v2', v2Defs],
  ...[...v3.keys()].map((key): [string, Record<string, JsonObject>] => [`v3 ${key}`, v3Defs(key)]),
];

test('every kind has a definition carrying its group/version/kind under both extensions, in v2 and in its v3 document', () => {
  assert.ok(kinds.length >= 14);
  for (const { gv, k, name } of kinds) {
    const gvk = [{ group: gv.group, kind: k.kind, version: gv.version }];
    const listName = `${name.slice(0, name.lastIndexOf('.'))}.${k.kind}List`;
    const listGVK = [{ group: gv.group, kind: `${k.kind}List`, version: gv.version }];
    for (const defs of [v2Defs, v3Defs(groupVersionKey(gv))]) {
      assert.deepEqual(defs[name]?.['x-kubernetes-group-version-kind'], gvk, name);
      assert.deepEqual(defs[name]?.['x-orch-group-version-kind'], gvk, name);
      if (k.virtual) {
        assert.equal(defs[listName], undefined, `${listName}: a review is never listed`);
      } else {
        assert.deepEqual(defs[listName]?.['x-kubernetes-group-version-kind'], listGVK, listName);
        assert.deepEqual(defs[listName]?.['x-orch-group-version-kind'], listGVK, listName);
        assert.deepEqual(defs[listName]?.required, ['items']);
      }
      assert.deepEqual(Object.keys((defs[name]!.properties as JsonObject)).sort(), Object.keys(k.schema.properties).sort(),
        `${name} publishes exactly the fields of its schema`);
    }
  }
});

test('a kind is found by its group/version/kind exactly once in each document, as kubectl explain looks it up', () => {
  for (const [label, defs] of dialects()) {
    const seen = new Map<string, string[]>();
    for (const [name, def] of Object.entries(defs)) {
      for (const g of (def['x-kubernetes-group-version-kind'] as JsonObject[] | undefined) ?? []) {
        const key = `${String(g.group)}/${String(g.version)}/${String(g.kind)}`;
        seen.set(key, [...(seen.get(key) ?? []), name]);
      }
    }
    for (const [key, names] of seen) assert.equal(names.length, 1, `${label}: ${key} is claimed by ${names.join(', ')}`);
  }
});

test('no protobuf numbering, TypeBox or JSON Schema-only keywords are left in any document', () => {
  const forbidden = ['x-proto', 'x-orch-proto-embedded', 'x-orch-protobuf', 'x-orch-type', 'patternProperties', 'const', '$id', '$schema'];
  for (const [label, doc] of [['v2', v2] as const, ...[...v3].map(([k, d]) => [`v3 ${k}`, d] as const)]) {
    for (const [pointer, obj] of objectsIn(doc)) {
      if (pointer.endsWith('/properties')) continue; // field names, not keywords
      for (const key of forbidden) assert.equal(key in obj, false, `${label}${pointer} has ${key}`);
    }
  }
});

test('every merge marker is published under our name and upstream name with the same value', () => {
  const markers = ['list-type', 'list-map-keys', 'patch-strategy', 'patch-merge-key', 'map-type', 'preserve-unknown-fields'];
  let count = 0;
  for (const [label, defs] of dialects()) {
    for (const [name, def] of Object.entries(defs)) {
      for (const [pointer, s] of schemasIn(def, name)) {
        for (const m of markers) {
          // A use's own struct type (beside a $ref) is published under upstream's map type name.
          const ours = m === 'map-type' ? s['x-orch-struct-type'] ?? s['x-orch-map-type'] : s[`x-orch-${m}`];
          assert.deepEqual(s[`x-kubernetes-${m}`], ours, `${label} ${pointer} ${m}`);
          if (ours !== undefined) count++;
        }
      }
    }
  }
  assert.ok(count > 50, `only ${count} markers found`);
});

test('PodSpec.containers is a map list merged by name (what kubectl apply computes patches with)', () => {
  for (const [label, defs] of [['v2', v2Defs], ['v3 apps', v3Defs('apis/apps/v1')]] as const) {
    const containers = (defs['io.orch.api.core.v1.PodSpec']!.properties as Record<string, JsonObject>).containers!;
    assert.equal(containers['x-kubernetes-patch-strategy'], 'merge', label);
    assert.equal(containers['x-kubernetes-patch-merge-key'], 'name', label);
    assert.equal(containers['x-kubernetes-list-type'], 'map', label);
    assert.deepEqual(containers['x-kubernetes-list-map-keys'], ['name'], label);
    assert.equal(containers['x-orch-patch-merge-key'], 'name', label);
    assert.match(String((containers.items as JsonObject).$ref), /io\.orch\.api\.core\.v1\.Container$/);
  }
});

test('IntOrString and Quantity are referenced where used and published in upstream\'s exact forms', () => {
  const ios = 'io.orch.apimachinery.pkg.util.intstr.IntOrString';
  const qty = 'io.orch.apimachinery.pkg.api.resource.Quantity';
  const apps = v3Defs('apis/apps/v1');
  const rolling = (apps['io.orch.api.apps.v1.RollingUpdateStatefulSetStrategy']!.properties as Record<string, JsonObject>).maxUnavailable!;
  assert.deepEqual(rolling.allOf, [{ $ref: `#/components/schemas/${ios}` }]);
  const { description: iosV3Description, ...iosV3 } = apps[ios]!;
  assert.deepEqual(iosV3, { format: 'int-or-string', oneOf: [{ type: 'integer' }, { type: 'string' }] });
  assert.equal(typeof iosV3Description, 'string');
  const { description: _d2, ...iosV2 } = v2Defs[ios]!;
  assert.deepEqual(iosV2, { type: 'string', format: 'int-or-string' });
  const { description: qtyV2Description, ...qtyV2 } = v2Defs[qty]!;
  assert.deepEqual(qtyV2, { type: 'string' });
  assert.ok(String(qtyV2Description).length > 50);
  const { description: _d3, ...qtyV3 } = apps[qty]!;
  assert.deepEqual(qtyV3, { oneOf: [{ type: 'string' }, { type: 'number' }] });
  const { description: overheadDescription, ...overhead } = (v2Defs['io.orch.api.core.v1.PodSpec']!.properties as Record<string, JsonObject>).overhead!;
  assert.deepEqual(overhead, { type: 'object', additionalProperties: { $ref: '#/definitions/io.orch.apimachinery.pkg.api.resource.Quantity' } });
  assert.ok(String(overheadDescription).length > 0, 'the field keeps its own description beside the map');
  const time = v2Defs['io.orch.apimachinery.pkg.apis.meta.v1.Time']!;
  assert.deepEqual([time.type, time.format], ['string', 'date-time']);
  const meta = v2Defs['io.orch.apimachinery.pkg.apis.meta.v1.ObjectMeta']!.properties as Record<string, JsonObject>;
  assert.equal(meta.creationTimestamp!.$ref, '#/definitions/io.orch.apimachinery.pkg.apis.meta.v1.Time');
  assert.equal(typeof meta.creationTimestamp!.description, 'string', 'the field\'s description beside the $ref');
  assert.deepEqual(meta.labels!.additionalProperties, { type: 'string' });
});

test('defaults are published in v3 and not in v2', () => {
  const spec = (defs: Record<string, JsonObject>) => defs['io.orch.api.apps.v1.StatefulSetSpec']!.properties as Record<string, JsonObject>;
  assert.equal(spec(v3Defs('apis/apps/v1')).replicas!.default, 1);
  assert.equal(spec(v3Defs('apis/apps/v1')).podManagementPolicy!.default, 'OrderedReady');
  assert.equal(spec(v2Defs).replicas!.default, undefined);
  for (const [pointer, obj] of objectsIn(v2)) {
    if (!pointer.endsWith('/properties')) assert.equal('default' in obj, false, `v2${pointer} has a default`);
  }
});

test('a struct field with its own patch strategy keeps it beside the reference', () => {
  const pdbSpec = 'io.orch.api.policy.v1.PodDisruptionBudgetSpec';
  const selector3 = (v3Defs('apis/policy/v1')[pdbSpec]!.properties as Record<string, JsonObject>).selector!;
  assert.deepEqual(selector3.allOf, [{ $ref: '#/components/schemas/io.orch.apimachinery.pkg.apis.meta.v1.LabelSelector' }]);
  assert.equal(selector3['x-kubernetes-patch-strategy'], 'replace');
  const selector2 = (v2Defs[pdbSpec]!.properties as Record<string, JsonObject>).selector!;
  assert.equal(selector2.$ref, '#/definitions/io.orch.apimachinery.pkg.apis.meta.v1.LabelSelector');
  assert.equal(selector2['x-kubernetes-patch-strategy'], 'replace');
});

test('the shared meta kinds name every served group/version', () => {
  const deleteOptions = v2Defs['io.orch.apimachinery.pkg.apis.meta.v1.DeleteOptions']!['x-kubernetes-group-version-kind'] as JsonObject[];
  const groups = deleteOptions.map((g) => `${String(g.group)}/${String(g.version)}`);
  for (const gv of allGroupVersions) assert.ok(groups.includes(`${gv.group}/${gv.version}`), `${gv.group}/${gv.version}`);
  assert.deepEqual(v2Defs['io.orch.apimachinery.pkg.apis.meta.v1.Status']!['x-kubernetes-group-version-kind'],
    [{ group: '', kind: 'Status', version: 'v1' }]);
  assert.ok(isJsonObject(v2Defs['io.orch.apimachinery.pkg.apis.meta.v1.Patch']));
});
