// PriorityClass, RuntimeClass, StorageClass and Lease through the real server: the built-in
// priority classes exist from start and survive deletes and restarts, reserved names and fixed
// fields are refused with 422 (403 for deleting a built-in), defaults are filled in, and lease
// times keep their microseconds.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { assertStatus } from './framework/assertions.js';

const pcPath = '/apis/scheduling.orch.io/v1/priorityclasses';
const scPath = '/apis/storage.orch.io/v1/storageclasses';
const rcPath = '/apis/node.orch.io/v1/runtimeclasses';
const leasePath = '/apis/coordination.orch.io/v1/namespaces/default/leases';
const tableAccept = { Accept: 'application/json;as=Table;g=meta.orch.io;v=v1' };

const causes = (r: { body: any }) => (r.body.details?.causes ?? []).map((c: { field: string }) => c.field);

describe('classes and leases', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t?.stop());

  async function systemClasses() {
    const r = await t.client.get(pcPath);
    assert.equal(r.status, 200, r.text);
    return Object.fromEntries((r.body.items as any[]).filter((i) => i.metadata.name.startsWith('system-'))
      .map((i) => [i.metadata.name, { value: i.value, preemptionPolicy: i.preemptionPolicy, globalDefault: i.globalDefault ?? false }]));
  }
  const builtIn = {
    'system-cluster-critical': { value: 2000000000, preemptionPolicy: 'PreemptLowerPriority', globalDefault: false },
    'system-node-critical': { value: 2000001000, preemptionPolicy: 'PreemptLowerPriority', globalDefault: false },
  };

  test('the built-in priority classes exist once the server is ready, from their post-start hook', async () => {
    assert.deepEqual(await systemClasses(), builtIn);
    const ready = await t.client.get('/readyz?verbose');
    assert.equal(ready.status, 200);
    assert.match(ready.text, /\[\+\]poststarthook\/scheduling\/bootstrap-system-priority-classes ok/);
  });

  test('a built-in priority class cannot be deleted, and a restart leaves them as they are', async () => {
    const r = await t.client.delete(`${pcPath}/system-node-critical`);
    assertStatus(r, 403, 'Forbidden');
    assert.match(r.body.message, /this is a system priority class and cannot be deleted/);
    const before = (await t.client.get(`${pcPath}/system-node-critical`)).body;
    await t.client.patch(`${pcPath}/system-node-critical`, { metadata: { labels: { touched: 'yes' } } });
    await t.restart();
    assert.deepEqual(await systemClasses(), builtIn);
    const after = (await t.client.get(`${pcPath}/system-node-critical`)).body;
    assert.equal(after.metadata.uid, before.metadata.uid, 'not recreated');
    assert.equal(after.metadata.labels.touched, 'yes');
  });

  test('priority classes: system- names reserved, user values capped, value and preemptionPolicy fixed', async () => {
    const reserved = await t.client.post(pcPath, { metadata: { name: 'system-mine' }, value: 10 });
    assertStatus(reserved, 422, 'Invalid');
    assert.deepEqual(causes(reserved), ['metadata.name']);
    assert.match(reserved.body.message, /reserved for system use only/);
    assertStatus(await t.client.post(pcPath, { metadata: { name: 'too-high' }, value: 1000000001 }), 422, 'Invalid');

    const created = await t.client.post(pcPath, { metadata: { name: 'batch' }, value: 10 });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.preemptionPolicy, 'PreemptLowerPriority');
    const value = await t.client.patch(`${pcPath}/batch`, { value: 11 });
    assertStatus(value, 422, 'Invalid');
    assert.deepEqual(causes(value), ['value']);
    assert.deepEqual(causes(await t.client.patch(`${pcPath}/batch`, { preemptionPolicy: 'Never' })), ['preemptionPolicy']);
    const ok = await t.client.patch(`${pcPath}/batch`, { description: 'batch jobs', globalDefault: true });
    assert.equal(ok.status, 200, ok.text);
    assert.equal((await t.client.delete(`${pcPath}/batch`)).status, 200);
  });

  test('storage classes: defaults, Table columns with the default marker, fixed fields', async () => {
    const created = await t.client.post(scPath, {
      metadata: { name: 'fast', annotations: { 'storageclass.orch.io/is-default-class': 'true' } },
      provisioner: 'csi.example.com', parameters: { type: 'ssd' },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.reclaimPolicy, 'Delete');
    assert.equal(created.body.volumeBindingMode, 'Immediate');
    assert.equal('allowVolumeExpansion' in created.body, false);

    const table = await t.client.get(`${scPath}/fast`, { headers: tableAccept });
    assert.equal(table.status, 200, table.text);
    assert.deepEqual(table.body.columnDefinitions.map((c: any) => c.name), ['Name', 'Provisioner', 'ReclaimPolicy', 'VolumeBindingMode', 'AllowVolumeExpansion', 'Age']);
    assert.deepEqual(table.body.rows[0].cells.slice(0, 5), ['fast (default)', 'csi.example.com', 'Delete', 'Immediate', false]);

    const changed = await t.client.patch(`${scPath}/fast`, { provisioner: 'other.example.com', parameters: { type: 'hdd' }, reclaimPolicy: 'Retain' });
    assertStatus(changed, 422, 'Invalid');
    assert.deepEqual(causes(changed).sort(), ['parameters', 'provisioner', 'reclaimPolicy']);
    assert.deepEqual(causes(await t.client.post(scPath, { metadata: { name: 'recycle' }, provisioner: 'p', reclaimPolicy: 'Recycle' })), ['reclaimPolicy']);
    const expand = await t.client.patch(`${scPath}/fast`, { allowVolumeExpansion: true, mountOptions: ['noatime'] });
    assert.equal(expand.status, 200, expand.text);
    assert.equal(expand.body.allowVolumeExpansion, true);
  });

  test('runtime classes: DNS-label handler that never changes', async () => {
    assert.deepEqual(causes(await t.client.post(rcPath, { metadata: { name: 'bad' }, handler: 'Not_A_Label' })), ['handler']);
    const created = await t.client.post(rcPath, { metadata: { name: 'gvisor' }, handler: 'runsc' });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(causes(await t.client.patch(`${rcPath}/gvisor`, { handler: 'kata' })), ['handler']);
  });

  test('leases keep microsecond times and reject a non-positive duration', async () => {
    const spec = { holderIdentity: 'node-1', leaseDurationSeconds: 40, acquireTime: '2026-01-01T00:00:00.000001Z', renewTime: '2026-01-01T00:00:05.123456Z', leaseTransitions: 0 };
    const created = await t.client.post(leasePath, { metadata: { name: 'node-1' }, spec });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual((await t.client.get(`${leasePath}/node-1`)).body.spec, spec);
    assert.deepEqual(causes(await t.client.patch(`${leasePath}/node-1`, { spec: { leaseDurationSeconds: 0 } })), ['spec.leaseDurationSeconds']);
    const table = await t.client.get(leasePath, { headers: tableAccept });
    assert.deepEqual(table.body.rows.map((r: any) => r.cells.slice(0, 2)), [['node-1', 'node-1']]);
  });
});
