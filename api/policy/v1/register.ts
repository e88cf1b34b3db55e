// policy/v1: disruption budgets.
import { ageColumn, nameColumn } from '../../printer-column.js';
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
      printerColumns: [
        nameColumn,
        { name: 'Min Available', type: 'string', description: 'Pods that must stay available (a number or a percentage).', priority: 0,
          cell: (p) => (p.spec?.minAvailable === undefined ? 'N/A' : String(p.spec.minAvailable)) },
        { name: 'Max Unavailable', type: 'string', description: 'Pods that may be unavailable (a number or a percentage).', priority: 0,
          cell: (p) => (p.spec?.maxUnavailable === undefined ? 'N/A' : String(p.spec.maxUnavailable)) },
        { name: 'Allowed Disruptions', type: 'integer', description: 'Pods that may be disrupted now (status.disruptionsAllowed).', priority: 0,
          cell: (p) => p.status?.disruptionsAllowed ?? 0 },
        ageColumn,
      ],
    }),
  ],
};
