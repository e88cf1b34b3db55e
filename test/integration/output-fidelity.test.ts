// Objects come back in the shape upstream's Go types give them: empty omitempty fields left out,
// pointers kept when zero, non-pointer structs and fields without omitempty always written. A
// client that reads an object and writes it back unchanged changes nothing (kubectl apply says
// "unchanged"), and the published OpenAPI documents every field for kubectl explain.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { collectionPath, fixtures, itemPath, statefulSetTemplate, type KindFixture } from './fixtures.js';

const fixture = (kind: string): KindFixture => fixtures.find((f) => f.kind === kind)!;

describe('output fidelity', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t?.stop());

  const sts = fixture('StatefulSet');
  const crb = fixture('ClusterRoleBinding');
  const csi = fixture('CSIDriver');

  // The template mounts a volume named data: each pod gets a claim of its own for it.
  const claimTemplates = () => [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }];
  const newStatefulSet = (name: string, spec: Record<string, unknown> = {}) => ({
    apiVersion: sts.apiVersion, kind: 'StatefulSet', metadata: { name },
    spec: { serviceName: name, selector: { matchLabels: { app: name } }, template: statefulSetTemplate(name), volumeClaimTemplates: claimTemplates(), ...spec },
  });

  test('a new StatefulSet reads back with its zero status and a null template creationTimestamp', async () => {
    const c = t.client;
    const created = await c.post(collectionPath(sts), newStatefulSet('zero'));
    assert.equal(created.status, 201, created.text);
    for (const obj of [created.body, (await c.get(itemPath(sts, 'zero'))).body]) {
      assert.deepEqual(obj.status, { replicas: 0, availableReplicas: 0 });
      assert.ok('creationTimestamp' in obj.spec.template.metadata);
      assert.equal(obj.spec.template.metadata.creationTimestamp, null);
      assert.deepEqual(obj.spec.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { partition: 0 } });
    }
    const listed = (await c.get(collectionPath(sts))).body.items.find((o: any) => o.metadata.name === 'zero');
    assert.deepEqual(listed.status, { replicas: 0, availableReplicas: 0 });
    const dryRun = await c.post(`${collectionPath(sts)}?dryRun=All`, newStatefulSet('zero-dry'));
    assert.equal(dryRun.status, 201, dryRun.text);
    assert.deepEqual(dryRun.body.status, { replicas: 0, availableReplicas: 0 }, 'a dry run answers what would be stored');
  });

  test('minReadySeconds: 0 is left out; replicas: 0 is kept (a pointer)', async () => {
    const c = t.client;
    const created = await c.post(collectionPath(sts), newStatefulSet('scaled-down', { replicas: 0, minReadySeconds: 0 }));
    assert.equal(created.status, 201, created.text);
    const got = (await c.get(itemPath(sts, 'scaled-down'))).body;
    assert.equal('minReadySeconds' in got.spec, false, JSON.stringify(got.spec));
    assert.equal(got.spec.replicas, 0);
    assert.equal(got.spec.revisionHistoryLimit, 10);
  });

  test('a ClusterRoleBinding with a ServiceAccount subject reads back without apiGroup', async () => {
    const c = t.client;
    const body = {
      apiVersion: crb.apiVersion, kind: 'ClusterRoleBinding', metadata: { name: 'sa-reader' },
      roleRef: { apiGroup: crb.apiVersion.split('/')[0], kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'ServiceAccount', name: 'builder', namespace: 'default' }, { kind: 'User', name: 'jane' }],
    };
    const created = await c.post(collectionPath(crb), body);
    assert.equal(created.status, 201, created.text);
    const got = (await c.get(itemPath(crb, 'sa-reader'))).body;
    assert.deepEqual(got.subjects[0], { kind: 'ServiceAccount', name: 'builder', namespace: 'default' });
    assert.equal(got.subjects[1].apiGroup, crb.apiVersion.split('/')[0], 'a User subject keeps its defaulted group');
    // Sent explicitly empty, it is left out all the same.
    const explicit = await c.put(itemPath(crb, 'sa-reader'), { ...got, subjects: [{ ...got.subjects[0], apiGroup: '' }] });
    assert.equal(explicit.status, 200, explicit.text);
    assert.equal('apiGroup' in explicit.body.subjects[0], false);
  });

  test('replacing an object with what was read changes neither resourceVersion nor generation, and reads back the same', async () => {
    const c = t.client;
    const cases: [KindFixture, string][] = [[sts, 'zero'], [crb, 'sa-reader'], [fixture('Namespace'), 'fixed-point'], [fixture('PodDisruptionBudget'), 'fixed-point']];
    const ns = fixture('Namespace');
    assert.equal((await c.post(collectionPath(ns), ns.make('fixed-point'))).status, 201);
    const pdb = fixture('PodDisruptionBudget');
    assert.equal((await c.post(collectionPath(pdb), pdb.make('fixed-point'))).status, 201);
    for (const [f, name] of cases) {
      const first = await c.get(itemPath(f, name));
      assert.equal(first.status, 200, first.text);
      const put = await c.put(itemPath(f, name), first.body);
      assert.equal(put.status, 200, `${f.kind}: ${put.text}`);
      assert.equal(put.body.metadata.resourceVersion, first.body.metadata.resourceVersion, `${f.kind}: nothing was written`);
      assert.equal(put.body.metadata.generation, first.body.metadata.generation, `${f.kind}: generation`);
      const second = await c.get(itemPath(f, name));
      assert.equal(second.text, first.text, `${f.kind}: GET, PUT, GET is a fixed point`);
    }
    // A real change still counts, once.
    const before = (await c.get(itemPath(sts, 'zero'))).body;
    const changed = structuredClone(before);
    changed.spec.replicas = 2;
    const upd = await c.put(itemPath(sts, 'zero'), changed);
    assert.equal(upd.status, 200, upd.text);
    assert.equal(upd.body.metadata.generation, before.metadata.generation + 1);
    assert.notEqual(upd.body.metadata.resourceVersion, before.metadata.resourceVersion);
  });

  test('a replace that leaves out zero values the server filled in is no spec change', async () => {
    const c = t.client;
    const stored = (await c.get(itemPath(sts, 'zero'))).body;
    const sparse = structuredClone(stored);
    delete sparse.spec.template.metadata.creationTimestamp;
    delete sparse.spec.updateStrategy;
    delete sparse.status;
    const upd = await c.put(itemPath(sts, 'zero'), sparse);
    assert.equal(upd.status, 200, upd.text);
    assert.equal(upd.body.metadata.generation, stored.metadata.generation);
    assert.equal(upd.body.spec.template.metadata.creationTimestamp, null, 'filled in again');
    assert.deepEqual(upd.body.status, stored.status);
    assert.equal(stored.spec.volumeClaimTemplates[0].metadata.creationTimestamp, null);
    // volumeClaimTemplates cannot change: the stored one with its fill-ins is the same as one sent without them.
    const resent = await c.put(itemPath(sts, 'zero'), newStatefulSet('zero', { replicas: 3 }));
    assert.equal(resent.status, 200, resent.text);
    assert.equal(resent.body.spec.replicas, 3);
    assert.equal(resent.body.metadata.generation, stored.metadata.generation + 1);
  });

  test('a CSIDriver keeps attachRequired: false (a pointer) and drops an empty list', async () => {
    const c = t.client;
    const created = await c.post(collectionPath(csi), {
      apiVersion: csi.apiVersion, kind: 'CSIDriver', metadata: { name: 'nodeless.example.com' },
      spec: { attachRequired: false, tokenRequests: [] },
    });
    assert.equal(created.status, 201, created.text);
    const got = (await c.get(itemPath(csi, 'nodeless.example.com'))).body;
    assert.equal(got.spec.attachRequired, false);
    assert.equal(got.spec.podInfoOnMount, false, 'a defaulted pointer is written');
    assert.equal('tokenRequests' in got.spec, false);
  });

  test('OpenAPI documents spec.replicas for kubectl explain, in v3 and v2', async () => {
    const c = t.client;
    const index = await c.get('/openapi/v3');
    const v3 = await c.get(index.body.paths['apis/apps/v1'].serverRelativeURL);
    assert.equal(v3.status, 200);
    const schemas = v3.body.components.schemas;
    const stsName = Object.keys(schemas).find((n) => (schemas[n]['x-kubernetes-group-version-kind'] ?? []).some((g: any) => g.kind === 'StatefulSet'))!;
    const specRef = schemas[stsName].properties.spec;
    assert.match(String(specRef.description), /\w/, 'the spec field is described beside its $ref');
    const specName = String(specRef.allOf[0].$ref).split('/').pop()!;
    const replicas = schemas[specName].properties.replicas;
    assert.equal(replicas.type, 'integer');
    assert.match(String(replicas.description), /pods/);
    assert.match(String(schemas[specName].description), /\w/);
    const v2 = await c.get('/openapi/v2');
    const v2Spec = v2.body.definitions[specName];
    assert.equal(v2Spec.properties.replicas.description, replicas.description);
    assert.equal(v2.body.definitions[stsName].properties.spec.description, specRef.description);
    assert.doesNotMatch(v2.text, /x-orch-emit/);
  });
});
