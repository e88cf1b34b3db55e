// The scale sub-resource of StatefulSets: autoscaling/v1 Scale read, replaced and patched, listed
// in discovery and OpenAPI, as `kubectl scale` and autoscalers use it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { groupVersions } from '../../api/index.js';
import { defaultApiDomain } from '../../api/domain.js';
import { ProtobufCodec } from '../../pkg/runtime/protobuf/codec.js';
import { Scheme } from '../../pkg/runtime/scheme.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { assertStatus } from './framework/assertions.js';
import { fixtures } from './fixtures.js';

const sts = fixtures.find((f) => f.kind === 'StatefulSet')!;
const base = '/apis/apps/v1/namespaces/default/statefulsets';

describe('statefulsets/scale', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t?.stop());

  const create = async (name: string) => {
    const r = await t.client.post(base, sts.make(name));
    assert.equal(r.status, 201, r.text);
    return r.body;
  };

  test('discovery lists the sub-resource as autoscaling/v1 Scale', async () => {
    const list = await t.client.get('/apis/apps/v1');
    const scale = list.body.resources.find((r: { name: string }) => r.name === 'statefulsets/scale');
    assert.deepEqual(scale, { name: 'statefulsets/scale', singularName: '', namespaced: true, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] });
  });

  test('GET answers the Scale of the StatefulSet', async () => {
    const obj = await create('web');
    const r = await t.client.get(`${base}/web/scale`);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, {
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: { name: 'web', namespace: 'default', uid: obj.metadata.uid, resourceVersion: obj.metadata.resourceVersion, creationTimestamp: obj.metadata.creationTimestamp },
      spec: { replicas: 1 },
      status: { replicas: 0, selector: 'app=web' },
    });
    assertStatus(await t.client.get(`${base}/nope/scale`), 404, 'NotFound');
    assert.equal((await t.client.get(`${base}/nope/scale`)).body.message, 'statefulsets.apps "nope" not found');
  });

  test('PUT sets spec.replicas, bumps generation, and honours resourceVersion and uid', async () => {
    await create('put');
    const scale = (await t.client.get(`${base}/put/scale`)).body;
    const r = await t.client.put(`${base}/put/scale`, { ...scale, spec: { replicas: 3 } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.spec.replicas, 3);
    assert.notEqual(r.body.metadata.resourceVersion, scale.metadata.resourceVersion);
    const after = (await t.client.get(`${base}/put`)).body;
    assert.equal(after.spec.replicas, 3);
    assert.equal(after.metadata.generation, 2);
    assertStatus(await t.client.put(`${base}/put/scale`, { ...scale, spec: { replicas: 4 } }), 409, 'Conflict', 'stale resourceVersion');
    const unconditional = await t.client.put(`${base}/put/scale`, { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'put', namespace: 'default' }, spec: { replicas: 2 } });
    assert.equal(unconditional.status, 200, unconditional.text);
    const otherUID = await t.client.put(`${base}/put/scale`, { metadata: { name: 'put', uid: 'b7c0c5a6-0000-4000-8000-000000000000' }, spec: { replicas: 2 } });
    assertStatus(otherUID, 409, 'Conflict');
    const negative = await t.client.put(`${base}/put/scale`, { metadata: { name: 'put' }, spec: { replicas: -1 } });
    assertStatus(negative, 422, 'Invalid');
    assert.equal(negative.body.message, 'Scale.autoscaling "put" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
    const wrongKind = await t.client.put(`${base}/put/scale`, { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'put' }, spec: { replicas: 2 } });
    assertStatus(wrongKind, 400, 'BadRequest');
    const wrongName = await t.client.put(`${base}/put/scale`, { metadata: { name: 'other' }, spec: { replicas: 2 } });
    assertStatus(wrongName, 400, 'BadRequest');
    assert.equal((await t.client.get(`${base}/put`)).body.spec.replicas, 2);
  });

  test('PATCH of every type and dryRun', async () => {
    await create('patched');
    const merge = await t.client.patch(`${base}/patched/scale`, { spec: { replicas: 5 } });
    assert.equal(merge.status, 200, merge.text);
    assert.equal(merge.body.spec.replicas, 5);
    const json = await t.client.patch(`${base}/patched/scale`, [{ op: 'replace', path: '/spec/replicas', value: 6 }], 'application/json-patch+json');
    assert.equal(json.body.spec.replicas, 6, json.text);
    const strategic = await t.client.patch(`${base}/patched/scale`, { spec: { replicas: 7 } }, 'application/strategic-merge-patch+json');
    assert.equal(strategic.body.spec.replicas, 7, strategic.text);
    const dry = await t.client.request('PATCH', `${base}/patched/scale?dryRun=All`, { body: { spec: { replicas: 0 } }, contentType: 'application/merge-patch+json' });
    assert.equal(dry.status, 200, dry.text);
    assert.equal(dry.body.spec.replicas, 0);
    assert.equal((await t.client.get(`${base}/patched`)).body.spec.replicas, 7, 'a dry run changes nothing');
    // A patched Scale that does not decode is upstream's 422 on `patch`.
    const bad = await t.client.patch(`${base}/patched/scale`, { spec: { replicas: 'many' } });
    assertStatus(bad, 422, 'Invalid');
    assert.equal(bad.body.details.causes[0].field, 'patch');
  });

  test('protobuf clients read the Scale', async () => {
    await create('pb');
    const scheme = new Scheme(groupVersions(defaultApiDomain));
    const info = scheme.resource('apps', 'v1', 'statefulsets')!.subresourceKinds.scale!;
    const r = await t.client.getRaw(`${base}/pb/scale`, { Accept: 'application/vnd.kubernetes.protobuf' });
    assert.equal(r.status, 200);
    const decoded = new ProtobufCodec(scheme).decodeObject(info, r.body) as { spec: { replicas: number }; status: { selector: string } };
    assert.equal(decoded.spec.replicas, 1);
    assert.equal(decoded.status.selector, 'app=pb');
  });

  test('OpenAPI documents the sub-resource with the Scale schema', async () => {
    const doc = (await t.client.get('/openapi/v3/apis/apps/v1')).body;
    const path = doc.paths['/apis/apps/v1/namespaces/{namespace}/statefulsets/{name}/scale'];
    assert.ok(path, Object.keys(doc.paths).join('\n'));
    assert.equal(path.get.operationId, 'readAppsV1NamespacedStatefulSetScale');
    assert.deepEqual(path.put['x-kubernetes-group-version-kind'], { group: 'autoscaling', kind: 'Scale', version: 'v1' });
    const ref: string = path.get.responses['200'].content['application/json'].schema.$ref;
    assert.match(ref, /autoscaling\.v1\.Scale$/);
    assert.ok(doc.components.schemas[ref.split('/').pop()!].properties.spec);
  });
});
