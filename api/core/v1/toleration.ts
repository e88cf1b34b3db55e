// A pod's tolerance of node taints.
import type { Static } from '@sinclair/typebox';
import { enumOf, int64, object, opt, str } from '../../schema.js';

const P = 'io.orch.api.core.v1';

/** The empty operator means Equal, the empty effect means every effect; both are accepted. */
export const TolerationOperators = ['Exists', 'Equal', ''] as const;
export const TaintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;

export const Toleration = object(`${P}.Toleration`, {
  key: opt(str(1, { description: 'Taint key matched. Empty matches every key, and then the operator must be Exists.' })),
  operator: opt(enumOf(2, TolerationOperators, {
    description: 'How the value is compared: Equal (the default when empty) or Exists, which matches any value.',
  })),
  value: opt(str(3, { description: 'Taint value matched with the Equal operator; must be empty with Exists.' })),
  effect: opt(enumOf(4, [...TaintEffects, ''] as const, {
    description: 'Taint effect matched: NoSchedule, PreferNoSchedule or NoExecute. Empty matches every effect.',
  })),
  tolerationSeconds: opt(int64(5, {
    'x-orch-emit': 'pointer',
    description: 'For NoExecute taints only: how long the pod stays on the node after the taint appears. Unset means ' +
      'forever; zero or less means it is evicted at once.',
  })),
}, { description: 'Lets a pod be scheduled onto, or stay on, nodes that carry a matching taint.' });
export type Toleration = Static<typeof Toleration>;
