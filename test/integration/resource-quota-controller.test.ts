// The resourcequota controller in-process against a real API server: status.hard follows
// spec.hard, status.used follows creates and deletes (counts, compute resources, scopes), and the
// server's quota admission, which refuses a create over the limit, admits again once a delete has
// been counted.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client, KubeObject } from '../../pkg/client/index.js';
import { newResourceQuotaController } from '../../pkg/controller/resourcequota/controller.js';
import { ensureDefaultServiceAccount, startTestServer, type TestServer } from './framework/apiserver.js';
import { pollUntil } from './framework/authentication.js';
import { runControllers, type RunningControllers } from './framework/in-process-controller.js';

interface QuotaStatus {
  hard?: Record<string, string>;
  used?: Record<string, string>;
}

describe('resource quota controller', () => {
  let t: TestServer;
  let rq: RunningControllers;
  let c: Client;

  before(async () => {
    t = await startTestServer();
    rq = await runControllers(t, [newResourceQuotaController({ resyncPeriodMs: 60_000 })]);
    c = rq.client;
  });
  after(async () => {
    await rq?.stop();
    await t?.stop();
  });

  const quotas = (ns: string) => c.resource('', 'v1', 'resourcequotas').namespace(ns);
  async function namespace(name: string): Promise<void> {
    await c.resource('', 'v1', 'namespaces').create({ metadata: { name } });
    await ensureDefaultServiceAccount(t.client, name);
  }
  const statusOf = async (ns: string, name: string) => (await quotas(ns).get(name)).status as QuotaStatus | undefined;
  const usedIs = (ns: string, name: string, used: Record<string, string>, what: string) =>
    pollUntil(() => statusOf(ns, name), (s) => JSON.stringify(s?.used) === JSON.stringify(used), what, 15_000);
  const pod = (name: string, resources?: { requests?: Record<string, string>; limits?: Record<string, string> }): KubeObject => ({
    metadata: { name },
    spec: { containers: [{ name: 'c', image: 'registry.example/app:1', ...(resources ? { resources } : {}) }] },
  });

  test('usage follows creates and deletes, and admission admits again once a delete is counted', async () => {
    const ns = 'rq-usage';
    await namespace(ns);
    await quotas(ns).create({
      metadata: { name: 'compute' },
      spec: { hard: { 'count/configmaps': '2', pods: '2', 'requests.cpu': '1', 'limits.memory': '1Gi', secrets: '10', services: '3' } },
    });
    const initial = await usedIs(ns, 'compute', {
      'count/configmaps': '0', 'limits.memory': '0', pods: '0', 'requests.cpu': '0', secrets: '0', services: '0',
    }, 'the initial usage');
    assert.deepEqual(initial?.hard, { 'count/configmaps': '2', 'limits.memory': '1Gi', pods: '2', 'requests.cpu': '1', secrets: '10', services: '3' });

    const cms = c.resource('', 'v1', 'configmaps').namespace(ns);
    await cms.create({ metadata: { name: 'a' }, data: {} });
    await cms.create({ metadata: { name: 'b' }, data: {} });
    await c.resource('', 'v1', 'pods').namespace(ns).create(pod('p1', { requests: { cpu: '500m' }, limits: { cpu: '500m', memory: '512Mi' } }));
    await usedIs(ns, 'compute', {
      'count/configmaps': '2', 'limits.memory': '512Mi', pods: '1', 'requests.cpu': '500m', secrets: '0', services: '0',
    }, 'usage after creates');

    await assert.rejects(cms.create({ metadata: { name: 'c' }, data: {} }), /exceeded quota: compute, requested: count\/configmaps=1, used: count\/configmaps=2, limited: count\/configmaps=2/);
    await cms.delete('a');
    await c.resource('', 'v1', 'pods').namespace(ns).delete('p1', { gracePeriodSeconds: 0 });
    await usedIs(ns, 'compute', {
      'count/configmaps': '1', 'limits.memory': '0', pods: '0', 'requests.cpu': '0', secrets: '0', services: '0',
    }, 'usage after deletes');
    await cms.create({ metadata: { name: 'c' }, data: {} });
    await usedIs(ns, 'compute', {
      'count/configmaps': '2', 'limits.memory': '0', pods: '0', 'requests.cpu': '0', secrets: '0', services: '0',
    }, 'usage after the create admitted again');
  });

  test('status.hard follows a change of spec.hard, and a drifted status.used is corrected', async () => {
    const ns = 'rq-drift';
    await namespace(ns);
    await quotas(ns).create({ metadata: { name: 'q' }, spec: { hard: { 'count/secrets': '4' } } });
    await c.resource('', 'v1', 'secrets').namespace(ns).create({ metadata: { name: 's' }, data: {} });
    await usedIs(ns, 'q', { 'count/secrets': '1' }, 'the secret counted');
    const q = await quotas(ns).get('q');
    await quotas(ns).update({ ...q, spec: { hard: { 'count/secrets': '6', 'count/configmaps': '1' } } });
    const s = await usedIs(ns, 'q', { 'count/configmaps': '0', 'count/secrets': '1' }, 'the new hard names counted');
    assert.deepEqual(s?.hard, { 'count/configmaps': '1', 'count/secrets': '6' });
    // A status someone else got wrong is put right (the controller reacts to the status change).
    const latest = await quotas(ns).get('q');
    await quotas(ns).updateStatus({ ...latest, status: { hard: { 'count/secrets': '1' }, used: { 'count/secrets': '9' } } });
    await usedIs(ns, 'q', { 'count/configmaps': '0', 'count/secrets': '1' }, 'the drifted usage corrected');
  });

  test('scoped quotas count only the pods in their scope', async () => {
    const ns = 'rq-scopes';
    await namespace(ns);
    await quotas(ns).create({ metadata: { name: 'best-effort' }, spec: { hard: { pods: '5' }, scopes: ['BestEffort'] } });
    await quotas(ns).create({ metadata: { name: 'not-best-effort' }, spec: { hard: { pods: '5', 'requests.memory': '1Gi' }, scopes: ['NotBestEffort'] } });
    await quotas(ns).create({ metadata: { name: 'terminating' }, spec: { hard: { pods: '5' }, scopes: ['Terminating'] } });
    const pods = c.resource('', 'v1', 'pods').namespace(ns);
    await pods.create(pod('be1'));
    await pods.create(pod('be2'));
    await pods.create(pod('burst', { requests: { memory: '128Mi' } }));
    const deadline = pod('deadline');
    (deadline.spec as Record<string, unknown>).activeDeadlineSeconds = 600;
    await pods.create(deadline);
    await usedIs(ns, 'best-effort', { pods: '3' }, 'best-effort pods counted');
    await usedIs(ns, 'not-best-effort', { pods: '1', 'requests.memory': '128Mi' }, 'the burstable pod counted');
    await usedIs(ns, 'terminating', { pods: '1' }, 'the pod with a deadline counted');
    // A pod that has finished no longer counts.
    const be1 = await pods.get('be1');
    await pods.updateStatus({ ...be1, status: { phase: 'Succeeded' } });
    await usedIs(ns, 'best-effort', { pods: '2' }, 'the finished pod released');
  });
});
