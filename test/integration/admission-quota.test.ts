// ResourceQuota admission through the real server: usage is charged to the stored status.used in
// the same transaction as the object, so many concurrent creates never take a quota past its hard
// limit; refusals carry upstream's code and message; dryRun charges nothing; a quota whose usage
// of a tracked resource is not known refuses, as upstream's does.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultAdmissionOptions } from '../../cmd/apiserver/app/admission-options.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { assertStatus } from './framework/assertions.js';
import { quotasSeen } from './framework/quota.js';

describe('ResourceQuota admission', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t?.stop());

  const ns = (name: string) => `/api/v1/namespaces/${name}`;
  async function namespaceWithQuota(name: string, hard: Record<string, string>, used?: Record<string, string>) {
    assert.equal((await t.client.post('/api/v1/namespaces', { metadata: { name } })).status, 201);
    const q = await t.client.post(`${ns(name)}/resourcequotas`, { metadata: { name: 'q' }, spec: { hard } });
    assert.equal(q.status, 201, q.text);
    if (used) {
      // The quota controller's part (a later issue): status.hard and the usage it has counted.
      const s = await t.client.put(`${ns(name)}/resourcequotas/q/status`, { ...q.body, status: { hard, used } });
      assert.equal(s.status, 200, s.text);
    }
    await quotasSeen(t.client, name);
  }
  const storedUsed = async (name: string) => (await t.client.get(`${ns(name)}/resourcequotas/q`)).body.status?.used;
  const configMap = (name: string) => ({ metadata: { name }, data: { k: 'v' } });

  test('concurrent creates never exceed the quota: exactly the allowed number land and status.used says so', async () => {
    await namespaceWithQuota('quota-race', { 'count/configmaps': '5' }, { 'count/configmaps': '0' });
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => t.client.post(`${ns('quota-race')}/configmaps`, configMap(`cm-${i}`))));
    const created = results.filter((r) => r.status === 201).length;
    const refused = results.filter((r) => r.status === 403);
    assert.equal(created, 5, results.map((r) => r.status).join(','));
    assert.equal(refused.length, 25);
    for (const r of refused) {
      assertStatus(r, 403, 'Forbidden');
      assert.match(r.body.message, /^configmaps "cm-\d+" is forbidden: exceeded quota: q, requested: count\/configmaps=1, used: count\/configmaps=5, limited: count\/configmaps=5$/);
    }
    assert.deepEqual(await storedUsed('quota-race'), { 'count/configmaps': '5' });
    const list = await t.client.get(`${ns('quota-race')}/configmaps`);
    assert.equal(list.body.items.length, 5);
  });

  test('dryRun checks the quota but charges nothing', async () => {
    await namespaceWithQuota('quota-dry', { 'count/configmaps': '1' }, { 'count/configmaps': '0' });
    const dry = await t.client.post(`${ns('quota-dry')}/configmaps?dryRun=All`, configMap('a'));
    assert.equal(dry.status, 201, dry.text);
    assert.deepEqual(await storedUsed('quota-dry'), { 'count/configmaps': '0' });
    assert.equal((await t.client.post(`${ns('quota-dry')}/configmaps`, configMap('a'))).status, 201);
    const over = await t.client.post(`${ns('quota-dry')}/configmaps?dryRun=All`, configMap('b'));
    assertStatus(over, 403, 'Forbidden');
    assert.deepEqual(await storedUsed('quota-dry'), { 'count/configmaps': '1' });
  });

  test('a quota the quota controller has not yet seen (no status.hard) does not track anything yet, as upstream', async () => {
    await namespaceWithQuota('quota-new', { 'count/configmaps': '1' });
    assert.equal((await t.client.post(`${ns('quota-new')}/configmaps`, configMap('a'))).status, 201);
    assert.equal((await t.client.post(`${ns('quota-new')}/configmaps`, configMap('b'))).status, 201);
    assert.equal(await storedUsed('quota-new'), undefined);
  });

  test('a quota with usage unknown for a tracked resource names it', async () => {
    await namespaceWithQuota('quota-partial', { 'count/configmaps': '3', 'count/secrets': '3' }, { 'count/secrets': '0' });
    const r = await t.client.post(`${ns('quota-partial')}/configmaps`, configMap('a'));
    assertStatus(r, 403, 'Forbidden');
    assert.equal(r.body.message, 'configmaps "a" is forbidden: status unknown for quota: q, resources: count/configmaps');
    const s = await t.client.post(`${ns('quota-partial')}/secrets`, { metadata: { name: 's' }, stringData: { a: 'b' } });
    assert.equal(s.status, 201, s.text);
    assert.deepEqual(await storedUsed('quota-partial'), { 'count/secrets': '1' });
  });
});

describe('ResourceQuota configured by --admission-control-config-file', () => {
  let t: TestServer;
  before(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orch-admission-'));
    // Stock files name upstream's group; the quota configuration sits in a file of its own.
    writeFileSync(join(dir, 'quota.yaml'), [
      'apiVersion: apiserver.config.k8s.io/v1',
      'kind: ResourceQuotaConfiguration',
      'limitedResources:',
      '- resource: configmaps',
      '  matchContains: ["count/configmaps"]',
    ].join('\n'));
    writeFileSync(join(dir, 'admission.yaml'), [
      'apiVersion: apiserver.config.k8s.io/v1',
      'kind: AdmissionConfiguration',
      'plugins:',
      '- name: ResourceQuota',
      '  path: quota.yaml',
    ].join('\n'));
    t = await startTestServer({ admission: { ...defaultAdmissionOptions(), configFile: join(dir, 'admission.yaml') } });
  });
  after(async () => t?.stop());

  test('a limited resource needs a covering quota; other resources do not', async () => {
    assert.equal((await t.client.post('/api/v1/namespaces', { metadata: { name: 'limited' } })).status, 201);
    const refused = await t.client.post('/api/v1/namespaces/limited/configmaps', { metadata: { name: 'a' } });
    assertStatus(refused, 403, 'Forbidden');
    assert.equal(refused.body.message, 'configmaps "a" is forbidden: insufficient quota to consume: count/configmaps');
    assert.equal((await t.client.post('/api/v1/namespaces/limited/secrets', { metadata: { name: 's' } })).status, 201);
    const q = await t.client.post('/api/v1/namespaces/limited/resourcequotas', { metadata: { name: 'q' }, spec: { hard: { 'count/configmaps': '2' } } });
    const hard = { 'count/configmaps': '2' };
    assert.equal((await t.client.put('/api/v1/namespaces/limited/resourcequotas/q/status', { ...q.body, status: { hard, used: { 'count/configmaps': '0' } } })).status, 200);
    // The covering quota is seen through the cache once its status lands there.
    const deadline = Date.now() + 10_000;
    let r;
    do {
      r = await t.client.post('/api/v1/namespaces/limited/configmaps', { metadata: { name: 'a' } });
      if (r.status === 201 || Date.now() > deadline) break;
      await new Promise((res) => setTimeout(res, 100));
    } while (r.status === 403);
    assert.equal(r.status, 201, r.text);
  });
});
