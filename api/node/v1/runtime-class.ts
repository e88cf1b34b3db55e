import type { Static } from '@sinclair/typebox';
import { field, list, object, opt, str, stringMap } from '../../schema.js';
import { topLevel } from '../../meta/v1/types.js';
import { resourceList } from '../../meta/v1/primitives.js';
import { Toleration } from '../../core/v1/toleration.js';

const P = 'io.orch.api.node.v1';

export const Overhead = object(`${P}.Overhead`, {
  podFixed: opt(resourceList(1, {
    description: 'Resources a pod of this runtime class uses on top of its containers, added to its requests when it is scheduled and admitted.',
  })),
}, { description: 'Resources the runtime itself consumes for each pod.' });
export type Overhead = Static<typeof Overhead>;

export const Scheduling = object(`${P}.Scheduling`, {
  nodeSelector: opt(stringMap(1, {
    'x-orch-map-type': 'atomic',
    description: 'Labels a node must carry to run pods of this class; merged into the node selector of each pod, and a conflict rejects the pod.',
  })),
  tolerations: opt(list(2, Toleration, { listType: 'atomic' }, {
    description: 'Tolerations added to each pod of this class, so it can land on nodes tainted for the runtime.',
  })),
}, { description: 'Constraints that keep pods of a runtime class on the nodes that support it.' });
export type Scheduling = Static<typeof Scheduling>;

export const RuntimeClass = topLevel(`${P}.RuntimeClass`, {
  handler: str(2, {
    description: 'Name of the runtime configuration on the node that runs pods of this class; a DNS label. Cannot be changed.',
  }),
  overhead: opt(field(3, Overhead, { description: 'Resources a pod of this class costs beyond its containers. Unset means none.' })),
  scheduling: opt(field(4, Scheduling, {
    description: 'Which nodes support this class. Unset means every node does.',
  })),
}, { required: ['handler'], description: 'A container runtime configuration that pods select with runtimeClassName.' });
export type RuntimeClass = Static<typeof RuntimeClass>;
