// The deletion lifecycle (spec 3.1): finalizers keep a deleted object until the last one is
// removed, DeleteOptions preconditions and propagation, namespaces that terminate.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from './framework/apiserver.js';

const cms = '/api/v1/namespaces/default/configmaps';

describe('deletion lifecycle', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t?.stop());

  test('an object with finalizers is marked, answers 200 with it (202 only for orphanDependents=false, as upstream), and goes with its last finalizer in one write', async () => {
    const c = t.client;
    const created = await c.post(cms, { metadata: { name: 'fin', finalizers: ['example.com/a', 'example.com/b'] } });
    assert.equal(created.status, 201, created.text);
    const w = await c.watch(`${cms}?watch=true&resourceVersion=${created.body.metadata.resourceVersion}`);
    const del = await c.delete(`${cms}/fin`);
    assert.equal(del.status, 200, del.text);
    assert.equal(del.body.kind, 'ConfigMap');
    assert.match(del.body.metadata.deletionTimestamp, /Z$/);
    assert.equal(del.body.metadata.deletionGracePeriodSeconds, 0);
    const again = await c.delete(`${cms}/fin`);
    assert.equal(again.status, 200, 'a second delete leaves it pending');
    assert.equal(again.body.metadata.deletionTimestamp, del.body.metadata.deletionTimestamp);
    const one = await c.patch(`${cms}/fin`, { metadata: { finalizers: ['example.com/b'] } });
    assert.equal(one.status, 200, one.text);
    assert.equal((await c.get(`${cms}/fin`)).status, 200, 'still there with one finalizer');
    const rvBeforeLast = one.body.metadata.resourceVersion;
    const last = await c.patch(`${cms}/fin`, { metadata: { finalizers: null } });
    assert.equal(last.status, 200, last.text);
    assert.equal((await c.get(`${cms}/fin`)).status, 404, 'gone with its last finalizer');
    // Marked, one finalizer removed, gone; the repeated delete wrote nothing.
    const events = await w.take(3);
    assert.deepEqual(events.map((e) => e.type), ['MODIFIED', 'MODIFIED', 'DELETED']);
    assert.equal(Number(events[2]!.object.metadata.resourceVersion), Number(rvBeforeLast) + 1, 'removed in the very next write');
    assert.equal(await w.next(500), undefined);
    w.close();
  });

  test('finalizers cannot be added once deletion started, deletionTimestamp cannot be set or cleared by clients', async () => {
    const c = t.client;
    await c.post(cms, { metadata: { name: 'fin2', finalizers: ['example.com/a'] } });
    const del = await c.delete(`${cms}/fin2`);
    const cleared = await c.patch(`${cms}/fin2`, { metadata: { deletionTimestamp: null } });
    assert.equal(cleared.body.metadata.deletionTimestamp, del.body.metadata.deletionTimestamp);
    await c.post(cms, { metadata: { name: 'plain' } });
    const forged = await c.patch(`${cms}/plain`, { metadata: { deletionTimestamp: '2020-01-01T00:00:00Z' } });
    assert.equal(forged.body.metadata.deletionTimestamp, undefined);
    await c.patch(`${cms}/fin2`, { metadata: { finalizers: null } });
  });

  test('preconditions on uid and resourceVersion answer 409 on mismatch', async () => {
    const c = t.client;
    const obj = await c.post(cms, { metadata: { name: 'pre' } });
    const badUID = await c.request('DELETE', `${cms}/pre`, { body: { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: 'not-it' } } });
    assert.equal(badUID.status, 409, badUID.text);
    assert.equal(badUID.body.reason, 'Conflict');
    const badRV = await c.request('DELETE', `${cms}/pre`, { body: { preconditions: { resourceVersion: '1' } } });
    assert.equal(badRV.status, 409, badRV.text);
    assert.equal((await c.get(`${cms}/pre`)).status, 200, 'still there');
    const ok = await c.request('DELETE', `${cms}/pre`, { body: { preconditions: { uid: obj.body.metadata.uid, resourceVersion: obj.body.metadata.resourceVersion } } });
    assert.equal(ok.status, 200, ok.text);
  });

  test('propagationPolicy Orphan and Foreground are recorded as finalizers; Background deletes at once', async () => {
    const c = t.client;
    for (const [policy, finalizer] of [['Orphan', 'orphan'], ['Foreground', 'foregroundDeletion']] as const) {
      await c.post(cms, { metadata: { name: `prop-${finalizer.toLowerCase()}` } });
      const r = await c.delete(`${cms}/prop-${finalizer.toLowerCase()}?propagationPolicy=${policy}`);
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body.metadata.finalizers, [finalizer]);
    }
    // The old cascading form: a deletion left pending answers 202, as upstream's handler does.
    await c.post(cms, { metadata: { name: 'prop-cascade', finalizers: ['example.com/x'] } });
    const cascade = await c.request('DELETE', `${cms}/prop-cascade`, { body: { orphanDependents: false } });
    assert.equal(cascade.status, 202, cascade.text);
    assert.deepEqual(cascade.body.metadata.finalizers, ['example.com/x']);
    await c.post(cms, { metadata: { name: 'prop-bg' } });
    const bg = await c.request('DELETE', `${cms}/prop-bg`, { body: { propagationPolicy: 'Background' } });
    assert.equal(bg.status, 200, bg.text);
    const bad = await c.delete(`${cms}/prop-orphan?propagationPolicy=Sometimes`);
    assert.equal(bad.status, 422, bad.text);
    const both = await c.request('DELETE', `${cms}/prop-orphan`, { body: { propagationPolicy: 'Orphan', orphanDependents: true } });
    assert.equal(both.status, 422, both.text);
    const malformed = await c.request('DELETE', `${cms}/prop-orphan`, { raw: '{"gracePeriodSeconds": "soon"}', contentType: 'application/json' });
    assert.equal(malformed.status, 400, malformed.text);
  });

  test('a deleted namespace turns Terminating, refuses new content, and goes when finalized', async () => {
    const c = t.client;
    const ns = await c.post('/api/v1/namespaces', { metadata: { name: 'doomed' } });
    assert.deepEqual(ns.body.spec.finalizers, ['orch']);
    assert.equal(ns.body.status.phase, 'Active');
    assert.equal((await c.post('/api/v1/namespaces/doomed/configmaps', { metadata: { name: 'inside' } })).status, 201);
    const del = await c.delete('/api/v1/namespaces/doomed');
    assert.equal(del.status, 200, del.text);
    assert.equal(del.body.kind, 'Namespace');
    assert.equal(del.body.status.phase, 'Terminating');
    assert.ok(del.body.metadata.deletionTimestamp);
    const again = await c.delete('/api/v1/namespaces/doomed');
    assert.equal(again.status, 409, again.text);
    const refused = await c.post('/api/v1/namespaces/doomed/configmaps', { metadata: { name: 'late' } });
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.body.reason, 'Forbidden');
    assert.match(refused.body.message, /unable to create new content in namespace doomed because it is being terminated/);
    assert.equal(refused.body.details.causes[0].reason, 'NamespaceTerminating');
    const upd = await c.patch('/api/v1/namespaces/doomed/configmaps/inside', { data: { still: 'writable' } });
    assert.equal(upd.status, 200, 'existing content can still be changed');
    const byPhase = await c.get('/api/v1/namespaces?fieldSelector=status.phase%3DTerminating');
    assert.deepEqual(byPhase.body.items.map((i: any) => i.metadata.name), ['doomed']);
    const fin = structuredClone(del.body);
    fin.spec.finalizers = [];
    const finalized = await c.put('/api/v1/namespaces/doomed/finalize', fin);
    assert.equal(finalized.status, 200, finalized.text);
    assert.equal((await c.get('/api/v1/namespaces/doomed')).status, 404, 'gone once its finalizers are cleared');
  });

  test('spec.finalizers change only through /finalize, and system namespaces cannot be deleted', async () => {
    const c = t.client;
    const ns = await c.post('/api/v1/namespaces', { metadata: { name: 'keepfin' }, spec: { finalizers: [] } });
    assert.deepEqual(ns.body.spec.finalizers, ['orch']);
    const patched = await c.patch('/api/v1/namespaces/keepfin', { spec: { finalizers: [] } });
    assert.deepEqual(patched.body.spec.finalizers, ['orch']);
    assert.equal((await c.patch('/api/v1/namespaces/keepfin/finalize', { spec: { finalizers: [] } })).status, 405);
    for (const name of ['default', 'orch-system', 'orch-public']) {
      const r = await c.delete(`/api/v1/namespaces/${name}`);
      assert.equal(r.status, 403, r.text);
      assert.match(r.body.message, /this namespace may not be deleted/);
    }
  });

  test('deletecollection honours selectors and returns the deleted objects', async () => {
    const c = t.client;
    for (const n of ['dc-1', 'dc-2']) await c.post(cms, { metadata: { name: n, labels: { batch: 'x' } } });
    await c.post(cms, { metadata: { name: 'dc-3', labels: { batch: 'y' } } });
    const r = await c.delete(`${cms}?labelSelector=batch%3Dx`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.kind, 'ConfigMapList');
    assert.deepEqual(r.body.items.map((i: any) => i.metadata.name).sort(), ['dc-1', 'dc-2']);
    const left = await c.get(`${cms}?labelSelector=batch`);
    assert.deepEqual(left.body.items.map((i: any) => i.metadata.name), ['dc-3']);
    const byField = await c.delete(`${cms}?fieldSelector=metadata.name%3Ddc-3`);
    assert.deepEqual(byField.body.items.map((i: any) => i.metadata.name), ['dc-3']);
  });
});
