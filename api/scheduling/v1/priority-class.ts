import type { Static } from '@sinclair/typebox';
import { bool, enumOf, int32, opt, str } from '../../schema.js';
import { topLevel } from '../../meta/v1/types.js';
import { PreemptionPolicies } from '../../core/v1/pod-template.js';

const P = 'io.orch.api.scheduling.v1';

/** Names starting with this are reserved for the classes the server creates itself. */
export const SystemPriorityClassPrefix = 'system-';
/** The highest value a user-defined class may have; larger values belong to system classes. */
export const HighestUserDefinablePriority = 1_000_000_000;
export const SystemCriticalPriority = 2 * HighestUserDefinablePriority;

/** The classes the server creates at start, as upstream's scheduling/bootstrap-system-priority-classes. */
export const SystemPriorityClasses: readonly { name: string; value: number; description: string }[] = [
  { name: 'system-node-critical', value: SystemCriticalPriority + 1000, description: 'Used for system critical pods that must not be moved from their current node.' },
  { name: 'system-cluster-critical', value: SystemCriticalPriority, description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.' },
];

export const PriorityClass = topLevel(`${P}.PriorityClass`, {
  value: int32(2, {
    description: 'The priority pods of this class receive; higher values are scheduled first and may preempt lower ones. ' +
      'User-defined classes may use at most 1000000000. Cannot be changed.',
  }),
  globalDefault: opt(bool(3, {
    description: 'Whether pods that name no priority class get this one. At most one class should be the global default.',
  })),
  description: opt(str(4, { description: 'Free text telling users when to use this class.' })),
  preemptionPolicy: opt(enumOf(5, PreemptionPolicies, {
    default: 'PreemptLowerPriority',
    'x-orch-emit': 'pointer',
    description: 'Whether pods of this class may evict lower-priority pods to be scheduled: PreemptLowerPriority (the default) or Never. Cannot be changed.',
  })),
}, { required: ['value'], description: 'Maps a class name to an integer pod priority used for scheduling order and preemption.' });
export type PriorityClass = Static<typeof PriorityClass>;
