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
  ), { listType: 'atomic' }, {
    description: 'How the volume may be mounted: ReadWriteOnce, ReadOnlyMany, ReadWriteMany or ReadWriteOncePod.',
  })),
  selector: opt(field(4, LabelSelector, { description: 'Labels of the existing volumes that may be bound to the claim.' })),
  // Upstream's resources is a plain struct, always present (and shown as {}) once decoded.
  resources: opt(field(2, VolumeResourceRequirements, {
    default: {},
    'x-orch-emit': 'always',
    description: 'Storage the volume must have. Raising the request later asks for the volume to be expanded.',
  })),
  volumeName: opt(str(3, { description: 'Name of the PersistentVolume to bind the claim to.' })),
  storageClassName: opt(str(5, {
    'x-orch-emit': 'pointer',
    description: 'StorageClass of the volume. Unset uses the default class; an empty string asks for a volume without a class.',
  })),
  volumeMode: opt(enumOf(6, PersistentVolumeModes, {
    default: 'Filesystem',
    'x-orch-emit': 'pointer',
    description: 'Filesystem (the default) for a mounted filesystem, or Block for a raw block device.',
  })),
  dataSource: opt(field(7, TypedLocalObjectReference, {
    description: 'Object to fill the new volume from: a VolumeSnapshot, a PersistentVolumeClaim, or an object of a ' +
      'volume populator. Kept equal to dataSourceRef when that names no namespace.',
  })),
  dataSourceRef: opt(field(8, TypedObjectReference, {
    description: 'Object to fill the new volume from, of any kind a volume populator handles, possibly in another ' +
      'namespace. Filled in from dataSource when only that is set.',
  })),
  volumeAttributesClassName: opt(str(9, {
    'x-orch-emit': 'pointer',
    description: 'VolumeAttributesClass of the volume; changing it asks the driver to change the volume\'s attributes.',
  })),
}, { description: 'What a claim asks of its volume.' });
export type PersistentVolumeClaimSpec = Static<typeof PersistentVolumeClaimSpec>;

export const PersistentVolumeClaimCondition = object(`${P}.PersistentVolumeClaimCondition`, {
  type: str(1, { description: 'Type of the condition, e.g. Resizing or FileSystemResizePending.' }),
  status: str(2, { description: 'True, False or Unknown.' }),
  // Upstream's metav1.Time is a plain struct: always written, null when unset.
  lastProbeTime: opt(time(3, { 'x-orch-emit': 'always', description: 'When the condition was last checked.' })),
  lastTransitionTime: opt(time(4, { 'x-orch-emit': 'always', description: 'When the condition last changed status.' })),
  reason: opt(str(5, { description: 'Short CamelCase reason for the last change.' })),
  message: opt(str(6, { description: 'Human-readable details of the last change.' })),
}, { required: ['type', 'status'], description: 'A condition of a claim.' });
export type PersistentVolumeClaimCondition = Static<typeof PersistentVolumeClaimCondition>;

export const ModifyVolumeStatus = object(`${P}.ModifyVolumeStatus`, {
  targetVolumeAttributesClassName: opt(str(1, { description: 'VolumeAttributesClass the volume is being changed to.' })),
  status: str(2, {
    description: 'Pending (waiting, e.g. for the class to exist), InProgress, or Infeasible (refused by the driver; ' +
      'another class may be tried).',
  }),
}, { required: ['status'], description: 'Progress of a change of a volume\'s VolumeAttributesClass.' });
export type ModifyVolumeStatus = Static<typeof ModifyVolumeStatus>;

export const PersistentVolumeClaimStatus = object(`${P}.PersistentVolumeClaimStatus`, {
  // Phases are set by the controller and not validated upstream, so any string is kept.
  phase: opt(str(1, {
    default: 'Pending',
    description: 'Pending (not bound yet, the default), Bound, or Lost (the bound volume is gone).',
  })),
  accessModes: opt(list(2, Type.String(), { listType: 'atomic' }, { description: 'Access modes of the bound volume.' })),
  capacity: opt(resourceList(3, { description: 'Resources of the bound volume.' })),
  conditions: opt(list(4, PersistentVolumeClaimCondition, {
    patchStrategy: 'merge', patchMergeKey: 'type', listType: 'map', mapKeys: ['type'],
  }, { description: 'Current conditions of the claim, e.g. Resizing while the volume is being expanded.' })),
  allocatedResources: opt(resourceList(5, {
    description: 'Resources the resize controller or the node agent has given the claim; may exceed the request.',
  })),
  allocatedResourceStatuses: opt(mapOf(7, Type.String(), {
    'x-orch-map-type': 'granular',
    description: 'Resize state per resource: ControllerResizeInProgress, ControllerResizeInfeasible, ' +
      'NodeResizePending, NodeResizeInProgress or NodeResizeInfeasible.',
  })),
  currentVolumeAttributesClassName: opt(str(8, {
    'x-orch-emit': 'pointer',
    description: 'VolumeAttributesClass the bound volume currently has.',
  })),
  modifyVolumeStatus: opt(field(9, ModifyVolumeStatus, { description: 'Progress of a class change; unset when none is under way.' })),
}, { description: 'Observed state of a claim.' });
export type PersistentVolumeClaimStatus = Static<typeof PersistentVolumeClaimStatus>;

export const PersistentVolumeClaim = topLevel(`${P}.PersistentVolumeClaim`, {
  // Upstream's spec and status are plain structs, so a decoded claim always has both.
  spec: opt(field(2, PersistentVolumeClaimSpec, {
    default: {},
    'x-orch-emit': 'always',
    description: 'What the claim asks of its volume.',
  })),
  // Status starts in phase Pending, which upstream shows even in StatefulSet templates.
  status: opt(field(3, PersistentVolumeClaimStatus, {
    default: {},
    'x-orch-emit': 'always',
    description: 'Observed state of the claim, set by the system.',
  })),
}, { description: 'A request for storage, met by binding a PersistentVolume to it.' });
export type PersistentVolumeClaim = Static<typeof PersistentVolumeClaim>;

/** The claim an ephemeral volume creates for its pod: only labels and annotations of metadata are used. */
export const PersistentVolumeClaimTemplate = object(`${P}.PersistentVolumeClaimTemplate`, {
  // A plain struct upstream, so it is always written.
  metadata: opt(field(1, ObjectMeta, {
    'x-orch-emit': 'always',
    description: 'Labels and annotations copied to the claim; other metadata is rejected.',
  })),
  spec: field(2, PersistentVolumeClaimSpec, { description: 'Spec of the claim, copied as it is.' }),
}, { required: ['spec'], description: 'The template of the claim made for an ephemeral volume.' });
export type PersistentVolumeClaimTemplate = Static<typeof PersistentVolumeClaimTemplate>;
