import { type Static } from '@sinclair/typebox';
import { enumOf, field, int32, int64, list, mapOf, object, opt } from '../../schema.js';
import { Time, intOrString } from '../../meta/v1/primitives.js';
import { Condition, LabelSelector, topLevel } from '../../meta/v1/types.js';

const P = 'io.orch.api.policy.v1';

export const UnhealthyPodEvictionPolicies = ['IfHealthyBudget', 'AlwaysAllow'] as const;

export const PodDisruptionBudgetSpec = object(`${P}.PodDisruptionBudgetSpec`, {
  minAvailable: opt(intOrString(1, {
    'x-orch-emit': 'pointer',
    description: 'An eviction is allowed only if at least this many selected pods stay available: a number or a percentage. Excludes maxUnavailable.',
  })),
  selector: opt(field(2, LabelSelector, {
    'x-orch-patch-strategy': 'replace',
    description: 'Label query over the pods the budget protects. An empty selector selects every pod of the namespace.',
  })),
  maxUnavailable: opt(intOrString(3, {
    'x-orch-emit': 'pointer',
    description: 'An eviction is allowed only if at most this many selected pods are unavailable afterwards: a number or a percentage. Excludes minAvailable.',
  })),
  unhealthyPodEvictionPolicy: opt(enumOf(4, UnhealthyPodEvictionPolicies, {
    'x-orch-emit': 'pointer',
    description: 'When running but not ready pods may be evicted: IfHealthyBudget (the default) only while the budget is met, AlwaysAllow at any time.',
  })),
}, { description: 'The desired protection of a PodDisruptionBudget.' });
export type PodDisruptionBudgetSpec = Static<typeof PodDisruptionBudgetSpec>;

export const PodDisruptionBudgetStatus = object(`${P}.PodDisruptionBudgetStatus`, {
  observedGeneration: opt(int64(1, { description: 'The metadata.generation the controller last acted on.' })),
  disruptedPods: opt(mapOf(2, Time, {
    description: 'Pods whose eviction was allowed but not yet seen by the controller, with the time of the eviction; used to avoid counting them twice.',
  })),
  disruptionsAllowed: int32(3, { description: 'Number of pod disruptions allowed right now.' }),
  currentHealthy: int32(4, { description: 'Number of selected pods that are healthy now.' }),
  desiredHealthy: int32(5, { description: 'Least number of healthy pods the budget asks for.' }),
  expectedPods: opt(int32(6, { 'x-orch-emit': 'always', description: 'Number of pods the budget counts, from the owners of the selected pods.' })),
  conditions: opt(list(7, Condition, { listType: 'map', mapKeys: ['type'], patchStrategy: 'merge', patchMergeKey: 'type' }, {
    description: 'Latest observations of the budget, such as DisruptionAllowed.',
  })),
}, { required: ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy'], description: 'The observed state of a PodDisruptionBudget, written by its controller.' });
export type PodDisruptionBudgetStatus = Static<typeof PodDisruptionBudgetStatus>;

export const PodDisruptionBudget = topLevel(`${P}.PodDisruptionBudget`, {
  spec: opt(field(2, PodDisruptionBudgetSpec, { 'x-orch-emit': 'always', description: 'Which pods are protected and how many must stay available.' })),
  status: opt(field(3, PodDisruptionBudgetStatus, {
    'x-orch-emit': 'always',
    description: 'The observed state, written by the controller through the status sub-resource; may lag behind.',
  })),
}, { description: 'Limits how many pods of a set voluntary disruptions (evictions) may take down at once.' });
export type PodDisruptionBudget = Static<typeof PodDisruptionBudget>;
