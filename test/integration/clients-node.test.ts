// @kubernetes/client-node against the server, configured from a kubeconfig file as its users do:
// an informer (list + watch) through adds, updates and deletes and through a 410 after compaction,
// and the read-then-replace every controller does.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AppsV1Api, CoreV1Api, makeInformer, type KubeConfig, type V1ConfigMap, type V1StatefulSet } from '@kubernetes/client-node';
import { ensureDefaultServiceAccount, startTestServer, type TestServer } from './framework/apiserver.js';
import { writeKubeconfig, type Kubeconfig } from './framework/kubeconfig.js';
import { describeError, loadKubeConfig } from './framework/node-client.js';
import { fixtures } from './fixtures.js';

async function until(what: string, done: () => boolean | Promise<boolean>, timeoutMs: number, show: () => unknown): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) assert.fail(`${what}: not within ${timeoutMs} ms; seen: ${JSON.stringify(show())}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Runs a client call, turning an ApiException into an assertion that shows the server's answer. */
async function call<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    return assert.fail(`${what}: ${describeError(e)}`);
  }
}

interface Seen { verb: string; name: string; data?: Record<string, string>; rv?: string }

/** An informer on the ConfigMaps of `namespace` that records what it reports and how often it listed. */
function configMapInformer(kc: KubeConfig, namespace: string) {
  const core = kc.makeApiClient(CoreV1Api);
  const state = { seen: [] as Seen[], errors: [] as string[], lists: 0, listedAt: [] as string[] };
  const informer = makeInformer<V1ConfigMap>(kc, `/api/v1/namespaces/${namespace}/configmaps`, async () => {
    state.lists++;
    const list = await core.listNamespacedConfigMap({ namespace });
    state.listedAt.push(list.metadata?.resourceVersion ?? '');
    return list;
  });
  for (const verb of ['add', 'update', 'delete'] as const) {
    informer.on(verb, (o) => state.seen.push({ verb, name: o.metadata?.name ?? '', data: o.data, rv: o.metadata?.resourceVersion }));
  }
  informer.on('error', (e) => state.errors.push(describeError(e)));
  return { informer, state };
}

describe('@kubernetes/client-node', () => {
  let t: TestServer;
  let file: Kubeconfig;
  let kc: KubeConfig;
  const ns = 'node-e2e';

  before(async () => {
    t = await startTestServer();
    file = writeKubeconfig(t);
    kc = loadKubeConfig(file);
    const r = await t.client.post('/api/v1/namespaces', { metadata: { name: ns } });
    assert.equal(r.status, 201, r.text);
    await ensureDefaultServiceAccount(t.client, ns);
  });
  after(async () => {
    file?.remove();
    await t?.stop();
  });

  test('an informer sees add, update and delete', async () => {
    const core = kc.makeApiClient(CoreV1Api);
    const { informer, state } = configMapInformer(kc, ns);
    await informer.start();
    try {
      const name = 'informed';
      const has = (verb: string, pred: (s: Seen) => boolean = () => true) => state.seen.some((s) => s.verb === verb && s.name === name && pred(s));
      await call('create', () => core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name }, data: { step: '1' } } }));
      await until('add', () => has('add'), 10_000, () => state);
      // client-node sends a JSON patch (application/json-patch+json) unless told otherwise.
      await call('patch', () => core.patchNamespacedConfigMap({ name, namespace: ns, body: [{ op: 'replace', path: '/data/step', value: '2' }] }));
      await until('update', () => has('update', (s) => s.data?.step === '2'), 10_000, () => state);
      assert.equal(informer.get(name, ns)?.data?.step, '2', 'the informer cache holds the updated object');
      await call('delete', () => core.deleteNamespacedConfigMap({ name, namespace: ns }));
      await until('delete', () => has('delete'), 10_000, () => state);
      assert.equal(informer.get(name, ns), undefined, 'the informer cache dropped the deleted object');
      assert.deepEqual(state.errors, []);
    } finally {
      await informer.stop();
    }
  });

  test('read, change and replace a ConfigMap', async () => {
    const core = kc.makeApiClient(CoreV1Api);
    const name = 'replaced';
    await call('create', () => core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name }, data: { a: '1' } } }));
    const read = await call('read', () => core.readNamespacedConfigMap({ name, namespace: ns }));
    read.data = { ...read.data, b: '2' };
    const replaced = await call('replace with the object as read', () => core.replaceNamespacedConfigMap({ name, namespace: ns, body: read }));
    assert.deepEqual(replaced.data, { a: '1', b: '2' });
    const stored = await t.client.get(`/api/v1/namespaces/${ns}/configmaps/${name}`);
    assert.deepEqual(stored.body.data, { a: '1', b: '2' }, stored.text);
    assert.equal(Date.parse(stored.body.metadata.creationTimestamp), read.metadata!.creationTimestamp!.getTime(), 'creationTimestamp kept');
  });

  test('read, change and replace a StatefulSet', async () => {
    const apps = kc.makeApiClient(AppsV1Api);
    const name = 'replaced-sts';
    const body = fixtures.find((f) => f.kind === 'StatefulSet')!.make(name) as V1StatefulSet;
    await call('create', () => apps.createNamespacedStatefulSet({ namespace: ns, body }));
    const read = await call('read', () => apps.readNamespacedStatefulSet({ name, namespace: ns }));
    read.spec!.replicas = 4;
    read.spec!.template.spec!.containers[0]!.image = 'registry.example/nginx:1.27';
    const replaced = await call('replace with the object as read', () => apps.replaceNamespacedStatefulSet({ name, namespace: ns, body: read }));
    assert.equal(replaced.spec?.replicas, 4);
    const stored = await t.client.get(`/apis/apps/v1/namespaces/${ns}/statefulsets/${name}`);
    assert.equal(stored.body.spec.replicas, 4, stored.text);
    assert.equal(stored.body.spec.template.spec.containers[0].image, 'registry.example/nginx:1.27', stored.text);
    assert.equal(stored.body.metadata.generation, 2, 'a spec change bumps generation');
  });
});

describe('@kubernetes/client-node informer across compaction', () => {
  let t: TestServer;
  let file: Kubeconfig;
  const quiet = 'node-quiet';
  const busy = 'node-busy';

  before(async () => {
    // Watches end after about a second (as they do after --min-request-timeout in production) and
    // history is compacted every 300 ms, so a quiet informer re-watches from a compacted version.
    t = await startTestServer({ etcdCompactionIntervalMs: 300, minRequestTimeout: 1 });
    file = writeKubeconfig(t);
    for (const name of [quiet, busy]) {
      const r = await t.client.post('/api/v1/namespaces', { metadata: { name } });
      assert.equal(r.status, 201, r.text);
    }
  });
  after(async () => {
    file?.remove();
    await t?.stop();
  });

  test('relists after its watch answers 410 Gone, and keeps working', async () => {
    const kc = loadKubeConfig(file);
    const { informer, state } = configMapInformer(kc, quiet);
    const first = await t.client.post(`/api/v1/namespaces/${quiet}/configmaps`, { metadata: { name: 'before' } });
    assert.equal(first.status, 201, first.text);
    await informer.start();
    try {
      await until('initial add', () => state.seen.some((s) => s.verb === 'add' && s.name === 'before'), 10_000, () => state);
      const synced = state.listedAt[0];
      // Writes elsewhere move etcd on and compaction follows; the informer's own version stays behind.
      let ticks = 0;
      await until('a relist', async () => {
        await t.client.post(`/api/v1/namespaces/${busy}/configmaps`, { metadata: { generateName: 'tick-' } });
        ticks++;
        return state.lists >= 2;
      }, 20_000, () => ({ ...state, ticks }));
      const exact = await t.client.get(`/api/v1/namespaces/${quiet}/configmaps?resourceVersion=${synced}&resourceVersionMatch=Exact`);
      assert.equal(exact.status, 410, `the version the informer had synced at (${synced}) is compacted: ${exact.text}`);

      await t.client.post(`/api/v1/namespaces/${quiet}/configmaps`, { metadata: { name: 'after' } });
      await until('add after the relist', () => informer.get('after', quiet) !== undefined, 10_000, () => state);
      assert.deepEqual(informer.list(quiet).map((o) => o.metadata?.name).sort(), ['after', 'before']);
      assert.ok(!state.seen.some((s) => s.verb === 'delete'), `a relist reports no deletes for objects that stayed: ${JSON.stringify(state.seen)}`);
      assert.deepEqual(state.errors, []);
    } finally {
      await informer.stop();
    }
  });
});
