// A pod's volumes and every source a volume can come from. Volume embeds VolumeSource inline at
// protobuf field 2, so the sources sit beside `name` in JSON.
import { Type, type Static } from '@sinclair/typebox';
import { bool, enumOf, field, int32, int64, list, object, opt, str, stringMap } from '../../schema.js';
import { quantity } from '../../meta/v1/primitives.js';
import { LabelSelector } from '../../meta/v1/types.js';
import { embedded } from '../../embedded-fields.js';
import { LocalObjectReference } from './object-reference.js';
import { ObjectFieldSelector, ResourceFieldSelector } from './env.js';
import { PersistentVolumeClaimTemplate } from './persistent-volume-claim.js';
import { PullPolicies } from './container.js';

const P = 'io.orch.api.core.v1';

/** Mode bits 0644, the default of secret, configMap, downwardAPI and projected volumes. */
export const DefaultVolumeFileMode = 0o644;

const stringList = (proto: number) => list(proto, Type.String(), { listType: 'atomic' });
const localName = () => embedded(1, { name: opt(str(1)) });

export const KeyToPath = object(`${P}.KeyToPath`, {
  key: str(1),
  path: str(2),
  mode: opt(int32(3)),
}, { required: ['key', 'path'] });
export type KeyToPath = Static<typeof KeyToPath>;

export const HostPathTypes = ['', 'DirectoryOrCreate', 'Directory', 'FileOrCreate', 'File', 'Socket', 'CharDevice', 'BlockDevice'] as const;

export const HostPathVolumeSource = object(`${P}.HostPathVolumeSource`, {
  path: str(1),
  type: opt(enumOf(2, HostPathTypes, { default: '' })),
}, { required: ['path'] });

export const EmptyDirVolumeSource = object(`${P}.EmptyDirVolumeSource`, {
  medium: opt(str(1)),
  sizeLimit: opt(quantity(2)),
});

export const GCEPersistentDiskVolumeSource = object(`${P}.GCEPersistentDiskVolumeSource`, {
  pdName: str(1),
  fsType: opt(str(2)),
  partition: opt(int32(3)),
  readOnly: opt(bool(4)),
}, { required: ['pdName'] });

export const AWSElasticBlockStoreVolumeSource = object(`${P}.AWSElasticBlockStoreVolumeSource`, {
  volumeID: str(1),
  fsType: opt(str(2)),
  partition: opt(int32(3)),
  readOnly: opt(bool(4)),
}, { required: ['volumeID'] });

export const GitRepoVolumeSource = object(`${P}.GitRepoVolumeSource`, {
  repository: str(1),
  revision: opt(str(2)),
  directory: opt(str(3)),
}, { required: ['repository'] });

export const SecretVolumeSource = object(`${P}.SecretVolumeSource`, {
  secretName: opt(str(1)),
  items: opt(list(2, KeyToPath, { listType: 'atomic' })),
  defaultMode: opt(int32(3, { default: DefaultVolumeFileMode })),
  optional: opt(bool(4)),
});

export const NFSVolumeSource = object(`${P}.NFSVolumeSource`, {
  server: str(1),
  path: str(2),
  readOnly: opt(bool(3)),
}, { required: ['server', 'path'] });

export const ISCSIVolumeSource = object(`${P}.ISCSIVolumeSource`, {
  targetPortal: str(1),
  iqn: str(2),
  lun: int32(3),
  iscsiInterface: opt(str(4, { default: 'default' })),
  fsType: opt(str(5)),
  readOnly: opt(bool(6)),
  portals: opt(stringList(7)),
  chapAuthDiscovery: opt(bool(8)),
  chapAuthSession: opt(bool(11)),
  secretRef: opt(field(10, LocalObjectReference)),
  initiatorName: opt(str(12)),
}, { required: ['targetPortal', 'iqn', 'lun'] });

export const GlusterfsVolumeSource = object(`${P}.GlusterfsVolumeSource`, {
  endpoints: str(1),
  path: str(2),
  readOnly: opt(bool(3)),
}, { required: ['endpoints', 'path'] });

export const PersistentVolumeClaimVolumeSource = object(`${P}.PersistentVolumeClaimVolumeSource`, {
  claimName: str(1),
  readOnly: opt(bool(2)),
}, { required: ['claimName'] });

export const RBDVolumeSource = object(`${P}.RBDVolumeSource`, {
  monitors: stringList(1),
  image: str(2),
  fsType: opt(str(3)),
  pool: opt(str(4, { default: 'rbd' })),
  user: opt(str(5, { default: 'admin' })),
  keyring: opt(str(6, { default: '/etc/ceph/keyring' })),
  secretRef: opt(field(7, LocalObjectReference)),
  readOnly: opt(bool(8)),
}, { required: ['monitors', 'image'] });

export const FlexVolumeSource = object(`${P}.FlexVolumeSource`, {
  driver: str(1),
  fsType: opt(str(2)),
  secretRef: opt(field(3, LocalObjectReference)),
  readOnly: opt(bool(4)),
  options: opt(stringMap(5)),
}, { required: ['driver'] });

export const CinderVolumeSource = object(`${P}.CinderVolumeSource`, {
  volumeID: str(1),
  fsType: opt(str(2)),
  readOnly: opt(bool(3)),
  secretRef: opt(field(4, LocalObjectReference)),
}, { required: ['volumeID'] });

export const CephFSVolumeSource = object(`${P}.CephFSVolumeSource`, {
  monitors: stringList(1),
  path: opt(str(2)),
  user: opt(str(3)),
  secretFile: opt(str(4)),
  secretRef: opt(field(5, LocalObjectReference)),
  readOnly: opt(bool(6)),
}, { required: ['monitors'] });

export const FlockerVolumeSource = object(`${P}.FlockerVolumeSource`, {
  datasetName: opt(str(1)),
  datasetUUID: opt(str(2)),
});

export const DownwardAPIVolumeFile = object(`${P}.DownwardAPIVolumeFile`, {
  path: str(1),
  fieldRef: opt(field(2, ObjectFieldSelector)),
  resourceFieldRef: opt(field(3, ResourceFieldSelector)),
  mode: opt(int32(4)),
}, { required: ['path'] });

export const DownwardAPIVolumeSource = object(`${P}.DownwardAPIVolumeSource`, {
  items: opt(list(1, DownwardAPIVolumeFile, { listType: 'atomic' })),
  defaultMode: opt(int32(2, { default: DefaultVolumeFileMode })),
});

export const FCVolumeSource = object(`${P}.FCVolumeSource`, {
  targetWWNs: opt(stringList(1)),
  lun: opt(int32(2)),
  fsType: opt(str(3)),
  readOnly: opt(bool(4)),
  wwids: opt(stringList(5)),
});

export const AzureFileVolumeSource = object(`${P}.AzureFileVolumeSource`, {
  secretName: str(1),
  shareName: str(2),
  readOnly: opt(bool(3)),
}, { required: ['secretName', 'shareName'] });

export const ConfigMapVolumeSource = object(`${P}.ConfigMapVolumeSource`, {
  ...localName(),
  items: opt(list(2, KeyToPath, { listType: 'atomic' })),
  defaultMode: opt(int32(3, { default: DefaultVolumeFileMode })),
  optional: opt(bool(4)),
});

export const VsphereVirtualDiskVolumeSource = object(`${P}.VsphereVirtualDiskVolumeSource`, {
  volumePath: str(1),
  fsType: opt(str(2)),
  storagePolicyName: opt(str(3)),
  storagePolicyID: opt(str(4)),
}, { required: ['volumePath'] });

export const QuobyteVolumeSource = object(`${P}.QuobyteVolumeSource`, {
  registry: str(1),
  volume: str(2),
  readOnly: opt(bool(3)),
  user: opt(str(4)),
  group: opt(str(5)),
  tenant: opt(str(6)),
}, { required: ['registry', 'volume'] });

export const AzureDiskVolumeSource = object(`${P}.AzureDiskVolumeSource`, {
  diskName: str(1),
  diskURI: str(2),
  cachingMode: opt(enumOf(3, ['None', 'ReadOnly', 'ReadWrite'] as const, { default: 'ReadWrite' })),
  fsType: opt(str(4, { default: 'ext4' })),
  readOnly: opt(bool(5, { default: false })),
  kind: opt(enumOf(6, ['Shared', 'Dedicated', 'Managed'] as const, { default: 'Shared' })),
}, { required: ['diskName', 'diskURI'] });

export const PhotonPersistentDiskVolumeSource = object(`${P}.PhotonPersistentDiskVolumeSource`, {
  pdID: str(1),
  fsType: opt(str(2)),
}, { required: ['pdID'] });

export const SecretProjection = object(`${P}.SecretProjection`, {
  ...localName(),
  items: opt(list(2, KeyToPath, { listType: 'atomic' })),
  optional: opt(bool(4)),
});

export const ConfigMapProjection = object(`${P}.ConfigMapProjection`, {
  ...localName(),
  items: opt(list(2, KeyToPath, { listType: 'atomic' })),
  optional: opt(bool(4)),
});

export const DownwardAPIProjection = object(`${P}.DownwardAPIProjection`, {
  items: opt(list(1, DownwardAPIVolumeFile, { listType: 'atomic' })),
});

export const ServiceAccountTokenProjection = object(`${P}.ServiceAccountTokenProjection`, {
  audience: opt(str(1)),
  expirationSeconds: opt(int64(2, { default: 3600 })),
  path: str(3),
}, { required: ['path'] });

export const ClusterTrustBundleProjection = object(`${P}.ClusterTrustBundleProjection`, {
  name: opt(str(1)),
  signerName: opt(str(2)),
  labelSelector: opt(field(3, LabelSelector)),
  optional: opt(bool(5)),
  path: str(4),
}, { required: ['path'] });

export const PodCertificateProjection = object(`${P}.PodCertificateProjection`, {
  signerName: str(1),
  keyType: str(2),
  maxExpirationSeconds: opt(int32(3)),
  credentialBundlePath: opt(str(4)),
  keyPath: opt(str(5)),
  certificateChainPath: opt(str(6)),
  userAnnotations: opt(stringMap(7)),
}, { required: ['signerName', 'keyType'] });

export const VolumeProjection = object(`${P}.VolumeProjection`, {
  secret: opt(field(1, SecretProjection)),
  downwardAPI: opt(field(2, DownwardAPIProjection)),
  configMap: opt(field(3, ConfigMapProjection)),
  serviceAccountToken: opt(field(4, ServiceAccountTokenProjection)),
  clusterTrustBundle: opt(field(5, ClusterTrustBundleProjection)),
  podCertificate: opt(field(6, PodCertificateProjection)),
});
export type VolumeProjection = Static<typeof VolumeProjection>;

export const ProjectedVolumeSource = object(`${P}.ProjectedVolumeSource`, {
  sources: opt(list(1, VolumeProjection, { listType: 'atomic' })),
  defaultMode: opt(int32(2, { default: DefaultVolumeFileMode })),
});

export const PortworxVolumeSource = object(`${P}.PortworxVolumeSource`, {
  volumeID: str(1),
  fsType: opt(str(2)),
  readOnly: opt(bool(3)),
}, { required: ['volumeID'] });

export const ScaleIOVolumeSource = object(`${P}.ScaleIOVolumeSource`, {
  gateway: str(1),
  system: str(2),
  secretRef: field(3, LocalObjectReference),
  sslEnabled: opt(bool(4)),
  protectionDomain: opt(str(5)),
  storagePool: opt(str(6)),
  storageMode: opt(str(7, { default: 'ThinProvisioned' })),
  volumeName: opt(str(8)),
  fsType: opt(str(9, { default: 'xfs' })),
  readOnly: opt(bool(10)),
}, { required: ['gateway', 'system', 'secretRef'] });

export const StorageOSVolumeSource = object(`${P}.StorageOSVolumeSource`, {
  volumeName: opt(str(1)),
  volumeNamespace: opt(str(2)),
  fsType: opt(str(3)),
  readOnly: opt(bool(4)),
  secretRef: opt(field(5, LocalObjectReference)),
});

export const CSIVolumeSource = object(`${P}.CSIVolumeSource`, {
  driver: str(1),
  readOnly: opt(bool(2)),
  fsType: opt(str(3)),
  volumeAttributes: opt(stringMap(4)),
  nodePublishSecretRef: opt(field(5, LocalObjectReference)),
}, { required: ['driver'] });

export const EphemeralVolumeSource = object(`${P}.EphemeralVolumeSource`, {
  volumeClaimTemplate: opt(field(1, PersistentVolumeClaimTemplate)),
});

export const ImageVolumeSource = object(`${P}.ImageVolumeSource`, {
  reference: opt(str(1)),
  pullPolicy: opt(enumOf(2, PullPolicies)),
});

/** The members of VolumeSource, of which a volume sets exactly one. */
const volumeSource = {
  hostPath: opt(field(1, HostPathVolumeSource)),
  emptyDir: opt(field(2, EmptyDirVolumeSource)),
  gcePersistentDisk: opt(field(3, GCEPersistentDiskVolumeSource)),
  awsElasticBlockStore: opt(field(4, AWSElasticBlockStoreVolumeSource)),
  gitRepo: opt(field(5, GitRepoVolumeSource)),
  secret: opt(field(6, SecretVolumeSource)),
  nfs: opt(field(7, NFSVolumeSource)),
  iscsi: opt(field(8, ISCSIVolumeSource)),
  glusterfs: opt(field(9, GlusterfsVolumeSource)),
  persistentVolumeClaim: opt(field(10, PersistentVolumeClaimVolumeSource)),
  rbd: opt(field(11, RBDVolumeSource)),
  flexVolume: opt(field(12, FlexVolumeSource)),
  cinder: opt(field(13, CinderVolumeSource)),
  cephfs: opt(field(14, CephFSVolumeSource)),
  flocker: opt(field(15, FlockerVolumeSource)),
  downwardAPI: opt(field(16, DownwardAPIVolumeSource)),
  fc: opt(field(17, FCVolumeSource)),
  azureFile: opt(field(18, AzureFileVolumeSource)),
  configMap: opt(field(19, ConfigMapVolumeSource)),
  vsphereVolume: opt(field(20, VsphereVirtualDiskVolumeSource)),
  quobyte: opt(field(21, QuobyteVolumeSource)),
  azureDisk: opt(field(22, AzureDiskVolumeSource)),
  photonPersistentDisk: opt(field(23, PhotonPersistentDiskVolumeSource)),
  projected: opt(field(26, ProjectedVolumeSource)),
  portworxVolume: opt(field(24, PortworxVolumeSource)),
  scaleIO: opt(field(25, ScaleIOVolumeSource)),
  storageos: opt(field(27, StorageOSVolumeSource)),
  csi: opt(field(28, CSIVolumeSource)),
  ephemeral: opt(field(29, EphemeralVolumeSource)),
  image: opt(field(30, ImageVolumeSource)),
};

export type VolumeSourceName = keyof typeof volumeSource;
/** The names of every volume source member. */
export const VolumeSourceNames = Object.keys(volumeSource) as VolumeSourceName[];

export const Volume = object(`${P}.Volume`, {
  name: str(1),
  ...embedded(2, volumeSource),
}, { required: ['name'] });
export type Volume = Static<typeof Volume>;
