// PersistentVolumeClaim: a request for storage, used on its own, as a StatefulSet
// volumeClaimTemplate, and inside generic ephemeral volumes (PersistentVolumeClaimTemplate).
import { Type, type Static } from '@sinclair/typebox';
import { enumOf, field, list, mapOf, object, opt, str } from '../../schema.js';
import { resourceList, time } from '../../meta/v1/primitives.js';
import { LabelSelector, ObjectMeta, topLevel } from '../../meta/v1/types.js';
import { TypedLocalObjectReference, TypedObjectReference } from './object-reference.js';
import { VolumeResourceRequirements } from './resource-requirements.js';

const P = 'io.orch.api.core.v1';

export const PersistentVolumeAccessModes = ['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOncePod'] as const;
export const PersistentVolumeModes = ['Block', 'Filesystem'] as const;
export const PersistentVolumeClaimPhases = ['Pending', 'Bound', 'Lost'] as const;

export const PersistentVolumeClaimSpec = object(`${P}.PersistentVolumeClaimSpec`, {
  accessModes: opt(list(1, Type.Unsafe<(typeof PersistentVolumeAccessModes)[number]>(
    Type.String({ enum: [...PersistentVolumeAccessModes] }),
  ), { listType: 'atomic' })),
  selector: opt(field(4, LabelSelector)),
  // Upstream's resources is a plain struct, always present (and shown as {}) once decoded.
  resources: opt(field(2, VolumeResourceRequirements, { default: {} })),
  volumeName: opt(str(3)),
  storageClassName: opt(str(5)),
  volumeMode: opt(enumOf(6, PersistentVolumeModes, { default: 'Filesystem' })),
  dataSource: opt(field(7, TypedLocalObjectReference)),
  dataSourceRef: opt(field(8, TypedObjectReference)),
  volumeAttributesClassName: opt(str(9)),
});
export type PersistentVolumeClaimSpec = Static<typeof PersistentVolumeClaimSpec>;

export const PersistentVolumeClaimCondition = object(`${P}.PersistentVolumeClaimCondition`, {
  type: str(1),
  status: str(2),
  lastProbeTime: opt(time(3)),
  lastTransitionTime: opt(time(4)),
  reason: opt(str(5)),
  message: opt(str(6)),
}, { required: ['type', 'status'] });
export type PersistentVolumeClaimCondition = Static<typeof PersistentVolumeClaimCondition>;

export const ModifyVolumeStatus = object(`${P}.ModifyVolumeStatus`, {
  targetVolumeAttributesClassName: opt(str(1)),
  status: str(2),
}, { required: ['status'] });
export type ModifyVolumeStatus = Static<typeof ModifyVolumeStatus>;

export const PersistentVolumeClaimStatus = object(`${P}.PersistentVolumeClaimStatus`, {
  // Phases are set by the controller and not validated upstream, so any string is kept.
  phase: opt(str(1, { default: 'Pending' })),
  accessModes: opt(list(2, Type.String(), { listType: 'atomic' })),
  capacity: opt(resourceList(3)),
  conditions: opt(list(4, PersistentVolumeClaimCondition, {
    patchStrategy: 'merge', patchMergeKey: 'type', listType: 'map', mapKeys: ['type'],
  })),
  allocatedResources: opt(resourceList(5)),
  allocatedResourceStatuses: opt(mapOf(7, Type.String(), { 'x-orch-map-type': 'granular' })),
  currentVolumeAttributesClassName: opt(str(8)),
  modifyVolumeStatus: opt(field(9, ModifyVolumeStatus)),
});
export type PersistentVolumeClaimStatus = Static<typeof PersistentVolumeClaimStatus>;

export const PersistentVolumeClaim = topLevel(`${P}.PersistentVolumeClaim`, {
  // Upstream's spec and status are plain structs, so a decoded claim always has both.
  spec: opt(field(2, PersistentVolumeClaimSpec, { default: {} })),
  // Status starts in phase Pending, which upstream shows even in StatefulSet templates.
  status: opt(field(3, PersistentVolumeClaimStatus, { default: {} })),
});
export type PersistentVolumeClaim = Static<typeof PersistentVolumeClaim>;

/** The claim an ephemeral volume creates for its pod: only labels and annotations of metadata are used. */
export const PersistentVolumeClaimTemplate = object(`${P}.PersistentVolumeClaimTemplate`, {
  metadata: opt(field(1, ObjectMeta)),
  spec: field(2, PersistentVolumeClaimSpec),
}, { required: ['spec'] });
export type PersistentVolumeClaimTemplate = Static<typeof PersistentVolumeClaimTemplate>;
