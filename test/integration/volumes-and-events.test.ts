// PersistentVolumeClaims, PersistentVolumes and events through the real server: claim and volume
// defaults (phase Pending, Retain, Filesystem), validation causes, the claim's immutable spec,
// kubectl's columns; event field selectors on list and watch; events vanishing after --event-ttl;
// and one event seen through both core v1 and events.orch.io/v1.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { allGroupVersions } from '../../api/index.js';
import { ProtobufCodec } from '../../pkg/runtime/protobuf/codec.js';
import { Scheme } from '../../pkg/runtime/scheme.js';
import { parseDuration } from '../../pkg/util/duration.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { assertStatus } from './framework/assertions.js';
import { pollUntil } from './framework/authentication.js';

const pvcPath = '/api/v1/namespaces/default/persistentvolumeclaims';
const pvPath = '/api/v1/persistentvolumes';
const evPath = '/api/v1/namespaces/default/events';
const evV1Path = '/apis/events.orch.io/v1/namespaces/default/events';
const tableAccept = { Accept: 'application/json;as=Table;g=meta.orch.io;v=v1' };

const causes = (r: { body: any }) => (r.body.details?.causes ?? []).map((c: { field: string; message: string }) => `${c.field}: ${c.message}`);
const claim = (name: string, extra: Record<string, unknown> = {}) => ({
  metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...extra },
});
const volume = (name: string, spec: Record<string, unknown> = { hostPath: { path: '/data' } }) => ({
  metadata: { name }, spec: { capacity: { storage: '5Gi' }, accessModes: ['ReadWriteOnce'], ...spec },
});
const coreEvent = (name: string, involved: string, type: string, extra: Record<string, unknown> = {}) => ({
  metadata: { name }, involvedObject: { kind: 'Pod', namespace: 'default', name: involved, uid: 'u-1' },
  reason: 'Started', message: `about ${involved}`, type, source: { component: 'kubelet', host: 'node-1' }, count: 1,
  firstTimestamp: '2026-01-01T00:00:00Z', lastTimestamp: '2026-01-01T00:00:00Z', ...extra,
});

/** Polls `check` until it holds or `ms` pass. */
async function eventually(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('volumes and events', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t?.stop());

  test('a new claim is Pending with volumeMode Filesystem; its status is set only through /status', async () => {
    const r = await t.client.post(pvcPath, { ...claim('data'), status: { phase: 'Bound' } });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.body.status, { phase: 'Pending' });
    assert.equal(r.body.spec.volumeMode, 'Filesystem');
    assert.deepEqual(r.body.metadata.finalizers, ['orch.io/pvc-protection'], 'StorageObjectInUseProtection protects the claim');
    const st = await t.client.put(`${pvcPath}/data/status`, { ...r.body, status: { phase: 'Bound', capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'] } });
    assert.equal(st.status, 200, st.text);
    assert.equal(st.body.status.phase, 'Bound');
  });

  test('claim validation names each bad field', async () => {
    const r = await t.client.post(pvcPath, { metadata: { name: 'bad' }, spec: { accessModes: [], resources: { requests: { storage: '0' } }, storageClassName: 'Not_A_Name' } });
    assertStatus(r, 422, 'Invalid');
    assert.deepEqual(causes(r).map((c: string) => c.split(':')[0]), ['spec.accessModes', 'spec.resources[storage]', 'spec.storageClassName']);
    const rwop = await t.client.post(pvcPath, claim('rwop', { accessModes: ['ReadWriteOncePod', 'ReadWriteOnce'] }));
    assertStatus(rwop, 422, 'Invalid');
    assert.deepEqual(causes(rwop), ['spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes']);
  });

  test('a claim\'s spec is immutable but for volumeName once; a bound claim may only grow', async () => {
    const c = t.client;
    // PersistentVolumeClaimResize (on by default) lets a claim grow only when its class allows expansion.
    assert.equal((await c.post('/apis/storage.orch.io/v1/storageclasses', { metadata: { name: 'expandable' }, provisioner: 'example.com/disk', allowVolumeExpansion: true })).status, 201);
    assert.equal((await c.post(pvcPath, claim('fixed', { storageClassName: 'expandable' }))).status, 201);
    const change = await c.patch(`${pvcPath}/fixed`, { spec: { accessModes: ['ReadWriteMany'] } });
    assertStatus(change, 422, 'Invalid');
    assert.equal(change.body.details.causes[0].field, 'spec');
    assert.match(change.body.details.causes[0].message, /^Forbidden: spec is immutable after creation except resources\.requests and volumeAttributesClassName for bound claims\n/);
    // Not bound: the request cannot change either.
    assertStatus(await c.patch(`${pvcPath}/fixed`, { spec: { resources: { requests: { storage: '2Gi' } } } }), 422, 'Invalid');
    const bind = await c.patch(`${pvcPath}/fixed`, { spec: { volumeName: 'pv-fixed' } });
    assert.equal(bind.status, 200, bind.text);
    assertStatus(await c.patch(`${pvcPath}/fixed`, { spec: { volumeName: 'pv-other' } }), 422, 'Invalid');
    const got = (await c.get(`${pvcPath}/fixed`)).body;
    assert.equal((await c.put(`${pvcPath}/fixed/status`, { ...got, status: { phase: 'Bound', capacity: { storage: '1Gi' } } })).status, 200);
    // The plug-in reads the class from its cache, which may not have it yet.
    const grow = await pollUntil(() => c.patch(`${pvcPath}/fixed`, { spec: { resources: { requests: { storage: '3Gi' } } } }), (r) => r.status !== 403, 'the expandable class to be seen');
    assert.equal(grow.status, 200, grow.text);
    assert.equal(grow.body.spec.resources.requests.storage, '3Gi');
    const shrink = await c.patch(`${pvcPath}/fixed`, { spec: { resources: { requests: { storage: '2Gi' } } } });
    assertStatus(shrink, 422, 'Invalid');
    assert.deepEqual(causes(shrink), ['spec.resources.requests.storage: Forbidden: field can not be less than previous value']);
  });

  test('a new volume is Pending, Retain and Filesystem, with a phase transition time', async () => {
    const r = await t.client.post(pvPath, { ...volume('pv-a'), status: { phase: 'Bound' } });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.status.phase, 'Pending');
    assert.match(r.body.status.lastPhaseTransitionTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(r.body.spec.persistentVolumeReclaimPolicy, 'Retain');
    assert.equal(r.body.spec.volumeMode, 'Filesystem');
    assert.equal(r.body.metadata.namespace, undefined);
    // /status: the transition time stays with the phase, follows a phase change, or is what the writer set.
    const { lastPhaseTransitionTime: _t, ...withoutTime } = r.body.status;
    const same = await t.client.put(`${pvPath}/pv-a/status`, { ...r.body, status: { ...withoutTime, message: 'still pending' } });
    assert.equal(same.status, 200, same.text);
    assert.equal(same.body.status.lastPhaseTransitionTime, r.body.status.lastPhaseTransitionTime);
    const moved = await t.client.put(`${pvPath}/pv-a/status`, { ...same.body, status: { phase: 'Available' } });
    assert.match(moved.body.status.lastPhaseTransitionTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const given = await t.client.put(`${pvPath}/pv-a/status`, { ...moved.body, status: { phase: 'Released', lastPhaseTransitionTime: '2026-01-01T00:00:00Z' } });
    assert.equal(given.body.status.lastPhaseTransitionTime, '2026-01-01T00:00:00Z');
  });

  test('volume validation: exactly one volume type, capacity and access modes, per-source fields', async () => {
    const none = await t.client.post(pvPath, { metadata: { name: 'pv-none' }, spec: {} });
    assertStatus(none, 422, 'Invalid');
    assert.deepEqual(causes(none), ['spec.accessModes: Required value', 'spec.capacity: Required value', 'spec: Required value: must specify a volume type']);
    const two = await t.client.post(pvPath, volume('pv-two', { hostPath: { path: '/a' }, nfs: { server: 'nfs.example', path: '/export' } }));
    assertStatus(two, 422, 'Invalid');
    assert.deepEqual(causes(two), ['spec.nfs: Forbidden: may not specify more than 1 volume type']);
    const badSources = await t.client.post(pvPath, volume('pv-local', { local: { path: '/mnt/../etc' } }));
    assertStatus(badSources, 422, 'Invalid');
    assert.deepEqual(causes(badSources), [
      'spec.local.path: Invalid value: "/mnt/../etc": must not contain \'..\'',
      'spec.nodeAffinity: Required value: Local volume requires node affinity',
    ]);
    const missingPath = await t.client.post(pvPath, volume('pv-hp', { hostPath: { path: '' } }));
    assert.deepEqual(causes(missingPath), ['spec.hostPath.path: Required value']);
    const nfs = await t.client.post(pvPath, volume('pv-nfs', { nfs: { server: 'nfs.example', path: 'relative' } }));
    assert.deepEqual(causes(nfs), ['spec.nfs.path: Invalid value: "relative": must be an absolute path']);
    const capacity = await t.client.post(pvPath, { ...volume('pv-cap'), spec: { ...volume('x').spec, capacity: { cpu: '1' } } });
    assert.deepEqual(causes(capacity).map((c: string) => c.split(':')[0]), ['spec.capacity']);
    const csi = await t.client.post(pvPath, volume('pv-csi', { csi: { driver: 'csi.example.com', volumeHandle: 'v-1' }, volumeAttributesClassName: 'gold' }));
    assert.equal(csi.status, 201, csi.text);
    const moved = await t.client.patch(`${pvPath}/pv-csi`, { spec: { csi: { volumeHandle: 'v-2' } } });
    assertStatus(moved, 422, 'Invalid');
    assert.match(moved.body.details.causes[0].message, /spec\.persistentvolumesource is immutable after creation/);
  });

  test('claims and volumes print kubectl\'s columns', async () => {
    const c = t.client;
    assert.equal((await c.post(pvPath, volume('pv-tab', { hostPath: { path: '/t' }, accessModes: ['ReadWriteMany', 'ReadWriteOnce'], storageClassName: 'manual', claimRef: { namespace: 'default', name: 'tab' } }))).status, 201);
    const pv = await c.get(`${pvPath}/pv-tab`, { headers: tableAccept });
    assert.deepEqual(pv.body.columnDefinitions.map((d: any) => d.name),
      ['Name', 'Capacity', 'Access Modes', 'Reclaim Policy', 'Status', 'Claim', 'StorageClass', 'VolumeAttributesClass', 'Reason', 'Age', 'VolumeMode']);
    assert.deepEqual(pv.body.rows[0].cells.slice(0, 9), ['pv-tab', '5Gi', 'RWO,RWX', 'Retain', 'Pending', 'default/tab', 'manual', '<unset>', '']);
    assert.equal(pv.body.rows[0].cells[10], 'Filesystem');
    assert.equal((await c.post(pvcPath, claim('tab', { storageClassName: 'manual', volumeName: 'pv-tab' }))).status, 201);
    const got = (await c.get(`${pvcPath}/tab`)).body;
    await c.put(`${pvcPath}/tab/status`, { ...got, status: { phase: 'Bound', capacity: { storage: '5Gi' }, accessModes: ['ReadWriteOnce', 'ReadWriteMany'] } });
    const pvc = await c.get(`${pvcPath}/tab`, { headers: tableAccept });
    assert.deepEqual(pvc.body.columnDefinitions.map((d: any) => [d.name, d.priority]),
      [['Name', 0], ['Status', 0], ['Volume', 0], ['Capacity', 0], ['Access Modes', 0], ['StorageClass', 0], ['VolumeAttributesClass', 0], ['Age', 0], ['VolumeMode', 1]]);
    assert.deepEqual(pvc.body.rows[0].cells.slice(0, 7), ['tab', 'Bound', 'pv-tab', '5Gi', 'RWO,RWX', 'manual', '<unset>']);
  });

  test('events are selected by involvedObject, type, reason and source fields, in lists and watches', async () => {
    const c = t.client;
    for (const [name, involved, type] of [['e1', 'x', 'Warning'], ['e2', 'x', 'Normal'], ['e3', 'y', 'Warning']] as const) {
      assert.equal((await c.post(evPath, coreEvent(name, involved, type))).status, 201);
    }
    const names = async (selector: string) => {
      const r = await c.get(`${evPath}?fieldSelector=${encodeURIComponent(selector)}`);
      assert.equal(r.status, 200, r.text);
      return r.body.items.map((i: any) => i.metadata.name).sort();
    };
    assert.deepEqual(await names('involvedObject.name=x,type=Warning'), ['e1']);
    assert.deepEqual(await names('involvedObject.kind=Pod,involvedObject.name!=x'), ['e3']);
    assert.deepEqual(await names('involvedObject.uid=u-1,reason=Started,source=kubelet,involvedObject.namespace=default'), ['e1', 'e2', 'e3']);
    assert.deepEqual(await names('reportingComponent=,metadata.name=e2'), ['e2']);
    const bad = await c.get(`${evPath}?fieldSelector=spec.nope%3D1`);
    assertStatus(bad, 400, 'BadRequest');

    const w = await c.watch(`${evPath}?watch=true&fieldSelector=${encodeURIComponent('involvedObject.name=x,type=Warning')}`);
    const initial = await w.take(1, 5000);
    assert.deepEqual(initial.map((e) => [e.type, e.object.metadata.name]), [['ADDED', 'e1']]);
    await c.post(evPath, coreEvent('e4', 'x', 'Normal'));
    await c.post(evPath, coreEvent('e5', 'x', 'Warning'));
    const next = await w.next(5000);
    assert.deepEqual([next?.type, next?.object.metadata.name], ['ADDED', 'e5']);
    w.close();
    // The same selection through events.orch.io/v1, in its own field names.
    const v1 = await c.get(`${evV1Path}?fieldSelector=${encodeURIComponent('regarding.name=x,type=Warning')}`);
    assert.equal(v1.status, 200, v1.text);
    assert.deepEqual(v1.body.items.map((i: any) => i.metadata.name).sort(), ['e1', 'e5']);
  });

  test('an event written as core v1 reads back as events.orch.io/v1 and the other way round', async () => {
    const c = t.client;
    const core = await c.post(evPath, coreEvent('conv-core', 'web-0', 'Warning', {
      eventTime: '2026-01-01T00:00:00.123456Z', action: 'Pulling', reportingComponent: 'orch.io/kubelet', reportingInstance: 'node-1',
      related: { kind: 'Node', name: 'node-1' }, count: 3,
    }));
    assert.equal(core.status, 201, core.text);
    const asV1 = await c.get(`${evV1Path}/conv-core`);
    assert.equal(asV1.status, 200, asV1.text);
    assert.equal(asV1.body.apiVersion, 'events.orch.io/v1');
    assert.equal(asV1.body.kind, 'Event');
    assert.deepEqual(asV1.body.metadata, core.body.metadata);
    assert.deepEqual(asV1.body.regarding, core.body.involvedObject);
    assert.equal(asV1.body.note, 'about web-0');
    assert.equal(asV1.body.reportingController, 'orch.io/kubelet');
    assert.deepEqual(asV1.body.deprecatedSource, { component: 'kubelet', host: 'node-1' });
    assert.equal(asV1.body.deprecatedFirstTimestamp, '2026-01-01T00:00:00Z');
    assert.equal(asV1.body.deprecatedCount, 3);
    assert.equal(asV1.body.eventTime, '2026-01-01T00:00:00.123456Z');
    assert.equal(asV1.body.involvedObject, undefined);

    const v1 = await c.post(evV1Path, {
      metadata: { name: 'conv-v1' }, eventTime: '2026-01-02T00:00:00.000001Z', reportingController: 'orch.io/scheduler', reportingInstance: 'sched-1',
      action: 'Binding', reason: 'Scheduled', regarding: { kind: 'Pod', namespace: 'default', name: 'web-1' }, related: { kind: 'Node', name: 'node-2' },
      note: 'assigned default/web-1 to node-2', type: 'Normal', series: { count: 2, lastObservedTime: '2026-01-02T00:01:00.000001Z' },
    });
    assert.equal(v1.status, 201, v1.text);
    assert.equal(v1.body.apiVersion, 'events.orch.io/v1');
    assert.deepEqual(v1.body.deprecatedSource, {});
    assert.equal(v1.body.deprecatedFirstTimestamp, null);
    const asCore = await c.get(`${evPath}/conv-v1`);
    assert.equal(asCore.body.apiVersion, 'v1');
    assert.deepEqual(asCore.body.involvedObject, { kind: 'Pod', namespace: 'default', name: 'web-1' });
    assert.equal(asCore.body.message, 'assigned default/web-1 to node-2');
    assert.equal(asCore.body.reportingComponent, 'orch.io/scheduler');
    assert.deepEqual(asCore.body.series, { count: 2, lastObservedTime: '2026-01-02T00:01:00.000001Z' });
    assert.equal(asCore.body.metadata.resourceVersion, v1.body.metadata.resourceVersion, 'one object, one etcd key');

    // A watch through events/v1 sees core writes converted.
    const w = await c.watch(`${evV1Path}?watch=true&resourceVersion=${asCore.body.metadata.resourceVersion}`);
    await c.patch(`${evPath}/conv-core`, { count: 4 });
    const ev = await w.next(5000);
    assert.equal(ev?.type, 'MODIFIED');
    assert.equal(ev?.object.apiVersion, 'events.orch.io/v1');
    assert.equal(ev?.object.deprecatedCount, 4);
    w.close();

    const table = await c.get(`${evV1Path}/conv-v1`, { headers: tableAccept });
    assert.deepEqual(table.body.columnDefinitions.filter((d: any) => d.priority === 0).map((d: any) => d.name), ['Last Seen', 'Type', 'Reason', 'Object', 'Message']);
    assert.deepEqual(table.body.rows[0].cells.slice(1, 4), ['Normal', 'Scheduled', 'pod/web-1']);
  });

  test('events.orch.io/v1 is discovered (short name ev) and speaks protobuf; pvc and pv are discovered', async () => {
    const c = t.client;
    const d = await c.get('/apis/events.orch.io/v1');
    assert.equal(d.status, 200, d.text);
    const res = d.body.resources.find((x: any) => x.name === 'events');
    assert.deepEqual([res.kind, res.namespaced, res.singularName, res.shortNames], ['Event', true, 'event', ['ev']]);
    assert.deepEqual([...res.verbs].sort(), ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
    const core = await c.get('/api/v1');
    const pvc = core.body.resources.find((x: any) => x.name === 'persistentvolumeclaims');
    const pv = core.body.resources.find((x: any) => x.name === 'persistentvolumes');
    assert.deepEqual([pvc.shortNames, pvc.namespaced, pv.shortNames, pv.namespaced], [['pvc'], true, ['pv'], false]);
    assert.ok(core.body.resources.some((x: any) => x.name === 'persistentvolumes/status'));
    const scheme = new Scheme(allGroupVersions);
    const info = scheme.resource('events.orch.io', 'v1', 'events')!;
    const json = await c.get(`${evV1Path}/conv-v1`);
    const raw = await c.getRaw(`${evV1Path}/conv-v1`, { Accept: 'application/vnd.orch.protobuf' });
    assert.equal(raw.status, 200);
    assert.deepEqual(new ProtobufCodec(scheme).decodeObject(info, raw.body), json.body);
  });

  test('events.orch.io/v1 validation: new-API rules with upstream\'s field names', async () => {
    const c = t.client;
    const r = await c.post(evV1Path, {
      metadata: { name: 'bad-v1' }, eventTime: '2026-01-02T00:00:00.000001Z', regarding: { kind: 'Pod', namespace: 'default', name: 'p' },
      note: 'x'.repeat(1025), type: 'Odd', deprecatedCount: 2, series: { count: 1, lastObservedTime: '2026-01-02T00:00:00.000001Z' },
    });
    assertStatus(r, 422, 'Invalid');
    assert.deepEqual(causes(r).map((x: string) => x.split(':')[0]).sort(),
      ['action', 'count', 'message', 'reason', 'reportingController', 'reportingInstance', 'series.count', 'type'].sort());
    const noTime = await c.post(evV1Path, { metadata: { name: 'no-time' }, reportingController: 'a/b', reportingInstance: 'i', action: 'A', reason: 'R', type: 'Normal' });
    assertStatus(noTime, 422, 'Invalid');
    assert.deepEqual(causes(noTime).map((x: string) => x.split(':')[0]), ['eventTime']);
    const ok = await c.post(evV1Path, { metadata: { name: 'fine' }, eventTime: '2026-01-02T00:00:00.000001Z', reportingController: 'a/b', reportingInstance: 'i', action: 'A', reason: 'R', type: 'Normal', regarding: { kind: 'Node', name: 'n' } });
    assert.equal(ok.status, 201, ok.text);
    const changed = await c.patch(`${evV1Path}/fine`, { note: 'changed' });
    assertStatus(changed, 422, 'Invalid');
    assert.deepEqual(causes(changed).map((x: string) => x.split(':')[0]), ['message']);
  });
});

describe('--event-ttl', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ eventTTLMs: parseDuration('2s') });
  });
  after(async () => t?.stop());

  test('events vanish on their own once the TTL has passed; other objects stay', async () => {
    const c = t.client;
    assert.equal((await c.post(evPath, coreEvent('short-lived', 'x', 'Normal'))).status, 201);
    assert.equal((await c.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'stays' } })).status, 201);
    assert.equal((await c.get(`${evPath}/short-lived`)).status, 200);
    await eventually(async () => (await c.get(`${evPath}/short-lived`)).status === 404, 15_000, 'the event expired');
    assert.equal((await c.get('/api/v1/namespaces/default/configmaps/stays')).status, 200);
  });
});
