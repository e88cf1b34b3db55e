// /openapi/v2 as gnostic protobuf: the same bytes upstream's library writes for a document that
// reaches every construct, and the served document read back (with an independently written
// .proto) to the JSON it was encoded from.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import protobuf from 'protobufjs';
import { allGroupVersions } from '../../../api/index.js';
import { Scheme } from '../../runtime/scheme.js';
import { encodeOpenAPIV2Protobuf } from './gnostic-v2.js';
import { gnosticV2Root } from './gnostic-v2-messages.js';
import { buildOpenAPIV2 } from './v2.js';
import { isJsonObject, type JsonObject, type JsonValue } from './types.js';
import { goldenDocument, goldenProtobuf } from './testdata/gnostic-v2-golden.js';
import { decodeGnosticDocument, gnosticReferenceRoot as reference, toSwagger } from './testdata/gnostic-v2-proto.js';

const served = buildOpenAPIV2(new Scheme(allGroupVersions), { gitVersion: 'v0.1.0-test' }) as JsonObject;

/** proto3 leaves out zero scalars and empty lists, so those (and only those) may be missing after the round trip. */
function assertRoundTrip(original: JsonValue, back: unknown, path: string, dropped: string[]): void {
  if (Array.isArray(original)) {
    assert.ok(Array.isArray(back), `${path}: expected a list`);
    assert.equal(back.length, original.length, `${path}: length`);
    original.forEach((v, i) => assertRoundTrip(v, back[i], `${path}[${i}]`, dropped));
    return;
  }
  if (isJsonObject(original)) {
    assert.ok(isJsonObject(back as JsonValue), `${path}: expected an object, got ${JSON.stringify(back)}`);
    const b = back as JsonObject;
    for (const k of Object.keys(b)) assert.ok(k in original, `${path}.${k}: not in the original`);
    for (const [k, v] of Object.entries(original)) {
      if (k in b) assertRoundTrip(v, b[k], `${path}.${k}`, dropped);
      else {
        assert.ok(v === '' || v === false || v === 0 || (Array.isArray(v) && v.length === 0), `${path}.${k}: ${JSON.stringify(v)} lost`);
        dropped.push(`${path}.${k}`);
      }
    }
    return;
  }
  assert.deepEqual(back, original, path);
}

test('a document reaching every gnostic construct encodes to the bytes upstream writes', () => {
  const ours = Buffer.from(encodeOpenAPIV2Protobuf(goldenDocument));
  const upstream = Buffer.from(goldenProtobuf, 'base64');
  assert.equal(ours.length, upstream.length);
  assert.ok(ours.equals(upstream), 'bytes differ from upstream');
});

test('the served document reads back to its JSON: paths, definitions, parameters, security', () => {
  const decoded = decodeGnosticDocument(encodeOpenAPIV2Protobuf(served));
  const back = toSwagger('Document', decoded) as JsonObject;
  const dropped: string[] = [];
  assertRoundTrip(served, back, '$', dropped);
  // Only zero-valued keywords fall away (gnostic's proto3 does the same), never a name or a reference.
  assert.ok(dropped.every((p) => /\.(minimum|maximum|minLength|minItems|required|uniqueItems|description)$/.test(p)), dropped.join(', '));
  assert.deepEqual(Object.keys(back.paths as JsonObject), Object.keys(served.paths as JsonObject));
  assert.deepEqual(Object.keys(back.definitions as JsonObject), Object.keys(served.definitions as JsonObject));
  assert.ok(Object.keys(served.paths as JsonObject).length > 50);
});

test('vendor extensions travel as NamedAny holding YAML text, in document order', () => {
  const decoded = decodeGnosticDocument(encodeOpenAPIV2Protobuf(served)) as any;
  const defs = decoded.definitions.additional_properties as { name: string; value: any }[];
  const configMap = defs.find((d) => d.name === 'io.orch.api.core.v1.ConfigMap');
  assert.ok(configMap, 'ConfigMap definition');
  const ext = configMap.value.vendor_extension as { name: string; value: { yaml: string } }[];
  const servedConfigMap = (served.definitions as JsonObject)['io.orch.api.core.v1.ConfigMap'] as JsonObject;
  assert.deepEqual(ext.map((e) => e.name), Object.keys(servedConfigMap).filter((k) => k.startsWith('x-')));
  const gvk = ext.find((e) => e.name === 'x-kubernetes-group-version-kind');
  assert.equal(gvk?.value.yaml, '- group: ""\n  kind: ConfigMap\n  version: v1\n');

  const podSpec = defs.find((d) => d.name === 'io.orch.api.core.v1.PodSpec')!.value;
  const containers = podSpec.properties.additional_properties.find((p: any) => p.name === 'containers').value;
  const byName = Object.fromEntries(containers.vendor_extension.map((e: any) => [e.name, e.value.yaml]));
  assert.equal(byName['x-kubernetes-patch-merge-key'], 'name\n');
  assert.equal(byName['x-kubernetes-patch-strategy'], 'merge\n');
  assert.equal(byName['x-kubernetes-list-map-keys'], '- name\n');
  assert.equal(byName['x-orch-patch-merge-key'], 'name\n');
});

test('the golden document reads back to its JSON as well (oneofs, file schemas, oauth2 flows)', () => {
  const back = toSwagger('Document', decodeGnosticDocument(encodeOpenAPIV2Protobuf(goldenDocument)));
  const dropped: string[] = [];
  // `items` given as a list is not a Swagger 2.0 form; gnostic keeps one empty schema for it.
  const { C: _listItems, ...definitions } = goldenDocument.definitions as JsonObject;
  const original = JSON.parse(JSON.stringify({ ...goldenDocument, definitions })) as JsonObject;
  const { C: listItems, ...backDefinitions } = (back as JsonObject).definitions as JsonObject;
  assert.deepEqual(listItems, { items: {} });
  assertRoundTrip(original, { ...(back as JsonObject), definitions: backDefinitions }, '$', dropped);
  assert.deepEqual(dropped.sort(), [
    '$.definitions.A.xml.wrapped',
    '$.paths./a/{id}.delete.responses.204.description',
    '$.paths./a/{id}.get.consumes',
    '$.paths./a/{id}.get.parameters[0].items.exclusiveMinimum',
    '$.paths./a/{id}.get.parameters[0].items.minLength',
    '$.paths./a/{id}.get.parameters[1].required',
  ]);
});

test('the message table matches the independently written .proto: names, numbers, types, repetition', () => {
  const ours = gnosticV2Root().lookup('openapi.v2') as protobuf.Namespace;
  let compared = 0;
  for (const type of ours.nestedArray) {
    if (!(type instanceof protobuf.Type)) continue;
    let theirs: protobuf.Type;
    try {
      theirs = reference.lookupType(`gnostic.${type.name}`);
    } catch {
      continue; // messages no document reaches (Default, VendorExtension) are not written out there
    }
    const describe = (t: protobuf.Type) => t.fieldsArray
      .map((f) => `${f.id} ${f.name} ${f.repeated ? 'repeated ' : ''}${f.resolvedType ? f.resolvedType.name.replace('GoogleAny', 'Any') : f.type}`)
      .sort();
    assert.deepEqual(describe(type), describe(theirs), type.name);
    compared++;
  }
  assert.ok(compared >= 55, `compared ${compared} messages`);
});

test('values of the wrong shape are left out, never thrown on', () => {
  const odd: JsonObject = {
    swagger: 2 as unknown as string,
    info: 'not an object',
    paths: { '/x': { get: { parameters: [{ in: 'cookie', name: 'c' }, { in: 'constructor', name: 'p' }, null], responses: { '200': [] }, deprecated: 'yes' } }, nope: {} },
    definitions: { A: { type: 3, maxLength: 1.5, required: [1, 'a', null], additionalProperties: null, enum: [null], default: null } },
    securityDefinitions: { s: { type: 'oauth2', flow: 'toString' }, t: { type: '__proto__' } },
    security: [{ a: 'not a list' }],
  };
  const back = toSwagger('Document', decodeGnosticDocument(encodeOpenAPIV2Protobuf(odd))) as any;
  assert.equal(back.swagger, '2');
  assert.deepEqual(back.info, {});
  assert.deepEqual(Object.keys(back.paths), ['/x']);
  assert.deepEqual(back.paths['/x'].get.parameters, [{}, {}, {}]);
  assert.deepEqual(back.securityDefinitions, { s: {}, t: {} });
  assert.deepEqual(back.definitions.A, { type: '3', required: ['1', 'a'], additionalProperties: {}, enum: [null], default: null });
});
