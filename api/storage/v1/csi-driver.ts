import { Type, type Static } from '@sinclair/typebox';
import { bool, enumOf, field, int64, list, object, opt, str } from '../../schema.js';
import { topLevel } from '../../meta/v1/types.js';

const P = 'io.orch.api.storage.v1';

export const FSGroupPolicies = ['ReadWriteOnceWithFSType', 'File', 'None'] as const;
export const VolumeLifecycleModes = ['Persistent', 'Ephemeral'] as const;

export const TokenRequest = object(`${P}.TokenRequest`, {
  audience: str(1, { description: 'Audience of the token; empty means the audience of the API server.' }),
  expirationSeconds: opt(int64(2, {
    'x-orch-emit': 'pointer',
    description: 'How long the token is valid, in seconds; at least 600. Defaults to what the server gives a token request.',
  })),
}, { required: ['audience'], description: 'A service account token the driver receives when it mounts a volume.' });
export type TokenRequest = Static<typeof TokenRequest>;

export const CSIDriverSpec = object(`${P}.CSIDriverSpec`, {
  attachRequired: opt(bool(1, {
    default: true,
    'x-orch-emit': 'pointer',
    description: 'Whether volumes of the driver need an attach operation (and so wait for a VolumeAttachment) before mounting. Defaults to true; cannot be changed.',
  })),
  podInfoOnMount: opt(bool(2, {
    default: false,
    'x-orch-emit': 'pointer',
    description: 'Whether the driver receives the name, namespace, UID and service account of the pod on mount. Defaults to false; cannot be changed.',
  })),
  volumeLifecycleModes: opt(list(3, Type.Unsafe<(typeof VolumeLifecycleModes)[number]>(
    Type.String({ enum: [...VolumeLifecycleModes] }),
  ), { listType: 'set' }, {
    description: 'Kinds of volumes the driver supports: Persistent (through claims) and Ephemeral (inline in a pod). Defaults to Persistent; cannot be changed.',
  })),
  storageCapacity: opt(bool(4, {
    default: false,
    'x-orch-emit': 'pointer',
    description: 'Whether the scheduler considers the storage capacity the driver reports. Defaults to false.',
  })),
  fsGroupPolicy: opt(enumOf(5, FSGroupPolicies, {
    default: 'ReadWriteOnceWithFSType',
    'x-orch-emit': 'pointer',
    description: 'Whether the ownership and permissions of volumes may be changed to the fsGroup of the pod: ReadWriteOnceWithFSType (the default), File or None. Cannot be changed.',
  })),
  tokenRequests: opt(list(6, TokenRequest, { listType: 'atomic' }, {
    description: 'Service account tokens, one per audience, passed to the driver when it mounts a volume.',
  })),
  requiresRepublish: opt(bool(7, {
    default: false,
    'x-orch-emit': 'pointer',
    description: 'Whether the driver is asked periodically to mount volumes again, so it can refresh what it mounted (such as tokens). Defaults to false.',
  })),
  seLinuxMount: opt(bool(8, {
    default: false,
    'x-orch-emit': 'pointer',
    description: 'Whether the driver supports mounting volumes with an SELinux context option. Defaults to false.',
  })),
}, { description: 'What a CSI driver supports and how volumes of it are attached and mounted.' });
export type CSIDriverSpec = Static<typeof CSIDriverSpec>;

export const CSIDriver = topLevel(`${P}.CSIDriver`, {
  spec: field(2, CSIDriverSpec, { description: 'What the driver supports.' }),
}, { required: ['spec'], description: 'Describes a Container Storage Interface volume driver installed in the cluster; its name is the name of the driver.' });
export type CSIDriver = Static<typeof CSIDriver>;

/** Upstream SetDefaults_CSIDriver: an empty volumeLifecycleModes means Persistent. */
export function defaultCSIDriver(d: CSIDriver): void {
  if (d.spec && (d.spec.volumeLifecycleModes ?? []).length === 0) d.spec.volumeLifecycleModes = ['Persistent'];
}
