import { type Static } from '@sinclair/typebox';
import { field, list, object, opt } from '../../schema.js';
import { LabelSelector, topLevel } from '../../meta/v1/types.js';
import { PolicyRule } from './policy-rule.js';

export const AggregationRule = object('io.orch.api.rbac.v1.AggregationRule', {
  clusterRoleSelectors: opt(list(1, LabelSelector, { listType: 'atomic' })),
});
export type AggregationRule = Static<typeof AggregationRule>;

export const ClusterRole = topLevel('io.orch.api.rbac.v1.ClusterRole', {
  rules: opt(list(2, PolicyRule, { listType: 'atomic' })),
  aggregationRule: opt(field(3, AggregationRule)),
});
export type ClusterRole = Static<typeof ClusterRole>;
