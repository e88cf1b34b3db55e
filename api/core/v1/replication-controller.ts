import { type Static } from '@sinclair/typebox';
import { enumOf, field, int32, int64, list, object, opt, str, stringMap } from '../../schema.js';
import { time } from '../../meta/v1/primitives.js';
import { topLevel } from '../../meta/v1/types.js';
import { PodTemplateSpec, defaultPodTemplateSpec } from './pod-template.js';

const P = 'io.orch.api.core.v1';

export const ReplicationControllerSpec = object(`${P}.ReplicationControllerSpec`, {
  replicas: opt(int32(1, {
    default: 1,
    'x-orch-emit': 'pointer',
    description: 'Desired number of pods. Defaults to 1 when unset.',
  })),
  minReadySeconds: opt(int32(4, {
    description: 'Seconds a new pod must be ready, with no container crashing, before it counts as available. Defaults to 0.',
  })),
  selector: opt(stringMap(2, {
    'x-orch-map-type': 'atomic',
    description: 'Labels a pod must carry (all of them) to be counted as one of the controller\'s pods. Defaults to the labels of the pod template.',
  })),
  template: opt(field(3, PodTemplateSpec, {
    description: 'The pod made whenever too few replicas exist. Its labels must match the selector; its restartPolicy must be Always.',
  })),
}, { description: 'The desired state of a replication controller.' });
export type ReplicationControllerSpec = Static<typeof ReplicationControllerSpec>;

export const ReplicationControllerCondition = object(`${P}.ReplicationControllerCondition`, {
  type: str(1, { description: 'Type of the condition, such as ReplicaFailure.' }),
  status: enumOf(2, ['True', 'False', 'Unknown'] as const, { description: 'True, False or Unknown.' }),
  lastTransitionTime: opt(time(3, { 'x-orch-emit': 'always', description: 'When the condition last changed status.' })),
  reason: opt(str(4, { description: 'Machine-readable reason for the last transition.' })),
  message: opt(str(5, { description: 'Human-readable details about the last transition.' })),
}, { required: ['type', 'status'], description: 'One aspect of the state of a replication controller at a point in time.' });

export const ReplicationControllerStatus = object(`${P}.ReplicationControllerStatus`, {
  replicas: int32(1, { description: 'Number of pods the controller most recently counted as its own.' }),
  fullyLabeledReplicas: opt(int32(2, { description: 'Number of those pods whose labels match the labels of the pod template.' })),
  readyReplicas: opt(int32(4, { description: 'Number of pods with a Ready condition.' })),
  availableReplicas: opt(int32(5, { description: 'Number of pods that have been ready for at least minReadySeconds.' })),
  observedGeneration: opt(int64(3, { description: 'The metadata.generation the controller last acted on.' })),
  conditions: opt(list(6, ReplicationControllerCondition, { listType: 'map', mapKeys: ['type'], patchStrategy: 'merge', patchMergeKey: 'type' }, {
    description: 'Latest observations of the state of the replication controller.',
  })),
}, { required: ['replicas'], description: 'The observed state of a replication controller, written by its controller.' });
export type ReplicationControllerStatus = Static<typeof ReplicationControllerStatus>;

export const ReplicationController = topLevel(`${P}.ReplicationController`, {
  spec: opt(field(2, ReplicationControllerSpec, { 'x-orch-emit': 'always', description: 'The desired state: how many pods, which ones, and the template of new ones.' })),
  status: opt(field(3, ReplicationControllerStatus, {
    'x-orch-emit': 'always',
    description: 'The observed state, written by the controller through the status sub-resource; may lag behind.',
  })),
}, {
  description: 'Keeps a given number of identical pods running; the older form of a ReplicaSet, selecting its pods by an equality-only label map.',
});
export type ReplicationController = Static<typeof ReplicationController>;

/**
 * Upstream SetDefaults_ReplicationController: a template with labels lends them to an empty
 * selector and to the controller's own empty labels. (replicas defaults to 1 through the schema.)
 */
export function defaultReplicationController(rc: ReplicationController): void {
  const spec = rc.spec;
  if (!spec) return;
  const labels = spec.template?.metadata?.labels;
  if (labels) {
    if (Object.keys(spec.selector ?? {}).length === 0) spec.selector = { ...labels };
    if (rc.metadata && Object.keys(rc.metadata.labels ?? {}).length === 0) rc.metadata.labels = { ...labels };
  }
  if (spec.template) defaultPodTemplateSpec(spec.template);
}
