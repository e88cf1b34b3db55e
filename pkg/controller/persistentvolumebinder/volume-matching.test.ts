import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deleteDecision } from './deleter.js';
import { accessModesKey, findBestMatchForClaim, volumeUnsatisfied, type ClaimObject, type VolumeObject } from './volume-matching.js';

const beta = 'volume.beta.orch.io/storage-class';
const claim = (spec: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): ClaimObject =>
  ({ metadata: { name: 'data', namespace: 'ns', uid: 'c-1', ...meta }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '2Gi' } }, storageClassName: '', ...spec } });
const pv = (name: string, spec: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): VolumeObject =>
  ({ metadata: { name, ...extra }, spec: { capacity: { storage: '5Gi' }, accessModes: ['ReadWriteOnce'], storageClassName: '', ...spec }, status: { phase: 'Available' } });
const best = (c: ClaimObject, vs: VolumeObject[], delay = false) => findBestMatchForClaim(c, vs, delay, beta)?.metadata.name;

test('the smallest Available volume that is large enough, of the claim\'s class, mode and selector', () => {
  const vs = [pv('big', { capacity: { storage: '10Gi' } }), pv('fit', { capacity: { storage: '3Gi' } }), pv('small', { capacity: { storage: '1Gi' } }),
    pv('gold', { capacity: { storage: '2Gi' }, storageClassName: 'gold' })];
  assert.equal(best(claim(), vs), 'fit');
  assert.equal(best(claim({ storageClassName: 'gold' }), vs), 'gold');
  assert.equal(best(claim({}, { annotations: { [beta]: 'gold' } }), vs), 'gold', 'the beta annotation names the class first');
  assert.equal(best(claim({ resources: { requests: { storage: '20Gi' } } }), vs), undefined);
  assert.equal(best(claim({ volumeMode: 'Block' }), vs), undefined);
  assert.equal(best(claim({ selector: { matchLabels: { tier: 'x' } } }), [...vs, pv('labelled', { capacity: { storage: '9Gi' } }, { labels: { tier: 'x' } })]), 'labelled');
  assert.equal(best(claim(), [{ ...pv('released'), status: { phase: 'Released' } }, { ...pv('going'), metadata: { name: 'going', deletionTimestamp: '2026-01-01T00:00:00Z' } }]), undefined);
});

test('volumes are searched by access-mode sets from the fewest modes up', () => {
  const vs = [pv('many', { accessModes: ['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany'], capacity: { storage: '2Gi' } }), pv('once', { capacity: { storage: '8Gi' } })];
  assert.equal(best(claim(), vs), 'once', 'an exact match of modes beats a smaller volume offering more');
  assert.equal(best(claim({ accessModes: ['ReadWriteMany'] }), vs), 'many');
  assert.equal(best(claim({ accessModes: ['ReadWriteOncePod'] }), vs), undefined);
  assert.equal(accessModesKey(['ReadWriteMany', 'ReadWriteOnce', 'ReadOnlyMany']), 'RWO,ROX,RWX');
});

test('a volume pre-bound to the claim wins whatever its class or phase; with delayed binding only such a volume is taken', () => {
  const reserved = { ...pv('reserved', { claimRef: { namespace: 'ns', name: 'data' }, storageClassName: 'other' }), status: { phase: 'Pending' } };
  const others = [pv('fit', { capacity: { storage: '3Gi' } }), pv('taken', { claimRef: { namespace: 'ns', name: 'else' } })];
  assert.equal(best(claim(), [...others, reserved]), 'reserved');
  assert.equal(best(claim(), others, true), undefined);
  assert.equal(best(claim(), [...others, reserved], true), 'reserved');
  assert.equal(best(claim({}, { uid: 'c-2' }), [pv('old', { claimRef: { namespace: 'ns', name: 'data', uid: 'c-1' } })]), undefined, 'bound to an earlier claim of that name');
});

test('a volume named by the claim: upstream\'s reasons for refusing it', () => {
  assert.equal(volumeUnsatisfied(pv('v', { capacity: { storage: '1Gi' } }), claim(), beta), 'requested PV is too small');
  assert.equal(volumeUnsatisfied(pv('v', { storageClassName: 'x' }), claim(), beta), 'storageClassName does not match');
  assert.equal(volumeUnsatisfied(pv('v', { volumeMode: 'Block' }), claim(), beta), 'incompatible volumeMode');
  assert.equal(volumeUnsatisfied(pv('v', { accessModes: ['ReadOnlyMany'] }), claim(), beta), 'incompatible accessMode');
  assert.equal(volumeUnsatisfied(pv('v', {}, { deletionTimestamp: '2026-01-01T00:00:00Z' }), claim(), beta), 'the volume is marked for deletion "v"');
  assert.equal(volumeUnsatisfied(pv('v'), claim(), beta), undefined);
});

test('deleting a released volume: external provisioners are left alone, hostPath only under /tmp/, other sources have no deleter', () => {
  const by = 'pv.orch.io/provisioned-by';
  const decide = (v: VolumeObject) => deleteDecision(v, by, 'orch.io/');
  assert.deepEqual(decide(pv('e', {}, { annotations: { [by]: 'csi.example.com' } })), { kind: 'external' });
  assert.deepEqual(decide(pv('i', {}, { annotations: { [by]: 'orch.io/gce-pd' } })), { kind: 'failed', message: 'no volume plugin matched name: orch.io/gce-pd' });
  assert.deepEqual(decide(pv('h', { hostPath: { path: '/tmp/x' } })), { kind: 'delete' });
  assert.deepEqual(decide(pv('h', { hostPath: { path: '/data' } })), { kind: 'failed', message: 'host_path deleter only supports /tmp/.+ but received provided /data' });
  assert.deepEqual(decide(pv('n', { nfs: { server: 's', path: '/' } })), { kind: 'failed', message: 'error getting deleter volume plugin for volume "n": no deletable volume plugin matched' });
  assert.deepEqual(decide(pv('c', { csi: { driver: 'd', volumeHandle: 'h' } })), { kind: 'failed', message: 'error getting deleter volume plugin for volume "c": no volume plugin matched' });
});
