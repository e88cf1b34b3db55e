// Eviction: the body of a POST to pods/<name>/eviction, a deletion of the pod that respects its
// PodDisruptionBudgets. Field numbers follow upstream policy/v1 generated.proto.
import { type Static } from '@sinclair/typebox';
import { field, opt } from '../../schema.js';
import { DeleteOptions, topLevel } from '../../meta/v1/types.js';

export const Eviction = topLevel('io.orch.api.policy.v1.Eviction', {
  deleteOptions: opt(field(2, DeleteOptions, { description: 'Options of the deletion of the pod, such as its grace period.' })),
}, {
  description: 'Asks for a pod to be deleted unless that would break one of its disruption budgets; metadata names the pod.',
});
export type Eviction = Static<typeof Eviction>;
