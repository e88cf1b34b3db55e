import { type Static } from '@sinclair/typebox';
import { bool, enumOf, field, int32, int64, list, object, opt, str } from '../../schema.js';
import { intOrString, time } from '../../meta/v1/primitives.js';
import { LabelSelector, topLevel } from '../../meta/v1/types.js';
import { PodTemplateSpec, defaultPodTemplateSpec } from '../../core/v1/pod-template.js';

const P = 'io.orch.api.apps.v1';

export const DeploymentStrategyTypes = ['Recreate', 'RollingUpdate'] as const;

export const RollingUpdateDeployment = object(`${P}.RollingUpdateDeployment`, {
  maxUnavailable: opt(intOrString(1, {
    'x-orch-emit': 'pointer',
    description: 'Most pods that may be unavailable during the update, as a number or a percentage of the desired replicas (rounded down). Cannot be 0 when maxSurge is 0. Defaults to 25%.',
  })),
  maxSurge: opt(intOrString(2, {
    'x-orch-emit': 'pointer',
    description: 'Most pods that may be created above the desired replicas during the update, as a number or a percentage (rounded up). Cannot be 0 when maxUnavailable is 0. Defaults to 25%.',
  })),
}, { description: 'Parameters of a RollingUpdate of a Deployment: how far the pod count may dip below and rise above the desired replicas.' });

export const DeploymentStrategy = object(`${P}.DeploymentStrategy`, {
  type: opt(enumOf(1, DeploymentStrategyTypes, {
    description: 'RollingUpdate (the default) replaces old pods gradually; Recreate removes all old pods before making new ones.',
  })),
  rollingUpdate: opt(field(2, RollingUpdateDeployment, {
    description: 'Parameters of a RollingUpdate; only allowed with that type.',
  })),
}, { description: 'How a Deployment replaces its existing pods with new ones.' });

export const DeploymentSpec = object(`${P}.DeploymentSpec`, {
  replicas: opt(int32(1, {
    default: 1,
    'x-orch-emit': 'pointer',
    description: 'Desired number of pods. Defaults to 1 when unset; 0 scales the Deployment down to no pods.',
  })),
  selector: field(2, LabelSelector, {
    description: 'Label query over the pods the Deployment manages. Must match the labels of the pod template; cannot be changed.',
  }),
  template: field(3, PodTemplateSpec, {
    description: 'The pod every replica is made from. Its restartPolicy must be Always.',
  }),
  strategy: opt(field(4, DeploymentStrategy, {
    'x-orch-emit': 'always',
    'x-orch-patch-strategy': 'retainKeys',
    description: 'How old pods are replaced by new ones. Defaults to RollingUpdate with maxUnavailable and maxSurge of 25%.',
  })),
  minReadySeconds: opt(int32(5, {
    description: 'Seconds a new pod must be ready, with no container crashing, before it counts as available. Defaults to 0.',
  })),
  revisionHistoryLimit: opt(int32(6, {
    default: 10,
    'x-orch-emit': 'pointer',
    description: 'Number of old ReplicaSets kept to allow a rollback. Defaults to 10.',
  })),
  paused: opt(bool(7, {
    description: 'When true, changes to the template do not start a rollout until it is set back to false.',
  })),
  progressDeadlineSeconds: opt(int32(9, {
    default: 600,
    'x-orch-emit': 'pointer',
    description: 'Seconds a rollout may go without progress before the controller reports it as failed in a Progressing condition. Must exceed minReadySeconds. Defaults to 600.',
  })),
}, { required: ['selector', 'template'], description: 'The desired state of a Deployment.' });
export type DeploymentSpec = Static<typeof DeploymentSpec>;

export const DeploymentCondition = object(`${P}.DeploymentCondition`, {
  type: str(1, { description: 'Type of the condition, such as Available, Progressing or ReplicaFailure.' }),
  status: enumOf(2, ['True', 'False', 'Unknown'] as const, { description: 'True, False or Unknown.' }),
  lastUpdateTime: opt(time(6, { 'x-orch-emit': 'always', description: 'When the controller last refreshed this condition.' })),
  lastTransitionTime: opt(time(7, { 'x-orch-emit': 'always', description: 'When the condition last changed status.' })),
  reason: opt(str(4, { description: 'Machine-readable reason for the last transition.' })),
  message: opt(str(5, { description: 'Human-readable details about the last transition.' })),
}, { required: ['type', 'status'], description: 'One aspect of the state of a Deployment at a point in time.' });

export const DeploymentStatus = object(`${P}.DeploymentStatus`, {
  observedGeneration: opt(int64(1, { description: 'The metadata.generation the controller last acted on.' })),
  replicas: opt(int32(2, { description: 'Number of pods (not terminated) that the Deployment targets, across all its ReplicaSets.' })),
  updatedReplicas: opt(int32(3, { description: 'Number of pods made from the current pod template.' })),
  readyReplicas: opt(int32(7, { description: 'Number of pods with a Ready condition.' })),
  availableReplicas: opt(int32(4, { description: 'Number of pods that have been ready for at least minReadySeconds.' })),
  unavailableReplicas: opt(int32(5, { description: 'Number of pods still needed for the Deployment to have all its replicas available.' })),
  conditions: opt(list(6, DeploymentCondition, { listType: 'map', mapKeys: ['type'], patchStrategy: 'merge', patchMergeKey: 'type' }, {
    description: 'Latest observations of the state of the Deployment.',
  })),
  collisionCount: opt(int32(8, {
    'x-orch-emit': 'pointer',
    description: 'Number of hash collisions met when naming ReplicaSets; it makes the next name unique.',
  })),
}, { description: 'The observed state of a Deployment, written by its controller.' });
export type DeploymentStatus = Static<typeof DeploymentStatus>;

export const Deployment = topLevel(`${P}.Deployment`, {
  spec: opt(field(2, DeploymentSpec, { 'x-orch-emit': 'always', description: 'The desired state: the pods, their template and how updates roll out.' })),
  status: opt(field(3, DeploymentStatus, {
    'x-orch-emit': 'always',
    description: 'The observed state, written by the controller through the status sub-resource; may lag behind.',
  })),
}, {
  description: 'Keeps a number of identical pods running through ReplicaSets and rolls changes of their template out gradually.',
});
export type Deployment = Static<typeof Deployment>;

/**
 * Upstream SetDefaults_Deployment for what a schema default cannot express: an unset or empty
 * strategy type becomes RollingUpdate, and a RollingUpdate gets maxUnavailable and maxSurge of
 * 25% (a Recreate strategy gets no rollingUpdate). The pod template gets its own defaults.
 */
export function defaultDeployment(d: Deployment): void {
  const spec = d.spec;
  if (!spec) return;
  spec.strategy ??= {};
  const strategy = spec.strategy;
  if (!strategy.type) strategy.type = 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    strategy.rollingUpdate ??= {};
    strategy.rollingUpdate.maxUnavailable ??= '25%';
    strategy.rollingUpdate.maxSurge ??= '25%';
  }
  if (spec.template) defaultPodTemplateSpec(spec.template);
}
