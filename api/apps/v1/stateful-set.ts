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
  partition: opt(int32(1)),
  maxUnavailable: opt(intOrString(2)),
});

export const StatefulSetUpdateStrategy = object(`${P}.StatefulSetUpdateStrategy`, {
  type: opt(enumOf(1, StatefulSetUpdateStrategyTypes)),
  rollingUpdate: opt(field(2, RollingUpdateStatefulSetStrategy)),
});

export const StatefulSetPersistentVolumeClaimRetentionPolicy = object(`${P}.StatefulSetPersistentVolumeClaimRetentionPolicy`, {
  whenDeleted: opt(enumOf(1, PersistentVolumeClaimRetentionPolicyTypes, { default: 'Retain' })),
  whenScaled: opt(enumOf(2, PersistentVolumeClaimRetentionPolicyTypes, { default: 'Retain' })),
});

export const StatefulSetOrdinals = object(`${P}.StatefulSetOrdinals`, {
  start: opt(int32(1)),
});

export const StatefulSetSpec = object(`${P}.StatefulSetSpec`, {
  replicas: opt(int32(1, { default: 1 })),
  selector: field(2, LabelSelector),
  template: field(3, PodTemplateSpec),
  volumeClaimTemplates: opt(list(4, PersistentVolumeClaim, { listType: 'atomic' })),
  serviceName: str(5),
  podManagementPolicy: opt(enumOf(6, PodManagementPolicies, { default: 'OrderedReady' })),
  updateStrategy: opt(field(7, StatefulSetUpdateStrategy)),
  revisionHistoryLimit: opt(int32(8, { default: 10 })),
  minReadySeconds: opt(int32(9, { default: 0 })),
  persistentVolumeClaimRetentionPolicy: opt(field(10, StatefulSetPersistentVolumeClaimRetentionPolicy)),
  ordinals: opt(field(11, StatefulSetOrdinals)),
}, { required: ['selector', 'template', 'serviceName'] });
export type StatefulSetSpec = Static<typeof StatefulSetSpec>;

export const StatefulSetCondition = object(`${P}.StatefulSetCondition`, {
  type: str(1),
  status: enumOf(2, ['True', 'False', 'Unknown'] as const),
  lastTransitionTime: opt(time(3)),
  reason: opt(str(4)),
  message: opt(str(5)),
}, { required: ['type', 'status'] });

export const StatefulSetStatus = object(`${P}.StatefulSetStatus`, {
  observedGeneration: opt(int64(1)),
  replicas: int32(2),
  readyReplicas: opt(int32(3)),
  currentReplicas: opt(int32(4)),
  updatedReplicas: opt(int32(5)),
  currentRevision: opt(str(6)),
  updateRevision: opt(str(7)),
  collisionCount: opt(int32(9)),
  conditions: opt(list(10, StatefulSetCondition, { listType: 'map', mapKeys: ['type'], patchStrategy: 'merge', patchMergeKey: 'type' })),
  availableReplicas: opt(int32(11)),
}, { required: ['replicas'] });
export type StatefulSetStatus = Static<typeof StatefulSetStatus>;

export const StatefulSet = topLevel(`${P}.StatefulSet`, {
  spec: opt(field(2, StatefulSetSpec)),
  status: opt(field(3, StatefulSetStatus)),
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
