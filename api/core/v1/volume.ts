// A pod's volumes and every source a volume can come from. Volume embeds VolumeSource inline at
// protobuf field 2, so the sources sit beside `name` in JSON.
import { Type, type SchemaOptions, type Static } from '@sinclair/typebox';
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

const stringList = (proto: number, options: SchemaOptions = {}) => list(proto, Type.String(), { listType: 'atomic' }, options);
const localName = (kind: string) => embedded(1, { name: opt(str(1, { description: `Name of the ${kind} in the pod's namespace.` })) });

// Descriptions shared by the many sources that have these fields.
const fsTypeText = 'Filesystem type to mount, e.g. ext4, xfs or ntfs; ext4 when empty.';
const readOnlyText = 'Mount the volume read-only. Default false.';
const modeText = 'Permission bits of the file, 0 to 0777 (decimal 0 to 511); the volume\'s defaultMode when unset.';
const defaultModeText = 'Permission bits of the files created, 0 to 0777 (decimal 0 to 511). Default 0644.';
const itemsText = (kind: string) =>
  `Keys to write and the paths to write them to. When empty, every key of the ${kind} becomes a file named after ` +
  'it; a listed key that is missing is an error unless optional is set.';
const deprecated = (what: string) => `${what} Deprecated; no longer supported.`;
const deprecatedForCSI = (what: string) => `${what} Deprecated: handled by the matching CSI driver.`;

export const KeyToPath = object(`${P}.KeyToPath`, {
  key: str(1, { description: 'Key to write.' }),
  path: str(2, { description: 'Relative path of the file the key is written to; must not contain or start with ...' }),
  mode: opt(int32(3, { 'x-orch-emit': 'pointer', description: modeText })),
}, { required: ['key', 'path'], description: 'Writes one key of a ConfigMap or Secret to a file of the volume.' });
export type KeyToPath = Static<typeof KeyToPath>;

export const HostPathTypes = ['', 'DirectoryOrCreate', 'Directory', 'FileOrCreate', 'File', 'Socket', 'CharDevice', 'BlockDevice'] as const;

export const HostPathVolumeSource = object(`${P}.HostPathVolumeSource`, {
  path: str(1, { description: 'Path on the node; a symbolic link is followed.' }),
  type: opt(enumOf(2, HostPathTypes, {
    default: '',
    'x-orch-emit': 'pointer',
    description: 'What must exist at the path: empty (no check, the default), DirectoryOrCreate, Directory, ' +
      'FileOrCreate, File, Socket, CharDevice or BlockDevice.',
  })),
}, { required: ['path'], description: 'A file or directory of the node. Meant for system agents: it exposes the node to the pod.' });

export const EmptyDirVolumeSource = object(`${P}.EmptyDirVolumeSource`, {
  medium: opt(str(1, { description: 'Where the directory lives: empty for the node\'s default storage, Memory for a tmpfs.' })),
  sizeLimit: opt(quantity(2, {
    'x-orch-emit': 'pointer',
    description: 'Most space the directory may use (memory, for the Memory medium). Unset means no limit of its own.',
  })),
}, { description: 'A directory that starts empty when the pod is placed on a node and is removed with the pod.' });

export const GCEPersistentDiskVolumeSource = object(`${P}.GCEPersistentDiskVolumeSource`, {
  pdName: str(1, { description: 'Name of the persistent disk in Google Compute Engine.' }),
  fsType: opt(str(2, { description: fsTypeText })),
  partition: opt(int32(3, { description: 'Partition to mount; 0 or unset mounts the whole disk.' })),
  readOnly: opt(bool(4, { description: readOnlyText })),
}, { required: ['pdName'], description: deprecatedForCSI('A Google Compute Engine persistent disk.') });

export const AWSElasticBlockStoreVolumeSource = object(`${P}.AWSElasticBlockStoreVolumeSource`, {
  volumeID: str(1, { description: 'ID of the Elastic Block Store volume.' }),
  fsType: opt(str(2, { description: fsTypeText })),
  partition: opt(int32(3, { description: 'Partition to mount; 0 or unset mounts the whole volume.' })),
  readOnly: opt(bool(4, { description: readOnlyText })),
}, { required: ['volumeID'], description: deprecatedForCSI('An AWS Elastic Block Store volume.') });

export const GitRepoVolumeSource = object(`${P}.GitRepoVolumeSource`, {
  repository: str(1, { description: 'URL of the repository.' }),
  revision: opt(str(2, { description: 'Commit to check out.' })),
  directory: opt(str(3, {
    description: 'Directory to clone into, without .. components. . clones into the volume root; otherwise a ' +
      'subdirectory of that name is used.',
  })),
}, {
  required: ['repository'],
  description: 'A directory holding a clone of a git repository. Deprecated: clone in an init container into an emptyDir instead.',
});

export const SecretVolumeSource = object(`${P}.SecretVolumeSource`, {
  secretName: opt(str(1, { description: 'Name of the Secret in the pod\'s namespace.' })),
  items: opt(list(2, KeyToPath, { listType: 'atomic' }, { description: itemsText('Secret') })),
  defaultMode: opt(int32(3, { default: DefaultVolumeFileMode, 'x-orch-emit': 'pointer', description: defaultModeText })),
  optional: opt(bool(4, {
    'x-orch-emit': 'pointer',
    description: 'Whether the pod may start when the Secret or a listed key is missing. Default false.',
  })),
}, { description: 'The keys of a Secret, written as files.' });

export const NFSVolumeSource = object(`${P}.NFSVolumeSource`, {
  server: str(1, { description: 'Host name or IP address of the NFS server.' }),
  path: str(2, { description: 'Path the server exports.' }),
  readOnly: opt(bool(3, { description: 'Mount the export read-only. Default false.' })),
}, { required: ['server', 'path'], description: 'An NFS export.' });

export const ISCSIVolumeSource = object(`${P}.ISCSIVolumeSource`, {
  targetPortal: str(1, { description: 'Target portal: an IP address, with :port unless the port is 3260.' }),
  iqn: str(2, { description: 'iSCSI qualified name of the target.' }),
  lun: int32(3, { description: 'Logical unit number of the target.' }),
  iscsiInterface: opt(str(4, { default: 'default', description: 'iSCSI interface using the iSCSI transport. Default "default" (TCP).' })),
  fsType: opt(str(5, { description: fsTypeText })),
  readOnly: opt(bool(6, { description: readOnlyText })),
  portals: opt(stringList(7, { description: 'More target portals for multipath, each an IP address with :port unless it is 3260.' })),
  chapAuthDiscovery: opt(bool(8, { description: 'Use CHAP authentication for discovery.' })),
  chapAuthSession: opt(bool(11, { description: 'Use CHAP authentication for the session.' })),
  secretRef: opt(field(10, LocalObjectReference, { description: 'Secret holding the CHAP credentials.' })),
  initiatorName: opt(str(12, {
    'x-orch-emit': 'pointer',
    description: 'Initiator name to use. When set, a new interface named <target portal>:<volume name> is created for the connection.',
  })),
}, { required: ['targetPortal', 'iqn', 'lun'], description: 'An iSCSI disk attached to the node.' });

export const GlusterfsVolumeSource = object(`${P}.GlusterfsVolumeSource`, {
  endpoints: str(1, { description: 'Name of the Endpoints object listing the Glusterfs servers.' }),
  path: str(2, { description: 'Name of the Glusterfs volume.' }),
  readOnly: opt(bool(3, { description: readOnlyText })),
}, { required: ['endpoints', 'path'], description: deprecated('A Glusterfs volume.') });

export const PersistentVolumeClaimVolumeSource = object(`${P}.PersistentVolumeClaimVolumeSource`, {
  claimName: str(1, { description: 'Name of the PersistentVolumeClaim in the pod\'s namespace.' }),
  readOnly: opt(bool(2, { description: 'Force the volume to be mounted read-only. Default false.' })),
}, { required: ['claimName'], description: 'The volume bound to a PersistentVolumeClaim.' });

export const RBDVolumeSource = object(`${P}.RBDVolumeSource`, {
  monitors: stringList(1, { description: 'Addresses of the Ceph monitors.' }),
  image: str(2, { description: 'Name of the RADOS image.' }),
  fsType: opt(str(3, { description: fsTypeText })),
  pool: opt(str(4, { default: 'rbd', description: 'RADOS pool. Default rbd.' })),
  user: opt(str(5, { default: 'admin', description: 'RADOS user. Default admin.' })),
  keyring: opt(str(6, { default: '/etc/ceph/keyring', description: 'Keyring file of the user. Default /etc/ceph/keyring.' })),
  secretRef: opt(field(7, LocalObjectReference, { description: 'Secret holding the user\'s key; takes precedence over keyring.' })),
  readOnly: opt(bool(8, { description: readOnlyText })),
}, { required: ['monitors', 'image'], description: deprecated('A Ceph RADOS block device.') });

export const FlexVolumeSource = object(`${P}.FlexVolumeSource`, {
  driver: str(1, { description: 'Name of the FlexVolume driver.' }),
  fsType: opt(str(2, { description: 'Filesystem type to mount; the default depends on the driver.' })),
  secretRef: opt(field(3, LocalObjectReference, { description: 'Secret whose data is passed to the driver; may be absent.' })),
  readOnly: opt(bool(4, { description: readOnlyText })),
  options: opt(stringMap(5, { description: 'Extra options passed to the driver.' })),
}, { required: ['driver'], description: 'A volume handled by a FlexVolume driver program on the node. Deprecated in favour of CSI.' });

export const CinderVolumeSource = object(`${P}.CinderVolumeSource`, {
  volumeID: str(1, { description: 'ID of the Cinder volume.' }),
  fsType: opt(str(2, { description: fsTypeText })),
  readOnly: opt(bool(3, { description: readOnlyText })),
  secretRef: opt(field(4, LocalObjectReference, { description: 'Secret with the parameters for connecting to OpenStack.' })),
}, { required: ['volumeID'], description: deprecatedForCSI('An OpenStack Cinder volume.') });

export const CephFSVolumeSource = object(`${P}.CephFSVolumeSource`, {
  monitors: stringList(1, { description: 'Addresses of the Ceph monitors.' }),
  path: opt(str(2, { description: 'Path inside the filesystem to mount. Default /.' })),
  user: opt(str(3, { description: 'RADOS user. Default admin.' })),
  secretFile: opt(str(4, { description: 'Keyring file of the user. Default /etc/ceph/user.secret.' })),
  secretRef: opt(field(5, LocalObjectReference, { description: 'Secret holding the user\'s key; takes precedence over secretFile.' })),
  readOnly: opt(bool(6, { description: readOnlyText })),
}, { required: ['monitors'], description: deprecated('A CephFS filesystem.') });

export const FlockerVolumeSource = object(`${P}.FlockerVolumeSource`, {
  datasetName: opt(str(1, { description: 'Name of the dataset. Set either this or datasetUUID.' })),
  datasetUUID: opt(str(2, { description: 'UUID of the dataset. Set either this or datasetName.' })),
}, { description: deprecated('A dataset of the Flocker control service.') });

export const DownwardAPIVolumeFile = object(`${P}.DownwardAPIVolumeFile`, {
  path: str(1, { description: 'Relative path of the file; must not contain or start with ...' }),
  fieldRef: opt(field(2, ObjectFieldSelector, {
    description: 'Pod field to write: metadata.name, metadata.namespace, metadata.uid, metadata.labels or metadata.annotations.',
  })),
  resourceFieldRef: opt(field(3, ResourceFieldSelector, {
    description: 'Container limit or request to write: cpu, memory or ephemeral-storage.',
  })),
  mode: opt(int32(4, { 'x-orch-emit': 'pointer', description: modeText })),
}, { required: ['path'], description: 'A file holding a field of the pod or a resource value of a container.' });

export const DownwardAPIVolumeSource = object(`${P}.DownwardAPIVolumeSource`, {
  items: opt(list(1, DownwardAPIVolumeFile, { listType: 'atomic' }, { description: 'The files to write.' })),
  defaultMode: opt(int32(2, { default: DefaultVolumeFileMode, 'x-orch-emit': 'pointer', description: defaultModeText })),
}, { description: 'Files holding information about the pod (downward API).' });

export const FCVolumeSource = object(`${P}.FCVolumeSource`, {
  targetWWNs: opt(stringList(1, { description: 'World wide names of the targets; used with lun, or use wwids instead.' })),
  lun: opt(int32(2, { 'x-orch-emit': 'pointer', description: 'Logical unit number of the target.' })),
  fsType: opt(str(3, { description: fsTypeText })),
  readOnly: opt(bool(4, { description: readOnlyText })),
  wwids: opt(stringList(5, { description: 'World wide identifiers of the volume; use either these or targetWWNs with lun.' })),
}, { description: 'A Fibre Channel disk attached to the node.' });

export const AzureFileVolumeSource = object(`${P}.AzureFileVolumeSource`, {
  secretName: str(1, { description: 'Secret holding the name and key of the Azure storage account.' }),
  shareName: str(2, { description: 'Name of the file share.' }),
  readOnly: opt(bool(3, { description: readOnlyText })),
}, { required: ['secretName', 'shareName'], description: deprecatedForCSI('An Azure File share.') });

export const ConfigMapVolumeSource = object(`${P}.ConfigMapVolumeSource`, {
  ...localName('ConfigMap'),
  items: opt(list(2, KeyToPath, { listType: 'atomic' }, { description: itemsText('ConfigMap') })),
  defaultMode: opt(int32(3, { default: DefaultVolumeFileMode, 'x-orch-emit': 'pointer', description: defaultModeText })),
  optional: opt(bool(4, {
    'x-orch-emit': 'pointer',
    description: 'Whether the pod may start when the ConfigMap or a listed key is missing. Default false.',
  })),
}, { description: 'The keys of a ConfigMap, written as files.' });

export const VsphereVirtualDiskVolumeSource = object(`${P}.VsphereVirtualDiskVolumeSource`, {
  volumePath: str(1, { description: 'Path of the virtual disk in its datastore.' }),
  fsType: opt(str(2, { description: fsTypeText })),
  storagePolicyName: opt(str(3, { description: 'Name of the storage policy (SPBM profile).' })),
  storagePolicyID: opt(str(4, { description: 'ID of the storage policy named by storagePolicyName.' })),
}, { required: ['volumePath'], description: deprecatedForCSI('A vSphere virtual disk.') });

export const QuobyteVolumeSource = object(`${P}.QuobyteVolumeSource`, {
  registry: str(1, { description: 'Quobyte registry services as host:port, several separated by commas.' }),
  volume: str(2, { description: 'Name of an existing Quobyte volume.' }),
  readOnly: opt(bool(3, { description: readOnlyText })),
  user: opt(str(4, { description: 'User that volume access is mapped to. Default serviceaccount.' })),
  group: opt(str(5, { description: 'Group that volume access is mapped to. Default none.' })),
  tenant: opt(str(6, { description: 'Tenant that owns the volume, for dynamically provisioned volumes.' })),
}, { required: ['registry', 'volume'], description: deprecated('A Quobyte volume.') });

export const AzureDiskVolumeSource = object(`${P}.AzureDiskVolumeSource`, {
  diskName: str(1, { description: 'Name of the data disk.' }),
  diskURI: str(2, { description: 'URI of the data disk.' }),
  cachingMode: opt(enumOf(3, ['None', 'ReadOnly', 'ReadWrite'] as const, {
    default: 'ReadWrite',
    'x-orch-emit': 'pointer',
    description: 'Host caching: None, ReadOnly or ReadWrite (the default).',
  })),
  fsType: opt(str(4, { default: 'ext4', 'x-orch-emit': 'pointer', description: 'Filesystem type to mount. Default ext4.' })),
  readOnly: opt(bool(5, { default: false, 'x-orch-emit': 'pointer', description: readOnlyText })),
  kind: opt(enumOf(6, ['Shared', 'Dedicated', 'Managed'] as const, {
    default: 'Shared',
    'x-orch-emit': 'pointer',
    description: 'Shared (several disks per storage account, the default), Dedicated (one disk per storage account) ' +
      'or Managed (an Azure managed disk).',
  })),
}, { required: ['diskName', 'diskURI'], description: deprecatedForCSI('An Azure data disk.') });

export const PhotonPersistentDiskVolumeSource = object(`${P}.PhotonPersistentDiskVolumeSource`, {
  pdID: str(1, { description: 'ID of the persistent disk.' }),
  fsType: opt(str(2, { description: fsTypeText })),
}, { required: ['pdID'], description: deprecated('A Photon Controller persistent disk.') });

export const SecretProjection = object(`${P}.SecretProjection`, {
  ...localName('Secret'),
  items: opt(list(2, KeyToPath, { listType: 'atomic' }, { description: itemsText('Secret') })),
  optional: opt(bool(4, {
    'x-orch-emit': 'pointer',
    description: 'Whether the pod may start when the Secret or a listed key is missing. Default false.',
  })),
}, { description: 'The keys of a Secret, as part of a projected volume.' });

export const ConfigMapProjection = object(`${P}.ConfigMapProjection`, {
  ...localName('ConfigMap'),
  items: opt(list(2, KeyToPath, { listType: 'atomic' }, { description: itemsText('ConfigMap') })),
  optional: opt(bool(4, {
    'x-orch-emit': 'pointer',
    description: 'Whether the pod may start when the ConfigMap or a listed key is missing. Default false.',
  })),
}, { description: 'The keys of a ConfigMap, as part of a projected volume.' });

export const DownwardAPIProjection = object(`${P}.DownwardAPIProjection`, {
  items: opt(list(1, DownwardAPIVolumeFile, { listType: 'atomic' }, { description: 'The files to write.' })),
}, { description: 'Information about the pod, as part of a projected volume.' });

export const ServiceAccountTokenProjection = object(`${P}.ServiceAccountTokenProjection`, {
  audience: opt(str(1, {
    description: 'Audience the token is meant for; a recipient must reject a token not meant for it. Default: the ' +
      'API server\'s own audience.',
  })),
  expirationSeconds: opt(int64(2, {
    default: 3600,
    'x-orch-emit': 'pointer',
    description: 'Requested lifetime of the token in seconds, at least 600. Default 3600. The token is replaced ' +
      'before it expires.',
  })),
  path: str(3, { description: 'Path of the token file, relative to the mount point.' }),
}, { required: ['path'], description: 'A token of the pod\'s service account, written to a file and kept fresh.' });

export const ClusterTrustBundleProjection = object(`${P}.ClusterTrustBundleProjection`, {
  name: opt(str(1, {
    'x-orch-emit': 'pointer',
    description: 'Name of a single ClusterTrustBundle to write. Not allowed with signerName or labelSelector.',
  })),
  signerName: opt(str(2, {
    'x-orch-emit': 'pointer',
    description: 'Write every ClusterTrustBundle of this signer that labelSelector matches, merged and deduplicated.',
  })),
  labelSelector: opt(field(3, LabelSelector, {
    description: 'Selects the bundles of signerName; unset matches none, an empty selector matches all.',
  })),
  optional: opt(bool(5, {
    'x-orch-emit': 'pointer',
    description: 'Whether the pod may start when the named bundle is missing or no bundle matches.',
  })),
  path: str(4, { description: 'Path of the file, relative to the volume root.' }),
}, { required: ['path'], description: 'The certificates of ClusterTrustBundle objects, written to one file of a projected volume.' });

export const PodCertificateProjection = object(`${P}.PodCertificateProjection`, {
  // signerName and keyType are required, but upstream tags them omitempty.
  signerName: str(1, { 'x-orch-emit': 'omitempty', description: 'Signer the certificate is requested from.' }),
  keyType: str(2, {
    'x-orch-emit': 'omitempty',
    description: 'Key pair to generate: RSA3072, RSA4096, ECDSAP256, ECDSAP384, ECDSAP521 or ED25519.',
  }),
  maxExpirationSeconds: opt(int32(3, {
    'x-orch-emit': 'pointer',
    description: 'Longest lifetime of the certificate, from 3600 to 7862400 seconds; 86400 when unset. The signer ' +
      'may issue a shorter one.',
  })),
  credentialBundlePath: opt(str(4, {
    description: 'Path to write the private key followed by the certificate chain to, as PEM blocks in one file.',
  })),
  keyPath: opt(str(5, { description: 'Path to write the private key to; used with certificateChainPath.' })),
  certificateChainPath: opt(str(6, { description: 'Path to write the certificate chain to; used with keyPath.' })),
  userAnnotations: opt(stringMap(7, {
    description: 'Extra information for the signer, copied into the certificate request; keys must have a domain prefix.',
  })),
}, {
  required: ['signerName', 'keyType'],
  description: 'A private key generated on the node and a certificate for it issued to the pod, as part of a projected volume.',
});

export const VolumeProjection = object(`${P}.VolumeProjection`, {
  secret: opt(field(1, SecretProjection, { description: 'Keys of a Secret.' })),
  downwardAPI: opt(field(2, DownwardAPIProjection, { description: 'Information about the pod.' })),
  configMap: opt(field(3, ConfigMapProjection, { description: 'Keys of a ConfigMap.' })),
  serviceAccountToken: opt(field(4, ServiceAccountTokenProjection, { description: 'A service account token.' })),
  clusterTrustBundle: opt(field(5, ClusterTrustBundleProjection, { description: 'Certificates of ClusterTrustBundles.' })),
  podCertificate: opt(field(6, PodCertificateProjection, { description: 'A key and a certificate issued to the pod.' })),
}, { description: 'One source of a projected volume; set exactly one member.' });
export type VolumeProjection = Static<typeof VolumeProjection>;

export const ProjectedVolumeSource = object(`${P}.ProjectedVolumeSource`, {
  // Upstream's list has no omitempty, but we never write a missing list as null.
  sources: opt(list(1, VolumeProjection, { listType: 'atomic' }, {
    'x-orch-emit': 'always',
    description: 'The sources written into the volume.',
  })),
  defaultMode: opt(int32(2, { default: DefaultVolumeFileMode, 'x-orch-emit': 'pointer', description: defaultModeText })),
}, { description: 'Several sources (Secrets, ConfigMaps, pod information, tokens, ...) written into one directory.' });

export const PortworxVolumeSource = object(`${P}.PortworxVolumeSource`, {
  volumeID: str(1, { description: 'ID of the Portworx volume.' }),
  fsType: opt(str(2, { description: fsTypeText })),
  readOnly: opt(bool(3, { description: readOnlyText })),
}, { required: ['volumeID'], description: deprecatedForCSI('A Portworx volume.') });

export const ScaleIOVolumeSource = object(`${P}.ScaleIOVolumeSource`, {
  gateway: str(1, { description: 'Address of the ScaleIO API gateway.' }),
  system: str(2, { description: 'Name of the ScaleIO storage system.' }),
  secretRef: field(3, LocalObjectReference, { description: 'Secret holding the ScaleIO user\'s credentials.' }),
  sslEnabled: opt(bool(4, { description: 'Talk to the gateway over SSL. Default false.' })),
  protectionDomain: opt(str(5, { description: 'Protection domain of the storage.' })),
  storagePool: opt(str(6, { description: 'Storage pool of the protection domain.' })),
  storageMode: opt(str(7, { default: 'ThinProvisioned', description: 'ThickProvisioned or ThinProvisioned (the default).' })),
  volumeName: opt(str(8, { description: 'Name of a volume already created in the storage system.' })),
  fsType: opt(str(9, { default: 'xfs', description: 'Filesystem type to mount. Default xfs.' })),
  readOnly: opt(bool(10, { description: readOnlyText })),
}, { required: ['gateway', 'system', 'secretRef'], description: deprecated('A ScaleIO volume.') });

export const StorageOSVolumeSource = object(`${P}.StorageOSVolumeSource`, {
  volumeName: opt(str(1, { description: 'Name of the StorageOS volume, unique within its namespace.' })),
  volumeNamespace: opt(str(2, {
    description: 'StorageOS namespace of the volume; the pod\'s namespace when unset. Use default when StorageOS ' +
      'namespaces are not used.',
  })),
  fsType: opt(str(3, { description: fsTypeText })),
  readOnly: opt(bool(4, { description: readOnlyText })),
  secretRef: opt(field(5, LocalObjectReference, { description: 'Secret holding the StorageOS API credentials.' })),
}, { description: deprecated('A StorageOS volume.') });

export const CSIVolumeSource = object(`${P}.CSIVolumeSource`, {
  driver: str(1, { description: 'Name of the CSI driver, as registered on the node.' }),
  readOnly: opt(bool(2, { 'x-orch-emit': 'pointer', description: readOnlyText })),
  fsType: opt(str(3, { 'x-orch-emit': 'pointer', description: 'Filesystem type to mount, e.g. ext4; the driver chooses when unset.' })),
  volumeAttributes: opt(stringMap(4, { description: 'Driver-specific settings passed to the driver.' })),
  nodePublishSecretRef: opt(field(5, LocalObjectReference, {
    description: 'Secret with sensitive data passed to the driver when the volume is published and unpublished on ' +
      'the node; may be absent.',
  })),
}, { required: ['driver'], description: 'An ephemeral volume provided inline by a CSI driver.' });

export const EphemeralVolumeSource = object(`${P}.EphemeralVolumeSource`, {
  volumeClaimTemplate: opt(field(1, PersistentVolumeClaimTemplate, {
    description: 'Template of the claim made for the pod, named <pod name>-<volume name> and owned by the pod. ' +
      'Required; cannot be changed.',
  })),
}, { description: 'A volume from a PersistentVolumeClaim created for the pod and deleted with it.' });

export const ImageVolumeSource = object(`${P}.ImageVolumeSource`, {
  reference: opt(str(1, {
    description: 'Image or artifact to mount, written like a container image. May be left empty in templates so ' +
      'that configuration management can fill it in.',
  })),
  pullPolicy: opt(enumOf(2, PullPolicies, {
    description: 'When to pull: Always, Never or IfNotPresent. Defaults to Always for a :latest or untagged ' +
      'reference, otherwise IfNotPresent.',
  })),
}, { description: 'The content of an OCI image or artifact, mounted read-only.' });

/** The members of VolumeSource, of which a volume sets exactly one. */
const volumeSource = {
  hostPath: opt(field(1, HostPathVolumeSource, { description: 'A file or directory of the node.' })),
  emptyDir: opt(field(2, EmptyDirVolumeSource, { description: 'A directory that lives as long as the pod.' })),
  gcePersistentDisk: opt(field(3, GCEPersistentDiskVolumeSource, { description: 'A GCE persistent disk. Deprecated.' })),
  awsElasticBlockStore: opt(field(4, AWSElasticBlockStoreVolumeSource, { description: 'An AWS EBS volume. Deprecated.' })),
  gitRepo: opt(field(5, GitRepoVolumeSource, { description: 'A clone of a git repository. Deprecated.' })),
  secret: opt(field(6, SecretVolumeSource, { description: 'The keys of a Secret as files.' })),
  nfs: opt(field(7, NFSVolumeSource, { description: 'An NFS export mounted into the pod.' })),
  iscsi: opt(field(8, ISCSIVolumeSource, { description: 'An iSCSI disk.' })),
  glusterfs: opt(field(9, GlusterfsVolumeSource, { description: 'A Glusterfs volume. Deprecated.' })),
  persistentVolumeClaim: opt(field(10, PersistentVolumeClaimVolumeSource, {
    description: 'The volume bound to a PersistentVolumeClaim in the pod\'s namespace.',
  })),
  rbd: opt(field(11, RBDVolumeSource, { description: 'A Ceph RADOS block device. Deprecated.' })),
  flexVolume: opt(field(12, FlexVolumeSource, { description: 'A volume of a FlexVolume driver. Deprecated.' })),
  cinder: opt(field(13, CinderVolumeSource, { description: 'An OpenStack Cinder volume. Deprecated.' })),
  cephfs: opt(field(14, CephFSVolumeSource, { description: 'A CephFS filesystem. Deprecated.' })),
  flocker: opt(field(15, FlockerVolumeSource, { description: 'A Flocker dataset. Deprecated.' })),
  downwardAPI: opt(field(16, DownwardAPIVolumeSource, { description: 'Information about the pod as files.' })),
  fc: opt(field(17, FCVolumeSource, { description: 'A Fibre Channel disk.' })),
  azureFile: opt(field(18, AzureFileVolumeSource, { description: 'An Azure File share. Deprecated.' })),
  configMap: opt(field(19, ConfigMapVolumeSource, { description: 'The keys of a ConfigMap as files.' })),
  vsphereVolume: opt(field(20, VsphereVirtualDiskVolumeSource, { description: 'A vSphere virtual disk. Deprecated.' })),
  quobyte: opt(field(21, QuobyteVolumeSource, { description: 'A Quobyte volume. Deprecated.' })),
  azureDisk: opt(field(22, AzureDiskVolumeSource, { description: 'An Azure data disk. Deprecated.' })),
  photonPersistentDisk: opt(field(23, PhotonPersistentDiskVolumeSource, { description: 'A Photon Controller disk. Deprecated.' })),
  projected: opt(field(26, ProjectedVolumeSource, { description: 'Several sources combined into one directory.' })),
  portworxVolume: opt(field(24, PortworxVolumeSource, { description: 'A Portworx volume. Deprecated.' })),
  scaleIO: opt(field(25, ScaleIOVolumeSource, { description: 'A ScaleIO volume. Deprecated.' })),
  storageos: opt(field(27, StorageOSVolumeSource, { description: 'A StorageOS volume. Deprecated.' })),
  csi: opt(field(28, CSIVolumeSource, { description: 'An ephemeral volume of a CSI driver.' })),
  ephemeral: opt(field(29, EphemeralVolumeSource, {
    description: 'A volume from a claim created for the pod and deleted with it.',
  })),
  image: opt(field(30, ImageVolumeSource, { description: 'The content of an OCI image or artifact, read-only.' })),
};

export type VolumeSourceName = keyof typeof volumeSource;
/** The names of every volume source member. */
export const VolumeSourceNames = Object.keys(volumeSource) as VolumeSourceName[];

export const Volume = object(`${P}.Volume`, {
  name: str(1, { description: 'Name of the volume, a DNS label unique within the pod; mounts refer to it.' }),
  ...embedded(2, volumeSource),
}, {
  required: ['name'],
  description: 'A named volume of a pod that its containers can mount. Set exactly one source; a volume without ' +
    'one is an emptyDir.',
});
export type Volume = Static<typeof Volume>;
