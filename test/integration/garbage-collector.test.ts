// The garbagecollector controller in-process against a real API server: foreground deletion waits
// for blocking dependents, orphaning strips the owner's references, background deletion collects a
// chain, dependents of owners that never existed (or exist with another uid) are collected, and a
// cluster-scoped object naming a namespaced owner is reported with OwnerRefInvalidNamespace.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { defaultApiDomain } from '../../api/domain.js';
import { isNotFound, type Client, type KubeObject } from '../../pkg/client/index.js';
import { garbagecollectorController } from '../../pkg/controller/garbagecollector/controller.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { pollUntil } from './framework/authentication.js';
import { runControllers, type RunningControllers } from './framework/in-process-controller.js';

const ns = 'gc-test';
const hold = 'example.com/hold';

describe('garbage collector', () => {
  let t: TestServer;
  let gc: RunningControllers;
  let c: Client;

  before(async () => {
    t = await startTestServer();
    gc = await runControllers(t, [garbagecollectorController]);
    c = gc.client;
    await c.resource('', 'v1', 'namespaces').create({ metadata: { name: ns } });
  });
  after(async () => {
    await gc?.stop();
    await t?.stop();
  });

  const cms = () => c.resource('', 'v1', 'configmaps').namespace(ns);
  const ref = (o: KubeObject, block = false) => ({ apiVersion: 'v1', kind: 'ConfigMap', name: o.metadata.name!, uid: o.metadata.uid!, ...(block ? { blockOwnerDeletion: true } : {}) });
  const cm = (name: string, owners: ReturnType<typeof ref>[] = [], finalizers: string[] = []) =>
    cms().create({ metadata: { name, ownerReferences: owners, finalizers }, data: { k: name } });
  /** The object, or undefined once it is gone. */
  const getCM = async (name: string): Promise<KubeObject | undefined> => {
    try {
      return await cms().get(name);
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
  };
  const gone = (name: string, ms = 15_000) => pollUntil(() => getCM(name), (o) => o === undefined, `${name} to be collected`, ms);

  test('a foreground deletion waits for its blocking dependents, deletes them, then goes', async () => {
    const owner = await cm('fg-owner');
    await cm('fg-dep-held', [ref(owner, true)], [hold]);
    await cm('fg-dep-free', [ref(owner, true)]);
    await cms().delete('fg-owner', { propagationPolicy: 'Foreground' });
    // The free dependent is collected; the held one is marked deleted but waits on its own finalizer.
    await gone('fg-dep-free');
    const held = await pollUntil(() => getCM('fg-dep-held'), (o) => !!o?.metadata.deletionTimestamp, 'the held dependent to be deleted');
    assert.ok(held);
    const waiting = await getCM('fg-owner');
    assert.ok(waiting?.metadata.deletionTimestamp, 'the owner is still there while a blocking dependent is');
    assert.deepEqual(waiting.metadata.finalizers, ['foregroundDeletion']);
    await cms().patch('fg-dep-held', 'merge', { metadata: { finalizers: null } });
    await gone('fg-dep-held');
    await gone('fg-owner');
  });

  test('an orphaned dependent survives with its ownerReference to the deleted owner removed', async () => {
    const owner = await cm('orphan-owner');
    const other = await cm('orphan-other-owner');
    await cm('orphan-dep', [ref(owner, true), ref(other)]);
    await cms().delete('orphan-owner', { propagationPolicy: 'Orphan' });
    await gone('orphan-owner');
    const dep = await getCM('orphan-dep');
    assert.ok(dep, 'the dependent survives');
    assert.deepEqual(dep.metadata.ownerReferences?.map((r) => r.name), ['orphan-other-owner']);
  });

  test('a background deletion collects a chain of dependents', async () => {
    const a = await cm('bg-a');
    const b = await cm('bg-b', [ref(a)]);
    const c1 = await cm('bg-c', [ref(b)]);
    await cm('bg-d', [ref(c1)]);
    await cms().delete('bg-a', { propagationPolicy: 'Background' });
    for (const name of ['bg-a', 'bg-b', 'bg-c', 'bg-d']) await gone(name);
  });

  test('a dependent whose owner never existed, or exists with another uid, is collected; one with a live owner keeps it', async () => {
    const live = await cm('live-owner');
    const ghost = { apiVersion: 'v1', kind: 'ConfigMap', name: 'never-was', uid: '6f1c2b1e-0000-4000-8000-000000000001' };
    const impostor = { apiVersion: 'v1', kind: 'ConfigMap', name: 'live-owner', uid: '6f1c2b1e-0000-4000-8000-000000000002' };
    await cm('dangling-dep', [ghost]);
    await cm('wrong-uid-dep', [impostor]);
    await cm('mixed-dep', [ghost, ref(live)]);
    await gone('dangling-dep');
    await gone('wrong-uid-dep');
    const mixed = await pollUntil(() => getCM('mixed-dep'), (o) => o?.metadata.ownerReferences?.length === 1, 'the dangling reference to be removed');
    assert.equal(mixed?.metadata.ownerReferences?.[0]?.uid, live.metadata.uid);
    assert.equal((await getCM('live-owner'))?.metadata.deletionTimestamp, undefined);
  });

  test('a cluster-scoped dependent of a namespaced owner is reported with OwnerRefInvalidNamespace and kept', async () => {
    const owner = await cm('ns-owner');
    const roles = c.resource(defaultApiDomain.group('rbac.authorization'), 'v1', 'clusterroles');
    await roles.create({ metadata: { name: 'gc-invalid-dependent', ownerReferences: [ref(owner)] }, rules: [] });
    const events = await pollUntil(
      () => c.resource('', 'v1', 'events').namespace('default').list({ fieldSelector: 'involvedObject.name=gc-invalid-dependent' }),
      (l) => l.items.some((e) => e.reason === 'OwnerRefInvalidNamespace'),
      'an OwnerRefInvalidNamespace event',
      15_000,
    );
    const e = events.items.find((x) => x.reason === 'OwnerRefInvalidNamespace')!;
    assert.equal(e.type, 'Warning');
    assert.match(String(e.message), /ownerRef \[v1\/ConfigMap, namespace: , name: ns-owner, uid: .+\] does not exist in namespace ""/);
    assert.ok(await roles.get('gc-invalid-dependent'), 'the dependent is not deleted');
  });
});
