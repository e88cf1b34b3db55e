import { Type, type Static } from '@sinclair/typebox';
import { bool, enumOf, field, int64, list, object, opt, str } from '../../schema.js';
import { topLevel } from '../../meta/v1/types.js';

const P = 'io.orch.api.storage.v1';

export const FSGroupPolicies = ['ReadWriteOnceWithFSType', 'File', 'None'] as const;
export const VolumeLifecycleModes = ['Persistent', 'Ephemeral'] as const;

export const TokenRequest = object(`${P}.TokenRequest`, {
  audience: str(1),
  expirationSeconds: opt(int64(2)),
}, { required: ['audience'] });
export type TokenRequest = Static<typeof TokenRequest>;

export const CSIDriverSpec = object(`${P}.CSIDriverSpec`, {
  attachRequired: opt(bool(1, { default: true })),
  podInfoOnMount: opt(bool(2, { default: false })),
  volumeLifecycleModes: opt(list(3, Type.Unsafe<(typeof VolumeLifecycleModes)[number]>(
    Type.String({ enum: [...VolumeLifecycleModes] }),
  ), { listType: 'set' })),
  storageCapacity: opt(bool(4, { default: false })),
  fsGroupPolicy: opt(enumOf(5, FSGroupPolicies, { default: 'ReadWriteOnceWithFSType' })),
  tokenRequests: opt(list(6, TokenRequest, { listType: 'atomic' })),
  requiresRepublish: opt(bool(7, { default: false })),
  seLinuxMount: opt(bool(8, { default: false })),
});
export type CSIDriverSpec = Static<typeof CSIDriverSpec>;

export const CSIDriver = topLevel(`${P}.CSIDriver`, {
  spec: field(2, CSIDriverSpec),
}, { required: ['spec'] });
export type CSIDriver = Static<typeof CSIDriver>;

/** Upstream SetDefaults_CSIDriver: an empty volumeLifecycleModes means Persistent. */
export function defaultCSIDriver(d: CSIDriver): void {
  if (d.spec && (d.spec.volumeLifecycleModes ?? []).length === 0) d.spec.volumeLifecycleModes = ['Persistent'];
}
