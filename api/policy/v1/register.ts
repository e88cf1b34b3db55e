// policy/v1: disruption budgets.
import { defineKind, type GroupVersionRegistration } from '../../registration.js';
import { PodDisruptionBudget } from './pod-disruption-budget.js';

export const policyV1: GroupVersionRegistration = {
  group: 'policy',
  version: 'v1',
  stability: 'stable',
  kinds: [
    defineKind({
      kind: 'PodDisruptionBudget', resource: 'poddisruptionbudgets', singular: 'poddisruptionbudget', namespaced: true,
      shortNames: ['pdb'], subresources: ['status'], schema: PodDisruptionBudget,
    }),
  ],
};
