// The status sub-resource and generation: the main resource cannot change status, /status
// changes nothing but status, and generation counts spec changes only.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { collectionPath, fixtures, itemPath } from './fixtures.js';

describe('status sub-resources and generation', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t?.stop());

  for (const f of fixtures.filter((x) => x.hasStatus && x.status)) {
    test(`${f.kind}: status is written only through /status`, async () => {
      const c = t.client;
      const name = `${f.resource.slice(0, 8)}-st`;
      const body = f.make(name) as Record<string, any>;
      body.status = f.status;
      const created = await c.post(collectionPath(f), body);
      assert.equal(created.status, 201, created.text);
      // A Namespace starts Active, a Pod Pending with its QoS class, claims and volumes Pending; a Node
      // registers itself with its status, as upstream allows.
      if (f.kind === 'PersistentVolumeClaim' || f.kind === 'PersistentVolume') assert.equal(created.body.status.phase, 'Pending');
      else if (f.kind !== 'Namespace' && f.kind !== 'Pod' && f.kind !== 'Node') {
        // Dropped: what remains is the zero status upstream writes for a non-pointer status struct.
        const isZero = (v: unknown): boolean => v === 0 || v === '' || (typeof v === 'object' && v !== null && Object.values(v).every(isZero));
        const zero = Object.values(created.body.status ?? {}).every(isZero);
        assert.ok(zero, `status sent on create is dropped: ${JSON.stringify(created.body.status)}`);
      }

      // PUT on /status changes status, and nothing else even if asked to.
      const withStatus = structuredClone(created.body);
      withStatus.status = f.status;
      withStatus.metadata.labels = { changed: 'through-status' };
      const st = await c.put(`${itemPath(f, name)}/status`, withStatus);
      assert.equal(st.status, 200, st.text);
      assert.deepEqual(st.body.status, f.status);
      assert.deepEqual(st.body.metadata.labels, created.body.metadata.labels, 'a status update leaves labels');
      assert.equal(st.body.metadata.generation, created.body.metadata.generation, 'a status update leaves generation');
      // (A Node already has this status from its create: nothing to write then.)
      if (f.kind !== 'Node') assert.notEqual(st.body.metadata.resourceVersion, created.body.metadata.resourceVersion);

      // The main resource cannot change status.
      const main = structuredClone(st.body);
      main.status = {};
      main.metadata.annotations = { via: 'main' };
      const upd = await c.put(itemPath(f, name), main);
      assert.equal(upd.status, 200, upd.text);
      assert.deepEqual(upd.body.status, st.body.status, 'the main resource keeps the stored status');
      assert.equal(upd.body.metadata.annotations.via, 'main');

      // A merge patch of /status works too, and a stale resourceVersion conflicts.
      const patched = await c.patch(`${itemPath(f, name)}/status`, { status: f.status, metadata: { annotations: { via: 'status-patch' } } });
      assert.equal(patched.status, 200, patched.text);
      assert.equal(patched.body.metadata.annotations.via, 'main');
      const stale = await c.put(`${itemPath(f, name)}/status`, withStatus);
      assert.equal(stale.status, 409, stale.text);
    });
  }

  test('generation starts at 1 and grows with spec changes only', async () => {
    const f = fixtures.find((x) => x.kind === 'StatefulSet')!;
    const c = t.client;
    const created = await c.post(collectionPath(f), f.make('gen'));
    assert.equal(created.body.metadata.generation, 1);
    const labelled = await c.patch(itemPath(f, 'gen'), { metadata: { labels: { x: 'y' } } });
    assert.equal(labelled.body.metadata.generation, 1, 'metadata changes leave generation');
    const scaled = await c.patch(itemPath(f, 'gen'), { spec: { replicas: 5 } });
    assert.equal(scaled.body.metadata.generation, 2, 'a spec change bumps generation');
    const status = await c.patch(`${itemPath(f, 'gen')}/status`, { status: { replicas: 5, observedGeneration: 2 } });
    assert.equal(status.status, 200, status.text);
    assert.equal(status.body.metadata.generation, 2, 'status changes leave generation');
    const same = await c.put(itemPath(f, 'gen'), status.body);
    assert.equal(same.body.metadata.generation, 2, 'an update that changes nothing leaves generation');
    assert.equal(same.body.metadata.resourceVersion, status.body.metadata.resourceVersion, 'and writes nothing');
    const forged = structuredClone(same.body);
    forged.metadata.generation = 40;
    const kept = await c.put(itemPath(f, 'gen'), forged);
    assert.equal(kept.body.metadata.generation, 2, 'clients cannot set generation');
  });

  test('uid cannot be changed (409); a sent creationTimestamp gives way to the stored one, as upstream', async () => {
    const created = await t.client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'immut' } });
    const changed = structuredClone(created.body);
    changed.metadata.creationTimestamp = '2001-01-01T00:00:00Z';
    const r = await t.client.put('/api/v1/namespaces/default/configmaps/immut', changed);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.metadata.creationTimestamp, created.body.metadata.creationTimestamp);
    const uid = structuredClone(created.body);
    uid.metadata.uid = '00000000-0000-0000-0000-000000000000';
    assert.equal((await t.client.put('/api/v1/namespaces/default/configmaps/immut', uid)).status, 409);
  });

  test('a PUT without resourceVersion overwrites (unconditional update)', async () => {
    await t.client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'uncond' }, data: { a: '1' } });
    const r = await t.client.put('/api/v1/namespaces/default/configmaps/uncond', { metadata: { name: 'uncond' }, data: { a: '2' } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.data.a, '2');
  });
});
