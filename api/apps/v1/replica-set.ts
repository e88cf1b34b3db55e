import { type Static } from '@sinclair/typebox';
import { enumOf, field, int32, int64, list, object, opt, str } from '../../schema.js';
import { time } from '../../meta/v1/primitives.js';
import { LabelSelector, topLevel } from '../../meta/v1/types.js';
import { PodTemplateSpec, defaultPodTemplateSpec } from '../../core/v1/pod-template.js';

const P = 'io.orch.api.apps.v1';

export const ReplicaSetSpec = object(`${P}.ReplicaSetSpec`, {
  replicas: opt(int32(1, {
    default: 1,
    'x-orch-emit': 'pointer',
    description: 'Desired number of pods. Defaults to 1 when unset.',
  })),
  minReadySeconds: opt(int32(4, {
    description: 'Seconds a new pod must be ready, with no container crashing, before it counts as available. Defaults to 0.',
  })),
  selector: field(2, LabelSelector, {
    description: 'Label query over the pods the ReplicaSet counts as its own. Must match the labels of the pod template; cannot be changed.',
  }),
  template: opt(field(3, PodTemplateSpec, {
    'x-orch-emit': 'always',
    description: 'The pod made whenever too few replicas exist. Its restartPolicy must be Always.',
  })),
}, { required: ['selector'], description: 'The desired state of a ReplicaSet.' });
export type ReplicaSetSpec = Static<typeof ReplicaSetSpec>;

export const ReplicaSetCondition = object(`${P}.ReplicaSetCondition`, {
  type: str(1, { description: 'Type of the condition, such as ReplicaFailure.' }),
  status: enumOf(2, ['True', 'False', 'Unknown'] as const, { description: 'True, False or Unknown.' }),
  lastTransitionTime: opt(time(3, { 'x-orch-emit': 'always', description: 'When the condition last changed status.' })),
  reason: opt(str(4, { description: 'Machine-readable reason for the last transition.' })),
  message: opt(str(5, { description: 'Human-readable details about the last transition.' })),
}, { required: ['type', 'status'], description: 'One aspect of the state of a ReplicaSet at a point in time.' });

export const ReplicaSetStatus = object(`${P}.ReplicaSetStatus`, {
  replicas: int32(1, { description: 'Number of pods the ReplicaSet most recently counted as its own.' }),
  fullyLabeledReplicas: opt(int32(2, { description: 'Number of those pods whose labels match the labels of the pod template.' })),
  readyReplicas: opt(int32(4, { description: 'Number of pods with a Ready condition.' })),
  availableReplicas: opt(int32(5, { description: 'Number of pods that have been ready for at least minReadySeconds.' })),
  observedGeneration: opt(int64(3, { description: 'The metadata.generation the controller last acted on.' })),
  conditions: opt(list(6, ReplicaSetCondition, { listType: 'map', mapKeys: ['type'], patchStrategy: 'merge', patchMergeKey: 'type' }, {
    description: 'Latest observations of the state of the ReplicaSet.',
  })),
}, { required: ['replicas'], description: 'The observed state of a ReplicaSet, written by its controller.' });
export type ReplicaSetStatus = Static<typeof ReplicaSetStatus>;

export const ReplicaSet = topLevel(`${P}.ReplicaSet`, {
  spec: opt(field(2, ReplicaSetSpec, { 'x-orch-emit': 'always', description: 'The desired state: how many pods, which ones, and the template of new ones.' })),
  status: opt(field(3, ReplicaSetStatus, {
    'x-orch-emit': 'always',
    description: 'The observed state, written by the controller through the status sub-resource; may lag behind.',
  })),
}, {
  description: 'Keeps a given number of identical pods running; usually owned and managed by a Deployment.',
});
export type ReplicaSet = Static<typeof ReplicaSet>;

/** Upstream SetDefaults_ReplicaSet adds nothing beyond the schema's replicas but the pod template's own defaults. */
export function defaultReplicaSet(rs: ReplicaSet): void {
  if (rs.spec?.template) defaultPodTemplateSpec(rs.spec.template);
}
