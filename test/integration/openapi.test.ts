// OpenAPI v2 and v3 as clients fetch them: every kind with its group/version/kind and merge
// markers, the v3 index with content hashes, documents that follow --runtime-config, /openapi/v2
// in gnostic protobuf for stock kubectl, Accept fall-backs to JSON, and ETag revalidation.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { decodeGnosticDocument, toSwagger } from '../../pkg/endpoints/openapi/testdata/gnostic-v2-proto.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { assertStatus } from './framework/assertions.js';
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
      if (f.apiVersion.startsWith('storage.orch.io/')) {
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
    assert.deepEqual(keys, ['api/v1', 'apis/admissionregistration.orch.io/v1', 'apis/apiextensions.orch.io/v1', 'apis/apiregistration.orch.io/v1', 'apis/apps/v1', 'apis/authentication.orch.io/v1', 'apis/authentication.orch.io/v1beta1', 'apis/authorization.orch.io/v1', 'apis/autoscaling/v1', 'apis/autoscaling/v2', 'apis/batch/v1', 'apis/certificates.orch.io/v1', 'apis/coordination.orch.io/v1', 'apis/discovery.orch.io/v1', 'apis/events.orch.io/v1', 'apis/networking.orch.io/v1', 'apis/node.orch.io/v1', 'apis/policy/v1',
      'apis/rbac.authorization.orch.io/v1', 'apis/scheduling.orch.io/v1']);
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
  });

  test('/openapi/v2 in protobuf for the Accept stock kubectl sends: the JSON document, read back', async () => {
    const json = await t.client.getRaw('/openapi/v2', { Accept: 'application/json' });
    const pb = await t.client.getRaw('/openapi/v2', { Accept: kubectlOpenAPIV2Accept });
    assert.equal(pb.status, 200, pb.body.toString());
    assert.equal(pb.headers['content-type'], protobufV2);
    assert.equal(json.headers['content-type'], 'application/json');
    for (const r of [json, pb]) assert.match(String(r.headers.vary), /Accept/);
    // One ETag for both forms: the SHA-512 of the JSON bytes, as upstream computes it.
    assert.equal(json.headers.etag, `"${createHash('sha512').update(json.body).digest('hex').toUpperCase()}"`);
    assert.equal(pb.headers.etag, json.headers.etag);

    const doc = JSON.parse(json.body.toString('utf8'));
    const back = toSwagger('Document', decodeGnosticDocument(pb.body)) as any;
    assert.deepEqual(Object.keys(back.paths), Object.keys(doc.paths));
    assert.deepEqual(Object.keys(back.definitions), Object.keys(doc.definitions));
    const sts = Object.entries(back.definitions).find(([, d]: [string, any]) => (d['x-kubernetes-group-version-kind'] ?? []).some((g: any) => g.kind === 'StatefulSet'));
    assert.ok(sts, 'StatefulSet found by its x-kubernetes-group-version-kind');
    assert.deepEqual(sts[1], doc.definitions[sts[0]]);
    assert.deepEqual(back.paths['/apis/apps/v1/namespaces/{namespace}/statefulsets/{name}'], doc.paths['/apis/apps/v1/namespaces/{namespace}/statefulsets/{name}']);
    assert.deepEqual(back.securityDefinitions, doc.securityDefinitions);

    const older = await t.client.getRaw('/openapi/v2', { Accept: protobufV2 });
    assert.equal(older.headers['content-type'], protobufV2);
    assert.ok(older.body.equals(pb.body));
  });

  test('/openapi/v2 answers JSON unless protobuf is preferred; 406 only when neither is acceptable', async () => {
    const cases: [Record<string, string>, string][] = [
      [{}, 'application/json'],
      [{ Accept: '*/*' }, 'application/json'],
      [{ Accept: 'application/json, */*' }, 'application/json'],
      [{ Accept: 'application/*' }, 'application/json'],
      [{ Accept: `application/json, ${kubectlOpenAPIV2Accept}` }, 'application/json'],
      [{ Accept: `${kubectlOpenAPIV2Accept};q=0.5, application/json` }, 'application/json'],
      [{ Accept: `${kubectlOpenAPIV2Accept};q=0, */*` }, 'application/json'],
      [{ Accept: `application/json;q=0.5, ${kubectlOpenAPIV2Accept}` }, protobufV2],
      [{ Accept: `*/*, ${kubectlOpenAPIV2Accept}` }, protobufV2],
      [{ Accept: 'text/html, application/xhtml+xml, */*;q=0.8' }, 'application/json'],
    ];
    for (const [headers, want] of cases) {
      const r = await t.client.getRaw('/openapi/v2', headers);
      assert.equal(r.status, 200, JSON.stringify(headers));
      assert.equal(r.headers['content-type'], want, JSON.stringify(headers));
    }
    const refused = await t.client.get('/openapi/v2', { headers: { Accept: 'text/html' } });
    assertStatus(refused, 406, 'NotAcceptable');
    assert.match(refused.body.message, /application\/json, application\/com\.github\.proto-openapi\.spec\.v2\.v1\.0\+protobuf/);
  });

  test('a client holding the current document gets 304 (If-None-Match, weak or strong, else If-Modified-Since)', async () => {
    const first = await t.client.getRaw('/openapi/v2', { Accept: kubectlOpenAPIV2Accept });
    const etag = String(first.headers.etag);
    const lastModified = String(first.headers['last-modified']);
    assert.ok(!Number.isNaN(Date.parse(lastModified)), lastModified);
    const revalidations: Record<string, string>[] = [{ 'If-None-Match': etag }, { 'If-None-Match': `"other", W/${etag}` }, { 'If-None-Match': '*' }, { 'If-Modified-Since': lastModified }];
    for (const headers of revalidations) {
      for (const accept of [kubectlOpenAPIV2Accept, 'application/json']) {
        const r = await t.client.getRaw('/openapi/v2', { Accept: accept, ...headers });
        assert.equal(r.status, 304, JSON.stringify(headers));
        assert.equal(r.body.length, 0);
        assert.equal(r.headers.etag, etag);
        assert.equal(r.headers['content-type'], undefined);
      }
    }
    const changed = await t.client.getRaw('/openapi/v2', { Accept: kubectlOpenAPIV2Accept, 'If-None-Match': '"other"', 'If-Modified-Since': lastModified });
    assert.equal(changed.status, 200, 'If-None-Match decides when both are sent');
    assert.ok(changed.body.equals(first.body));
    const older = await t.client.getRaw('/openapi/v2', { 'If-Modified-Since': new Date(Date.parse(lastModified) - 60_000).toUTCString() });
    assert.equal(older.status, 200);
  });

  test('/openapi/v3: the index is JSON whatever is accepted; documents fall back to JSON and honour their ETag', async () => {
    const index = await t.client.getRaw('/openapi/v3', { Accept: 'application/com.github.proto-openapi.spec.v3@v1.0+protobuf' });
    assert.equal(index.status, 200);
    assert.equal(index.headers['content-type'], 'application/json');
    const url = JSON.parse(index.body.toString('utf8')).paths['apis/apps/v1'].serverRelativeURL as string;
    const hash = url.split('hash=')[1]!;
    const doc = await t.client.getRaw(url, { Accept: 'application/com.github.proto-openapi.spec.v3@v1.0+protobuf, application/json' });
    assert.equal(doc.status, 200);
    assert.equal(doc.headers['content-type'], 'application/json');
    assert.equal(doc.headers.etag, `"${hash}"`);
    assert.ok(!Number.isNaN(Date.parse(String(doc.headers.expires))));
    const again = await t.client.getRaw(url, { Accept: 'application/json', 'If-None-Match': `"${hash}"` });
    assert.equal(again.status, 304);
    const unhashed = await t.client.getRaw('/openapi/v3/apis/apps/v1', { Accept: 'application/json' });
    assert.equal(unhashed.headers['cache-control'], 'no-cache, private');
    assert.equal(unhashed.headers.etag, `"${hash}"`);
    assertStatus(await t.client.get('/openapi/v3/apis/apps/v1', { headers: { Accept: 'text/html' } }), 406, 'NotAcceptable');
  });
});

/** What kubectl 1.27 to 1.33 send for /openapi/v2 (client-go's OpenAPISchema): the protobuf type alone. */
const kubectlOpenAPIV2Accept = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
/** What upstream answers with, and the older spelling clients may ask for. */
const protobufV2 = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
