// The OpenAPI 3.0 documents (one per group/version) and their index.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { allGroupVersions } from '../../../api/index.js';
import { Scheme } from '../../runtime/scheme.js';
import { collectRefs } from './refs.js';
import { resolvePointer, schemasIn } from './document-walk.js';
import { serializeOpenAPI } from './canonical.js';
import { buildOpenAPIV3Documents, buildOpenAPIV3Index } from './v3.js';
import { isJsonObject, type JsonObject, type JsonValue } from './types.js';

const scheme = new Scheme(allGroupVersions);
const docs = buildOpenAPIV3Documents(scheme, { gitVersion: 'v0.1.0-test' }) as Map<string, JsonObject>;
const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const schemaKeywords = new Set(['title', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength',
  'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'maxProperties', 'minProperties', 'required', 'enum', 'type', 'allOf',
  'oneOf', 'anyOf', 'not', 'items', 'properties', 'additionalProperties', 'description', 'format', 'default', 'nullable',
  'discriminator', 'readOnly', 'writeOnly', 'xml', 'externalDocs', 'example', 'deprecated', '$ref']);

function* operations(doc: JsonObject): Generator<{ path: string; method: string; op: JsonObject; pathParams: JsonObject[] }> {
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, JsonValue>>)) {
    for (const method of methods) {
      const op = item[method];
      if (isJsonObject(op)) yield { path, method, op, pathParams: (item.parameters as JsonObject[] | undefined) ?? [] };
    }
  }
}

test('there is one document per served group/version, keyed as upstream keys them', () => {
  assert.deepEqual([...docs.keys()], ['api/v1', 'apis/apiregistration.orch.io/v1', 'apis/apps/v1', 'apis/events.orch.io/v1', 'apis/authentication.orch.io/v1', 'apis/authentication.orch.io/v1beta1', 'apis/authorization.orch.io/v1', 'apis/autoscaling/v2', 'apis/autoscaling/v1', 'apis/batch/v1', 'apis/certificates.orch.io/v1', 'apis/rbac.authorization.orch.io/v1', 'apis/storage.orch.io/v1',
    'apis/networking.orch.io/v1', 'apis/policy/v1',
    'apis/admissionregistration.orch.io/v1', 'apis/apiextensions.orch.io/v1', 'apis/scheduling.orch.io/v1', 'apis/coordination.orch.io/v1', 'apis/node.orch.io/v1', 'apis/discovery.orch.io/v1']);
});

test('each document has the OpenAPI 3.0 shape', () => {
  for (const [key, doc] of docs) {
    assert.deepEqual(Object.keys(doc).sort(), ['components', 'info', 'openapi', 'paths', 'security'], key);
    assert.equal(doc.openapi, '3.0.0');
    assert.deepEqual(doc.info, { title: 'Orch', version: 'v0.1.0-test' });
    const components = doc.components as JsonObject;
    assert.ok(isJsonObject(components.schemas), key);
    assert.equal((components.securitySchemes as Record<string, JsonObject>).BearerToken!.type, 'apiKey');
    const prefix = `/${key}/`;
    for (const path of Object.keys(doc.paths as JsonObject)) assert.ok(path.startsWith(prefix), `${key}: ${path}`);
    for (const { path, method, op, pathParams } of operations(doc)) {
      const where = `${key} ${method.toUpperCase()} ${path}`;
      assert.equal(typeof op.operationId, 'string', where);
      const params = [...pathParams, ...((op.parameters as JsonObject[] | undefined) ?? [])];
      for (const p of params) {
        assert.ok(['query', 'path'].includes(String(p.in)), where);
        assert.ok(isJsonObject(p.schema) && typeof p.schema.type === 'string', `${where} ${String(p.name)}`);
        assert.equal('type' in p, false, `${where}: v2-style parameter ${String(p.name)}`);
        if (p.in === 'path') assert.equal(p.required, true, where);
      }
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      assert.deepEqual(params.filter((p) => p.in === 'path').map((p) => String(p.name)).sort(), templated, where);
      assert.equal('consumes' in op || 'produces' in op, false, `${where}: v2 media type lists`);
      if (op.requestBody !== undefined) {
        const content = (op.requestBody as JsonObject).content as Record<string, JsonObject>;
        assert.ok(Object.keys(content).length > 0, where);
        for (const mt of Object.values(content)) assert.ok(isJsonObject(mt.schema), where);
      }
      for (const [code, r] of Object.entries(op.responses as Record<string, JsonObject>)) {
        assert.equal(typeof r.description, 'string', `${where} ${code}`);
        if (r.content !== undefined) for (const mt of Object.values(r.content as Record<string, JsonObject>)) assert.ok(isJsonObject(mt.schema));
      }
    }
    for (const [name, def] of Object.entries(components.schemas as Record<string, JsonObject>)) {
      for (const [pointer, s] of schemasIn(def, name)) {
        for (const k of Object.keys(s)) assert.ok(schemaKeywords.has(k) || k.startsWith('x-'), `${key} ${pointer} has ${k}`);
        if (s.type === 'array') assert.ok(isJsonObject(s.items), `${key} ${pointer}: arrays need items in 3.0`);
        if (typeof s.$ref === 'string') assert.deepEqual(Object.keys(s), ['$ref'], `${key} ${pointer}: $ref with siblings (3.0 ignores them)`);
      }
    }
  }
});

test('every $ref resolves within its own document, and only the definitions the paths reach are included', () => {
  for (const [key, doc] of docs) {
    const refs = collectRefs(doc);
    for (const ref of refs) {
      assert.match(ref, /^#\/components\/schemas\//, key);
      assert.ok(isJsonObject(resolvePointer(doc, ref)), `${key}: unresolved ${ref}`);
    }
    const used = new Set(refs);
    for (const name of Object.keys((doc.components as JsonObject).schemas as JsonObject)) {
      assert.ok(used.has(`#/components/schemas/${name}`), `${key}: unused ${name}`);
    }
  }
  const apps = Object.keys(((docs.get('apis/apps/v1')!.components as JsonObject).schemas as JsonObject));
  assert.ok(apps.includes('io.orch.api.core.v1.PodSpec'));
  assert.equal(apps.includes('io.orch.api.core.v1.ConfigMap'), false);
  assert.equal(apps.includes('io.orch.api.rbac.v1.Role'), false);
});

test('kubectl finds fieldValidation and dryRun on the PATCH operation of every kind (its server-side validation check)', () => {
  for (const gv of allGroupVersions) {
    const doc = docs.get(gv.group === '' ? `api/${gv.version}` : `apis/${gv.group}/${gv.version}`)!;
    for (const k of gv.kinds.filter((kind) => !kind.virtual)) {
      const gvk = { group: gv.group, kind: k.kind, version: gv.version };
      // As kubectl does: the first PATCH operation of the kind must list the parameter itself.
      const patch = [...operations(doc)].find((o) => o.method === 'patch' && JSON.stringify(o.op['x-kubernetes-group-version-kind']) === JSON.stringify(gvk));
      assert.ok(patch, `no PATCH for ${k.kind}`);
      const names = ((patch.op.parameters as JsonObject[] | undefined) ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      assert.ok(names.includes('fieldValidation') && names.includes('dryRun'), `${k.kind}: ${names.join(',')}`);
    }
  }
});

test('operations carry actions, kinds and upstream operation IDs; bodies and answers are typed', () => {
  const apps = docs.get('apis/apps/v1')!;
  const ops = new Map([...operations(apps)].map((o) => [String(o.op.operationId), o]));
  const patch = ops.get('patchAppsV1NamespacedStatefulSetStatus')!.op;
  assert.equal(patch['x-kubernetes-action'], 'patch');
  assert.deepEqual(patch['x-kubernetes-group-version-kind'], { group: 'apps', kind: 'StatefulSet', version: 'v1' });
  const body = patch.requestBody as JsonObject;
  assert.equal(body.required, true);
  assert.deepEqual(Object.keys(body.content as JsonObject).sort(), ['application/apply-patch+yaml', 'application/json-patch+json',
    'application/merge-patch+json', 'application/strategic-merge-patch+json']);
  const create = ops.get('createAppsV1NamespacedStatefulSet')!.op;
  assert.deepEqual((create.requestBody as JsonObject).content, { '*/*': { schema: { $ref: '#/components/schemas/io.orch.api.apps.v1.StatefulSet' } } });
  const list = ops.get('listAppsV1StatefulSetForAllNamespaces')!.op;
  const ok = (list.responses as Record<string, JsonObject>)['200']!;
  assert.deepEqual(Object.keys(ok.content as JsonObject).sort(), ['application/json', 'application/json;stream=watch',
    'application/vnd.orch.protobuf', 'application/vnd.orch.protobuf;stream=watch', 'application/yaml']);
  assert.deepEqual(((ok.content as Record<string, JsonObject>)['application/json']!.schema), { $ref: '#/components/schemas/io.orch.api.apps.v1.StatefulSetList' });
  const del = ops.get('deleteAppsV1NamespacedStatefulSet')!.op;
  assert.equal((del.requestBody as JsonObject).required, undefined);
  assert.ok(ops.has('getAppsV1APIResources'));
  assert.ok(ops.has('readAppsV1NamespacedStatefulSet'));
});

test('the index lists each document once, under a URL carrying the SHA-512 of its served bytes', () => {
  const index = buildOpenAPIV3Index(docs) as { paths: Record<string, { serverRelativeURL: string }> };
  assert.deepEqual(Object.keys(index.paths), [...docs.keys()]);
  for (const [key, doc] of docs) {
    const hash = createHash('sha512').update(serializeOpenAPI(doc)).digest('hex').toUpperCase();
    assert.equal(index.paths[key]!.serverRelativeURL, `/openapi/v3/${key}?hash=${hash}`);
    assert.match(hash, /^[0-9A-F]{128}$/);
  }
  const again = buildOpenAPIV3Index(buildOpenAPIV3Documents(scheme, { gitVersion: 'v0.1.0-test' }));
  assert.deepEqual(again, index, 'the same scheme gives the same hashes');
  const other = buildOpenAPIV3Index(buildOpenAPIV3Documents(scheme, { gitVersion: 'v0.1.1' })) as typeof index;
  assert.notEqual(other.paths['api/v1']!.serverRelativeURL, index.paths['api/v1']!.serverRelativeURL);
});

test('a group/version the scheme does not serve has no document', () => {
  const partial = new Scheme(allGroupVersions.filter((gv) => gv.group !== 'policy'));
  const keys = [...buildOpenAPIV3Documents(partial, { gitVersion: 'x' }).keys()];
  assert.equal(keys.includes('apis/policy/v1'), false);
  assert.equal(keys.length, allGroupVersions.length - 1);
});
