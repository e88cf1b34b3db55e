import { type Static } from '@sinclair/typebox';
import { enumOf, field, int32, int64, list, object, opt, str } from '../../schema.js';
import { intOrString, time } from '../../meta/v1/primitives.js';
import { LabelSelector, topLevel } from '../../meta/v1/types.js';
import { PersistentVolumeClaim } from '../../core/v1/persistent-volume-claim.js';
import { PodTemplateSpec, defaultPodTemplateSpec } from '../../core/v1/pod-template.js';

const P = 'io.orch.api.apps.v1';

export const PodManagementPolicies = ['OrderedReady', 'Parallel'] as const;
export const StatefulSetUpdateStrategyTypes = ['RollingUpdate', 'OnDelete'] as const;
export const PersistentVolumeClaimRetentionPolicyTypes = ['Retain', 'Delete'] as const;

export const RollingUpdateStatefulSetStrategy = object(`${P}.RollingUpdateStatefulSetStrategy`, {
  partition: opt(int32(1, {
    'x-orch-emit': 'pointer',
    description: 'Ordinal at which the update is split: pods with an ordinal at or above it are updated, those below keep the old revision (a canary). Defaults to 0.',
  })),
  maxUnavailable: opt(intOrString(2, {
    'x-orch-emit': 'pointer',
    description: 'Most pods that may be unavailable during the update, as a number or a percentage of replicas (rounded up, at least 1). Defaults to 1.',
  })),
}, { description: 'Parameters of a RollingUpdate of a StatefulSet.' });

export const StatefulSetUpdateStrategy = object(`${P}.StatefulSetUpdateStrategy`, {
  type: opt(enumOf(1, StatefulSetUpdateStrategyTypes, {
    description: 'RollingUpdate (the default) replaces pods in reverse ordinal order; OnDelete replaces a pod only when it is deleted.',
  })),
  rollingUpdate: opt(field(2, RollingUpdateStatefulSetStrategy, { description: 'Parameters of a RollingUpdate; only allowed with that type.' })),
}, { description: 'How the controller replaces pods when the pod template changes.' });

export const StatefulSetPersistentVolumeClaimRetentionPolicy = object(`${P}.StatefulSetPersistentVolumeClaimRetentionPolicy`, {
  whenDeleted: opt(enumOf(1, PersistentVolumeClaimRetentionPolicyTypes, {
    default: 'Retain',
    description: 'What happens to the claims made from volumeClaimTemplates when the StatefulSet is deleted: Retain (the default) keeps them, Delete removes them.',
  })),
  whenScaled: opt(enumOf(2, PersistentVolumeClaimRetentionPolicyTypes, {
    default: 'Retain',
    description: 'What happens to the claims of pods removed by a scale down: Retain (the default) keeps them, Delete removes them.',
  })),
}, { description: 'Whether the claims created from volumeClaimTemplates outlive the StatefulSet and its scale downs.' });

export const StatefulSetOrdinals = object(`${P}.StatefulSetOrdinals`, {
  start: opt(int32(1, {
    'x-orch-emit': 'always',
    description: 'First ordinal given to a replica; replicas are numbered start to start+replicas-1. Defaults to 0.',
  })),
}, { description: 'How the replicas of a StatefulSet are numbered.' });

export const StatefulSetSpec = object(`${P}.StatefulSetSpec`, {
  replicas: opt(int32(1, {
    default: 1,
    'x-orch-emit': 'pointer',
    description: 'Desired number of pods. Defaults to 1 when unset; 0 scales the set down to no pods.',
  })),
  selector: field(2, LabelSelector, {
    description: 'Label query over the pods the StatefulSet manages. Must match the labels of the pod template; cannot be changed.',
  }),
  template: field(3, PodTemplateSpec, {
    description: 'The pod each replica is made from; every pod gets its own stable name and identity. Its restartPolicy must be Always.',
  }),
  volumeClaimTemplates: opt(list(4, PersistentVolumeClaim, { listType: 'atomic' }, {
    description: 'Claims each pod gets a claim of its own from, mounted by the volume of the same name in the template. Cannot be changed.',
  })),
  serviceName: str(5, {
    description: 'Name of the governing Service that gives the pods their network identity (pod-N.<serviceName>). Cannot be changed.',
  }),
  podManagementPolicy: opt(enumOf(6, PodManagementPolicies, {
    default: 'OrderedReady',
    description: 'How pods are created and removed: OrderedReady (the default) one at a time in ordinal order, each waiting for the previous to be ready; Parallel all at once.',
  })),
  updateStrategy: opt(field(7, StatefulSetUpdateStrategy, {
    'x-orch-emit': 'always',
    description: 'How pods are replaced when the template changes. Defaults to RollingUpdate with partition 0.',
  })),
  revisionHistoryLimit: opt(int32(8, {
    default: 10,
    'x-orch-emit': 'pointer',
    description: 'Number of old revisions (ControllerRevisions) kept for rollback. Defaults to 10.',
  })),
  minReadySeconds: opt(int32(9, {
    default: 0,
    description: 'Seconds a new pod must be ready, with no container crashing, before it counts as available. Defaults to 0.',
  })),
  persistentVolumeClaimRetentionPolicy: opt(field(10, StatefulSetPersistentVolumeClaimRetentionPolicy, {
    description: 'Whether claims from volumeClaimTemplates are kept or deleted when the StatefulSet is deleted or scaled down. Defaults to Retain for both.',
  })),
  ordinals: opt(field(11, StatefulSetOrdinals, { description: 'Numbering of the replicas; by default they are numbered from 0.' })),
}, { required: ['selector', 'template', 'serviceName'], description: 'The desired state of a StatefulSet.' });
export type StatefulSetSpec = Static<typeof StatefulSetSpec>;

export const StatefulSetCondition = object(`${P}.StatefulSetCondition`, {
  type: str(1, { description: 'Type of the condition.' }),
  status: enumOf(2, ['True', 'False', 'Unknown'] as const, { description: 'True, False or Unknown.' }),
  lastTransitionTime: opt(time(3, { 'x-orch-emit': 'always', description: 'When the condition last changed status.' })),
  reason: opt(str(4, { description: 'Machine-readable reason for the last transition.' })),
  message: opt(str(5, { description: 'Human-readable details about the last transition.' })),
}, { required: ['type', 'status'], description: 'One aspect of the state of a StatefulSet at a point in time.' });

export const StatefulSetStatus = object(`${P}.StatefulSetStatus`, {
  observedGeneration: opt(int64(1, { description: 'The metadata.generation the controller last acted on.' })),
  replicas: int32(2, { description: 'Number of pods the controller has created.' }),
  readyReplicas: opt(int32(3, { description: 'Number of pods with a Ready condition.' })),
  currentReplicas: opt(int32(4, { description: 'Number of pods created from the currentRevision.' })),
  updatedReplicas: opt(int32(5, { description: 'Number of pods created from the updateRevision.' })),
  currentRevision: opt(str(6, { description: 'Revision of the pods numbered 0 to currentReplicas-1.' })),
  updateRevision: opt(str(7, { description: 'Revision the pods are being updated to (the latest template).' })),
  collisionCount: opt(int32(9, {
    'x-orch-emit': 'pointer',
    description: 'Number of hash collisions met when naming revisions; it makes the next revision name unique.',
  })),
  conditions: opt(list(10, StatefulSetCondition, { listType: 'map', mapKeys: ['type'], patchStrategy: 'merge', patchMergeKey: 'type' }, {
    description: 'Latest observations of the state of the StatefulSet.',
  })),
  availableReplicas: opt(int32(11, {
    'x-orch-emit': 'always',
    description: 'Number of pods that have been ready for at least minReadySeconds.',
  })),
}, { required: ['replicas'], description: 'The observed state of a StatefulSet, written by its controller.' });
export type StatefulSetStatus = Static<typeof StatefulSetStatus>;

export const StatefulSet = topLevel(`${P}.StatefulSet`, {
  spec: opt(field(2, StatefulSetSpec, { 'x-orch-emit': 'always', description: 'The desired state: the pods, their template and claims, and how they are updated.' })),
  status: opt(field(3, StatefulSetStatus, {
    'x-orch-emit': 'always',
    description: 'The observed state, written by the controller through the status sub-resource; may lag behind.',
  })),
}, {
  description: 'Runs a set of pods with stable, ordered identities: each keeps its name, network identity and its own persistent volume claims across rescheduling.',
});
export type StatefulSet = Static<typeof StatefulSet>;

/**
 * Upstream SetDefaults_StatefulSet for what a schema default cannot express: an unset update
 * strategy becomes RollingUpdate with partition 0 (an explicit RollingUpdate keeps rollingUpdate
 * unset unless given), the claim retention policy starts as Retain/Retain, empty strings take
 * their defaults, and the pod template gets its own defaults. Plain defaults for absent fields
 * (replicas, revisionHistoryLimit, ...) are in the schema.
 */
export function defaultStatefulSet(sts: StatefulSet): void {
  const spec = sts.spec;
  if (!spec) return;
  spec.updateStrategy ??= {};
  const strategy = spec.updateStrategy;
  if (!strategy.type) {
    strategy.type = 'RollingUpdate';
    strategy.rollingUpdate ??= {};
  }
  if (strategy.type === 'RollingUpdate' && strategy.rollingUpdate) strategy.rollingUpdate.partition ??= 0;
  // Upstream also replaces empty strings, which a schema default leaves alone.
  if (!spec.podManagementPolicy) spec.podManagementPolicy = 'OrderedReady';
  spec.persistentVolumeClaimRetentionPolicy ??= {};
  spec.persistentVolumeClaimRetentionPolicy.whenDeleted ||= 'Retain';
  spec.persistentVolumeClaimRetentionPolicy.whenScaled ||= 'Retain';
  if (spec.template) defaultPodTemplateSpec(spec.template);
}
