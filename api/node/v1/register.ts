// node.<domain>/v1: container runtime classes.
import { ageColumn, nameColumn } from '../../printer-column.js';
import type { ApiDomain } from '../../domain.js';
import { defineKind, type GroupVersionRegistration } from '../../registration.js';
import { RuntimeClass } from './runtime-class.js';

export const nodeV1 = (d: ApiDomain): GroupVersionRegistration => ({
  group: d.group('node'),
  version: 'v1',
  stability: 'stable',
  kinds: [
    defineKind({
      kind: 'RuntimeClass', resource: 'runtimeclasses', singular: 'runtimeclass', namespaced: false,
      schema: RuntimeClass,
      printerColumns: [
        nameColumn,
        { name: 'Handler', type: 'string', description: 'The runtime configuration on the node.', priority: 0, cell: (c) => c.handler ?? '' },
        ageColumn,
      ],
    }),
  ],
});
