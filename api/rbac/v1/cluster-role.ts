import { type Static } from '@sinclair/typebox';
import { field, list, object, opt } from '../../schema.js';
import { LabelSelector, topLevel } from '../../meta/v1/types.js';
import { PolicyRule } from './policy-rule.js';

export const AggregationRule = object('io.orch.api.rbac.v1.AggregationRule', {
  clusterRoleSelectors: opt(list(1, LabelSelector, { listType: 'atomic' }, {
    description: 'Selectors of the ClusterRoles whose rules are combined; a role matching any of them contributes.',
  })),
}, { description: 'How the rules of an aggregated ClusterRole are gathered from other ClusterRoles.' });
export type AggregationRule = Static<typeof AggregationRule>;

export const ClusterRole = topLevel('io.orch.api.rbac.v1.ClusterRole', {
  rules: opt(list(2, PolicyRule, { listType: 'atomic' }, {
    'x-orch-emit': 'always',
    description: 'The permissions the role grants. With an aggregationRule, the controller owns this list.',
  })),
  aggregationRule: opt(field(3, AggregationRule, {
    description: 'When set, the rules are the union of the rules of the selected ClusterRoles, kept up to date by a controller.',
  })),
}, { description: 'A cluster-wide set of permissions, granted in one namespace by a RoleBinding or everywhere by a ClusterRoleBinding.' });
export type ClusterRole = Static<typeof ClusterRole>;
