// coordination.<domain>/v1: leases for leader election and heartbeats.
import { ageColumn, nameColumn } from '../../printer-column.js';
import type { ApiDomain } from '../../domain.js';
import { defineKind, type GroupVersionRegistration } from '../../registration.js';
import { Lease } from './lease.js';

export const coordinationV1 = (d: ApiDomain): GroupVersionRegistration => ({
  group: d.group('coordination'),
  version: 'v1',
  stability: 'stable',
  kinds: [
    defineKind({
      kind: 'Lease', resource: 'leases', singular: 'lease', namespaced: true,
      schema: Lease,
      printerColumns: [
        nameColumn,
        { name: 'Holder', type: 'string', description: 'Identity of the current holder.', priority: 0, cell: (l) => l.spec?.holderIdentity ?? '' },
        ageColumn,
      ],
    }),
  ],
});
