import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PersistentVolume } from '../../../api/core/v1/persistent-volume.js';
import { PersistentVolumeClaim } from '../../../api/core/v1/persistent-volume-claim.js';
import { createErrors, summary, updateErrors, type KindUnderTest } from '../testing/kind-check.js';
import { persistentVolumeClaimValidation } from './persistent-volume-claim-validation.js';
import { persistentVolumeValidation } from './persistent-volume-validation.js';

const pvKind: KindUnderTest<PersistentVolume> = { schema: PersistentVolume, validation: persistentVolumeValidation };
const pv = (spec: Record<string, unknown>) => ({
  apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv-1' },
  spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], ...spec },
});
const affinity = { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'node', operator: 'In', values: ['n1'] }] }] } };

test('a volume needs exactly one volume type', () => {
  assert.deepEqual(createErrors(pvKind, pv({ hostPath: { path: '/data' } })), []);
  const none = createErrors(pvKind, pv({}));
  assert.deepEqual(summary(none), ['FieldValueRequired spec']);
  assert.equal(none[0]!.detail, 'must specify a volume type');
  const two = createErrors(pvKind, pv({ hostPath: { path: '/a' }, csi: { driver: 'csi.example.com', volumeHandle: 'h' }, nfs: { server: 's', path: '/e' } }));
  assert.deepEqual(summary(two), ['FieldValueForbidden spec.nfs', 'FieldValueForbidden spec.csi']);
  assert.equal(two[0]!.detail, 'may not specify more than 1 volume type');
});

test('capacity (storage only, positive) and access modes are required', () => {
  assert.deepEqual(summary(createErrors(pvKind, { metadata: { name: 'x' }, spec: { hostPath: { path: '/d' } } })),
    ['FieldValueRequired spec.accessModes', 'FieldValueRequired spec.capacity']);
  assert.deepEqual(summary(createErrors(pvKind, pv({ hostPath: { path: '/d' }, capacity: { storage: '1Gi', cpu: '1' } }))), ['FieldValueNotSupported spec.capacity']);
  assert.deepEqual(summary(createErrors(pvKind, pv({ hostPath: { path: '/d' }, capacity: { storage: '0' } }))), ['FieldValueInvalid spec.capacity[storage]']);
  assert.deepEqual(summary(createErrors(pvKind, pv({ hostPath: { path: '/d' }, accessModes: ['ReadWriteOncePod', 'ReadOnlyMany'] }))), ['FieldValueForbidden spec.accessModes']);
});

test('per-source rules: hostPath and local paths, local node affinity, CSI handle, NFS absolute path', () => {
  assert.deepEqual(summary(createErrors(pvKind, pv({ hostPath: { path: '' } }))), ['FieldValueRequired spec.hostPath.path']);
  assert.deepEqual(summary(createErrors(pvKind, pv({ local: { path: '/mnt/disk' } }))), ['FieldValueRequired spec.nodeAffinity']);
  assert.deepEqual(createErrors(pvKind, pv({ local: { path: '/mnt/disk' }, nodeAffinity: affinity })), []);
  assert.deepEqual(summary(createErrors(pvKind, pv({ csi: { driver: 'csi.example.com', volumeHandle: '' } }))), ['FieldValueRequired spec.csi.volumeHandle']);
  assert.deepEqual(summary(createErrors(pvKind, pv({ nfs: { server: 's', path: 'e' } }))), ['FieldValueInvalid spec.nfs.path']);
  assert.deepEqual(summary(createErrors(pvKind, pv({ hostPath: { path: '/' }, persistentVolumeReclaimPolicy: 'Recycle' }))), ['FieldValueForbidden spec.persistentVolumeReclaimPolicy']);
  assert.deepEqual(summary(createErrors(pvKind, pv({ hostPath: { path: '/d' }, volumeAttributesClassName: 'gold' }))), ['FieldValueRequired spec.csi']);
});

test('the volume source and mode are fixed once the volume exists', () => {
  const old = pv({ hostPath: { path: '/a' } });
  assert.deepEqual(updateErrors(pvKind, pv({ hostPath: { path: '/a' }, mountOptions: ['ro'] }), old), []);
  const moved = updateErrors(pvKind, pv({ hostPath: { path: '/b' } }), old);
  assert.deepEqual(summary(moved), ['FieldValueForbidden spec.persistentvolumesource']);
  assert.match(moved[0]!.detail, /^spec\.persistentvolumesource is immutable after creation\n/);
  assert.deepEqual(summary(updateErrors(pvKind, pv({ hostPath: { path: '/a' }, volumeMode: 'Block' }), old)), ['FieldValueInvalid volumeMode']);
});

const pvcKind: KindUnderTest<PersistentVolumeClaim> = { schema: PersistentVolumeClaim, validation: persistentVolumeClaimValidation('volume.beta.orch.io/storage-class') };
const pvc = (spec: Record<string, unknown> = {}, phase?: string) => ({
  apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data', namespace: 'default' },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
  ...(phase ? { status: { phase } } : {}),
});

test('a claim\'s spec is fixed but for volumeName (once), and for a bound claim a larger request and its class', () => {
  assert.deepEqual(updateErrors(pvcKind, pvc({ volumeName: 'pv-1' }), pvc()), []);
  assert.deepEqual(summary(updateErrors(pvcKind, pvc({ volumeName: 'pv-2' }), pvc({ volumeName: 'pv-1' }))), ['FieldValueForbidden spec']);
  const pending = updateErrors(pvcKind, pvc({ resources: { requests: { storage: '2Gi' } } }), pvc());
  assert.deepEqual(summary(pending), ['FieldValueForbidden spec']);
  assert.match(pending[0]!.detail, /^spec is immutable after creation except resources\.requests and volumeAttributesClassName for bound claims\n/);
  assert.deepEqual(updateErrors(pvcKind, pvc({ resources: { requests: { storage: '2Gi' } } }, 'Bound'), pvc({}, 'Bound')), []);
  assert.deepEqual(updateErrors(pvcKind, pvc({ resources: { requests: { storage: '1024Mi' } } }, 'Bound'), pvc({}, 'Bound')), [], 'the same size spelled otherwise');
  assert.deepEqual(summary(updateErrors(pvcKind, pvc({ resources: { requests: { storage: '512Mi' } } }, 'Bound'), pvc({}, 'Bound'))),
    ['FieldValueForbidden spec.resources.requests.storage']);
  assert.deepEqual(updateErrors(pvcKind, pvc({ volumeAttributesClassName: 'gold' }, 'Bound'), pvc({}, 'Bound')), []);
  assert.deepEqual(summary(updateErrors(pvcKind, pvc({ volumeAttributesClassName: 'gold' }), pvc())), ['FieldValueForbidden spec']);
  assert.deepEqual(updateErrors(pvcKind, pvc({ storageClassName: 'fast' }), pvc()), [], 'a class may be set once on a claim without one');
});
