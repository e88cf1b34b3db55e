// Server-side apply as real clients drive it: kubectl (`apply --server-side`, `--force-conflicts`,
// `--dry-run=server`, the move from client-side apply) on a ConfigMap, a Deployment and a
// Service, and @kubernetes/client-node's server-side apply patch.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { KubernetesObjectApi, PatchStrategy, type KubernetesObject, type V1ConfigMap } from '@kubernetes/client-node';
import { stringify } from 'yaml';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { writeKubeconfig } from './framework/kubeconfig.js';
import { Kubectl, stockTools } from './framework/kubectl.js';
import { describeError, loadKubeConfig } from './framework/node-client.js';

interface Entry { manager?: string; operation: string; subresource?: string }

const managers = (obj: { metadata: { managedFields?: Entry[] } }) =>
  (obj.metadata.managedFields ?? []).map((e) => `${e.manager ?? ''}/${e.operation}`).sort();

describe('server-side apply by kubectl and @kubernetes/client-node', () => {
  let t: TestServer;
  let kubectl: Kubectl;
  let objects: KubernetesObjectApi;
  const ns = 'ssa-clients';

  before(async () => {
    t = await startTestServer();
    const file = writeKubeconfig(t);
    kubectl = new Kubectl(file);
    objects = KubernetesObjectApi.makeApiClient(loadKubeConfig(file));
    const r = await t.client.post('/api/v1/namespaces', { metadata: { name: ns } });
    assert.equal(r.status, 201, r.text);
  });
  after(async () => t?.stop());

  const get = async (path: string) => {
    const r = await t.client.get(path);
    assert.equal(r.status, 200, r.text);
    return r.body;
  };

  const configMap = (data: Record<string, string>) => stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kc', namespace: ns }, data });
  const deployment = (image: string, replicas: number) => stringify({
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: ns },
    spec: { replicas, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image }] } } },
  });
  const service = (ports: number[]) => stringify({
    apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: ns },
    spec: { selector: { app: 'web' }, ports: ports.map((port) => ({ name: `p${port}`, port, targetPort: port })) },
  });

  test('kubectl apply --server-side creates, updates, removes what it stops applying, and records manager kubectl', async () => {
    const first = await kubectl.ok(['apply', '--server-side', '-f', '-'], { input: configMap({ a: '1', b: '1' }) });
    assert.match(first.stdout, /configmap\/kc serverside-applied/);
    let cm = await get(`/api/v1/namespaces/${ns}/configmaps/kc`);
    assert.deepEqual(cm.data, { a: '1', b: '1' });
    assert.deepEqual(managers(cm), ['kubectl/Apply']);
    await kubectl.ok(['apply', '--server-side', '-f', '-'], { input: configMap({ a: '2' }) });
    cm = await get(`/api/v1/namespaces/${ns}/configmaps/kc`);
    assert.deepEqual(cm.data, { a: '2' }, 'b went with the configuration');
    // get -o yaml hides managedFields unless asked.
    const hidden = await kubectl.ok(['get', '-n', ns, 'configmap', 'kc', '-o', 'yaml']);
    assert.doesNotMatch(hidden.stdout, /managedFields/);
    const shown = await kubectl.ok(['get', '-n', ns, 'configmap', 'kc', '-o', 'yaml', '--show-managed-fields']);
    assert.match(shown.stdout, /manager: kubectl\n\s+operation: Apply/);
  });

  test('a conflict stops kubectl with the 409 message; --force-conflicts takes the field; --dry-run=server changes nothing', async () => {
    await kubectl.ok(['-n', ns, 'patch', 'configmap', 'kc', '--type=merge', '-p', '{"data":{"a":"edited"}}']);
    const conflict = await kubectl.run(['apply', '--server-side', '-f', '-'], { input: configMap({ a: '3' }) });
    assert.notEqual(conflict.code, 0);
    assert.match(conflict.stderr, /Apply failed with 1 conflict: conflict with "kubectl-patch" using v1: \.data\.a/);
    assert.match(conflict.stderr, /--force-conflicts/);
    const dry = await kubectl.ok(['apply', '--server-side', '--force-conflicts', '--dry-run=server', '-f', '-'], { input: configMap({ a: '3' }) });
    assert.match(dry.stdout, /serverside-applied \(server dry run\)/);
    assert.equal((await get(`/api/v1/namespaces/${ns}/configmaps/kc`)).data.a, 'edited');
    await kubectl.ok(['apply', '--server-side', '--force-conflicts', '-f', '-'], { input: configMap({ a: '3' }) });
    const cm = await get(`/api/v1/namespaces/${ns}/configmaps/kc`);
    assert.equal(cm.data.a, '3');
    assert.deepEqual(managers(cm), ['kubectl/Apply'], 'kubectl-patch owned only a and lost it');
  });

  test('Deployment and Service: apply, change, scale by another manager, and conflicts on replicas', async () => {
    await kubectl.ok(['apply', '--server-side', '-f', '-'], { input: deployment('nginx:1', 2) });
    await kubectl.ok(['apply', '--server-side', '-f', '-'], { input: service([80, 443]) });
    await kubectl.ok(['apply', '--server-side', '-f', '-'], { input: deployment('nginx:2', 2) });
    const dep = await get(`/apis/apps/v1/namespaces/${ns}/deployments/web`);
    assert.equal(dep.spec.template.spec.containers[0].image, 'nginx:2');
    assert.equal(dep.spec.revisionHistoryLimit, 10, 'defaults are there');
    await kubectl.ok(['-n', ns, 'scale', 'deployment', 'web', '--replicas=4']);
    const conflict = await kubectl.run(['apply', '--server-side', '-f', '-'], { input: deployment('nginx:2', 2) });
    assert.notEqual(conflict.code, 0);
    assert.match(conflict.stderr, /conflict with "kubectl" with subresource "scale" using apps\/v1: \.spec\.replicas|conflict with "kubectl-scale"/);
    // The Service's ports are a map list: dropping one port removes only it.
    await kubectl.ok(['apply', '--server-side', '-f', '-'], { input: service([80]) });
    const svc = await get(`/api/v1/namespaces/${ns}/services/web`);
    assert.deepEqual(svc.spec.ports.map((p: { port: number }) => p.port), [80]);
    assert.ok(svc.spec.clusterIP, 'the allocated address stays');
  });

  test('kubectl moving from client-side to server-side apply takes over its fields without conflicts', async () => {
    const input = stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'mig', namespace: ns }, data: { a: '1', b: '1' } });
    await kubectl.ok(['apply', '-f', '-'], { input });
    let cm = await get(`/api/v1/namespaces/${ns}/configmaps/mig`);
    assert.deepEqual(managers(cm), ['kubectl-client-side-apply/Update']);
    const changed = stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'mig', namespace: ns }, data: { a: '2', b: '1' } });
    await kubectl.ok(['apply', '--server-side', '-f', '-'], { input: changed });
    cm = await get(`/api/v1/namespaces/${ns}/configmaps/mig`);
    assert.equal(cm.data.a, '2');
    assert.ok(managers(cm).includes('kubectl/Apply'));
    const annotation = JSON.parse(cm.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']);
    assert.deepEqual(annotation.data, { a: '2', b: '1' }, 'the client-side record follows');
    // And back: client-side apply still works from the kept annotation.
    const back = stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'mig', namespace: ns }, data: { a: '2' } });
    await kubectl.ok(['apply', '-f', '-'], { input: back });
    assert.deepEqual((await get(`/api/v1/namespaces/${ns}/configmaps/mig`)).data, { a: '2' });
  });

  for (const [version, binary] of [['on PATH', undefined], ['1.35', stockTools.kubectl135]] as const) {
    test(`kubectl ${version}: after client-side applies, what its record holds is its own; only a field changed since conflicts`, async () => {
      const k = binary ? new Kubectl(kubectl.kubeconfig, binary) : kubectl;
      const name = `csa-${binary ? '135' : 'path'}`;
      const cm = (n: string, data: Record<string, string>) => stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: n, namespace: ns }, data });
      await k.ok(['apply', '-f', '-'], { input: cm(name, { a: '1', b: '1' }) });
      await k.ok(['apply', '-f', '-'], { input: cm(name, { a: '2', b: '1' }) });
      // The same manifest with one field changed: kubectl-client-side-apply owns both fields.
      const moved = await k.ok(['apply', '--server-side', '-f', '-'], { input: cm(name, { a: '3', b: '1' }) });
      assert.match(moved.stdout, /serverside-applied/);
      assert.deepEqual((await get(`/api/v1/namespaces/${ns}/configmaps/${name}`)).data, { a: '3', b: '1' });
      // A field someone else changed after the last client-side apply is not kubectl's: it alone conflicts.
      const other = `${name}-x`;
      await k.ok(['apply', '-f', '-'], { input: cm(other, { a: '1', b: '1' }) });
      await k.ok(['apply', '-f', '-'], { input: cm(other, { a: '2', b: '1' }) });
      await k.ok(['-n', ns, 'patch', 'configmap', other, '--type=merge', '-p', '{"data":{"b":"edited"}}']);
      const conflict = await k.run(['apply', '--server-side', '-f', '-'], { input: cm(other, { a: '3', b: '2' }) });
      assert.notEqual(conflict.code, 0);
      assert.match(conflict.stderr, /Apply failed with 1 conflict: conflict with "kubectl-patch" using v1: \.data\.b/);
      assert.deepEqual((await get(`/api/v1/namespaces/${ns}/configmaps/${other}`)).data, { a: '2', b: 'edited' }, 'nothing applied');
      await k.ok(['apply', '--server-side', '--force-conflicts', '-f', '-'], { input: cm(other, { a: '3', b: '2' }) });
      assert.deepEqual((await get(`/api/v1/namespaces/${ns}/configmaps/${other}`)).data, { a: '3', b: '2' });
    });
  }

  test('@kubernetes/client-node applies server-side, creating then updating, and gets the 409 on a conflict', async () => {
    const cm = (data: Record<string, string>): V1ConfigMap & KubernetesObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'node-ssa', namespace: ns }, data });
    try {
      const created = await objects.patch(cm({ a: '1' }), undefined, undefined, 'node-app', undefined, PatchStrategy.ServerSideApply);
      assert.deepEqual((created as V1ConfigMap).data, { a: '1' });
      assert.equal(created.metadata?.managedFields?.[0]?.manager, 'node-app');
      const updated = await objects.patch(cm({ a: '2', b: '1' }), undefined, undefined, 'node-app', undefined, PatchStrategy.ServerSideApply);
      assert.deepEqual((updated as V1ConfigMap).data, { a: '2', b: '1' });
    } catch (e) {
      assert.fail(describeError(e));
    }
    await assert.rejects(objects.patch(cm({ a: '3' }), undefined, undefined, 'other-app', undefined, PatchStrategy.ServerSideApply), (e: unknown) => {
      assert.match(describeError(e), /409/);
      assert.match(describeError(e), /conflict with \\?"node-app\\?"/);
      return true;
    });
    const forced = await objects.patch(cm({ a: '3' }), undefined, undefined, 'other-app', true, PatchStrategy.ServerSideApply);
    assert.equal((forced as V1ConfigMap).data?.a, '3');
  });
});
