// A pod's tolerance of node taints.
import type { Static } from '@sinclair/typebox';
import { enumOf, int64, object, opt, str } from '../../schema.js';

const P = 'io.orch.api.core.v1';

/** The empty operator means Equal, the empty effect means every effect; both are accepted. */
export const TolerationOperators = ['Exists', 'Equal', ''] as const;
export const TaintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;

export const Toleration = object(`${P}.Toleration`, {
  key: opt(str(1)),
  operator: opt(enumOf(2, TolerationOperators)),
  value: opt(str(3)),
  effect: opt(enumOf(4, [...TaintEffects, ''] as const)),
  tolerationSeconds: opt(int64(5)),
});
export type Toleration = Static<typeof Toleration>;
