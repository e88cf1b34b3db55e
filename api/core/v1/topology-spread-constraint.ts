// How a group of pods is spread over topology domains (zones, nodes, ...).
import { Type, type Static } from '@sinclair/typebox';
import { enumOf, field, int32, list, object, opt, str } from '../../schema.js';
import { LabelSelector } from '../../meta/v1/types.js';

const P = 'io.orch.api.core.v1';

export const UnsatisfiableConstraintActions = ['DoNotSchedule', 'ScheduleAnyway'] as const;
export const NodeInclusionPolicies = ['Honor', 'Ignore'] as const;

export const TopologySpreadConstraint = object(`${P}.TopologySpreadConstraint`, {
  maxSkew: int32(1),
  topologyKey: str(2),
  whenUnsatisfiable: enumOf(3, UnsatisfiableConstraintActions),
  labelSelector: opt(field(4, LabelSelector)),
  minDomains: opt(int32(5)),
  nodeAffinityPolicy: opt(enumOf(6, NodeInclusionPolicies)),
  nodeTaintsPolicy: opt(enumOf(7, NodeInclusionPolicies)),
  matchLabelKeys: opt(list(8, Type.String(), { listType: 'atomic' })),
}, { required: ['maxSkew', 'topologyKey', 'whenUnsatisfiable'] });
export type TopologySpreadConstraint = Static<typeof TopologySpreadConstraint>;
