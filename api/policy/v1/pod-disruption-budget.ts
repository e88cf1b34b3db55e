import { type Static } from '@sinclair/typebox';
import { enumOf, field, int32, int64, list, mapOf, object, opt } from '../../schema.js';
import { Time, intOrString } from '../../meta/v1/primitives.js';
import { Condition, LabelSelector, topLevel } from '../../meta/v1/types.js';

const P = 'io.orch.api.policy.v1';

export const UnhealthyPodEvictionPolicies = ['IfHealthyBudget', 'AlwaysAllow'] as const;

export const PodDisruptionBudgetSpec = object(`${P}.PodDisruptionBudgetSpec`, {
  minAvailable: opt(intOrString(1)),
  selector: opt(field(2, LabelSelector, { 'x-orch-patch-strategy': 'replace' })),
  maxUnavailable: opt(intOrString(3)),
  unhealthyPodEvictionPolicy: opt(enumOf(4, UnhealthyPodEvictionPolicies)),
});
export type PodDisruptionBudgetSpec = Static<typeof PodDisruptionBudgetSpec>;

export const PodDisruptionBudgetStatus = object(`${P}.PodDisruptionBudgetStatus`, {
  observedGeneration: opt(int64(1)),
  disruptedPods: opt(mapOf(2, Time)),
  disruptionsAllowed: int32(3),
  currentHealthy: int32(4),
  desiredHealthy: int32(5),
  expectedPods: opt(int32(6)),
  conditions: opt(list(7, Condition, { listType: 'map', mapKeys: ['type'], patchStrategy: 'merge', patchMergeKey: 'type' })),
}, { required: ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy'] });
export type PodDisruptionBudgetStatus = Static<typeof PodDisruptionBudgetStatus>;

export const PodDisruptionBudget = topLevel(`${P}.PodDisruptionBudget`, {
  spec: opt(field(2, PodDisruptionBudgetSpec)),
  status: opt(field(3, PodDisruptionBudgetStatus)),
});
export type PodDisruptionBudget = Static<typeof PodDisruptionBudget>;
