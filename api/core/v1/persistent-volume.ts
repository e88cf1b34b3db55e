// PersistentVolume (cluster-scoped): a piece of storage in the cluster that claims bind to. Field
// numbers follow upstream core/v1 generated.proto; PersistentVolumeSource is embedded inline at 2.
import { Type, type SchemaOptions, type Static } from '@sinclair/typebox';
import { bool, enumOf, field, int32, list, object, opt, str, stringMap } from '../../schema.js';
import { resourceList, time } from '../../meta/v1/primitives.js';
import { topLevel } from '../../meta/v1/types.js';
import { embedded } from '../../embedded-fields.js';
import { NodeSelector } from './affinity.js';
import { ObjectReference } from './object-reference.js';
import { PersistentVolumeAccessModes, PersistentVolumeModes } from './persistent-volume-claim.js';
import {
  AWSElasticBlockStoreVolumeSource, AzureDiskVolumeSource, FCVolumeSource, FlockerVolumeSource, GCEPersistentDiskVolumeSource,
  HostPathVolumeSource, NFSVolumeSource, PhotonPersistentDiskVolumeSource, PortworxVolumeSource, QuobyteVolumeSource,
  VsphereVirtualDiskVolumeSource,
} from './volume.js';

const P = 'io.orch.api.core.v1';

export const PersistentVolumeReclaimPolicies = ['Recycle', 'Delete', 'Retain'] as const;
export const PersistentVolumePhases = ['Pending', 'Available', 'Bound', 'Released', 'Failed'] as const;

const fsTypeText = 'Filesystem type to mount, e.g. ext4, xfs or ntfs; ext4 when empty.';
const readOnlyText = 'Mount the volume read-only. Default false.';
const stringList = (proto: number, options: SchemaOptions = {}) => list(proto, Type.String(), { listType: 'atomic' }, options);

export const SecretReference = object(`${P}.SecretReference`, {
  name: opt(str(1, { description: 'Name of the Secret.' })),
  namespace: opt(str(2, { description: 'Namespace of the Secret.' })),
}, { 'x-orch-map-type': 'atomic', description: 'A Secret in any namespace, named by namespace and name.' });
export type SecretReference = Static<typeof SecretReference>;

const secretRef = (proto: number, description: string) => opt(field(proto, SecretReference, { description }));

export const GlusterfsPersistentVolumeSource = object(`${P}.GlusterfsPersistentVolumeSource`, {
  endpoints: str(1, { description: 'Name of the Endpoints object listing the Glusterfs servers.' }),
  path: str(2, { description: 'Name of the Glusterfs volume.' }),
  readOnly: opt(bool(3, { description: readOnlyText })),
  endpointsNamespace: opt(str(4, { 'x-orch-emit': 'pointer', description: 'Namespace of the Endpoints object; the claim\'s namespace when empty.' })),
}, { required: ['endpoints', 'path'], description: 'A Glusterfs volume. Deprecated; no longer supported.' });

export const RBDPersistentVolumeSource = object(`${P}.RBDPersistentVolumeSource`, {
  monitors: stringList(1, { description: 'Addresses of the Ceph monitors.' }),
  image: str(2, { description: 'Name of the RADOS image.' }),
  fsType: opt(str(3, { description: fsTypeText })),
  pool: opt(str(4, { default: 'rbd', description: 'RADOS pool. Default rbd.' })),
  user: opt(str(5, { default: 'admin', description: 'RADOS user. Default admin.' })),
  keyring: opt(str(6, { default: '/etc/ceph/keyring', description: 'Keyring file of the user. Default /etc/ceph/keyring.' })),
  secretRef: secretRef(7, 'Secret holding the user\'s key; takes precedence over keyring.'),
  readOnly: opt(bool(8, { description: readOnlyText })),
}, { required: ['monitors', 'image'], description: 'A Ceph RADOS block device. Deprecated; no longer supported.' });

export const ISCSIPersistentVolumeSource = object(`${P}.ISCSIPersistentVolumeSource`, {
  targetPortal: str(1, { description: 'Target portal: an IP address, with :port unless the port is 3260.' }),
  iqn: str(2, { description: 'iSCSI qualified name of the target.' }),
  lun: int32(3, { description: 'Logical unit number of the target.' }),
  iscsiInterface: opt(str(4, { default: 'default', description: 'iSCSI interface using the iSCSI transport. Default "default" (TCP).' })),
  fsType: opt(str(5, { description: fsTypeText })),
  readOnly: opt(bool(6, { description: readOnlyText })),
  portals: opt(stringList(7, { description: 'More target portals for multipath, each an IP address with :port unless it is 3260.' })),
  chapAuthDiscovery: opt(bool(8, { description: 'Use CHAP authentication for discovery.' })),
  chapAuthSession: opt(bool(11, { description: 'Use CHAP authentication for the session.' })),
  secretRef: secretRef(10, 'Secret holding the CHAP credentials.'),
  initiatorName: opt(str(12, {
    'x-orch-emit': 'pointer',
    description: 'Initiator name to use. When set, a new interface named <target portal>:<volume name> is created for the connection.',
  })),
}, { required: ['targetPortal', 'iqn', 'lun'], description: 'An iSCSI disk attached to the node.' });

export const CinderPersistentVolumeSource = object(`${P}.CinderPersistentVolumeSource`, {
  volumeID: str(1, { description: 'ID of the Cinder volume.' }),
  fsType: opt(str(2, { description: fsTypeText })),
  readOnly: opt(bool(3, { description: readOnlyText })),
  secretRef: secretRef(4, 'Secret with the parameters for connecting to OpenStack.'),
}, { required: ['volumeID'], description: 'An OpenStack Cinder volume. Deprecated: handled by the matching CSI driver.' });

export const CephFSPersistentVolumeSource = object(`${P}.CephFSPersistentVolumeSource`, {
  monitors: stringList(1, { description: 'Addresses of the Ceph monitors.' }),
  path: opt(str(2, { description: 'Path inside the filesystem to mount. Default /.' })),
  user: opt(str(3, { description: 'RADOS user. Default admin.' })),
  secretFile: opt(str(4, { description: 'Keyring file of the user. Default /etc/ceph/user.secret.' })),
  secretRef: secretRef(5, 'Secret holding the user\'s key; takes precedence over secretFile.'),
  readOnly: opt(bool(6, { description: readOnlyText })),
}, { required: ['monitors'], description: 'A CephFS filesystem. Deprecated; no longer supported.' });

export const FlexPersistentVolumeSource = object(`${P}.FlexPersistentVolumeSource`, {
  driver: str(1, { description: 'Name of the FlexVolume driver.' }),
  fsType: opt(str(2, { description: 'Filesystem type to mount; the default depends on the driver.' })),
  secretRef: secretRef(3, 'Secret whose data is passed to the driver; may be absent.'),
  readOnly: opt(bool(4, { description: readOnlyText })),
  options: opt(stringMap(5, { description: 'Extra options passed to the driver.' })),
}, { required: ['driver'], description: 'A volume handled by a FlexVolume driver program on the node. Deprecated in favour of CSI.' });

export const AzureFilePersistentVolumeSource = object(`${P}.AzureFilePersistentVolumeSource`, {
  secretName: str(1, { description: 'Secret holding the name and key of the Azure storage account.' }),
  shareName: str(2, { description: 'Name of the file share.' }),
  readOnly: opt(bool(3, { description: readOnlyText })),
  secretNamespace: opt(str(4, { 'x-orch-emit': 'pointer', description: 'Namespace of the Secret; the pod\'s namespace when unset.' })),
}, { required: ['secretName', 'shareName'], description: 'An Azure File share. Deprecated: handled by the matching CSI driver.' });

export const ScaleIOPersistentVolumeSource = object(`${P}.ScaleIOPersistentVolumeSource`, {
  gateway: str(1, { description: 'Address of the ScaleIO API gateway.' }),
  system: str(2, { description: 'Name of the ScaleIO storage system.' }),
  secretRef: field(3, SecretReference, { description: 'Secret holding the ScaleIO user\'s credentials.' }),
  sslEnabled: opt(bool(4, { description: 'Talk to the gateway over SSL. Default false.' })),
  protectionDomain: opt(str(5, { description: 'Protection domain of the storage.' })),
  storagePool: opt(str(6, { description: 'Storage pool of the protection domain.' })),
  storageMode: opt(str(7, { default: 'ThinProvisioned', description: 'ThickProvisioned or ThinProvisioned (the default).' })),
  volumeName: opt(str(8, { description: 'Name of a volume already created in the storage system.' })),
  fsType: opt(str(9, { default: 'xfs', description: 'Filesystem type to mount. Default xfs.' })),
  readOnly: opt(bool(10, { description: readOnlyText })),
}, { required: ['gateway', 'system', 'secretRef'], description: 'A ScaleIO volume. Deprecated; no longer supported.' });

export const LocalVolumeSource = object(`${P}.LocalVolumeSource`, {
  path: str(1, { description: 'Full path on the node of the directory or block device.' }),
  fsType: opt(str(2, {
    'x-orch-emit': 'pointer',
    description: 'Filesystem type of a block device, which is formatted when unformatted; a filesystem is chosen when unset.',
  })),
}, { required: ['path'], description: 'A disk, partition or directory mounted on one node; needs nodeAffinity.' });

export const StorageOSPersistentVolumeSource = object(`${P}.StorageOSPersistentVolumeSource`, {
  volumeName: opt(str(1, { description: 'Name of the StorageOS volume, unique within its namespace.' })),
  volumeNamespace: opt(str(2, { description: 'StorageOS namespace of the volume; the pod\'s namespace when unset.' })),
  fsType: opt(str(3, { description: fsTypeText })),
  readOnly: opt(bool(4, { description: readOnlyText })),
  secretRef: opt(field(5, ObjectReference, { description: 'Secret holding the StorageOS API credentials.' })),
}, { description: 'A StorageOS volume. Deprecated; no longer supported.' });

export const CSIPersistentVolumeSource = object(`${P}.CSIPersistentVolumeSource`, {
  driver: str(1, { description: 'Name of the CSI driver handling the volume.' }),
  volumeHandle: str(2, { description: 'Identifier of the volume, as the driver returned it when creating the volume.' }),
  readOnly: opt(bool(3, { description: 'Publish the volume read-only. Default false.' })),
  fsType: opt(str(4, { description: 'Filesystem type to mount, e.g. ext4.' })),
  volumeAttributes: opt(stringMap(5, { description: 'Driver-specific attributes of the volume, passed to the driver.' })),
  controllerPublishSecretRef: secretRef(6, 'Secret passed to the driver when publishing and unpublishing the volume on a node.'),
  nodeStageSecretRef: secretRef(7, 'Secret passed to the driver when staging the volume on a node.'),
  nodePublishSecretRef: secretRef(8, 'Secret passed to the driver when publishing the volume to a pod on a node.'),
  controllerExpandSecretRef: secretRef(9, 'Secret passed to the driver when expanding the volume.'),
  nodeExpandSecretRef: secretRef(10, 'Secret passed to the driver when expanding the volume on a node.'),
}, { required: ['driver', 'volumeHandle'], description: 'A volume managed by an external CSI driver.' });

/** The members of PersistentVolumeSource, of which a volume sets exactly one, in upstream's validation order. */
const persistentVolumeSource = {
  hostPath: opt(field(3, HostPathVolumeSource, { description: 'A directory of the node; for single-node testing only.' })),
  gcePersistentDisk: opt(field(1, GCEPersistentDiskVolumeSource, { description: 'A GCE persistent disk. Deprecated.' })),
  awsElasticBlockStore: opt(field(2, AWSElasticBlockStoreVolumeSource, { description: 'An AWS EBS volume. Deprecated.' })),
  glusterfs: opt(field(4, GlusterfsPersistentVolumeSource, { description: 'A Glusterfs volume. Deprecated.' })),
  flocker: opt(field(11, FlockerVolumeSource, { description: 'A Flocker dataset. Deprecated.' })),
  nfs: opt(field(5, NFSVolumeSource, { description: 'An export of an NFS server.' })),
  rbd: opt(field(6, RBDPersistentVolumeSource, { description: 'A Ceph RADOS block device. Deprecated.' })),
  quobyte: opt(field(15, QuobyteVolumeSource, { description: 'A Quobyte volume. Deprecated.' })),
  cephfs: opt(field(9, CephFSPersistentVolumeSource, { description: 'A CephFS filesystem. Deprecated.' })),
  iscsi: opt(field(7, ISCSIPersistentVolumeSource, { description: 'An iSCSI disk.' })),
  cinder: opt(field(8, CinderPersistentVolumeSource, { description: 'An OpenStack Cinder volume. Deprecated.' })),
  fc: opt(field(10, FCVolumeSource, { description: 'A Fibre Channel disk.' })),
  flexVolume: opt(field(12, FlexPersistentVolumeSource, { description: 'A volume of a FlexVolume driver. Deprecated.' })),
  azureFile: opt(field(13, AzureFilePersistentVolumeSource, { description: 'An Azure File share. Deprecated.' })),
  vsphereVolume: opt(field(14, VsphereVirtualDiskVolumeSource, { description: 'A vSphere virtual disk. Deprecated.' })),
  photonPersistentDisk: opt(field(17, PhotonPersistentDiskVolumeSource, { description: 'A Photon Controller disk. Deprecated.' })),
  portworxVolume: opt(field(18, PortworxVolumeSource, { description: 'A Portworx volume. Deprecated.' })),
  azureDisk: opt(field(16, AzureDiskVolumeSource, { description: 'An Azure data disk. Deprecated.' })),
  scaleIO: opt(field(19, ScaleIOPersistentVolumeSource, { description: 'A ScaleIO volume. Deprecated.' })),
  local: opt(field(20, LocalVolumeSource, { description: 'Storage attached to one node: a disk, partition or directory.' })),
  storageos: opt(field(21, StorageOSPersistentVolumeSource, { description: 'A StorageOS volume. Deprecated.' })),
  csi: opt(field(22, CSIPersistentVolumeSource, { description: 'A volume of an external CSI driver.' })),
};

export type PersistentVolumeSourceName = keyof typeof persistentVolumeSource;
/** The names of every PersistentVolumeSource member, in upstream's validation order. */
export const PersistentVolumeSourceNames = Object.keys(persistentVolumeSource) as PersistentVolumeSourceName[];

export const VolumeNodeAffinity = object(`${P}.VolumeNodeAffinity`, {
  required: opt(field(1, NodeSelector, { description: 'Nodes the volume can be reached from; the pods using it are placed there.' })),
}, { description: 'Which nodes a volume can be used from.' });

export const PersistentVolumeSpec = object(`${P}.PersistentVolumeSpec`, {
  capacity: opt(resourceList(1, { description: 'Size of the volume; only storage is supported.' })),
  ...embedded(2, persistentVolumeSource),
  accessModes: opt(list(3, Type.Unsafe<(typeof PersistentVolumeAccessModes)[number]>(
    Type.String({ enum: [...PersistentVolumeAccessModes] }),
  ), { listType: 'atomic' }, {
    description: 'How the volume can be mounted: ReadWriteOnce, ReadOnlyMany, ReadWriteMany or ReadWriteOncePod.',
  })),
  claimRef: opt(field(4, ObjectReference, {
    // Upstream's +structType=granular on the field: unlike other ObjectReferences, its fields merge apart.
    'x-orch-struct-type': 'granular',
    description: 'The claim bound to the volume; set ahead of time, it reserves the volume for that claim.',
  })),
  persistentVolumeReclaimPolicy: opt(enumOf(5, PersistentVolumeReclaimPolicies, {
    default: 'Retain',
    description: 'What happens to the volume once its claim is released: Retain (the default for volumes made by ' +
      'hand), Delete, or Recycle (deprecated).',
  })),
  storageClassName: opt(str(6, { description: 'StorageClass the volume belongs to; empty for a volume without a class.' })),
  mountOptions: opt(stringList(7, { description: 'Mount options, passed on as given; a bad option makes mounting fail.' })),
  volumeMode: opt(enumOf(8, PersistentVolumeModes, {
    default: 'Filesystem',
    'x-orch-emit': 'pointer',
    description: 'Filesystem (the default) for a formatted filesystem, or Block for a raw block device.',
  })),
  nodeAffinity: opt(field(9, VolumeNodeAffinity, { description: 'Nodes the volume can be used from; taken into account when scheduling pods.' })),
  volumeAttributesClassName: opt(str(10, {
    'x-orch-emit': 'pointer',
    description: 'VolumeAttributesClass of the volume; needs a CSI volume. An empty string is not allowed.',
  })),
}, { description: 'The storage a volume offers and how it may be used.' });
export type PersistentVolumeSpec = Static<typeof PersistentVolumeSpec>;

export const PersistentVolumeStatus = object(`${P}.PersistentVolumeStatus`, {
  phase: opt(str(1, {
    default: 'Pending',
    description: 'Pending (not available yet, the default), Available, Bound, Released (its claim is gone) or Failed.',
  })),
  message: opt(str(2, { description: 'Human-readable detail of why the volume is in this phase.' })),
  reason: opt(str(3, { description: 'Short CamelCase reason for a failure, for tools to read.' })),
  lastPhaseTransitionTime: opt(time(4, { description: 'When the volume last moved to another phase; reset on every change.' })),
}, { description: 'Observed state of a volume.' });
export type PersistentVolumeStatus = Static<typeof PersistentVolumeStatus>;

export const PersistentVolume = topLevel(`${P}.PersistentVolume`, {
  // Plain structs upstream: a decoded volume always has both.
  spec: opt(field(2, PersistentVolumeSpec, {
    default: {},
    'x-orch-emit': 'always',
    description: 'The storage the volume offers, set by an administrator or a provisioner.',
  })),
  status: opt(field(3, PersistentVolumeStatus, {
    default: {},
    'x-orch-emit': 'always',
    description: 'Observed state of the volume, set by the system.',
  })),
}, { description: 'A piece of storage in the cluster, provisioned by an administrator or by a StorageClass, that a claim binds to.' });
export type PersistentVolume = Static<typeof PersistentVolume>;

