// The disruption controller in-process against a real API server: a budget's status follows the
// readiness of its pods (marked Ready through the pods' status sub-resource), evictions are then
// allowed or refused by the server accordingly, percentages and maxUnavailable count the pods'
// controllers' scale, a pod without a findable controller fails the budget safe (SyncFailed), and
// stale disruptedPods entries are pruned.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { isTooManyRequests, type Client, type KubeObject } from '../../pkg/client/index.js';
import { disruptionController } from '../../pkg/controller/disruption/controller.js';
import { ensureDefaultServiceAccount, startTestServer, type TestServer } from './framework/apiserver.js';
import { pollUntil } from './framework/authentication.js';
import { runControllers, type RunningControllers } from './framework/in-process-controller.js';

interface BudgetStatus {
  currentHealthy: number;
  desiredHealthy: number;
  disruptionsAllowed: number;
  expectedPods?: number;
  observedGeneration?: number;
  disruptedPods?: Record<string, string>;
  conditions?: { type: string; status: string; reason: string; message: string }[];
}

describe('disruption controller', () => {
  let t: TestServer;
  let dc: RunningControllers;
  let c: Client;

  before(async () => {
    t = await startTestServer();
    dc = await runControllers(t, [disruptionController]);
    c = dc.client;
  });
  after(async () => {
    await dc?.stop();
    await t?.stop();
  });

  async function namespace(name: string): Promise<void> {
    await c.resource('', 'v1', 'namespaces').create({ metadata: { name } });
    await ensureDefaultServiceAccount(t.client, name);
  }
  const pods = (ns: string) => c.resource('', 'v1', 'pods').namespace(ns);
  const budgets = (ns: string) => c.resource('policy', 'v1', 'poddisruptionbudgets').namespace(ns);
  async function pod(ns: string, name: string, labels: Record<string, string>, owner?: KubeObject): Promise<void> {
    await pods(ns).create({
      metadata: {
        name, labels,
        ...(owner ? { ownerReferences: [{ apiVersion: owner.apiVersion!, kind: owner.kind!, name: owner.metadata.name!, uid: owner.metadata.uid!, controller: true }] } : {}),
      },
      spec: { containers: [{ name: 'c', image: 'registry.example/app:1' }] },
    });
    await setReady(ns, name, false);
  }
  /** What the node agent would report: Running, and Ready or not. */
  async function setReady(ns: string, name: string, ready: boolean): Promise<void> {
    const p = await pods(ns).get(name);
    await pods(ns).updateStatus({ ...p, status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] } });
  }
  const statusOf = async (ns: string, name: string) => (await budgets(ns).get(name)).status as BudgetStatus | undefined;
  const condition = (s: BudgetStatus | undefined) => s?.conditions?.find((x) => x.type === 'DisruptionAllowed');
  const until = (ns: string, name: string, check: (s: BudgetStatus | undefined) => boolean, what: string) =>
    pollUntil(() => statusOf(ns, name), check, what, 15_000);
  /** POST of an Eviction; resolves with the error when refused. */
  async function evictPost(ns: string, name: string): Promise<unknown> {
    try {
      await c.request('POST', `/api/v1/namespaces/${ns}/pods/${name}/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: ns } });
      return undefined;
    } catch (e) {
      return e;
    }
  }

  test('a budget follows pod readiness, and evictions are allowed or refused accordingly', async () => {
    const ns = 'pdb-ready';
    await namespace(ns);
    for (const n of ['web-0', 'web-1', 'web-2']) await pod(ns, n, { app: 'web' });
    await budgets(ns).create({ metadata: { name: 'web' }, spec: { minAvailable: 2, selector: { matchLabels: { app: 'web' } } } });
    let s = await until(ns, 'web', (x) => x?.expectedPods === 3 && x.observedGeneration === 1, 'the first status');
    assert.equal(s?.currentHealthy, 0);
    assert.equal(s?.desiredHealthy, 2);
    assert.equal(s?.disruptionsAllowed, 0);
    assert.deepEqual({ ...condition(s), lastTransitionTime: undefined, observedGeneration: undefined }, { type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods', message: '', lastTransitionTime: undefined, observedGeneration: undefined });
    const refused = await evictPost(ns, 'web-0');
    assert.ok(isTooManyRequests(refused), `eviction refused while the budget is not met: ${String(refused)}`);

    for (const n of ['web-0', 'web-1', 'web-2']) await setReady(ns, n, true);
    s = await until(ns, 'web', (x) => x?.currentHealthy === 3, 'three healthy pods');
    assert.equal(s?.disruptionsAllowed, 1);
    assert.equal(condition(s)?.status, 'True');
    assert.equal(condition(s)?.reason, 'SufficientPods');

    assert.equal(await evictPost(ns, 'web-0'), undefined, 'one eviction is allowed');
    s = await until(ns, 'web', (x) => x?.currentHealthy === 2 && x.disruptionsAllowed === 0, 'the evicted pod gone from the count');
    assert.equal(condition(s)?.reason, 'InsufficientPods');
    assert.ok(isTooManyRequests(await evictPost(ns, 'web-1')), 'a second eviction is refused');

    // A pod that stops being ready takes the budget below its minimum.
    await setReady(ns, 'web-2', false);
    s = await until(ns, 'web', (x) => x?.currentHealthy === 1, 'the unready pod no longer healthy');
    assert.equal(s?.disruptionsAllowed, 0);
  });

  test('percentages and maxUnavailable count the scale of the pods\' controllers', async () => {
    const ns = 'pdb-scale';
    await namespace(ns);
    const rs = await c.resource('apps', 'v1', 'replicasets').namespace(ns).create({
      metadata: { name: 'api' },
      spec: {
        replicas: 4,
        selector: { matchLabels: { app: 'api' } },
        template: { metadata: { labels: { app: 'api' } }, spec: { containers: [{ name: 'c', image: 'registry.example/app:1' }] } },
      },
    });
    for (const n of ['api-a', 'api-b', 'api-c']) {
      await pod(ns, n, { app: 'api' }, rs);
      await setReady(ns, n, true);
    }
    await budgets(ns).create({ metadata: { name: 'max' }, spec: { maxUnavailable: '50%', selector: { matchLabels: { app: 'api' } } } });
    await budgets(ns).create({ metadata: { name: 'min' }, spec: { minAvailable: '60%', selector: { matchLabels: { app: 'api' } } } });
    const max = await until(ns, 'max', (x) => x?.expectedPods === 4 && x.currentHealthy === 3, 'the maxUnavailable budget');
    // 4 expected, 50% of 4 may be unavailable: 2 must be healthy; 3 are, so 1 may go.
    assert.equal(max?.desiredHealthy, 2);
    assert.equal(max?.disruptionsAllowed, 1);
    const min = await until(ns, 'min', (x) => x?.expectedPods === 4 && x.currentHealthy === 3, 'the percentage minAvailable budget');
    // 60% of 4 rounds up to 3: none may go.
    assert.equal(min?.desiredHealthy, 3);
    assert.equal(min?.disruptionsAllowed, 0);
    assert.equal(condition(min)?.reason, 'InsufficientPods');
  });

  test('a pod whose controller cannot be found fails the budget safe with SyncFailed', async () => {
    const ns = 'pdb-failsafe';
    await namespace(ns);
    const ghost = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'gone', uid: '0d6f6a7e-0000-4000-8000-00000000abcd' } } as KubeObject;
    await pod(ns, 'orphan-0', { app: 'orphan' }, ghost);
    await setReady(ns, 'orphan-0', true);
    await budgets(ns).create({ metadata: { name: 'b' }, spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'orphan' } } } });
    const s = await until(ns, 'b', (x) => condition(x)?.reason === 'SyncFailed', 'the SyncFailed condition');
    assert.equal(condition(s)?.status, 'False');
    assert.equal(condition(s)?.message, 'found no controllers for pod "orphan-0"');
    assert.equal(s?.disruptionsAllowed, 0);
  });

  test('disruptedPods entries of pods that are gone, or evicted too long ago, are pruned', async () => {
    const ns = 'pdb-prune';
    await namespace(ns);
    for (const n of ['db-0', 'db-1']) {
      await pod(ns, n, { app: 'db' });
      await setReady(ns, n, true);
    }
    await budgets(ns).create({ metadata: { name: 'db' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'db' } } } });
    await until(ns, 'db', (x) => x?.currentHealthy === 2, 'the first status');
    const b = await budgets(ns).get('db');
    const longAgo = new Date(Date.now() - 10 * 60_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const recent = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    await budgets(ns).updateStatus({ ...b, status: { ...(b.status as object), disruptedPods: { 'no-such-pod': recent, 'db-0': longAgo, 'db-1': recent } } });
    // db-1 was evicted just now: it does not count as healthy until the timeout passes.
    const s = await until(ns, 'db', (x) => JSON.stringify(x?.disruptedPods) === JSON.stringify({ 'db-1': recent }), 'the stale entries pruned');
    assert.equal(s?.currentHealthy, 1);
    assert.equal(s?.disruptionsAllowed, 0);
  });
});
