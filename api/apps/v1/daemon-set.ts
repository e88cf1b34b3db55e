import { type Static } from '@sinclair/typebox';
import { enumOf, field, int32, int64, list, object, opt, str } from '../../schema.js';
import { intOrString, time } from '../../meta/v1/primitives.js';
import { LabelSelector, topLevel } from '../../meta/v1/types.js';
import { PodTemplateSpec, defaultPodTemplateSpec } from '../../core/v1/pod-template.js';

const P = 'io.orch.api.apps.v1';

export const DaemonSetUpdateStrategyTypes = ['RollingUpdate', 'OnDelete'] as const;

export const RollingUpdateDaemonSet = object(`${P}.RollingUpdateDaemonSet`, {
  maxUnavailable: opt(intOrString(1, {
    'x-orch-emit': 'pointer',
    description: 'Most nodes whose daemon pod may be unavailable during the update, as a number or a percentage of the nodes that should run one (rounded up). Defaults to 1; cannot be 0 when maxSurge is 0.',
  })),
  maxSurge: opt(intOrString(2, {
    'x-orch-emit': 'pointer',
    description: 'Most nodes that may run a new daemon pod beside the old one during the update, as a number or a percentage (rounded up). Defaults to 0; must be 0 when maxUnavailable is not.',
  })),
}, { description: 'Parameters of a RollingUpdate of a DaemonSet: how many nodes may lack a ready pod, or run two, at once.' });

export const DaemonSetUpdateStrategy = object(`${P}.DaemonSetUpdateStrategy`, {
  type: opt(enumOf(1, DaemonSetUpdateStrategyTypes, {
    description: 'RollingUpdate (the default) replaces old daemon pods gradually; OnDelete replaces a pod only once it is deleted.',
  })),
  rollingUpdate: opt(field(2, RollingUpdateDaemonSet, { description: 'Parameters of a RollingUpdate; only with that type.' })),
}, { description: 'How a DaemonSet replaces its pods when its template changes.' });

export const DaemonSetSpec = object(`${P}.DaemonSetSpec`, {
  selector: field(1, LabelSelector, {
    description: 'Label query over the pods the DaemonSet manages. Must match the labels of the pod template; cannot be changed.',
  }),
  template: field(2, PodTemplateSpec, {
    description: 'The pod run on every eligible node. Its restartPolicy must be Always.',
  }),
  updateStrategy: opt(field(3, DaemonSetUpdateStrategy, {
    'x-orch-emit': 'always',
    description: 'How pods are replaced after a template change. Defaults to RollingUpdate with maxUnavailable 1 and maxSurge 0.',
  })),
  minReadySeconds: opt(int32(4, {
    description: 'Seconds a new pod must be ready, with no container crashing, before it counts as available. Defaults to 0.',
  })),
  revisionHistoryLimit: opt(int32(6, {
    default: 10,
    'x-orch-emit': 'pointer',
    description: 'Number of old revisions kept to allow a rollback. Defaults to 10.',
  })),
}, { required: ['selector', 'template'], description: 'The desired state of a DaemonSet.' });
export type DaemonSetSpec = Static<typeof DaemonSetSpec>;

export const DaemonSetCondition = object(`${P}.DaemonSetCondition`, {
  type: str(1, { description: 'Type of the condition.' }),
  status: enumOf(2, ['True', 'False', 'Unknown'] as const, { description: 'True, False or Unknown.' }),
  lastTransitionTime: opt(time(3, { 'x-orch-emit': 'always', description: 'When the condition last changed status.' })),
  reason: opt(str(4, { description: 'Machine-readable reason for the last transition.' })),
  message: opt(str(5, { description: 'Human-readable details about the last transition.' })),
}, { required: ['type', 'status'], description: 'One aspect of the state of a DaemonSet at a point in time.' });

export const DaemonSetStatus = object(`${P}.DaemonSetStatus`, {
  currentNumberScheduled: int32(1, { description: 'Number of nodes that run at least one daemon pod and should.' }),
  numberMisscheduled: int32(2, { description: 'Number of nodes that run a daemon pod but should not.' }),
  desiredNumberScheduled: int32(3, { description: 'Number of nodes that should run the daemon pod.' }),
  numberReady: int32(4, { description: 'Number of nodes that should run the daemon pod and have one or more of them ready.' }),
  observedGeneration: opt(int64(5, { description: 'The metadata.generation the controller last acted on.' })),
  updatedNumberScheduled: opt(int32(6, { description: 'Number of nodes running a daemon pod made from the current template.' })),
  numberAvailable: opt(int32(7, { description: 'Number of nodes that should run the daemon pod and have one available (ready for minReadySeconds).' })),
  numberUnavailable: opt(int32(8, { description: 'Number of nodes that should run the daemon pod and have none available.' })),
  collisionCount: opt(int32(9, {
    'x-orch-emit': 'pointer',
    description: 'Number of hash collisions met when naming revisions; it makes the next name unique.',
  })),
  conditions: opt(list(10, DaemonSetCondition, { listType: 'map', mapKeys: ['type'], patchStrategy: 'merge', patchMergeKey: 'type' }, {
    description: 'Latest observations of the state of the DaemonSet.',
  })),
}, {
  required: ['currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady'],
  description: 'The observed state of a DaemonSet, written by its controller.',
});
export type DaemonSetStatus = Static<typeof DaemonSetStatus>;

export const DaemonSet = topLevel(`${P}.DaemonSet`, {
  spec: opt(field(2, DaemonSetSpec, { 'x-orch-emit': 'always', description: 'The desired state: the pod to run on each node and how updates roll out.' })),
  status: opt(field(3, DaemonSetStatus, {
    'x-orch-emit': 'always',
    description: 'The observed state, written by the controller through the status sub-resource; may lag behind.',
  })),
}, {
  description: 'Runs a copy of a pod on every eligible node (such as a log collector or a network agent).',
});
export type DaemonSet = Static<typeof DaemonSet>;

/**
 * Upstream SetDefaults_DaemonSet for what a schema default cannot express: an unset strategy
 * type becomes RollingUpdate, whose maxUnavailable defaults to 1 and maxSurge to 0. The pod
 * template gets its own defaults.
 */
export function defaultDaemonSet(ds: DaemonSet): void {
  const spec = ds.spec;
  if (!spec) return;
  spec.updateStrategy ??= {};
  const strategy = spec.updateStrategy;
  if (!strategy.type) strategy.type = 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    strategy.rollingUpdate ??= {};
    strategy.rollingUpdate.maxUnavailable ??= 1;
    strategy.rollingUpdate.maxSurge ??= 0;
  }
  if (spec.template) defaultPodTemplateSpec(spec.template);
}
