// Every verb of every served kind, at the paths and with the status codes of the resource
// reference, against a real etcd over HTTPS.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { defaultAdmissionOptions } from '../../cmd/apiserver/app/admission-options.js';
import { ensureDefaultServiceAccount, startTestServer, type TestServer } from './framework/apiserver.js';
import { collectionPath, fixtures, itemPath } from './fixtures.js';

describe('verbs of every kind', () => {
  let t: TestServer;
  before(async () => {
    // Claims and volumes would keep their protection finalizers for good: the controllers that
    // lift them are not part of this server. The plug-in that adds them has its own tests.
    t = await startTestServer({ admission: { ...defaultAdmissionOptions(), plugins: { disable: ['StorageObjectInUseProtection'] } } });
    const ns = await t.client.post('/api/v1/namespaces', { metadata: { name: 'other' } });
    assert.equal(ns.status, 201, ns.text);
    await ensureDefaultServiceAccount(t.client, 'other');
  });
  after(async () => t?.stop());

  for (const f of fixtures) {
    test(`${f.kind}: create, get, list, update, patch, delete, deletecollection`, async () => {
      const c = t.client;
      const name = `${f.resource.slice(0, 8)}-one`;
      const created = await c.post(collectionPath(f), f.make(name));
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.kind, f.kind);
      assert.equal(created.body.apiVersion, f.apiVersion);
      assert.equal(created.body.metadata.name, name);
      assert.match(created.body.metadata.uid, /^[0-9a-f-]{36}$/);
      assert.match(created.body.metadata.creationTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      assert.match(created.body.metadata.resourceVersion, /^\d+$/);
      if (f.namespaced) assert.equal(created.body.metadata.namespace, 'default');
      else assert.equal(created.body.metadata.namespace, undefined);

      const again = await c.post(collectionPath(f), f.make(name));
      assert.equal(again.status, 409, again.text);
      assert.equal(again.body.reason, 'AlreadyExists');

      const got = await c.get(itemPath(f, name));
      assert.equal(got.status, 200, got.text);
      assert.deepEqual(got.body, created.body);

      const list = await c.get(collectionPath(f));
      assert.equal(list.status, 200, list.text);
      assert.equal(list.body.kind, `${f.kind}List`);
      assert.equal(list.body.apiVersion, f.apiVersion);
      assert.match(list.body.metadata.resourceVersion, /^\d+$/);
      assert.ok(list.body.items.some((i: any) => i.metadata.name === name), 'the list holds the new object');

      if (f.namespaced) {
        const inOther = await c.post(collectionPath(f, 'other'), f.make(`${name}-b`));
        assert.equal(inOther.status, 201, inOther.text);
        const all = await c.get(`${f.gv}/${f.resource}`);
        assert.equal(all.status, 200, all.text);
        const names = all.body.items.map((i: any) => `${i.metadata.namespace}/${i.metadata.name}`);
        assert.ok(names.includes(`default/${name}`) && names.includes(`other/${name}-b`), names.join(','));
        const onlyOther = await c.get(collectionPath(f, 'other'));
        assert.ok(onlyOther.body.items.every((i: any) => i.metadata.namespace === 'other'), 'only the namespace\'s objects');
        // The namespace also holds the default service account its pods need.
        assert.deepEqual(onlyOther.body.items.map((i: any) => i.metadata.name).filter((n: string) => n !== 'default'), [`${name}-b`]);
      }

      const updatedBody = { ...got.body, metadata: { ...got.body.metadata, annotations: { step: 'update' } } };
      const updated = await c.put(itemPath(f, name), updatedBody);
      assert.equal(updated.status, 200, updated.text);
      assert.equal(updated.body.metadata.annotations.step, 'update');
      assert.notEqual(updated.body.metadata.resourceVersion, got.body.metadata.resourceVersion);

      const stale = await c.put(itemPath(f, name), updatedBody);
      assert.equal(stale.status, 409, stale.text);
      assert.equal(stale.body.reason, 'Conflict');
      assert.match(stale.body.message, /the object has been modified; please apply your changes to the latest version and try again/);

      const patched = await c.patch(itemPath(f, name), f.patch);
      assert.equal(patched.status, 200, patched.text);
      assert.notEqual(f.patched(patched.body), undefined);
      assert.equal(patched.body.metadata.annotations.step, 'update', 'a merge patch keeps what it does not name');

      if (f.hasStatus) {
        const st = await c.get(`${itemPath(f, name)}/status`);
        assert.equal(st.status, 200, st.text);
        assert.equal(st.body.metadata.name, name);
      }

      let del = await c.delete(itemPath(f, name));
      if (f.terminates) {
        assert.equal(del.status, 200, del.text);
        assert.equal(del.body.status.phase, 'Terminating');
        del = await c.put(`${itemPath(f, name)}/finalize`, { ...del.body, spec: { finalizers: [] } });
      }
      assert.equal(del.status, 200, del.text);
      if (f.returnsObject) {
        assert.equal(del.body.kind, f.kind);
        assert.equal(del.body.metadata.name, name);
      } else {
        assert.equal(del.body.kind, 'Status');
        assert.equal(del.body.status, 'Success');
        assert.equal(del.body.details.name, name);
        assert.equal(del.body.details.uid, created.body.metadata.uid);
      }
      const gone = await c.get(itemPath(f, name));
      assert.equal(gone.status, 404, gone.text);
      assert.equal(gone.body.reason, 'NotFound');
      assert.equal(gone.body.kind, 'Status');

      const missing = await c.delete(itemPath(f, name));
      assert.equal(missing.status, 404, missing.text);

      if (f.terminates) {
        const dc = await c.delete(`${collectionPath(f)}?labelSelector=fixture%3Dyes`);
        assert.equal(dc.status, 405, 'not served for this kind, as upstream');
        return;
      }
      // deletecollection honours a label selector and leaves the rest.
      for (const n of ['dc-a', 'dc-b']) {
        const r = await c.post(collectionPath(f), f.make(`${f.resource.slice(0, 8)}-${n}`));
        assert.equal(r.status, 201, r.text);
      }
      const keep = f.make(`${f.resource.slice(0, 8)}-keep`) as { metadata: { labels: Record<string, string> } };
      keep.metadata.labels = { fixture: 'keep' };
      assert.equal((await c.post(collectionPath(f), keep)).status, 201);
      const dc = await c.delete(`${collectionPath(f)}?labelSelector=fixture%3Dyes`);
      assert.equal(dc.status, 200, dc.text);
      assert.equal(dc.body.kind, `${f.kind}List`);
      assert.deepEqual(dc.body.items.map((i: any) => i.metadata.name).sort(), [`${f.resource.slice(0, 8)}-dc-a`, `${f.resource.slice(0, 8)}-dc-b`]);
      const left = await c.get(`${collectionPath(f)}?labelSelector=fixture`);
      assert.deepEqual(left.body.items.map((i: any) => i.metadata.name), [`${f.resource.slice(0, 8)}-keep`]);
    });

    test(`${f.kind}: watch sees ADDED, MODIFIED and DELETED in order`, async () => {
      const c = t.client;
      const list = await c.get(collectionPath(f));
      const w = await c.watch(`${collectionPath(f)}?watch=true&resourceVersion=${list.body.metadata.resourceVersion}`);
      assert.equal(w.status, 200);
      assert.match(String(w.headers['content-type']), /application\/json/);
      try {
        const name = `${f.resource.slice(0, 8)}-watched`;
        const created = await c.post(collectionPath(f), f.make(name));
        assert.equal(created.status, 201, created.text);
        const patched = await c.patch(itemPath(f, name), { metadata: { labels: { watched: 'yes' } } });
        assert.equal(patched.status, 200, patched.text);
        let deleted = await c.delete(itemPath(f, name));
        if (f.terminates) deleted = await c.put(`${itemPath(f, name)}/finalize`, { ...deleted.body, spec: { finalizers: [] } });
        assert.equal(deleted.status, 200, deleted.text);
        // A namespace's deletion passes through Terminating (one more MODIFIED) before DELETED.
        const events = (await w.take(f.terminates ? 4 : 3)).filter((_, i) => !(f.terminates && i === 2));
        assert.deepEqual(events.map((e) => e.type), ['ADDED', 'MODIFIED', 'DELETED']);
        assert.equal(events[0]!.object.kind, f.kind);
        assert.equal(events[0]!.object.metadata.resourceVersion, created.body.metadata.resourceVersion);
        assert.equal(events[1]!.object.metadata.labels.watched, 'yes');
        assert.equal(events[1]!.object.metadata.resourceVersion, patched.body.metadata.resourceVersion);
        assert.equal(events[2]!.object.metadata.name, name);
      } finally {
        w.close();
      }
    });
  }
});
