// The real kubectl against the server, as a user drives it: manifests of every kind, the typed
// `kubectl create` commands, apply twice, scale, explain, a watch and wide output. Run once against
// a server with the default API domain and once against one speaking upstream group names
// (--api-domain k8s.io), where kubectl's built-in typed commands for rbac must work unmodified.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ensureDefaultServiceAccount, startTestServer, testOptions, type TestServer } from './framework/apiserver.js';
import type { APIServerOptions } from '../../cmd/apiserver/app/options.js';
import type { TestEtcd } from './framework/etcd.js';
import { writeKubeconfig, type Kubeconfig } from './framework/kubeconfig.js';
import { Kubectl, newestVersionedKubectl } from './framework/kubectl.js';
import { applyManifests, kubectlName, manifests, objectPath, toYAML, type Manifest } from './framework/manifests.js';
import type { ProcessResult } from './framework/process.js';
import { statefulSetTemplate } from './fixtures.js';

/** The domain the fixtures are written for: that of a server started without overrides. */
const fixtureDomain = testOptions({} as TestEtcd, '').apiDomain;

/** Every field of `want` has the same value in `got` (which may hold more: defaults, metadata). */
function assertContains(got: unknown, want: unknown, what: string, path = ''): void {
  if (want && typeof want === 'object' && !Array.isArray(want)) {
    assert.ok(got && typeof got === 'object' && !Array.isArray(got), `${what}: ${path || '.'} is an object in ${JSON.stringify(got)}`);
    for (const [k, v] of Object.entries(want)) assertContains((got as Record<string, unknown>)[k], v, what, `${path}.${k}`);
  } else if (Array.isArray(want)) {
    assert.ok(Array.isArray(got) && got.length === want.length, `${what}: ${path} has ${want.length} items: ${JSON.stringify(got)}`);
    want.forEach((v, i) => assertContains((got as unknown[])[i], v, what, `${path}[${i}]`));
  } else {
    assert.deepEqual(got, want, `${what}: ${path}`);
  }
}

/** kubectl printed `<kind[.group]>/<name> <verb>` for every manifest, one line each. */
function assertReported(r: ProcessResult, items: readonly Manifest[], verb: (m: Manifest) => string): void {
  const lines = r.stdout.trim().split('\n');
  for (const m of items) {
    const line = `${kubectlName(m)} ${verb(m)}`;
    assert.ok(lines.includes(line), `kubectl reports "${line}"\n${r.describe()}`);
  }
}

function kubectlSuite(title: string, overrides: Partial<APIServerOptions>): void {
  describe(title, () => {
    let t: TestServer;
    let kc: Kubeconfig;
    let kubectl: Kubectl;
    let domain: string;
    const ns = 'kubectl-e2e';

    before(async () => {
      t = await startTestServer(overrides);
      domain = t.options.apiDomain;
      kc = writeKubeconfig(t);
      kubectl = new Kubectl(kc);
      const r = await t.client.post('/api/v1/namespaces', { metadata: { name: ns } });
      assert.equal(r.status, 201, r.text);
      await ensureDefaultServiceAccount(t.client, ns);
    });
    after(async () => {
      kc?.remove();
      await t?.stop();
    });

    test('create -f: one manifest of every served kind', async () => {
      const items = manifests('created', fixtureDomain, domain);
      const r = await kubectl.run(['create', '-n', ns, '-f', '-'], { input: toYAML(items.map((m) => m.object)) });
      assertReported(r, items, () => 'created');
      assert.equal(r.code, 0, r.describe());
      for (const m of items) {
        const stored = await t.client.get(objectPath(m, ns, m.name));
        assert.equal(stored.status, 200, `${m.fixture.kind} is stored: ${stored.text}`);
        assertContains(stored.body, m.object, `stored ${m.fixture.kind}`);
      }
    });

    // kubectl's typed commands build the objects themselves, from its compiled-in upstream types.
    const typedCreates = (p: string, rbacGroup: string) => {
      const cases: { args: string[]; printed: string; path: string; want: Record<string, unknown> }[] = [
        { args: ['create', 'namespace', `${p}-ns`], printed: `namespace/${p}-ns`, path: `/api/v1/namespaces/${p}-ns`, want: { status: { phase: 'Active' } } },
        {
          args: ['create', 'secret', 'generic', `${p}-secret`, '--from-literal=user=admin'], printed: `secret/${p}-secret`,
          path: `/api/v1/namespaces/${ns}/secrets/${p}-secret`, want: { type: 'Opaque', data: { user: Buffer.from('admin').toString('base64') } },
        },
        { args: ['create', 'configmap', `${p}-cm`, '--from-literal=a=1'], printed: `configmap/${p}-cm`, path: `/api/v1/namespaces/${ns}/configmaps/${p}-cm`, want: { data: { a: '1' } } },
        { args: ['create', 'serviceaccount', `${p}-sa`], printed: `serviceaccount/${p}-sa`, path: `/api/v1/namespaces/${ns}/serviceaccounts/${p}-sa`, want: { metadata: { name: `${p}-sa` } } },
        {
          args: ['create', 'quota', `${p}-quota`, '--hard=pods=3,requests.cpu=2'], printed: `resourcequota/${p}-quota`,
          path: `/api/v1/namespaces/${ns}/resourcequotas/${p}-quota`, want: { spec: { hard: { pods: '3', 'requests.cpu': '2' } } },
        },
        {
          args: ['create', 'poddisruptionbudget', `${p}-pdb`, '--selector=app=web', '--min-available=1'], printed: `poddisruptionbudget.policy/${p}-pdb`,
          path: `/apis/policy/v1/namespaces/${ns}/poddisruptionbudgets/${p}-pdb`, want: { spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } },
        },
      ];
      // kubectl's rbac commands are compiled against the upstream group: they can work only where the
      // server serves it.
      if (rbacGroup === 'rbac.authorization.k8s.io') {
        cases.push(
          {
            args: ['create', 'role', `${p}-role`, '--verb=get,list', '--resource=configmaps'], printed: `role.${rbacGroup}/${p}-role`,
            path: `/apis/${rbacGroup}/v1/namespaces/${ns}/roles/${p}-role`, want: { rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }] },
          },
          {
            args: ['create', 'clusterrolebinding', `${p}-crb`, '--clusterrole=view', '--user=jane'], printed: `clusterrolebinding.${rbacGroup}/${p}-crb`,
            path: `/apis/${rbacGroup}/v1/clusterrolebindings/${p}-crb`,
            want: { roleRef: { apiGroup: rbacGroup, kind: 'ClusterRole', name: 'view' }, subjects: [{ apiGroup: rbacGroup, kind: 'User', name: 'jane' }] },
          },
        );
      }
      return cases;
    };

    const clients: { label: string; prefix: string; binary?: string }[] = [{ label: 'the kubectl on PATH', prefix: 'typed' }];
    const newest = newestVersionedKubectl();
    if (newest) clients.push({ label: newest, prefix: 'newest', binary: newest });
    for (const client of clients) {
      test(`typed creates (${client.label})`, async () => {
        const k = client.binary ? new Kubectl(kc, client.binary) : kubectl;
        const rbacGroup = manifests('x', fixtureDomain, domain).find((m) => m.fixture.kind === 'ClusterRoleBinding')!.object.roleRef.apiGroup as string;
        // Independent objects: created side by side to keep the suite quick.
        const failures = (await Promise.all(typedCreates(client.prefix, rbacGroup).map(async (c): Promise<string | undefined> => {
          const r = await k.run(['-n', ns, ...c.args]);
          if (r.code !== 0 || r.stdout.trim() !== `${c.printed} created`) return r.describe();
          const stored = await t.client.get(c.path);
          if (stored.status !== 200) return `${c.path}: ${stored.status} ${stored.text}`;
          try {
            assertContains(stored.body, c.want, c.path);
          } catch (e) {
            return (e as Error).message;
          }
          return undefined;
        }))).filter((f): f is string => f !== undefined);
        if (failures.length) assert.fail(`${failures.length} typed creates failed:\n\n${failures.join('\n\n')}`);
      });
    }

    test('apply -f twice: created, then unchanged and nothing written', async () => {
      const items = applyManifests('applied', fixtureDomain, domain);
      const input = toYAML(items.map((m) => m.object));
      const first = await kubectl.run(['apply', '-n', ns, '-f', '-'], { input });
      assertReported(first, items, () => 'created');
      assert.equal(first.code, 0, first.describe());
      const versions = async () => Promise.all(items.map(async (m) => {
        const r = await t.client.get(objectPath(m, ns, m.name));
        assert.equal(r.status, 200, r.text);
        return `${m.fixture.kind} ${r.body.metadata.resourceVersion}`;
      }));
      const before = await versions();
      const second = await kubectl.run(['apply', '-n', ns, '-f', '-'], { input });
      // PodDisruptionBudget's selector has patchStrategy=replace, and Endpoints' subsets is a list
      // without a merge key whose stored form carries the defaulted port protocol: upstream kubectl
      // sends both again and says `configured`; the server then finds nothing to change.
      const resent = new Set(['PodDisruptionBudget', 'Endpoints']);
      assertReported(second, items, (m) => (resent.has(m.fixture.kind) ? 'configured' : 'unchanged'));
      assert.equal(second.code, 0, second.describe());
      assert.deepEqual(await versions(), before, 'the second apply changed no stored object');
    });

    test('scale statefulset, then read spec.replicas back', async () => {
      const name = 'scaled';
      const created = await t.client.post(`/apis/apps/v1/namespaces/${ns}/statefulsets`, {
        apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name },
        spec: { serviceName: name, selector: { matchLabels: { app: name } }, template: { ...statefulSetTemplate(name), spec: { containers: [{ name: 'web', image: 'registry.example/nginx:1.25' }] } } },
      });
      assert.equal(created.status, 201, created.text);
      const r = await kubectl.run(['-n', ns, 'scale', 'statefulset', name, '--replicas=3']);
      assert.equal(r.code, 0, r.describe());
      assert.equal(r.stdout.trim(), `statefulset.apps/${name} scaled`, r.describe());
      const stored = await t.client.get(`/apis/apps/v1/namespaces/${ns}/statefulsets/${name}`);
      assert.equal(stored.body.spec.replicas, 3, stored.text);
      const read = await kubectl.ok(['-n', ns, 'get', 'statefulset', name, '-o', 'jsonpath={.spec.replicas}']);
      assert.equal(read.stdout.trim(), '3', read.describe());
    });

    test('explain statefulset.spec.replicas shows a description', async () => {
      const r = await kubectl.ok(['explain', 'statefulset.spec.replicas']);
      assert.match(r.stdout, /FIELD:\s+replicas\s+<integer>/, r.describe());
      const description = /DESCRIPTION:\n([\s\S]*)/.exec(r.stdout)?.[1]?.trim() ?? '';
      assert.ok(description.length > 10 && !description.startsWith('<empty>'), `a description of replicas\n${r.describe()}`);
    });

    test('get configmaps -w shows an object created while it watches', async () => {
      const first = await t.client.post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'watch-before' }, data: { a: '1' } });
      assert.equal(first.status, 201, first.text);
      const w = kubectl.background(['-n', ns, 'get', 'configmaps', '-w']);
      try {
        // The listed object shows once kubectl has listed; what comes after arrives through the watch.
        await w.waitForOutput((out) => /^watch-before\s+1\s/m.test(out), 15_000, 'the listed ConfigMap');
        const created = await t.client.post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'watch-after' }, data: { a: '1', b: '2' } });
        assert.equal(created.status, 201, created.text);
        await w.waitForOutput((out) => /^watch-after\s+2\s/m.test(out), 15_000, 'the ConfigMap created during the watch');
      } finally {
        await w.stop();
      }
    });

    test('get statefulsets -o wide prints the wide columns', async () => {
      const name = 'wide';
      const created = await t.client.post(`/apis/apps/v1/namespaces/${ns}/statefulsets`, {
        apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name },
        spec: { serviceName: name, selector: { matchLabels: { app: name } }, template: { ...statefulSetTemplate(name), spec: { containers: [{ name: 'web', image: 'registry.example/nginx:1.25' }] } } },
      });
      assert.equal(created.status, 201, created.text);
      const r = await kubectl.ok(['-n', ns, 'get', 'sts', name, '-o', 'wide']);
      const [header, row] = r.stdout.trim().split('\n');
      assert.match(header ?? '', /^NAME\s+READY\s+AGE\s+CONTAINERS\s+IMAGES\s*$/, r.describe());
      assert.match(row ?? '', /^wide\s+0\/1\s+\S+\s+web\s+registry\.example\/nginx:1\.25\s*$/, r.describe());
    });
  });
}

kubectlSuite('kubectl (default API domain)', {});
kubectlSuite('kubectl (--api-domain k8s.io: upstream group names)', { apiDomain: 'k8s.io' });
