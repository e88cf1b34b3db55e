// CustomResourceDefinitions through the real server: a definition is validated as upstream
// validates it, named and established by the server's own controllers, and its resources are
// served at once (every verb, discovery, selectors, status and scale, Tables), their objects
// pruned, defaulted and validated by the definition's schema and CEL rules; deleting the
// definition deletes its objects first.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { pollUntil } from './framework/authentication.js';
import type { Response } from './framework/client.js';
import { conditions, crdPath, establish, group, widgetDefinition, type Json } from './framework/custom-resources.js';

const widgets = (ns: string, name = '') => `/apis/${group}/v1/namespaces/${ns}/widgets${name ? `/${name}` : ''}`;

function widget(name: string, spec: Json, labels: Record<string, string> = {}): Json {
  return { apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name, labels }, spec };
}

const causes = (r: Response) => (((r.body as Json).details as Json | undefined)?.causes as { field: string; message: string; reason: string }[] | undefined) ?? [];

describe('custom resources', () => {
  let t: TestServer;
  const ns = 'default';

  before(async () => {
    t = await startTestServer();
  });
  after(async () => {
    await t?.stop();
  });

  test('a definition is validated as upstream validates it', async () => {
    const bad = widgetDefinition();
    const spec = bad.spec as Json;
    (spec.versions as Json[])[0]!.storage = false;
    (spec.names as Json).kind = 'widget kind';
    const r = await t.client.post(crdPath(), bad);
    assert.equal(r.status, 422, r.text);
    const fields = causes(r).map((c) => c.field);
    assert.ok(fields.includes('spec.versions'), r.text);
    assert.ok(fields.includes('spec.names.kind'), r.text);
    assert.match(r.text, /must have exactly one version marked as storage version/);

    const badSchema = widgetDefinition();
    const v = ((badSchema.spec as Json).versions as Json[])[0]!;
    ((v.schema as Json).openAPIV3Schema as Json).properties = { spec: { properties: { a: { type: 'string' } } } };
    const s = await t.client.post(crdPath(), badSchema);
    assert.equal(s.status, 422, s.text);
    assert.ok(causes(s).some((c) => c.field === 'spec.validation.openAPIV3Schema.properties[spec].type' && c.reason === 'FieldValueRequired'), s.text);

    const badRule = widgetDefinition();
    const rv = ((badRule.spec as Json).versions as Json[])[0]!;
    ((((rv.schema as Json).openAPIV3Schema as Json).properties as Json).spec as Json)['x-kubernetes-validations'] = [{ rule: 'self.nosuchfield == 1' }];
    const c = await t.client.post(crdPath(), badRule);
    assert.equal(c.status, 422, c.text);
    assert.match(c.text, /x-kubernetes-validations\[0\]\.rule/);
  });

  test('a definition is named and established, and its resources are served at once', async () => {
    const got = await establish(t, widgetDefinition());
    const body = got.body as Json;
    const status = body.status as Json;
    assert.equal(conditions(got).NamesAccepted, 'True/NoConflicts');
    assert.deepEqual(status.storedVersions, ['v1']);
    assert.deepEqual((status.acceptedNames as Json).shortNames, ['wd']);

    const d = await t.client.get(`/apis/${group}/v1`);
    assert.equal(d.status, 200, d.text);
    const resources = (d.body as Json).resources as Json[];
    const w = resources.find((x) => x.name === 'widgets')!;
    assert.deepEqual({ kind: w.kind, namespaced: w.namespaced, singularName: w.singularName, shortNames: w.shortNames, categories: w.categories },
      { kind: 'Widget', namespaced: true, singularName: 'widget', shortNames: ['wd'], categories: ['all', 'gadgets'] });
    assert.deepEqual([...(w.verbs as string[])].sort(), ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
    assert.ok(resources.some((x) => x.name === 'widgets/status'));
    assert.ok(resources.some((x) => x.name === 'widgets/scale' && x.group === 'autoscaling' && x.kind === 'Scale'));
    const groups = await t.client.get('/apis');
    assert.ok(((groups.body as Json).groups as Json[]).some((g) => g.name === group), groups.text);

    // Both OpenAPI documents publish the schema under upstream's definition name, with the kind's GVK.
    const v2 = await t.client.get('/openapi/v2');
    const def = ((v2.body as Json).definitions as Record<string, Json>)['com.example.stable.v1.Widget'];
    assert.ok(def, 'the Swagger 2.0 document defines the Widget');
    assert.deepEqual(def['x-kubernetes-group-version-kind'], [{ group, kind: 'Widget', version: 'v1' }]);
    assert.deepEqual(((def.properties as Json).spec as Json).required, ['color']);
    const v3 = await t.client.get(`/openapi/v3/apis/${group}/v1`);
    assert.equal(v3.status, 200, v3.text);
    const schema = (((v3.body as Json).components as Json).schemas as Record<string, Json>)['com.example.stable.v1.Widget'];
    assert.deepEqual((((schema!.properties as Json).spec as Json).properties as Json).color, { type: 'string', enum: ['red', 'green', 'blue'] });
  });

  test('objects are pruned, defaulted and validated by the schema and its CEL rules', async () => {
    const created = await t.client.post(widgets(ns), { ...widget('w1', { color: 'red', unknownField: 1 }), extra: true });
    assert.equal(created.status, 201, created.text);
    const spec = (created.body as Json).spec as Json;
    assert.deepEqual(spec, { color: 'red', size: '10cm', replicas: 1, maxReplicas: 10 });
    assert.equal((created.body as Json).extra, undefined);
    assert.equal(((created.body as Json).metadata as Json).generation, 1);

    const strict = await t.client.post(`${widgets(ns)}?fieldValidation=Strict`, widget('w-strict', { color: 'red', bogus: 1 }));
    assert.equal(strict.status, 400, strict.text);
    assert.equal((strict.body as Json).message, 'strict decoding error: unknown field "spec.bogus"');
    const warn = await t.client.post(`${widgets(ns)}?fieldValidation=Warn`, widget('w-warn', { color: 'red', bogus: 1 }));
    assert.equal(warn.status, 201, warn.text);
    assert.equal(warn.headers.warning, '299 - "unknown field \\"spec.bogus\\""');

    const bad = await t.client.post(widgets(ns), widget('w-bad', { color: 'purple', size: '3 inches', replicas: -1, tags: ['toolong', 'a', 'a'] }));
    assert.equal(bad.status, 422, bad.text);
    const byField = Object.fromEntries(causes(bad).map((c) => [c.field, c.reason]));
    assert.equal(byField['spec.color'], 'FieldValueNotSupported', bad.text);
    assert.equal(byField['spec.size'], 'FieldValueInvalid', bad.text);
    assert.equal(byField['spec.replicas'], 'FieldValueInvalid', bad.text);
    assert.equal(byField['spec.tags[0]'], 'FieldValueTooLong', bad.text);
    assert.equal(byField['spec.tags[2]'], 'FieldValueDuplicate', bad.text);
    const typed = await t.client.post(widgets(ns), widget('w-typed', { color: 7 }));
    assert.equal(typed.status, 422, typed.text);
    assert.match(String((typed.body as Json).message), /spec.color: Invalid value: "integer": spec.color in body must be of type string: "integer"/);
    const missing = await t.client.post(widgets(ns), widget('w-missing', {}));
    assert.equal(missing.status, 422, missing.text);
    assert.ok(causes(missing).some((c) => c.field === 'spec.color' && c.reason === 'FieldValueRequired'), missing.text);

    const rule = await t.client.post(widgets(ns), widget('w-rule', { color: 'red', replicas: 5, maxReplicas: 2 }));
    assert.equal(rule.status, 422, rule.text);
    assert.ok(causes(rule).some((c) => c.field === 'spec' && c.message.includes('replicas must not exceed maxReplicas')), rule.text);
  });
  test('every verb, watch, and label and field selectors', async () => {
    const watch = await t.client.watch(`${widgets(ns)}?watch=true&labelSelector=app%3Dverbs`);
    assert.equal(watch.status, 200);
    for (const [name, tier] of [['v-a', 'front'], ['v-b', 'back'], ['v-c', 'back']]) {
      const r = await t.client.post(widgets(ns), widget(name!, { color: 'green' }, { app: 'verbs', tier: tier! }));
      assert.equal(r.status, 201, r.text);
    }
    const added = await watch.take(3);
    assert.deepEqual(added.map((e) => [e.type, (e.object.metadata as Json).name]), [['ADDED', 'v-a'], ['ADDED', 'v-b'], ['ADDED', 'v-c']]);

    const back = await t.client.get(`${widgets(ns)}?labelSelector=tier%3Dback`);
    assert.equal(back.status, 200, back.text);
    assert.equal((back.body as Json).kind, 'WidgetList');
    assert.deepEqual(((back.body as Json).items as Json[]).map((i) => (i.metadata as Json).name), ['v-b', 'v-c']);
    const byName = await t.client.get(`${widgets(ns)}?fieldSelector=metadata.name%3Dv-a`);
    assert.deepEqual(((byName.body as Json).items as Json[]).map((i) => (i.metadata as Json).name), ['v-a']);
    const badField = await t.client.get(`${widgets(ns)}?fieldSelector=spec.color%3Dgreen`);
    assert.equal(badField.status, 400, badField.text);
    const everywhere = await t.client.get(`/apis/${group}/v1/widgets?fieldSelector=metadata.namespace%3D${ns},metadata.name%3Dv-b`);
    assert.deepEqual(((everywhere.body as Json).items as Json[]).map((i) => (i.metadata as Json).name), ['v-b']);

    const got = await t.client.get(widgets(ns, 'v-a'));
    assert.equal(got.status, 200, got.text);
    const obj = got.body as Json;
    (obj.spec as Json).color = 'blue';
    const put = await t.client.put(widgets(ns, 'v-a'), obj);
    assert.equal(put.status, 200, put.text);
    assert.equal(((put.body as Json).metadata as Json).generation, 2);
    const noRV = await t.client.put(widgets(ns, 'v-a'), { ...obj, metadata: { name: 'v-a' } });
    assert.equal(noRV.status, 422, noRV.text);
    assert.equal((noRV.body as Json).message, 'widgets.stable.example.com "v-a" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update');
    const merged = await t.client.patch(widgets(ns, 'v-a'), { spec: { size: '2m' } });
    assert.equal(merged.status, 200, merged.text);
    assert.equal(((merged.body as Json).spec as Json).size, '2m');
    const jsonPatch = await t.client.patch(widgets(ns, 'v-a'), [{ op: 'replace', path: '/spec/color', value: 'red' }], 'application/json-patch+json');
    assert.equal(jsonPatch.status, 200, jsonPatch.text);
    const strategic = await t.client.patch(widgets(ns, 'v-a'), { spec: { color: 'red' } }, 'application/strategic-merge-patch+json');
    assert.equal(strategic.status, 415, strategic.text);
    const modified = await watch.take(3);
    assert.deepEqual(modified.map((e) => e.type), ['MODIFIED', 'MODIFIED', 'MODIFIED']);

    const del = await t.client.delete(widgets(ns, 'v-a'));
    assert.equal(del.status, 200, del.text);
    const deleted = await watch.next();
    assert.equal(deleted?.type, 'DELETED');
    const dc = await t.client.delete(`${widgets(ns)}?labelSelector=app%3Dverbs`);
    assert.equal(dc.status, 200, dc.text);
    const rest = await watch.take(2);
    assert.deepEqual(rest.map((e) => e.type), ['DELETED', 'DELETED']);
    watch.close();
    const none = await t.client.get(`${widgets(ns)}?labelSelector=app%3Dverbs`);
    assert.deepEqual((none.body as Json).items, []);
  });

  test('status and scale sub-resources', async () => {
    const created = await t.client.post(widgets(ns), { ...widget('sw', { color: 'red', replicas: 2 }), status: { phase: 'Ignored' } });
    assert.equal(created.status, 201, created.text);
    assert.equal((created.body as Json).status, undefined);
    const obj = created.body as Json;
    const st = await t.client.put(widgets(ns, 'sw/status'), { ...obj, spec: { color: 'blue', replicas: 2 }, status: { replicas: 2, selector: 'app=sw', phase: 'Running' } });
    assert.equal(st.status, 200, st.text);
    assert.equal(((st.body as Json).spec as Json).color, 'red');
    assert.equal(((st.body as Json).metadata as Json).generation, 1);
    assert.equal(((st.body as Json).status as Json).phase, 'Running');
    const badStatus = await t.client.patch(widgets(ns, 'sw/status'), { status: { replicas: 'two' } });
    assert.equal(badStatus.status, 422, badStatus.text);
    assert.ok(causes(badStatus).some((c) => c.field === 'status.replicas'), badStatus.text);
    const main = await t.client.patch(widgets(ns, 'sw'), { status: { phase: 'Lost' }, spec: { color: 'green' } });
    assert.equal(main.status, 200, main.text);
    assert.equal(((main.body as Json).status as Json).phase, 'Running');
    assert.equal(((main.body as Json).metadata as Json).generation, 2);

    const scale = await t.client.get(widgets(ns, 'sw/scale'));
    assert.equal(scale.status, 200, scale.text);
    assert.equal((scale.body as Json).apiVersion, 'autoscaling/v1');
    assert.deepEqual({ spec: (scale.body as Json).spec, status: (scale.body as Json).status }, { spec: { replicas: 2 }, status: { replicas: 2, selector: 'app=sw' } });
    const scaled = await t.client.patch(widgets(ns, 'sw/scale'), { spec: { replicas: 4 } });
    assert.equal(scaled.status, 200, scaled.text);
    const after = await t.client.get(widgets(ns, 'sw'));
    assert.equal(((after.body as Json).spec as Json).replicas, 4);
    const tooMany = await t.client.patch(widgets(ns, 'sw/scale'), { spec: { replicas: 40 } });
    assert.equal(tooMany.status, 422, tooMany.text);
    assert.match(tooMany.text, /replicas must not exceed maxReplicas/);
  });

  test('Tables with the printer columns; JSON and YAML only', async () => {
    const r = await t.client.post(widgets(ns), widget('tw', { color: 'blue', replicas: 3 }));
    assert.equal(r.status, 201, r.text);
    const table = await t.client.get(widgets(ns), { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.orch.io' } });
    assert.equal(table.status, 200, table.text);
    const body = table.body as Json;
    assert.equal(body.kind, 'Table');
    assert.deepEqual((body.columnDefinitions as Json[]).map((c) => [c.name, c.type]), [['Name', 'string'], ['Color', 'string'], ['Replicas', 'integer'], ['Age', 'date']]);
    const row = (body.rows as Json[]).find((x) => (x.cells as unknown[])[0] === 'tw')!;
    assert.deepEqual((row.cells as unknown[]).slice(0, 3), ['tw', 'blue', 3]);

    const proto = await t.client.get(widgets(ns, 'tw'), { headers: { Accept: 'application/vnd.orch.protobuf' } });
    assert.equal(proto.status, 406, proto.text);
    const fallback = await t.client.get(widgets(ns, 'tw'), { headers: { Accept: 'application/vnd.orch.protobuf,application/json' } });
    assert.equal(fallback.status, 200, fallback.text);
    assert.match(String(fallback.headers['content-type']), /^application\/json/);
    const yaml = await t.client.get(widgets(ns, 'tw'), { headers: { Accept: 'application/yaml' } });
    assert.equal(yaml.status, 200, yaml.text);
    assert.match(yaml.text, /^kind: Widget$/m);
    assert.match(yaml.text, /^apiVersion: stable.example.com\/v1$/m);
    const protoBody = await t.client.post(widgets(ns), undefined, { raw: Buffer.from([0x6b, 0x38, 0x73, 0x00]), contentType: 'application/vnd.orch.protobuf' });
    assert.equal(protoBody.status, 415, protoBody.text);
  });

  test('JSON answers write a custom resource\'s keys sorted at every level, as upstream\'s unstructured encoding does', async () => {
    /** The paths of every object in `v` whose keys are not in sorted order. */
    const unsorted = (v: unknown, at = ''): string[] => {
      if (Array.isArray(v)) return v.flatMap((x, i) => unsorted(x, `${at}[${i}]`));
      if (v === null || typeof v !== 'object') return [];
      const keys = Object.keys(v);
      const own = keys.join() === [...keys].sort().join() ? [] : [`${at || '.'}: ${keys.join()}`];
      return [...own, ...keys.flatMap((k) => unsorted((v as Json)[k], `${at}.${k}`))];
    };
    const watch = await t.client.watch(`${widgets(ns)}?watch=true&labelSelector=order%3Dyes`);
    const sent = { kind: 'Widget', apiVersion: `${group}/v1`, spec: { tags: ['z', 'a'], size: '3m', color: 'green' }, metadata: { name: 'ordered', labels: { zone: 'b', order: 'yes' }, annotations: { 'z.example.com/x': '1', 'a.example.com/y': '2' } } };
    const created = await t.client.post(widgets(ns), sent);
    assert.equal(created.status, 201, created.text);
    assert.match(created.text, /^\{"apiVersion":"stable\.example\.com\/v1","kind":"Widget","metadata":\{"annotations":\{"a\.example\.com\/y":"2","z\.example\.com\/x":"1"\},"creationTimestamp":/);
    assert.match(created.text, /"spec":\{"color":"green","maxReplicas":10,"replicas":1,"size":"3m","tags":\["z","a"\]\}\}$/, 'defaults in place, lists in their order');
    assert.deepEqual(unsorted(created.body), []);
    const status = await t.client.request('PUT', `${widgets(ns, 'ordered')}/status`, { body: { ...(created.body as Json), status: { replicas: 2, phase: 'Ready', selector: 'order=yes' } } });
    assert.equal(status.status, 200, status.text);
    assert.match(status.text, /"status":\{"phase":"Ready","replicas":2,"selector":"order=yes"\}\}$/);
    const got = await t.client.get(widgets(ns, 'ordered'));
    assert.deepEqual(unsorted(got.body), []);
    assert.equal(got.text, status.text, 'a read writes what the write answered');
    // A list is a map too: apiVersion, items, kind, metadata.
    const list = await t.client.get(`${widgets(ns)}?labelSelector=order%3Dyes`);
    assert.match(list.text, /^\{"apiVersion":"stable\.example\.com\/v1","items":\[\{"apiVersion":.*\],"kind":"WidgetList","metadata":\{"resourceVersion":"\d+"\}\}$/);
    assert.deepEqual(unsorted((list.body as Json).items), []);
    const events = await watch.take(2, 15_000);
    watch.close();
    assert.deepEqual(events.map((e) => [e.type, unsorted(e.object)]), [['ADDED', []], ['MODIFIED', []]]);
    const table = await t.client.get(`${widgets(ns)}?labelSelector=order%3Dyes&includeObject=Object`, { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.orch.io' } });
    assert.deepEqual(unsorted(((table.body as Json).rows as Json[])[0]!.object), []);
    // The list's metadata is a map too (a selected list counts no remaining items, as upstream's).
    assert.equal((await t.client.post(widgets(ns), widget('ordered-2', { color: 'red' }, { order: 'yes' }))).status, 201);
    const page = await t.client.get(`${widgets(ns)}?labelSelector=order%3Dyes&limit=1`);
    assert.match(page.text, /,"kind":"WidgetList","metadata":\{"continue":"[^"]+","resourceVersion":"\d+"\}\}$/);
  });

  test('cluster-scoped resources, and a name conflict left unaccepted', async () => {
    const def = widgetDefinition();
    const spec = def.spec as Json;
    def.metadata = { name: `gizmos.${group}` };
    spec.scope = 'Cluster';
    spec.names = { plural: 'gizmos', kind: 'Gizmo' };
    const v = (spec.versions as Json[])[0]!;
    delete v.subresources;
    delete v.additionalPrinterColumns;
    await establish(t, def);
    const created = await t.client.post(`/apis/${group}/v1/gizmos`, { apiVersion: `${group}/v1`, kind: 'Gizmo', metadata: { name: 'g1' }, spec: { color: 'red' } });
    assert.equal(created.status, 201, created.text);
    assert.equal(((created.body as Json).metadata as Json).namespace, undefined);
    const listed = await t.client.get(`/apis/${group}/v1/gizmos`);
    assert.deepEqual(((listed.body as Json).items as Json[]).map((i) => (i.metadata as Json).name), ['g1']);
    const namespaced = await t.client.get(`/apis/${group}/v1/namespaces/${ns}/gizmos`);
    assert.equal(namespaced.status, 404, namespaced.text);

    // Another definition asking for the short name Widgets already hold.
    const clash = widgetDefinition();
    clash.metadata = { name: `doohickeys.${group}` };
    (clash.spec as Json).names = { plural: 'doohickeys', kind: 'Doohickey', shortNames: ['wd'] };
    const r = await t.client.post(crdPath(), clash);
    assert.equal(r.status, 201, r.text);
    const got = await pollUntil(() => t.client.get(crdPath(`doohickeys.${group}`)), (g) => conditions(g).NamesAccepted !== undefined, 'NamesAccepted set');
    assert.equal(conditions(got).NamesAccepted, 'False/ShortNamesConflict', got.text);
    assert.equal(conditions(got).Established, 'False/NotAccepted', got.text);
    const notServed = await t.client.get(`/apis/${group}/v1/namespaces/${ns}/doohickeys`);
    assert.equal(notServed.status, 404, notServed.text);
  });

  test('deleting a definition deletes its objects first, then the definition', async () => {
    const def = widgetDefinition();
    def.metadata = { name: `sprockets.${group}` };
    (def.spec as Json).names = { plural: 'sprockets', kind: 'Sprocket' };
    await establish(t, def);
    const path = `/apis/${group}/v1/namespaces/${ns}/sprockets`;
    for (const name of ['s1', 's2']) {
      const r = await t.client.post(path, { apiVersion: `${group}/v1`, kind: 'Sprocket', metadata: { name }, spec: { color: 'red' } });
      assert.equal(r.status, 201, r.text);
    }
    // A finalizer of its own keeps s2 until it is removed: the definition waits for it.
    const held = await t.client.patch(`${path}/s2`, { metadata: { finalizers: ['example.com/hold'] } });
    assert.equal(held.status, 200, held.text);
    const del = await t.client.delete(crdPath(`sprockets.${group}`));
    assert.equal(del.status, 200, del.text);
    const terminating = await pollUntil(() => t.client.get(crdPath(`sprockets.${group}`)), (g) => conditions(g).Terminating?.startsWith('True') === true, 'Terminating');
    assert.ok(((terminating.body as Json).metadata as Json).deletionTimestamp, terminating.text);
    const create = await t.client.post(path, { apiVersion: `${group}/v1`, kind: 'Sprocket', metadata: { name: 's3' }, spec: { color: 'red' } });
    assert.equal(create.status, 405, create.text);
    await pollUntil(() => t.client.get(`${path}/s1`), (g) => g.status === 404, 's1 deleted');
    const s2 = await t.client.get(`${path}/s2`);
    assert.ok(((s2.body as Json).metadata as Json).deletionTimestamp, s2.text);
    const freed = await t.client.patch(`${path}/s2`, { metadata: { finalizers: null } });
    assert.equal(freed.status, 200, freed.text);
    await pollUntil(() => t.client.get(crdPath(`sprockets.${group}`)), (g) => g.status === 404, 'the definition deleted', 20_000);
    const gone = await t.client.get(path);
    assert.equal(gone.status, 404, gone.text);
  });
  test('several versions: None conversion, deprecation warnings, unserved versions, defaults on read', async () => {
    const schema = (extra: Json = {}) => ({ openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'string', ...extra }, count: { type: 'integer' } } } } } });
    const def: Json = {
      apiVersion: 'apiextensions.orch.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `things.${group}` },
      spec: {
        group, scope: 'Namespaced', names: { plural: 'things', kind: 'Thing' },
        versions: [
          { name: 'v1beta1', served: true, storage: false, deprecated: true, schema: schema() },
          { name: 'v1', served: true, storage: true, schema: schema() },
          { name: 'v2', served: true, storage: false, schema: schema() },
          { name: 'v0alpha1', served: false, storage: false, schema: schema() },
        ],
      },
    };
    await establish(t, def);
    const path = (v: string, name = '') => `/apis/${group}/${v}/namespaces/${ns}/things${name ? `/${name}` : ''}`;
    const created = await t.client.post(path('v2'), { apiVersion: `${group}/v2`, kind: 'Thing', metadata: { name: 'th' }, spec: { count: 3 } });
    assert.equal(created.status, 201, created.text);
    assert.equal((created.body as Json).apiVersion, `${group}/v2`);
    const asV1 = await t.client.get(path('v1', 'th'));
    assert.equal(asV1.status, 200, asV1.text);
    assert.equal((asV1.body as Json).apiVersion, `${group}/v1`);
    assert.deepEqual((asV1.body as Json).spec, { count: 3 });
    const listed = await t.client.get(path('v1beta1'));
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(((listed.body as Json).items as Json[]).map((i) => i.apiVersion), [`${group}/v1beta1`]);
    assert.equal(listed.headers.warning, `299 - "${group}/v1beta1 Thing is deprecated; use ${group}/v2 Thing"`);
    assert.equal(asV1.headers.warning, undefined);
    const unserved = await t.client.get(path('v0alpha1'));
    assert.equal(unserved.status, 404, unserved.text);
    const versions = await t.client.get(`/apis/${group}`);
    assert.deepEqual(((versions.body as Json).versions as Json[]).map((v) => v.version), ['v2', 'v1', 'v1beta1']);
    assert.equal(((versions.body as Json).preferredVersion as Json).version, 'v2');

    // A default added after the object was stored is given to it on every read, in every version.
    const crd = await t.client.get(crdPath(`things.${group}`));
    const spec = (crd.body as Json).spec as Json;
    for (const v of spec.versions as Json[]) v.schema = schema({ default: 'M' });
    const updated = await t.client.put(crdPath(`things.${group}`), crd.body);
    assert.equal(updated.status, 200, updated.text);
    await pollUntil(() => t.client.get(path('v2', 'th')), (g) => ((g.body as Json).spec as Json).size === 'M', 'the new default on read');
    const list = await t.client.get(path('v1'));
    assert.deepEqual(((list.body as Json).items as Json[]).map((i) => i.spec), [{ count: 3, size: 'M' }]);
  });
  test('server-side apply merges by the schema\'s list types', async () => {
    const apply = (manager: string, spec: Json) => t.client.request('PATCH', `${widgets(ns, 'ssa')}?fieldManager=${manager}`, {
      raw: JSON.stringify(widget('ssa', spec)), contentType: 'application/apply-patch+yaml',
    });
    const a = await apply('alice', { color: 'red', tags: ['a'] });
    assert.equal(a.status, 201, a.text);
    const b = await apply('bob', { tags: ['b'] });
    assert.equal(b.status, 200, b.text);
    assert.deepEqual(((b.body as Json).spec as Json).tags, ['a', 'b'], 'a set list is merged by value');
    const conflict = await apply('bob', { color: 'blue' });
    assert.equal(conflict.status, 409, conflict.text);
    assert.match(conflict.text, /conflict with \\"alice\\"/);
    const managers = (((b.body as Json).metadata as Json).managedFields as Json[]).map((m) => m.manager);
    assert.deepEqual(managers.sort(), ['alice', 'bob']);
  });
});
