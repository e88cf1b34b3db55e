// Compute resources a container asks for (ResourceRequirements) and storage a claim asks for
// (VolumeResourceRequirements). Quantities are keyed by resource name (cpu, memory, storage, ...).
import type { Static } from '@sinclair/typebox';
import { list, object, opt, str } from '../../schema.js';
import { resourceList } from '../../meta/v1/primitives.js';

const P = 'io.orch.api.core.v1';

/** One entry of pod.spec.resourceClaims made available to a container. */
export const ResourceClaim = object(`${P}.ResourceClaim`, {
  name: str(1, { description: 'Name of an entry of the pod\'s spec.resourceClaims whose resources the container may use.' }),
  request: opt(str(2, {
    description: 'Name of one request of that claim; only its result is made available. Empty means the whole claim.',
  })),
}, { required: ['name'], description: 'A resource claim of the pod that a container uses.' });
export type ResourceClaim = Static<typeof ResourceClaim>;

export const ResourceRequirements = object(`${P}.ResourceRequirements`, {
  limits: opt(resourceList(1, { description: 'Most of each resource (cpu, memory, ...) the container may use, by resource name.' })),
  requests: opt(resourceList(2, {
    description: 'Amount of each resource the container needs, used for scheduling. A request left out equals its limit ' +
      'when one is set, otherwise an implementation default; a request may not exceed its limit.',
  })),
  claims: opt(list(3, ResourceClaim, { listType: 'map', mapKeys: ['name'] }, {
    description: 'Entries of the pod\'s spec.resourceClaims this container uses (dynamic resource allocation). Immutable.',
  })),
}, { description: 'Compute resources a container (or the pod as a whole) asks for and may not exceed.' });
export type ResourceRequirements = Static<typeof ResourceRequirements>;

export const VolumeResourceRequirements = object(`${P}.VolumeResourceRequirements`, {
  limits: opt(resourceList(1, { description: 'Most storage the volume may be given, by resource name.' })),
  requests: opt(resourceList(2, {
    description: 'Least storage the volume must provide (the storage key). Raising it later asks to expand the volume ' +
      'where its class allows.',
  })),
}, { description: 'Storage a claim asks for and may be limited to.' });
export type VolumeResourceRequirements = Static<typeof VolumeResourceRequirements>;
