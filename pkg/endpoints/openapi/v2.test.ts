// The Swagger 2.0 document: its overall shape, its references and the operations of the scheme.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allGroupVersions } from '../../../api/index.js';
import type { GroupVersionRegistration } from '../../../api/registration.js';
import { Scheme } from '../../runtime/scheme.js';
import { collectRefs } from './refs.js';
import { objectsIn, resolvePointer, schemasIn } from './document-walk.js';
import { buildOpenAPIV2 } from './v2.js';
import { isJsonObject, type JsonObject, type JsonValue } from './types.js';

const build = (gvs: GroupVersionRegistration[] = allGroupVersions) =>
  buildOpenAPIV2(new Scheme(gvs), { gitVersion: 'v0.1.0-test' }) as JsonObject;
const doc = build();
const paths = doc.paths as Record<string, Record<string, JsonObject>>;
const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];

interface Op { path: string; method: string; op: JsonObject; params: JsonObject[] }

/** Every operation with its parameters resolved (path-level ones included). */
function operations(d: JsonObject = doc): Op[] {
  const out: Op[] = [];
  for (const [path, item] of Object.entries(d.paths as Record<string, Record<string, JsonValue>>)) {
    const shared = ((item.parameters as JsonObject[] | undefined) ?? []).map((p) => resolveParam(d, p));
    for (const method of methods) {
      const op = item[method];
      if (!isJsonObject(op)) continue;
      const own = ((op.parameters as JsonObject[] | undefined) ?? []).map((p) => resolveParam(d, p));
      out.push({ path, method, op, params: [...shared, ...own] });
    }
  }
  return out;
}

function resolveParam(d: JsonObject, p: JsonObject): JsonObject {
  if (typeof p.$ref !== 'string') return p;
  const target = resolvePointer(d, p.$ref);
  assert.ok(isJsonObject(target), `unresolved ${p.$ref}`);
  return target;
}

const byId = (id: string, d?: JsonObject) => {
  const found = operations(d).find((o) => o.op.operationId === id);
  assert.ok(found, `no operation ${id}`);
  return found;
};

// Keywords of the Swagger 2.0 Schema Object (anything else must be a vendor extension).
const schemaKeywords = new Set(['$ref', 'format', 'title', 'description', 'default', 'multipleOf', 'maximum', 'exclusiveMaximum',
  'minimum', 'exclusiveMinimum', 'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'maxProperties',
  'minProperties', 'required', 'enum', 'type', 'items', 'allOf', 'properties', 'additionalProperties', 'discriminator', 'readOnly',
  'xml', 'externalDocs', 'example']);
const simpleTypes = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);

test('the document has the Swagger 2.0 top level with our title and the server version', () => {
  assert.deepEqual(Object.keys(doc).sort(), ['definitions', 'info', 'parameters', 'paths', 'security', 'securityDefinitions', 'swagger']);
  assert.equal(doc.swagger, '2.0');
  assert.deepEqual(doc.info, { title: 'Orch', version: 'v0.1.0-test' });
  assert.deepEqual(doc.security, [{ BearerToken: [] }]);
  assert.equal((doc.securityDefinitions as Record<string, JsonObject>).BearerToken!.type, 'apiKey');
});

test('paths and operations have the Swagger 2.0 shape', () => {
  const ids = new Set<string>();
  for (const [path, item] of Object.entries(paths)) {
    assert.match(path, /^\/(api|apis)\//);
    for (const key of Object.keys(item)) assert.ok([...methods, 'parameters'].includes(key), `${path} has ${key}`);
  }
  for (const { path, method, op, params } of operations()) {
    const where = `${method.toUpperCase()} ${path}`;
    assert.equal(typeof op.operationId, 'string', where);
    assert.ok(!ids.has(String(op.operationId)), `duplicate operationId ${String(op.operationId)}`);
    ids.add(String(op.operationId));
    assert.equal(typeof op.description, 'string', where);
    for (const list of ['consumes', 'produces', 'schemes', 'tags']) {
      assert.ok(Array.isArray(op[list]) && (op[list] as JsonValue[]).every((v) => typeof v === 'string'), `${where} ${list}`);
    }
    const responses = op.responses as Record<string, JsonObject>;
    assert.ok(Object.keys(responses).length > 0, where);
    for (const [code, r] of Object.entries(responses)) {
      assert.match(code, /^[1-5][0-9][0-9]$/, where);
      assert.equal(typeof r.description, 'string', `${where} ${code}`);
    }
    assert.equal(params.filter((p) => p.in === 'body').length <= 1, true, `${where} has several bodies`);
    const seen = new Set<string>();
    for (const p of params) {
      assert.ok(['query', 'path', 'body'].includes(String(p.in)), `${where} ${String(p.name)}`);
      assert.ok(!seen.has(`${String(p.in)}:${String(p.name)}`), `${where} declares ${String(p.name)} twice`);
      seen.add(`${String(p.in)}:${String(p.name)}`);
      if (p.in === 'body') assert.ok(isJsonObject(p.schema), where);
      else assert.ok(simpleTypes.has(String(p.type)), `${where} ${String(p.name)}`);
      if (p.in === 'path') assert.equal(p.required, true, `${where} ${String(p.name)}`);
    }
    const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
    assert.deepEqual(params.filter((p) => p.in === 'path').map((p) => String(p.name)).sort(), templated, where);
  }
  assert.ok(ids.size > 100);
});

test('definitions use only Swagger 2.0 schema keywords', () => {
  for (const [name, def] of Object.entries(doc.definitions as Record<string, JsonObject>)) {
    for (const [pointer, s] of schemasIn(def, name)) {
      for (const key of Object.keys(s)) assert.ok(schemaKeywords.has(key) || key.startsWith('x-'), `${pointer} has ${key}`);
      if (s.type !== undefined) assert.ok(simpleTypes.has(String(s.type)), `${pointer} type ${JSON.stringify(s.type)}`);
      if (s.type === 'array') assert.ok(isJsonObject(s.items), `${pointer} is an array without items`);
    }
  }
});

test('every $ref resolves within the document, and every declared parameter and definition is used', () => {
  const refs = collectRefs(doc);
  assert.ok(refs.length > 500);
  for (const ref of refs) assert.ok(isJsonObject(resolvePointer(doc, ref)), `unresolved ${ref}`);
  const used = new Set(refs);
  for (const name of Object.keys(doc.definitions as JsonObject)) assert.ok(used.has(`#/definitions/${name}`), `unused definition ${name}`);
  for (const name of Object.keys(doc.parameters as JsonObject)) assert.ok(used.has(`#/parameters/${name}`), `unused parameter ${name}`);
  // Only references, never pointers to elsewhere.
  for (const [, obj] of objectsIn(doc)) if (typeof obj.$ref === 'string') assert.match(obj.$ref, /^#\/(definitions|parameters)\//);
});

test('StatefulSet has upstream operation IDs, actions and kinds on every operation', () => {
  const expected: [string, string, string, string][] = [
    ['listAppsV1NamespacedStatefulSet', 'get', '/apis/apps/v1/namespaces/{namespace}/statefulsets', 'list'],
    ['createAppsV1NamespacedStatefulSet', 'post', '/apis/apps/v1/namespaces/{namespace}/statefulsets', 'post'],
    ['deleteAppsV1CollectionNamespacedStatefulSet', 'delete', '/apis/apps/v1/namespaces/{namespace}/statefulsets', 'deletecollection'],
    ['listAppsV1StatefulSetForAllNamespaces', 'get', '/apis/apps/v1/statefulsets', 'list'],
    ['readAppsV1NamespacedStatefulSet', 'get', '/apis/apps/v1/namespaces/{namespace}/statefulsets/{name}', 'get'],
    ['replaceAppsV1NamespacedStatefulSet', 'put', '/apis/apps/v1/namespaces/{namespace}/statefulsets/{name}', 'put'],
    ['patchAppsV1NamespacedStatefulSet', 'patch', '/apis/apps/v1/namespaces/{namespace}/statefulsets/{name}', 'patch'],
    ['deleteAppsV1NamespacedStatefulSet', 'delete', '/apis/apps/v1/namespaces/{namespace}/statefulsets/{name}', 'delete'],
    ['readAppsV1NamespacedStatefulSetStatus', 'get', '/apis/apps/v1/namespaces/{namespace}/statefulsets/{name}/status', 'get'],
    ['replaceAppsV1NamespacedStatefulSetStatus', 'put', '/apis/apps/v1/namespaces/{namespace}/statefulsets/{name}/status', 'put'],
    ['patchAppsV1NamespacedStatefulSetStatus', 'patch', '/apis/apps/v1/namespaces/{namespace}/statefulsets/{name}/status', 'patch'],
    ['readAppsV1NamespacedStatefulSetScale', 'get', '/apis/apps/v1/namespaces/{namespace}/statefulsets/{name}/scale', 'get'],
    ['replaceAppsV1NamespacedStatefulSetScale', 'put', '/apis/apps/v1/namespaces/{namespace}/statefulsets/{name}/scale', 'put'],
    ['patchAppsV1NamespacedStatefulSetScale', 'patch', '/apis/apps/v1/namespaces/{namespace}/statefulsets/{name}/scale', 'patch'],
  ];
  for (const [id, method, path, action] of expected) {
    const o = byId(id);
    assert.deepEqual([o.method, o.path, o.op['x-kubernetes-action']], [method, path, action], id);
    // The scale sub-resource speaks autoscaling/v1 Scale, as upstream's operations say.
    const gvk = path.endsWith('/scale') ? { group: 'autoscaling', kind: 'Scale', version: 'v1' } : { group: 'apps', kind: 'StatefulSet', version: 'v1' };
    assert.deepEqual(o.op['x-kubernetes-group-version-kind'], gvk, id);
    assert.deepEqual(o.op['x-orch-group-version-kind'], gvk, id);
    assert.deepEqual(o.op.tags, ['apps_v1']);
  }
  const stsOps = operations().filter((o) => o.path.includes('/statefulsets'));
  assert.equal(stsOps.length, expected.length);
});

test('operation IDs of the core group, cluster-scoped kinds and dotted groups follow upstream naming', () => {
  for (const id of ['listCoreV1Namespace', 'createCoreV1Namespace', 'readCoreV1Namespace', 'deleteCoreV1Namespace', 'readCoreV1NamespaceStatus',
    'replaceCoreV1NamespaceFinalize', 'listCoreV1NamespacedConfigMap', 'listCoreV1ConfigMapForAllNamespaces',
    'listRbacAuthorizationV1ClusterRoleBinding', 'deleteRbacAuthorizationV1CollectionClusterRole', 'listRbacAuthorizationV1RoleForAllNamespaces',
    'patchStorageV1CSIDriver', 'replaceNetworkingV1NamespacedNetworkPolicyStatus', 'listPolicyV1PodDisruptionBudgetForAllNamespaces',
    'getCoreV1APIResources', 'getAppsV1APIResources', 'getCoreAPIVersions', 'getAPIVersions', 'getRbacAuthorizationAPIGroup']) byId(id);
  assert.deepEqual(byId('listRbacAuthorizationV1ClusterRoleBinding').op.tags, ['rbacAuthorization_v1']);
  assert.deepEqual(byId('listCoreV1Namespace').op.tags, ['core_v1']);
  // Namespaces have no deletecollection; finalize is update only; cluster-scoped kinds have no all-namespaces list.
  assert.equal(operations().some((o) => o.op.operationId === 'deleteCoreV1CollectionNamespace'), false);
  assert.deepEqual(operations().filter((o) => o.path.endsWith('/finalize')).map((o) => o.method), ['put']);
  assert.equal(operations().some((o) => String(o.op.operationId).includes('CSIDriverForAllNamespaces')), false);
});

test('each operation takes the parameters of its set, and PATCH accepts the patch media types', () => {
  const names = (o: Op) => o.params.filter((p) => p.in === 'query').map((p) => String(p.name)).sort();
  assert.deepEqual(names(byId('listAppsV1NamespacedStatefulSet')), ['allowWatchBookmarks', 'continue', 'fieldSelector', 'labelSelector',
    'limit', 'pretty', 'resourceVersion', 'resourceVersionMatch', 'timeoutSeconds', 'watch']);
  assert.deepEqual(names(byId('readAppsV1NamespacedStatefulSet')), ['pretty']);
  assert.deepEqual(names(byId('createAppsV1NamespacedStatefulSet')), ['dryRun', 'fieldManager', 'fieldValidation', 'pretty']);
  assert.deepEqual(names(byId('replaceAppsV1NamespacedStatefulSetStatus')), ['dryRun', 'fieldManager', 'fieldValidation', 'pretty']);
  assert.deepEqual(names(byId('patchAppsV1NamespacedStatefulSet')), ['dryRun', 'fieldManager', 'fieldValidation', 'force', 'pretty']);
  assert.deepEqual(names(byId('deleteAppsV1NamespacedStatefulSet')), ['dryRun', 'gracePeriodSeconds', 'pretty', 'propagationPolicy']);
  assert.deepEqual(names(byId('deleteAppsV1CollectionNamespacedStatefulSet')), ['continue', 'dryRun', 'fieldSelector', 'gracePeriodSeconds',
    'labelSelector', 'limit', 'pretty', 'propagationPolicy', 'resourceVersion', 'resourceVersionMatch', 'timeoutSeconds']);
  const patch = byId('patchAppsV1NamespacedStatefulSet').op;
  assert.deepEqual(patch.consumes, ['application/json-patch+json', 'application/merge-patch+json',
    'application/strategic-merge-patch+json', 'application/apply-patch+yaml']);
  assert.deepEqual(patch.produces, ['application/json', 'application/yaml', 'application/vnd.orch.protobuf']);
  assert.deepEqual(byId('createAppsV1NamespacedStatefulSet').op.consumes, ['*/*']);
  assert.deepEqual(byId('listAppsV1NamespacedStatefulSet').op.produces, ['application/json', 'application/yaml',
    'application/vnd.orch.protobuf', 'application/json;stream=watch', 'application/vnd.orch.protobuf;stream=watch']);
  const body = (o: Op) => o.params.find((p) => p.in === 'body');
  assert.deepEqual(body(byId('patchAppsV1NamespacedStatefulSet')), {
    in: 'body', name: 'body', required: true, schema: { $ref: '#/definitions/io.orch.apimachinery.pkg.apis.meta.v1.Patch' },
  });
  assert.deepEqual(body(byId('deleteAppsV1NamespacedStatefulSet')), {
    in: 'body', name: 'body', schema: { $ref: '#/definitions/io.orch.apimachinery.pkg.apis.meta.v1.DeleteOptions' },
  });
});

test('responses reference the kind, its list or Status as the server answers', () => {
  const schemaOf = (id: string, code: string) => ((byId(id).op.responses as Record<string, JsonObject>)[code]?.schema as JsonObject | undefined)?.$ref;
  const d = '#/definitions/';
  assert.equal(schemaOf('listAppsV1NamespacedStatefulSet', '200'), `${d}io.orch.api.apps.v1.StatefulSetList`);
  for (const code of ['200', '201', '202']) assert.equal(schemaOf('createAppsV1NamespacedStatefulSet', code), `${d}io.orch.api.apps.v1.StatefulSet`);
  assert.equal(schemaOf('replaceAppsV1NamespacedStatefulSet', '202'), undefined);
  assert.equal(schemaOf('deleteAppsV1NamespacedStatefulSet', '200'), `${d}io.orch.apimachinery.pkg.apis.meta.v1.Status`);
  assert.equal(schemaOf('deleteAppsV1CollectionNamespacedStatefulSet', '200'), `${d}io.orch.apimachinery.pkg.apis.meta.v1.Status`);
  // These stores answer a delete with the deleted object.
  assert.equal(schemaOf('deleteStorageV1CSIDriver', '202'), `${d}io.orch.api.storage.v1.CSIDriver`);
  assert.equal(schemaOf('deleteCoreV1NamespacedResourceQuota', '200'), `${d}io.orch.api.core.v1.ResourceQuota`);
  assert.equal(schemaOf('getAppsV1APIResources', '200'), `${d}io.orch.apimachinery.pkg.apis.meta.v1.APIResourceList`);
  for (const { op } of operations()) assert.deepEqual((op.responses as JsonObject)['401'], { description: 'Unauthorized' });
});

test('group/versions and resources the scheme does not serve (--runtime-config) are not published', () => {
  const withoutApps = allGroupVersions.filter((gv) => gv.group !== 'apps')
    .map((gv) => (gv.group === 'networking.orch.io' ? { ...gv, kinds: [] } : gv));
  const d = build(withoutApps);
  const text = JSON.stringify(d);
  assert.equal(text.includes('/apis/apps'), false);
  assert.equal(text.includes('StatefulSet'), false);
  assert.equal(text.includes('networkpolicies'), false);
  assert.equal(text.includes('io.orch.api.networking.v1.NetworkPolicyPeer'), false, 'shapes only a removed kind used are gone');
  assert.ok(byId('listCoreV1Namespace', d));
  for (const ref of collectRefs(d)) assert.ok(isJsonObject(resolvePointer(d, ref)), `unresolved ${ref}`);
});

test('the document is the same every time it is built', () => {
  assert.equal(JSON.stringify(build()), JSON.stringify(doc));
});
