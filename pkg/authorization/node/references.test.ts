import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultApiDomain } from '../../../api/domain.js';
import type { PersistentVolume } from '../../../api/core/v1/persistent-volume.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { persistentVolumeReferences, podReferences } from './references.js';

const container = (name: string, extra: object = {}) => ({ name, image: 'busybox', ...extra });

test('a pod refers to what its containers (every kind), volumes, pull secrets and account name', () => {
  const pod = {
    metadata: { name: 'web', namespace: 'ns' },
    spec: {
      nodeName: 'n1',
      serviceAccountName: 'runner',
      imagePullSecrets: [{ name: 'pull' }],
      initContainers: [container('init', { envFrom: [{ secretRef: { name: 'init-env' } }] })],
      containers: [container('app', {
        env: [{ name: 'A', valueFrom: { secretKeyRef: { name: 'env-secret', key: 'k' } } }, { name: 'B', valueFrom: { configMapKeyRef: { name: 'env-cm', key: 'k' } } }],
        envFrom: [{ configMapRef: { name: 'envfrom-cm' } }],
      })],
      ephemeralContainers: [container('debug', { envFrom: [{ secretRef: { name: 'debug-env' } }] })],
      volumes: [
        { name: 'sec', secret: { secretName: 'vol-secret' } },
        { name: 'cm', configMap: { name: 'vol-cm' } },
        { name: 'proj', projected: { sources: [{ secret: { name: 'proj-secret' } }, { configMap: { name: 'proj-cm' } }, { serviceAccountToken: { path: 't' } }] } },
        { name: 'csi', csi: { driver: 'd', nodePublishSecretRef: { name: 'csi-secret' } } },
        { name: 'data', persistentVolumeClaim: { claimName: 'data-claim' } },
        { name: 'scratch', ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'] } } } },
      ],
    },
  } as unknown as Pod;
  const r = podReferences(pod, defaultApiDomain);
  assert.equal(r.nodeName, 'n1');
  assert.equal(r.serviceAccount, 'runner');
  assert.deepEqual([...r.secrets].sort(), ['csi-secret', 'debug-env', 'env-secret', 'init-env', 'proj-secret', 'pull', 'vol-secret']);
  assert.deepEqual([...r.configMaps].sort(), ['env-cm', 'envfrom-cm', 'proj-cm', 'vol-cm']);
  assert.deepEqual(r.claims, ['data-claim', 'web-scratch'], 'an ephemeral volume\'s claim is named <pod>-<volume>');
});

test('a mirror pod refers to nothing: a node must not grant itself access by making one', () => {
  const pod = {
    metadata: { name: 'static', namespace: 'ns', annotations: { [defaultApiDomain.key('config.mirror')]: 'hash' } },
    spec: { nodeName: 'n1', serviceAccountName: 'sa', containers: [container('c', { envFrom: [{ secretRef: { name: 's' } }] })] },
  } as unknown as Pod;
  assert.deepEqual(podReferences(pod, defaultApiDomain), { namespace: 'ns', name: 'static', nodeName: 'n1', serviceAccount: '', secrets: [], configMaps: [], claims: [] });
});

test('a bound PV refers to its claim and to the secrets the kubelet uses, in upstream\'s namespaces', () => {
  const pv = (spec: object) => ({ metadata: { name: 'pv1' }, spec: { claimRef: { namespace: 'claims', name: 'c' }, ...spec } }) as unknown as PersistentVolume;
  assert.equal(persistentVolumeReferences({ metadata: { name: 'free' }, spec: {} } as PersistentVolume), undefined, 'bound to no claim');
  assert.deepEqual(persistentVolumeReferences(pv({ nfs: { server: 's', path: '/' } })), { claim: { namespace: 'claims', name: 'c' }, secrets: [] });
  const secretsOf = (spec: object) => persistentVolumeReferences(pv(spec))!.secrets;
  // A reference naming no namespace means the claim's (older PVs), where upstream reads it so.
  assert.deepEqual(secretsOf({ rbd: { monitors: ['m'], image: 'i', secretRef: { name: 'r' } } }), [{ namespace: 'claims', name: 'r' }]);
  assert.deepEqual(secretsOf({ cephfs: { monitors: ['m'], secretRef: { name: 'r', namespace: 'x' } } }), [{ namespace: 'x', name: 'r' }]);
  assert.deepEqual(secretsOf({ azureFile: { secretName: 'az', shareName: 's' } }), [{ namespace: 'claims', name: 'az' }]);
  assert.deepEqual(secretsOf({ azureFile: { secretName: 'az', shareName: 's', secretNamespace: 'y' } }), [{ namespace: 'y', name: 'az' }]);
  assert.deepEqual(secretsOf({ cinder: { volumeID: 'v', secretRef: { name: 'ci' } } }), [{ namespace: '', name: 'ci' }], 'cinder takes the reference as it is');
  // CSI: the node's secrets, never the controller's.
  assert.deepEqual(secretsOf({ csi: {
    driver: 'd', volumeHandle: 'h',
    controllerPublishSecretRef: { name: 'cp', namespace: 'z' }, controllerExpandSecretRef: { name: 'ce', namespace: 'z' },
    nodePublishSecretRef: { name: 'np', namespace: 'z' }, nodeStageSecretRef: { name: 'ns', namespace: 'z' }, nodeExpandSecretRef: { name: 'ne', namespace: 'z' },
  } }), [{ namespace: 'z', name: 'np' }, { namespace: 'z', name: 'ns' }, { namespace: 'z', name: 'ne' }]);
  assert.deepEqual(secretsOf({ iscsi: { targetPortal: 't', iqn: 'q', lun: 0, secretRef: { name: '' } } }), [], 'an empty name is no reference');
});
