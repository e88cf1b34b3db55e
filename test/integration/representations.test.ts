// Representations (spec 2.6, 2.7, 4.4): content negotiation, Tables, metadata-only lists and
// protobuf, for every kind, through the real server.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { allGroupVersions } from '../../api/index.js';
import { ProtobufCodec } from '../../pkg/runtime/protobuf/codec.js';
import { splitFrames } from '../../pkg/runtime/protobuf/frame.js';
import { Scheme } from '../../pkg/runtime/scheme.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { collectionPath, fixtures, itemPath } from './fixtures.js';

const TABLE = 'application/json;as=Table;g=meta.orch.io;v=v1';
const PROTOBUF = 'application/vnd.orch.protobuf';
const scheme = new Scheme(allGroupVersions);
const codec = new ProtobufCodec(scheme);
const infoOf = (f: (typeof fixtures)[number]) => scheme.resources().find((r) => r.kind === f.kind)!;

describe('representations', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    for (const f of fixtures) {
      const r = await t.client.post(collectionPath(f), f.make(`${f.resource.slice(0, 8)}-rep`));
      assert.equal(r.status, 201, r.text);
    }
  });
  after(async () => t?.stop());

  test('Accept is negotiated with q-values and fall-back lists; nothing acceptable is 406', async () => {
    const c = t.client;
    const yaml = await c.get('/api/v1/namespaces/default', { headers: { Accept: 'application/json;q=0.5, application/yaml' } });
    assert.equal(yaml.status, 200);
    assert.match(String(yaml.headers['content-type']), /^application\/yaml/);
    assert.match(yaml.text, /^kind: Namespace\napiVersion: v1\n/);
    const fallback = await c.get('/api/v1/namespaces/default', { headers: { Accept: 'text/html, application/json;q=0.1' } });
    assert.equal(fallback.status, 200);
    assert.equal(fallback.body.kind, 'Namespace');
    const none = await c.get('/api/v1/namespaces/default', { headers: { Accept: 'text/html, image/png' } });
    assert.equal(none.status, 406);
    assert.equal(none.body.reason, 'NotAcceptable');
    const pretty = await c.get('/api/v1/namespaces/default?pretty=true');
    assert.match(pretty.text, /^\{\n {2}"kind": "Namespace",\n {2}"apiVersion": "v1",\n {2}"metadata": \{\n/);
    const discoveryYaml = await c.get('/apis', { headers: { Accept: 'application/yaml' } });
    assert.match(discoveryYaml.text, /kind: APIGroupList/);
    assert.equal((await c.get('/apis', { headers: { Accept: PROTOBUF } })).status, 406, 'discovery has no protobuf form');
  });

  test('YAML and protobuf request bodies are decoded by Content-Type; anything else is 415', async () => {
    const c = t.client;
    const y = await c.request('POST', '/api/v1/namespaces/default/configmaps', { raw: 'metadata:\n  name: from-yaml\ndata:\n  k: v\n', contentType: 'application/yaml' });
    assert.equal(y.status, 201, y.text);
    const cm = scheme.resource('', 'v1', 'configmaps')!;
    const pb = await c.request('POST', '/api/v1/namespaces/default/configmaps', { raw: codec.encodeObject(cm, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'from-protobuf', labels: { a: 'b' } }, data: { k: 'v' } }), contentType: PROTOBUF });
    assert.equal(pb.status, 201, pb.text);
    assert.deepEqual(pb.body.data, { k: 'v' });
    assert.deepEqual(pb.body.metadata.labels, { a: 'b' });
    const bad = await c.request('POST', '/api/v1/namespaces/default/configmaps', { raw: Buffer.from([1, 2, 3, 4, 5, 6]), contentType: PROTOBUF });
    assert.equal(bad.status, 400, bad.text);
    const other = await c.request('POST', '/api/v1/namespaces/default/configmaps', { raw: codec.encodeObject(scheme.resource('', 'v1', 'secrets')!, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'x' } }), contentType: PROTOBUF });
    assert.equal(other.status, 400, other.text);
    const unsupported = await c.request('POST', '/api/v1/namespaces/default/configmaps', { raw: 'name=x', contentType: 'application/x-www-form-urlencoded' });
    assert.equal(unsupported.status, 415, unsupported.text);
  });

  for (const f of fixtures) {
    test(`${f.kind}: protobuf get, list and watch round-trip to the JSON object`, async () => {
      const c = t.client;
      const info = infoOf(f);
      const name = `${f.resource.slice(0, 8)}-rep`;
      const json = await c.get(itemPath(f, name));
      const raw = await c.getRaw(itemPath(f, name), { Accept: `${PROTOBUF}, application/json` });
      assert.equal(raw.status, 200);
      assert.equal(raw.headers['content-type'], PROTOBUF);
      assert.deepEqual([...raw.body.subarray(0, 4)], [0x6b, 0x38, 0x73, 0x00]);
      assert.deepEqual(codec.decodeObject(info, raw.body), json.body);
      const list = await c.getRaw(collectionPath(f), { Accept: PROTOBUF });
      assert.equal(list.status, 200);
      const w = await c.getRaw(`${collectionPath(f)}?watch=true&timeoutSeconds=1&fieldSelector=metadata.name%3D${name}`, { Accept: PROTOBUF });
      assert.match(String(w.headers['content-type']), /^application\/vnd\.orch\.protobuf;stream=watch/);
      const frames = splitFrames(w.body);
      assert.equal(frames.length, 1, 'one ADDED event');
    });

    test(`${f.kind}: Table for get, list and watch with the kind's columns`, async () => {
      const c = t.client;
      const name = `${f.resource.slice(0, 8)}-rep`;
      const one = await c.get(itemPath(f, name), { headers: { Accept: `${TABLE}, application/json` } });
      assert.equal(one.status, 200, one.text);
      assert.equal(one.body.kind, 'Table');
      assert.equal(one.body.apiVersion, 'meta.orch.io/v1');
      // Name comes first, but for Event, whose printer puts it last.
      const nameAt = f.kind === 'Event' ? one.body.columnDefinitions.length - 1 : 0;
      assert.equal(one.body.columnDefinitions[nameAt].name, 'Name');
      assert.equal(one.body.columnDefinitions[nameAt].format, 'name');
      assert.equal(one.body.rows.length, 1);
      assert.equal(one.body.rows[0].cells[nameAt], name);
      assert.equal(one.body.rows[0].object.kind, 'PartialObjectMetadata', 'includeObject defaults to Metadata');
      const list = await c.get(`${collectionPath(f)}?limit=1&includeObject=Object`, { headers: { Accept: TABLE } });
      assert.equal(list.body.kind, 'Table');
      assert.equal(list.body.rows.length, 1);
      assert.equal(list.body.rows[0].object.kind, f.kind, 'includeObject=Object embeds the object');
      assert.match(list.body.metadata.resourceVersion, /^\d+$/);
      const none = await c.get(`${collectionPath(f)}?includeObject=None`, { headers: { Accept: TABLE } });
      assert.equal(none.body.rows[0].object, undefined);
      const w = await c.watch(`${collectionPath(f)}?watch=true&timeoutSeconds=1&fieldSelector=metadata.name%3D${name}`, { Accept: TABLE });
      const ev = await w.next();
      assert.equal(ev?.type, 'ADDED');
      assert.equal(ev?.object.kind, 'Table');
      assert.equal(ev?.object.rows[0].cells[nameAt], name);
      assert.ok(ev?.object.columnDefinitions.length > 0);
    });
  }

  test('the columns kubectl users know', async () => {
    const c = t.client;
    const cols = async (path: string) => (await c.get(path, { headers: { Accept: TABLE } })).body.columnDefinitions.map((d: any) => d.name);
    assert.deepEqual((await cols('/apis/apps/v1/namespaces/default/statefulsets')).slice(0, 3), ['Name', 'Ready', 'Age']);
    assert.deepEqual(await cols('/apis/policy/v1/namespaces/default/poddisruptionbudgets'), ['Name', 'Min Available', 'Max Unavailable', 'Allowed Disruptions', 'Age']);
    assert.deepEqual(await cols('/api/v1/namespaces'), ['Name', 'Status', 'Age']);
    assert.deepEqual(await cols('/api/v1/namespaces/default/limitranges'), ['Name', 'Created At']);
    const sts = await c.get('/apis/apps/v1/namespaces/default/statefulsets/stateful-rep', { headers: { Accept: TABLE } });
    assert.equal(sts.body.rows[0].cells[1], '0/1');
    const paged = await c.get('/api/v1/namespaces?limit=2', { headers: { Accept: TABLE } });
    assert.ok(paged.body.metadata.continue, 'paging metadata is on the Table');
    assert.ok(paged.body.metadata.remainingItemCount > 0);
    assert.equal((await c.get('/api/v1/namespaces?includeObject=Some', { headers: { Accept: TABLE } })).status, 400);
  });

  test('metadata-only lists and errors in the negotiated format', async () => {
    const c = t.client;
    const meta = await c.get('/api/v1/namespaces', { headers: { Accept: 'application/json;as=PartialObjectMetadataList;g=meta.orch.io;v=v1' } });
    assert.equal(meta.body.kind, 'PartialObjectMetadataList');
    assert.equal(meta.body.items[0].kind, 'PartialObjectMetadata');
    assert.equal(meta.body.items[0].spec, undefined);
    const missing = await c.getRaw('/api/v1/namespaces/nope', { Accept: PROTOBUF });
    assert.equal(missing.status, 404);
    assert.equal(missing.headers['content-type'], PROTOBUF, 'a protobuf client gets a protobuf Status');
    assert.deepEqual([...missing.body.subarray(0, 4)], [0x6b, 0x38, 0x73, 0x00]);
  });
});
