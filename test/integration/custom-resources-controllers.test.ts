// The controller manager's discovery-driven controllers with custom resources: the garbage
// collector follows owner references to and from them, and the namespace controller empties a
// namespace of them before the namespace goes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { isNotFound, type Client, type KubeObject } from '../../pkg/client/index.js';
import { garbagecollectorController } from '../../pkg/controller/garbagecollector/controller.js';
import { NamespaceController } from '../../pkg/controller/namespace/namespace-controller.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { pollUntil } from './framework/authentication.js';
import { establish, group, widgetDefinition } from './framework/custom-resources.js';
import { runControllers, type RunningControllers } from './framework/in-process-controller.js';

const ns = 'crd-controllers';

describe('controllers with custom resources', () => {
  let t: TestServer;
  let controllers: RunningControllers;
  let c: Client;

  before(async () => {
    t = await startTestServer();
    await establish(t, widgetDefinition());
    controllers = await runControllers(t, [garbagecollectorController, () => new NamespaceController()]);
    c = controllers.client;
    await c.resource('', 'v1', 'namespaces').create({ metadata: { name: ns } });
  });
  after(async () => {
    await controllers?.stop();
    await t?.stop();
  });

  const widgets = (namespace = ns) => c.resource(group, 'v1', 'widgets').namespace(namespace);
  const cms = (namespace = ns) => c.resource('', 'v1', 'configmaps').namespace(namespace);
  const ref = (o: KubeObject, apiVersion: string, kind: string) => ({ apiVersion, kind, name: o.metadata.name!, uid: o.metadata.uid! });
  const gone = (get: () => Promise<KubeObject>, what: string) => pollUntil(async () => {
    try {
      return await get();
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
  }, (o) => o === undefined, what, 60_000);

  test('the garbage collector collects the dependents of a custom resource, and custom resources owned by others', async () => {
    const owner = await widgets().create({ metadata: { name: 'owner' }, spec: { color: 'red' } });
    await cms().create({ metadata: { name: 'owned-by-widget', ownerReferences: [ref(owner, `${group}/v1`, 'Widget')] }, data: {} });
    const cmOwner = await cms().create({ metadata: { name: 'cm-owner' }, data: {} });
    await widgets().create({ metadata: { name: 'owned-by-cm', ownerReferences: [ref(cmOwner, 'v1', 'ConfigMap')] }, spec: { color: 'blue' } });

    await widgets().delete('owner');
    await gone(() => cms().get('owned-by-widget'), 'the ConfigMap owned by a Widget collected');
    await cms().delete('cm-owner');
    await gone(() => widgets().get('owned-by-cm'), 'the Widget owned by a ConfigMap collected');
  });

  test('the namespace controller empties a namespace of custom resources', async () => {
    const doomed = 'crd-doomed';
    await c.resource('', 'v1', 'namespaces').create({ metadata: { name: doomed } });
    for (const name of ['a', 'b']) await widgets(doomed).create({ metadata: { name }, spec: { color: 'green' } });
    await c.resource('', 'v1', 'namespaces').delete(doomed);
    await gone(() => c.resource('', 'v1', 'namespaces').get(doomed), 'the namespace with custom resources deleted');
    const left = await widgets(doomed).list();
    assert.deepEqual(left.items, []);
  });
});
