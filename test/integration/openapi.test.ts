// OpenAPI v2 and v3 as clients fetch them: every kind with its group/version/kind and merge
// markers, the v3 index with content hashes, and documents that follow --runtime-config.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { fixtures } from './fixtures.js';

describe('openapi', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ runtimeConfig: 'storage.orch.io/v1=false' });
  });
  after(async () => t?.stop());

  const gvk = (f: (typeof fixtures)[number]) => ({ group: f.apiVersion.includes('/') ? f.apiVersion.split('/')[0] : '', version: f.apiVersion.split('/').pop(), kind: f.kind });

  test('/openapi/v2 describes every served kind with its group/version/kind', async () => {
    const r = await t.client.get('/openapi/v2');
    assert.equal(r.status, 200);
    assert.equal(r.body.swagger, '2.0');
    const defs = Object.values(r.body.definitions) as any[];
    for (const f of fixtures) {
      const def = defs.find((d) => (d['x-orch-group-version-kind'] ?? []).some((x: any) => x.kind === f.kind && x.version === gvk(f).version && x.group === gvk(f).group));
      if (f.kind === 'CSIDriver') {
        assert.equal(def, undefined, 'a disabled group is absent');
        continue;
      }
      assert.ok(def, `definition of ${f.kind}`);
      assert.deepEqual(def['x-kubernetes-group-version-kind'], def['x-orch-group-version-kind']);
    }
    const podSpec = r.body.definitions['io.orch.api.core.v1.PodSpec'];
    assert.equal(podSpec.properties.containers['x-orch-patch-merge-key'], 'name');
    assert.equal(podSpec.properties.containers['x-kubernetes-patch-merge-key'], 'name');
    assert.ok(r.body.paths['/apis/apps/v1/namespaces/{namespace}/statefulsets/{name}/status']);
    assert.equal(r.body.paths['/apis/storage.orch.io/v1/csidrivers'], undefined);
  });

  test('/openapi/v3 lists one document per group/version; hashes are served immutable, stale ones redirect', async () => {
    const index = await t.client.get('/openapi/v3');
    const keys = Object.keys(index.body.paths).sort();
    assert.deepEqual(keys, ['api/v1', 'apis/apps/v1', 'apis/networking.orch.io/v1', 'apis/policy/v1', 'apis/rbac.authorization.orch.io/v1']);
    const url = index.body.paths['apis/apps/v1'].serverRelativeURL as string;
    assert.match(url, /^\/openapi\/v3\/apis\/apps\/v1\?hash=[0-9A-F]{128}$/);
    const doc = await t.client.get(url);
    assert.equal(doc.status, 200);
    assert.equal(doc.headers['cache-control'], 'public, immutable');
    assert.match(doc.body.openapi, /^3\.0/);
    const sts = Object.values(doc.body.components.schemas).find((s: any) => (s['x-kubernetes-group-version-kind'] ?? []).some((x: any) => x.kind === 'StatefulSet')) as any;
    assert.ok(sts, 'StatefulSet in apps/v1');
    const stale = await t.client.get('/openapi/v3/apis/apps/v1?hash=0000');
    assert.equal(stale.status, 301);
    assert.equal(stale.headers.location, url);
    assert.equal((await t.client.get('/openapi/v3/apis/storage.orch.io/v1')).status, 404);
    assert.equal((await t.client.get('/openapi/v2', { headers: { Accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' } })).status, 406);
  });
});
