// Custom resources through the official clients: python3-kubernetes' CustomObjectsApi (every
// verb it has, the status and scale sub-resources, a refused object) and an
// @kubernetes/client-node informer (list + watch) on a custom resource.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CustomObjectsApi, makeInformer, type KubeConfig, type KubernetesObject, type KubernetesListObject } from '@kubernetes/client-node';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { pollUntil } from './framework/authentication.js';
import { establish, group, widgetDefinition, type Json } from './framework/custom-resources.js';
import { writeKubeconfig, type Kubeconfig } from './framework/kubeconfig.js';
import { describeError, loadKubeConfig } from './framework/node-client.js';
import { runPython } from './framework/python.js';

interface Widget extends KubernetesObject {
  spec?: Json;
}

describe('official clients with custom resources', () => {
  let t: TestServer;
  let file: Kubeconfig;
  let kc: KubeConfig;
  const ns = 'default';

  before(async () => {
    t = await startTestServer();
    file = writeKubeconfig(t);
    kc = loadKubeConfig(file);
    await establish(t, widgetDefinition());
  });
  after(async () => {
    file?.remove();
    await t?.stop();
  });

  test('python3-kubernetes CustomObjectsApi', async () => {
    const r = await runPython(file, 'custom_objects.py', [group, 'v1', ns, 'widgets'], 40_000);
    const rep = r.report as Record<string, Json>;
    assert.deepEqual(rep.created!.spec, { color: 'red', size: '10cm', replicas: 1, maxReplicas: 10 }, r.describe());
    assert.equal((rep.got!.metadata as Json).uid, (rep.created!.metadata as Json).uid);
    assert.deepEqual(rep.listed, ['py']);
    assert.equal((rep.patched!.spec as Json).color, 'green');
    assert.deepEqual(rep.status!.status, { replicas: 1, selector: 'by=python' });
    assert.deepEqual({ kind: rep.scale!.kind, spec: rep.scale!.spec, status: rep.scale!.status }, { kind: 'Scale', spec: { replicas: 2 }, status: { replicas: 1, selector: 'by=python' } });
    assert.deepEqual(rep.replaced!.spec, { color: 'green', size: '5m', replicas: 2, maxReplicas: 10 });
    assert.equal(rep.refused!.status, 422, r.describe());
    assert.match(String((rep.refused!.body as Json).message), /spec.color: Unsupported value: "pink"/);
    assert.deepEqual({ status: rep.deleted!.status, kind: (rep.deleted!.details as Json).kind }, { status: 'Success', kind: 'widgets' }, r.describe());
    const gone = await t.client.get(`/apis/${group}/v1/namespaces/${ns}/widgets/py`);
    assert.equal(gone.status, 404, gone.text);
  });

  test('@kubernetes/client-node informer sees add, update and delete', async () => {
    const api = kc.makeApiClient(CustomObjectsApi);
    const seen: { verb: string; name: string; color: unknown }[] = [];
    const errors: string[] = [];
    const informer = makeInformer<Widget>(kc, `/apis/${group}/v1/namespaces/${ns}/widgets`,
      async () => (await api.listNamespacedCustomObject({ group, version: 'v1', namespace: ns, plural: 'widgets' })) as KubernetesListObject<Widget>);
    for (const verb of ['add', 'update', 'delete'] as const) {
      informer.on(verb, (o) => seen.push({ verb, name: o.metadata?.name ?? '', color: o.spec?.color }));
    }
    informer.on('error', (e) => errors.push(describeError(e)));
    await informer.start();
    try {
      const path = `/apis/${group}/v1/namespaces/${ns}/widgets`;
      assert.equal((await t.client.post(path, { apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name: 'inf' }, spec: { color: 'red' } })).status, 201);
      await pollUntil(async () => seen, (s) => s.some((e) => e.verb === 'add' && e.name === 'inf'), 'the informer to see the add');
      assert.equal((await t.client.patch(`${path}/inf`, { spec: { color: 'blue' } })).status, 200);
      await pollUntil(async () => seen, (s) => s.some((e) => e.verb === 'update' && e.color === 'blue'), 'the informer to see the update');
      assert.equal(informer.get('inf', ns)?.spec?.color, 'blue');
      assert.equal((await t.client.delete(`${path}/inf`)).status, 200);
      await pollUntil(async () => seen, (s) => s.some((e) => e.verb === 'delete' && e.name === 'inf'), 'the informer to see the delete');
      assert.equal(informer.get('inf', ns), undefined);
      assert.deepEqual(errors, []);
    } finally {
      await informer.stop();
    }
  });
});
