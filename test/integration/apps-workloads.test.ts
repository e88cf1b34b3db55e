// Deployments, ReplicaSets and ControllerRevisions through the real server: upstream's defaults,
// validation causes, the immutable selector, scale, Table columns and free-form revision data.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { assertStatus } from './framework/assertions.js';
import { fixtures } from './fixtures.js';

const make = (kind: string, name: string) => fixtures.find((f) => f.kind === kind)!.make(name) as Record<string, any>;
const ns = '/apis/apps/v1/namespaces/default';

describe('apps/v1 workloads', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t?.stop());

  test('a Deployment gets upstream defaults and an empty status', async () => {
    const r = await t.client.post(`${ns}/deployments`, make('Deployment', 'defaults'));
    assert.equal(r.status, 201, r.text);
    const spec = r.body.spec;
    assert.equal(spec.replicas, 1);
    assert.equal(spec.revisionHistoryLimit, 10);
    assert.equal(spec.progressDeadlineSeconds, 600);
    assert.deepEqual(spec.strategy, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } });
    assert.equal(spec.template.spec.restartPolicy, 'Always');
    assert.deepEqual(r.body.status, {});
    assert.equal(r.body.metadata.generation, 1);
    const rs = await t.client.post(`${ns}/replicasets`, make('ReplicaSet', 'defaults'));
    assert.equal(rs.status, 201, rs.text);
    assert.equal(rs.body.spec.replicas, 1);
    assert.deepEqual(rs.body.status, { replicas: 0 });
  });

  test('bad fields are rejected with one cause each, in upstream words', async () => {
    const obj = make('Deployment', 'bad');
    obj.spec.selector = { matchLabels: { app: 'other' } };
    obj.spec.strategy = { type: 'Recreate', rollingUpdate: { maxSurge: 1 } };
    obj.spec.minReadySeconds = 10;
    obj.spec.progressDeadlineSeconds = 5;
    const r = await t.client.post(`${ns}/deployments`, obj);
    assertStatus(r, 422, 'Invalid');
    const causes = r.body.details.causes.map((c: any) => `${c.reason} ${c.field}: ${c.message}`);
    assert.deepEqual(causes.sort(), [
      'FieldValueForbidden spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is \'Recreate\'',
      'FieldValueInvalid spec.progressDeadlineSeconds: Invalid value: 5: must be greater than minReadySeconds',
      'FieldValueInvalid spec.template.metadata.labels: Invalid value: {"app":"bad"}: `selector` does not match template `labels`',
    ].sort());
    assert.equal((await t.client.get(`${ns}/deployments/bad`)).status, 404);
  });

  test('the selector cannot change; annotations and spec changes bump the generation', async () => {
    const created = (await t.client.post(`${ns}/deployments`, make('Deployment', 'immutable'))).body;
    const changed = structuredClone(created);
    changed.spec.selector = { matchLabels: { app: 'immutable', tier: 'web' } };
    changed.spec.template.metadata.labels.tier = 'web';
    const r = await t.client.put(`${ns}/deployments/immutable`, changed);
    assertStatus(r, 422, 'Invalid');
    assert.deepEqual(r.body.details.causes.map((c: any) => `${c.reason} ${c.field}`), ['FieldValueInvalid spec.selector']);
    assert.match(r.body.message, /spec\.selector: Invalid value: .*: field is immutable$/);
    const annotated = await t.client.patch(`${ns}/deployments/immutable`, { metadata: { annotations: { note: 'x' } } }, 'application/merge-patch+json');
    assert.equal(annotated.status, 200, annotated.text);
    assert.equal(annotated.body.metadata.generation, 2);
    const labelled = await t.client.patch(`${ns}/deployments/immutable`, { metadata: { labels: { more: 'y' } } }, 'application/merge-patch+json');
    assert.equal(labelled.body.metadata.generation, 2);
  });

  test('scale reads and writes the replicas of Deployments and ReplicaSets', async () => {
    for (const [kind, resource] of [['Deployment', 'deployments'], ['ReplicaSet', 'replicasets']] as const) {
      assert.equal((await t.client.post(`${ns}/${resource}`, make(kind, 'scaled'))).status, 201);
      const scale = await t.client.get(`${ns}/${resource}/scaled/scale`);
      assert.equal(scale.status, 200, scale.text);
      assert.deepEqual({ kind: scale.body.kind, spec: scale.body.spec, status: scale.body.status },
        { kind: 'Scale', spec: { replicas: 1 }, status: { replicas: 0, selector: 'app=scaled' } });
      const put = await t.client.put(`${ns}/${resource}/scaled/scale`, { ...scale.body, spec: { replicas: 4 } });
      assert.equal(put.status, 200, put.text);
      assert.equal((await t.client.get(`${ns}/${resource}/scaled`)).body.spec.replicas, 4);
    }
  });

  test('Tables show upstream columns', async () => {
    const r = await t.client.get(`${ns}/deployments/defaults`, { headers: { Accept: 'application/json;as=Table;g=meta.k8s.io;v=v1' } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.columnDefinitions.map((c: any) => c.name), ['Name', 'Ready', 'Up-to-date', 'Available', 'Age', 'Containers', 'Images', 'Selector']);
    assert.deepEqual(r.body.rows[0].cells.slice(0, 4), ['defaults', '0/1', 0, 0]);
    const rs = await t.client.get(`${ns}/replicasets`, { headers: { Accept: 'application/json;as=Table;g=meta.k8s.io;v=v1' } });
    assert.deepEqual(rs.body.columnDefinitions.map((c: any) => c.name), ['Name', 'Desired', 'Current', 'Ready', 'Age', 'Containers', 'Images', 'Selector']);
  });

  test('a ControllerRevision keeps its data as sent and never lets it change', async () => {
    const obj = make('ControllerRevision', 'rev');
    obj.data = { spec: { template: { $patch: 'replace', unknownField: [1, { deep: true }] } } };
    obj.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'u-1', controller: true }];
    const r = await t.client.post(`${ns}/controllerrevisions`, obj);
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.body.data, obj.data);
    assert.deepEqual((await t.client.get(`${ns}/controllerrevisions/rev`)).body.data, obj.data);
    const table = await t.client.get(`${ns}/controllerrevisions/rev`, { headers: { Accept: 'application/json;as=Table;g=meta.k8s.io;v=v1' } });
    assert.deepEqual(table.body.rows[0].cells.slice(0, 3), ['rev', 'statefulset.apps/web', 1]);
    const changed = await t.client.patch(`${ns}/controllerrevisions/rev`, { data: { other: 1 } }, 'application/merge-patch+json');
    assertStatus(changed, 422, 'Invalid');
    assert.deepEqual(changed.body.details.causes.map((c: any) => `${c.reason} ${c.field}`), ['FieldValueInvalid data']);
    const noData = make('ControllerRevision', 'nodata');
    delete noData.data;
    const missing = await t.client.post(`${ns}/controllerrevisions`, noData);
    assertStatus(missing, 422, 'Invalid');
    assert.deepEqual(missing.body.details.causes.map((c: any) => `${c.reason} ${c.field}: ${c.message}`), ['FieldValueRequired data: Required value: data is mandatory']);
  });
});
