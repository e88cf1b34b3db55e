// How a group of pods is spread over topology domains (zones, nodes, ...).
import { Type, type Static } from '@sinclair/typebox';
import { enumOf, field, int32, list, object, opt, str } from '../../schema.js';
import { LabelSelector } from '../../meta/v1/types.js';

const P = 'io.orch.api.core.v1';

export const UnsatisfiableConstraintActions = ['DoNotSchedule', 'ScheduleAnyway'] as const;
export const NodeInclusionPolicies = ['Honor', 'Ignore'] as const;

export const TopologySpreadConstraint = object(`${P}.TopologySpreadConstraint`, {
  maxSkew: int32(1, {
    description: 'Largest allowed difference between the number of matching pods in a domain and in the emptiest ' +
      'eligible domain. At least 1.',
  }),
  topologyKey: str(2, {
    description: 'Node label whose values make up the domains, such as a zone or hostname label. Nodes without it are ignored.',
  }),
  whenUnsatisfiable: enumOf(3, UnsatisfiableConstraintActions, {
    description: 'What happens to a pod that would exceed maxSkew: DoNotSchedule leaves it pending, ScheduleAnyway ' +
      'only ranks the nodes that reduce the skew higher.',
  }),
  labelSelector: opt(field(4, LabelSelector, { description: 'Pods counted in each domain.' })),
  minDomains: opt(int32(5, {
    'x-orch-emit': 'pointer',
    description: 'Least number of eligible domains. With fewer, the emptiest domain counts as holding zero pods. ' +
      'Only with DoNotSchedule; 1 when unset.',
  })),
  nodeAffinityPolicy: opt(enumOf(6, NodeInclusionPolicies, {
    'x-orch-emit': 'pointer',
    description: 'Whether only nodes matching the pod\'s nodeAffinity and nodeSelector are counted: Honor (the default) or Ignore.',
  })),
  nodeTaintsPolicy: opt(enumOf(7, NodeInclusionPolicies, {
    'x-orch-emit': 'pointer',
    description: 'Whether only nodes whose taints the pod tolerates are counted: Honor, or Ignore (the default).',
  })),
  matchLabelKeys: opt(list(8, Type.String(), { listType: 'atomic' }, {
    description: 'Label keys of the incoming pod whose values are added to labelSelector, so only pods with the same ' +
      'values (e.g. the same revision) are counted.',
  })),
}, {
  required: ['maxSkew', 'topologyKey', 'whenUnsatisfiable'],
  description: 'How matching pods are spread across the domains of a node label.',
});
export type TopologySpreadConstraint = Static<typeof TopologySpreadConstraint>;
