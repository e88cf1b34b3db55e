// scheduling.<domain>/v1: pod priorities.
import { ageColumn, nameColumn } from '../../printer-column.js';
import type { ApiDomain } from '../../domain.js';
import { defineKind, type GroupVersionRegistration } from '../../registration.js';
import { PriorityClass } from './priority-class.js';

export const schedulingV1 = (d: ApiDomain): GroupVersionRegistration => ({
  group: d.group('scheduling'),
  version: 'v1',
  stability: 'stable',
  kinds: [
    defineKind({
      kind: 'PriorityClass', resource: 'priorityclasses', singular: 'priorityclass', namespaced: false,
      shortNames: ['pc'], schema: PriorityClass,
      printerColumns: [
        nameColumn,
        { name: 'Value', type: 'integer', description: 'Priority of the pods of this class.', priority: 0, cell: (c) => c.value ?? 0 },
        { name: 'Global-Default', type: 'boolean', description: 'Whether pods without a class get this one.', priority: 0,
          cell: (c) => c.globalDefault ?? false },
        ageColumn,
        { name: 'PreemptionPolicy', type: 'string', description: 'Whether pods of this class may preempt lower-priority pods.', priority: 0,
          cell: (c) => c.preemptionPolicy ?? 'PreemptLowerPriority' },
      ],
    }),
  ],
});
