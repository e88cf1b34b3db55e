// Compute resources a container asks for (ResourceRequirements) and storage a claim asks for
// (VolumeResourceRequirements). Quantities are keyed by resource name (cpu, memory, storage, ...).
import type { Static } from '@sinclair/typebox';
import { list, object, opt, str } from '../../schema.js';
import { resourceList } from '../../meta/v1/primitives.js';

const P = 'io.orch.api.core.v1';

/** One entry of pod.spec.resourceClaims made available to a container. */
export const ResourceClaim = object(`${P}.ResourceClaim`, {
  name: str(1),
  request: opt(str(2)),
}, { required: ['name'] });
export type ResourceClaim = Static<typeof ResourceClaim>;

export const ResourceRequirements = object(`${P}.ResourceRequirements`, {
  limits: opt(resourceList(1)),
  requests: opt(resourceList(2)),
  claims: opt(list(3, ResourceClaim, { listType: 'map', mapKeys: ['name'] })),
});
export type ResourceRequirements = Static<typeof ResourceRequirements>;

export const VolumeResourceRequirements = object(`${P}.VolumeResourceRequirements`, {
  limits: opt(resourceList(1)),
  requests: opt(resourceList(2)),
});
export type VolumeResourceRequirements = Static<typeof VolumeResourceRequirements>;
