// The official Python client (Debian's python3-kubernetes) against the server: its Watch helper,
// the read-modify-replace of a typed object, and the discovery-backed dynamic client on our groups.
// The scripts live in clients/ and print what they saw as JSON.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, testOptions, type TestServer } from './framework/apiserver.js';
import type { TestEtcd } from './framework/etcd.js';
import { writeKubeconfig, type Kubeconfig } from './framework/kubeconfig.js';
import { manifests, objectPath } from './framework/manifests.js';
import { runPython } from './framework/python.js';

const fixtureDomain = testOptions({} as TestEtcd, '').apiDomain;

describe('python3-kubernetes', () => {
  let t: TestServer;
  let kc: Kubeconfig;
  const ns = 'python-e2e';

  before(async () => {
    t = await startTestServer();
    kc = writeKubeconfig(t);
    const r = await t.client.post('/api/v1/namespaces', { metadata: { name: ns } });
    assert.equal(r.status, 201, r.text);
  });
  after(async () => {
    kc?.remove();
    await t?.stop();
  });

  test('watch.Watch().stream(list_namespaced_config_map) sees ADDED, then MODIFIED', async () => {
    const name = 'watched';
    const r = await runPython(kc, 'watch_configmaps.py', [ns, name], 40_000);
    const mine = (r.report.events as { type: string; name: string; data: Record<string, string>; resourceVersion: string }[]).filter((e) => e.name === name);
    assert.deepEqual(r.report.writerError, [], r.describe());
    assert.equal(mine[0]?.type, 'ADDED', `the first event is ADDED\n${r.describe()}`);
    const modified = mine.filter((e) => e.type === 'MODIFIED');
    assert.ok(modified.length >= 1, `a MODIFIED event\n${r.describe()}`);
    const stored = await t.client.get(`/api/v1/namespaces/${ns}/configmaps/${name}`);
    assert.equal(stored.status, 200, stored.text);
    const last = modified.at(-1)!;
    assert.ok(Number(stored.body.data.n) >= Number(last.data.n), `the events carry the written data (stored ${stored.text})`);
    assert.ok(Number(stored.body.metadata.resourceVersion) >= Number(last.resourceVersion), 'events carry resourceVersions of the writes');
  });

  test('read, modify and replace_namespaced_config_map', async () => {
    const name = 'replaced';
    const r = await runPython(kc, 'replace_configmap.py', [ns, name]);
    assert.deepEqual(r.report.read.data, { a: '1', b: '2' }, r.describe());
    assert.notEqual(r.report.replaced.metadata.resourceVersion, r.report.created.metadata.resourceVersion, 'the replace wrote a new version');
    const stored = await t.client.get(`/api/v1/namespaces/${ns}/configmaps/${name}`);
    assert.deepEqual(stored.body.data, { a: '1', b: '2' }, stored.text);
    assert.equal(Date.parse(stored.body.metadata.creationTimestamp), Date.parse(r.report.created.metadata.creationTimestamp), 'creationTimestamp kept');
  });

  test('dynamic client: get, create, patch and list a StatefulSet and a Role', async () => {
    const items = manifests('dynamic', fixtureDomain, t.options.apiDomain).filter((m) => m.fixture.kind === 'StatefulSet' || m.fixture.kind === 'Role');
    assert.equal(items.length, 2);
    const r = await runPython(kc, 'dynamic_client.py', [ns, ...items.map((m) => JSON.stringify(m.object))], 60_000);
    const report = r.report as any[];
    for (const m of items) {
      const seen = report.find((x) => x.kind === m.fixture.kind);
      assert.ok(seen, `a report for ${m.fixture.kind}\n${r.describe()}`);
      assert.equal(seen.resource, m.fixture.resource, 'discovery maps the kind to its resource');
      assert.equal(seen.namespaced, m.fixture.namespaced);
      assert.equal(seen.created.metadata.name, m.name);
      assert.equal(seen.got.metadata.uid, seen.created.metadata.uid, 'get returns the created object');
      assert.equal(seen.patched.metadata.labels.patched, 'yes', 'the merge patch applied');
      assert.equal(seen.patched.metadata.labels.fixture, 'yes', 'the merge patch kept the other labels');
      assert.equal(seen.listKind, `${m.fixture.kind}List`);
      assert.ok(seen.listed.includes(m.name), `list includes ${m.name}: ${JSON.stringify(seen.listed)}`);
      const stored = await t.client.get(objectPath(m, ns, m.name));
      assert.equal(stored.body.metadata.labels.patched, 'yes', stored.text);
    }
  });
});
