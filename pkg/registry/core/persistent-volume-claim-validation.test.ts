import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { PersistentVolumeClaim } from '../../../api/core/v1/persistent-volume-claim.js';
import { errorMessage, Path } from '../../runtime/field-errors.js';
import { pruneUnknownFields } from '../../runtime/prune.js';
import { SchemaValidator } from '../../runtime/schema-validator.js';
import { validatePersistentVolumeClaimTemplate } from './persistent-volume-claim-validation.js';

const schemas = new SchemaValidator();
const claimPath = Path.root('spec').child('volumeClaimTemplates').index(0);

function decode(yamlText: string): PersistentVolumeClaim {
  const pvc: unknown = parse(yamlText);
  assert.deepEqual(pruneUnknownFields(PersistentVolumeClaim, pvc), [], 'no unknown fields');
  const { decodeErrors, fieldErrors } = schemas.check(PersistentVolumeClaim, pvc);
  assert.deepEqual(decodeErrors, []);
  assert.deepEqual(fieldErrors.map(errorMessage), []);
  return pvc as PersistentVolumeClaim;
}

const validate = (pvc: PersistentVolumeClaim) => validatePersistentVolumeClaimTemplate(pvc, claimPath).map(errorMessage);

const typical = `
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
  labels: { app.kubernetes.io/name: postgres }
  annotations: { volume.beta.kubernetes.io/storage-provisioner: ebs.csi.aws.com }
spec:
  accessModes: [ReadWriteOnce]
  storageClassName: gp3
  resources:
    requests: { storage: 20Gi }
    limits: { storage: 50Gi }
  selector:
    matchLabels: { tier: fast }
  dataSource: { kind: PersistentVolumeClaim, name: data-seed }
  dataSourceRef: { kind: PersistentVolumeClaim, name: data-seed }
  volumeAttributesClassName: gold
`;

/** A minimal valid claim template to break one rule at a time. */
function minimal(): PersistentVolumeClaim {
  return decode(`
metadata: { name: data }
spec:
  accessModes: [ReadWriteOnce]
  resources: { requests: { storage: 1Gi } }
`);
}

function expectErrors(mutate: (pvc: PersistentVolumeClaim) => void, expected: string[]) {
  const pvc = minimal();
  mutate(pvc);
  assert.deepEqual(validate(pvc), expected);
}

test('a typical StatefulSet claim template decodes without unknown fields and validates', () => {
  assert.deepEqual(validate(decode(typical)), []);
});

test('decoding defaults the volume mode and the pending status, as upstream shows in templates', () => {
  const pvc = minimal();
  assert.equal(pvc.spec!.volumeMode, 'Filesystem');
  assert.deepEqual(pvc.status, { phase: 'Pending' });
  const bare = decode('metadata: { name: data }');
  assert.deepEqual(bare.spec, { resources: {}, volumeMode: 'Filesystem' });
});

test('the name is required and must be a DNS subdomain', () => {
  expectErrors((pvc) => { delete pvc.metadata!.name; }, ['spec.volumeClaimTemplates[0].metadata.name: Required value']);
  expectErrors((pvc) => { pvc.metadata!.name = 'Data_1'; }, [
    `spec.volumeClaimTemplates[0].metadata.name: Invalid value: "Data_1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
  ]);
});

test('access modes: at least one, supported, ReadWriteOncePod alone', () => {
  expectErrors((pvc) => { pvc.spec!.accessModes = []; },
    ['spec.volumeClaimTemplates[0].spec.accessModes: Required value: at least 1 access mode is required']);
  expectErrors((pvc) => { pvc.spec!.accessModes = ['ReadWriteSometimes' as 'ReadWriteOnce']; }, [
    'spec.volumeClaimTemplates[0].spec.accessModes: Unsupported value: "ReadWriteSometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"',
  ]);
  expectErrors((pvc) => { pvc.spec!.accessModes = ['ReadWriteOncePod', 'ReadOnlyMany']; },
    ['spec.volumeClaimTemplates[0].spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes']);
});

test('a positive storage request is required', () => {
  expectErrors((pvc) => { pvc.spec!.resources = { limits: { storage: '1Gi' } }; },
    ['spec.volumeClaimTemplates[0].spec.resources[storage]: Required value']);
  expectErrors((pvc) => { pvc.spec!.resources = { requests: { storage: '0' } }; },
    ['spec.volumeClaimTemplates[0].spec.resources[storage]: Invalid value: "0": must be greater than zero']);
  expectErrors((pvc) => { pvc.spec!.resources = { requests: { storage: '-1Gi' } }; },
    ['spec.volumeClaimTemplates[0].spec.resources[storage]: Invalid value: "-1Gi": must be greater than zero']);
});

test('volume mode and storage class', () => {
  expectErrors((pvc) => {
    pvc.spec!.volumeMode = 'Raw' as 'Block';
    pvc.spec!.storageClassName = 'Fast SSD';
  }, [
    `spec.volumeClaimTemplates[0].spec.storageClassName: Invalid value: "Fast SSD": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    'spec.volumeClaimTemplates[0].spec.volumeMode: Unsupported value: "Raw": supported values: "Block", "Filesystem"',
  ]);
});

test('data sources: core kinds must be claims, dataSource must match dataSourceRef', () => {
  expectErrors((pvc) => { pvc.spec!.dataSource = { kind: 'VolumeSnapshot', name: 'snap' }; }, [
    `spec.volumeClaimTemplates[0].spec.dataSource: Invalid value: "VolumeSnapshot": must be 'PersistentVolumeClaim' when referencing the default apiGroup`,
  ]);
  expectErrors((pvc) => { pvc.spec!.dataSource = { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 'snap' }; }, []);
  expectErrors((pvc) => {
    pvc.spec!.dataSource = { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 'snap' };
    pvc.spec!.dataSourceRef = { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 'other' };
  }, ['spec.volumeClaimTemplates[0].spec: Invalid value: "spec.volumeClaimTemplates[0].spec.dataSource": must match dataSourceRef']);
  expectErrors((pvc) => {
    pvc.spec!.dataSource = { kind: 'PersistentVolumeClaim', name: 'src' };
    pvc.spec!.dataSourceRef = { kind: 'PersistentVolumeClaim', name: 'src', namespace: 'other' };
  }, ['spec.volumeClaimTemplates[0].spec: Invalid value: "spec.volumeClaimTemplates[0].spec.dataSource": may not be specified when dataSourceRef.namespace is specified']);
  expectErrors((pvc) => { pvc.spec!.dataSourceRef = { apiGroup: 'Bad Group', kind: 'Populator', name: '' }; }, [
    'spec.volumeClaimTemplates[0].spec.dataSourceRef.name: Required value',
    `spec.volumeClaimTemplates[0].spec.dataSourceRef.apiGroup: Invalid value: "Bad Group": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
  ]);
});

test('labels and annotations of the template are validated', () => {
  expectErrors((pvc) => {
    pvc.metadata!.labels = { app: 'not valid!' };
    pvc.metadata!.annotations = { '/bad': 'x' };
  }, [
    `spec.volumeClaimTemplates[0].metadata.labels[app]: Invalid value: "not valid!": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
    'spec.volumeClaimTemplates[0].metadata.annotations: Invalid value: "/bad": prefix part must be non-empty',
  ]);
});
