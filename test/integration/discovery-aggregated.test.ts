// Aggregated discovery (apidiscovery v2 and v2beta1 APIGroupDiscoveryList on /api and /apis), as
// kubectl 1.26 and later ask for it: under --api-domain=k8s.io stock kubectl's hard-coded
// apidiscovery.k8s.io is ours. What it says is checked against the per-group documents, entry by
// entry; the real kubectl is shown to discover in two requests; worker threads answer alike.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { pollUntil } from './framework/authentication.js';
import { startBinaryServer, type BinaryServer } from './framework/binary-server.js';
import type { Client, Response } from './framework/client.js';
import { writeKubeconfig } from './framework/kubeconfig.js';
import { Kubectl } from './framework/kubectl.js';

type Json = Record<string, any>;

const aggregated = (v: string) => `application/json;g=apidiscovery.k8s.io;v=${v};as=APIGroupDiscoveryList`;
/** What kubectl 1.30 sends for /api and /apis. */
const kubectlAccept = `${aggregated('v2')},${aggregated('v2beta1')},application/json`;
const crdPath = (name = '') => `/apis/apiextensions.k8s.io/v1/customresourcedefinitions${name ? `/${name}` : ''}`;

function gadgetDefinition(group: string): Json {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `gadgets.${group}` },
    spec: {
      group,
      scope: 'Cluster',
      names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', shortNames: ['gd'], categories: ['toys'] },
      versions: ['v1', 'v2beta1'].map((name) => ({
        name, served: true, storage: name === 'v1',
        subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      })),
    },
  };
}

const getAggregated = (client: Client, path: string, v = 'v2', headers: Record<string, string> = {}) =>
  client.get(path, { headers: { Accept: aggregated(v), ...headers } });

/**
 * Asserts that an APIVersionDiscovery says what the APIResourceList of the same group version
 * says: each resource with its scope, singular, kind, verbs, short names and categories, and each
 * `<resource>/<sub>` entry as a sub-resource of it with its kind and verbs, nothing more or less.
 */
function assertSameResources(version: Json, list: Json, where: string): void {
  const legacy = list.resources as Json[];
  const resources = (version.resources ?? []) as Json[];
  assert.deepEqual(resources.map((r) => r.resource), legacy.filter((r) => !r.name.includes('/')).map((r) => r.name), `${where}: resources`);
  for (const r of resources) {
    const l = legacy.find((x) => x.name === r.resource)!;
    const at = `${where} ${r.resource}`;
    assert.equal(r.scope, l.namespaced ? 'Namespaced' : 'Cluster', at);
    assert.equal(r.singularResource, l.singularName, at);
    assert.deepEqual(r.responseKind, { group: l.group ?? '', version: l.version ?? '', kind: l.kind }, at);
    assert.deepEqual(r.verbs, l.verbs, at);
    assert.deepEqual(r.shortNames, l.shortNames, at);
    assert.deepEqual(r.categories, l.categories, at);
    const subs = legacy.filter((x) => x.name.startsWith(`${r.resource}/`));
    assert.deepEqual((r.subresources ?? []).map((s: Json) => `${r.resource}/${s.subresource}`), subs.map((s) => s.name), `${at}: sub-resources`);
    for (const s of r.subresources ?? []) {
      const ls = subs.find((x) => x.name === `${r.resource}/${s.subresource}`)!;
      assert.deepEqual(s.responseKind, { group: ls.group ?? '', version: ls.version ?? '', kind: ls.kind }, `${at}/${s.subresource}`);
      assert.deepEqual(s.verbs, ls.verbs, `${at}/${s.subresource}`);
    }
  }
}

/** Asserts the aggregated /api and /apis say exactly what /api, /apis and every /api(s)/<g>/<v> say. */
async function assertMatchesLegacy(client: Client): Promise<void> {
  const apis = await getAggregated(client, '/apis');
  const groups = (await client.get('/apis')).body.groups as Json[];
  const items = apis.body.items as Json[];
  assert.deepEqual(items.map((g) => g.metadata.name), groups.map((g) => g.name), 'groups, in the order of /apis');
  for (const [i, g] of groups.entries()) {
    const item = items[i]!;
    assert.deepEqual(item.versions.map((v: Json) => v.version), g.versions.map((v: Json) => v.version), `${g.name}: versions, in order`);
    assert.equal(item.versions[0].version, g.preferredVersion.version, `${g.name}: the first version is the preferred one`);
    for (const v of item.versions) {
      assert.equal(v.freshness, 'Current', `${g.name}/${v.version}`);
      assertSameResources(v, (await client.get(`/apis/${g.name}/${v.version}`)).body, `${g.name}/${v.version}`);
    }
  }
  const api = await getAggregated(client, '/api');
  const core = api.body.items as Json[];
  assert.equal(core.length, 1);
  assert.equal(core[0].metadata.name, undefined, 'the core group has no name');
  assert.deepEqual(core[0].versions.map((v: Json) => v.version), (await client.get('/api')).body.versions);
  assertSameResources(core[0].versions[0], (await client.get('/api/v1')).body, 'core/v1');
}

describe('aggregated discovery (--api-domain=k8s.io)', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ apiDomain: 'k8s.io' });
  });
  after(async () => t?.stop());

  test('/api and /apis answer an APIGroupDiscoveryList in v2 and v2beta1, labelled as asked, with Vary and an ETag', async () => {
    for (const path of ['/api', '/apis']) {
      const etags = new Set<string>();
      for (const v of ['v2', 'v2beta1']) {
        const r = await getAggregated(t.client, path, v);
        assert.equal(r.status, 200, r.text);
        assert.equal(r.headers['content-type'], aggregated(v), `${path} ${v}`);
        assert.equal(r.headers.vary, 'Accept');
        assert.match(String(r.headers.etag), /^"[0-9A-F]{128}"$/);
        etags.add(String(r.headers.etag));
        assert.equal(r.body.kind, 'APIGroupDiscoveryList');
        assert.equal(r.body.apiVersion, `apidiscovery.k8s.io/${v}`);
        assert.ok(r.body.items.length > 0);
      }
      assert.equal(etags.size, 1, `${path}: one ETag whatever the version (the answer varies by Accept)`);
      // kubectl's list picks v2; a client that does not ask keeps the plain documents.
      const kubectl = await t.client.get(path, { headers: { Accept: kubectlAccept } });
      assert.equal(kubectl.headers['content-type'], aggregated('v2'));
      const plain = await t.client.get(path, { headers: { Accept: 'application/json' } });
      assert.equal(plain.headers['content-type'], 'application/json');
      assert.equal(plain.body.kind, path === '/api' ? 'APIVersions' : 'APIGroupList');
    }
    // The per-group documents have no aggregated form, as upstream's.
    assert.equal((await getAggregated(t.client, '/apis/apps')).status, 406);
    assert.equal((await getAggregated(t.client, '/apis/apps/v1')).status, 406);
    // Another domain's apidiscovery group is not ours.
    const other = await t.client.get('/apis', { headers: { Accept: 'application/json;g=apidiscovery.orch.io;v=v2;as=APIGroupDiscoveryList,application/json' } });
    assert.equal(other.body.kind, 'APIGroupList');
  });

  test('the document says what the per-group documents say, for every group and version', async () => {
    await assertMatchesLegacy(t.client);
    const apps = (await getAggregated(t.client, '/apis')).body.items.find((g: Json) => g.metadata.name === 'apps');
    const deployments = apps.versions[0].resources.find((r: Json) => r.resource === 'deployments');
    assert.deepEqual(deployments.subresources.find((s: Json) => s.subresource === 'scale').responseKind, { group: 'autoscaling', version: 'v1', kind: 'Scale' });
  });

  test('ETag: 304 Not Modified for the ETag the client holds, the document again for any other', async () => {
    const first = await getAggregated(t.client, '/apis');
    const etag = String(first.headers.etag);
    const again = await getAggregated(t.client, '/apis', 'v2', { 'If-None-Match': etag });
    assert.equal(again.status, 304);
    assert.equal(again.text, '');
    assert.equal(again.headers.etag, etag);
    const stale = await getAggregated(t.client, '/apis', 'v2', { 'If-None-Match': '"0123"' });
    assert.equal(stale.status, 200);
    assert.equal(stale.headers.etag, etag);
    // /api has a document (and an ETag) of its own.
    const api = await getAggregated(t.client, '/api');
    assert.notEqual(api.headers.etag, etag);
    assert.equal((await getAggregated(t.client, '/api', 'v2beta1', { 'If-None-Match': String(api.headers.etag) })).status, 304);
  });

  test('a CustomResourceDefinition is in the document once Established, with a new ETag, and leaves it when deleted', async () => {
    const group = 'toys.example.com';
    const before = await getAggregated(t.client, '/apis');
    assert.ok(!before.body.items.some((g: Json) => g.metadata.name === group));
    const created = await t.client.post(crdPath(), gadgetDefinition(group));
    assert.equal(created.status, 201, created.text);
    await pollUntil(() => t.client.get(crdPath(`gadgets.${group}`)),
      (r) => (r.body.status?.conditions ?? []).some((c: Json) => c.type === 'Established' && c.status === 'True'), 'Established');
    // Once the definition reads Established, the next discovery request has it: no polling.
    const withIt = await getAggregated(t.client, '/apis', 'v2', { 'If-None-Match': String(before.headers.etag) });
    assert.equal(withIt.status, 200, 'the old ETag no longer matches');
    assert.notEqual(withIt.headers.etag, before.headers.etag);
    const item = withIt.body.items.find((g: Json) => g.metadata.name === group);
    assert.ok(item, `${group} in ${withIt.text.slice(0, 300)}`);
    assert.deepEqual(item.versions.map((v: Json) => v.version), ['v1', 'v2beta1'], 'GA before beta');
    const gadgets = item.versions[0].resources[0];
    assert.deepEqual({ ...gadgets, verbs: undefined }, {
      resource: 'gadgets', responseKind: { group: '', version: '', kind: 'Gadget' }, scope: 'Cluster', singularResource: 'gadget',
      verbs: undefined, shortNames: ['gd'], categories: ['toys'],
      subresources: [
        { subresource: 'status', responseKind: { group: '', version: '', kind: 'Gadget' }, verbs: ['get', 'patch', 'update'] },
        { subresource: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get', 'patch', 'update'] },
      ],
    });
    const names = withIt.body.items.map((g: Json) => g.metadata.name);
    assert.equal(names.at(-1), group, 'custom groups come after the built-in ones');
    await assertMatchesLegacy(t.client);

    assert.equal((await t.client.delete(crdPath(`gadgets.${group}`))).status, 200);
    await pollUntil(() => getAggregated(t.client, '/apis'), (r) => !r.body.items.some((g: Json) => g.metadata.name === group), `${group} gone from discovery`);
    assert.equal((await t.client.get(`/apis/${group}`)).status, 404);
    await assertMatchesLegacy(t.client);
  });

  test('discovery and paths no one serves are answered from memory: no etcd request for the definitions', async () => {
    // Reads of the definitions (/metrics itself counts every resource's objects: those are left out).
    const definitionRequests = async () => {
      const text = (await t.client.get('/metrics')).text;
      return [...text.matchAll(/^etcd_request_duration_seconds_count\{([^}]*)\} (\d+)$/gm)]
        .filter((m) => m[1]!.includes('type="customresourcedefinitions"') && !m[1]!.includes('operation="count"')).reduce((sum, m) => sum + Number(m[2]), 0);
    };
    const before = await definitionRequests();
    for (let i = 0; i < 10; i++) {
      assert.equal((await t.client.get('/apis')).status, 200);
      assert.equal((await getAggregated(t.client, '/apis')).status, 200);
      assert.equal((await t.client.get('/apis/nothing.example.com/v1/things')).status, 404);
      assert.equal((await t.client.get('/apis/nothing.example.com')).status, 404);
    }
    assert.equal(await definitionRequests(), before);
  });

  test('kubectl 1.30 discovers in two requests (/api, /apis) and lists what the per-group documents say', async () => {
    const kc = writeKubeconfig(t);
    try {
      const kubectl = new Kubectl(kc);
      // A fresh --cache-dir (the kubeconfig's own directory): everything kubectl knows comes from these requests.
      const r = await kubectl.ok(['api-resources', '-o', 'wide', '-v=7']);
      // -v=7 logs each request's line and headers, then its status.
      const paths = [...r.stderr.matchAll(/\] (GET|POST|PUT|PATCH|DELETE) https:\/\/[^/]+(\/[^?\s]*)/g)].map((m) => `${m[1]} ${m[2]}`);
      const statuses = [...r.stderr.matchAll(/Response Status: (\d+)/g)].map((m) => m[1]);
      const requests = paths.map((p, i) => `${p} ${statuses[i]}`);
      assert.deepEqual(requests.sort(), ['GET /api 200', 'GET /apis 200'], `kubectl's requests:\n${r.stderr}`);
      assert.match(r.stderr, /Accept: application\/json;g=apidiscovery\.k8s\.io;v=v2;as=APIGroupDiscoveryList/, r.stderr);
      assert.deepEqual(parseTable(r.stdout), await legacyRows(t.client));
    } finally {
      kc.remove();
    }
  });
});

/** `kubectl api-resources -o wide` as rows of cells, cut at the header's column starts. */
function parseTable(out: string): string[] {
  const [header, ...lines] = out.split('\n').filter((l) => l.trim() !== '');
  const starts = [...header!.matchAll(/\S+/g)].map((m) => m.index!);
  return lines.map((l) => starts.map((s, i) => l.slice(s, starts[i + 1]).trim()).join('|')).sort();
}

/** The rows `kubectl api-resources -o wide` prints, built from the plain documents: the preferred version of every group. */
async function legacyRows(client: Client): Promise<string[]> {
  const lists: Response[] = [await client.get('/api/v1')];
  for (const g of (await client.get('/apis')).body.groups as Json[]) lists.push(await client.get(`/apis/${g.name}/${g.preferredVersion.version}`));
  return lists.flatMap((l) => (l.body.resources as Json[]).filter((r) => !r.name.includes('/')).map((r) => [
    r.name, (r.shortNames ?? []).join(','), l.body.groupVersion, String(r.namespaced), r.kind, r.verbs.join(','), (r.categories ?? []).join(','),
  ].join('|'))).sort();
}

describe('aggregated discovery with --workers', () => {
  let s: BinaryServer;
  before(async () => {
    s = await startBinaryServer({ workers: 2, args: ['--api-domain', 'k8s.io'] });
  });
  after(async () => s?.stop());

  test('every thread answers the same document, a definition included the moment it reads Established', async () => {
    const group = 'threads.example.com';
    const created = await s.client.post(crdPath(), gadgetDefinition(group));
    assert.equal(created.status, 201, created.text);
    await pollUntil(() => s.client.get(crdPath(`gadgets.${group}`)),
      (r) => (r.body.status?.conditions ?? []).some((c: Json) => c.type === 'Established' && c.status === 'True'), 'Established');
    // Each request is a connection of its own, which the kernel hands to either thread.
    const answers = await Promise.all(Array.from({ length: 24 }, () => getAggregated(s.client, '/apis')));
    const threads = new Set(answers.map((r) => String(r.headers['x-orch-worker'])));
    assert.equal(threads.size, 2, 'both threads answered');
    for (const r of answers) assert.ok(r.body.items.some((g: Json) => g.metadata.name === group), `thread ${String(r.headers['x-orch-worker'])} lists ${group}`);
    assert.equal(new Set(answers.map((r) => r.headers.etag)).size, 1, 'one ETag');
    // A path of the new group is served by either thread at once, without reading etcd for it.
    const objects = await Promise.all(Array.from({ length: 12 }, () => s.client.get(`/apis/${group}/v1/gadgets`)));
    assert.deepEqual(new Set(objects.map((r) => r.status)), new Set([200]));
  });
});
