// networking.<domain>/v1: network policies.
import { ageColumn, formatLabelSelector, nameColumn } from '../../printer-column.js';
import type { ApiDomain } from '../../domain.js';
import { defineKind, type GroupVersionRegistration } from '../../registration.js';
import { NetworkPolicy, defaultNetworkPolicy } from './network-policy.js';

export const networkingV1 = (d: ApiDomain): GroupVersionRegistration => ({
  group: d.group('networking'),
  version: 'v1',
  stability: 'stable',
  kinds: [
    defineKind({
      kind: 'NetworkPolicy', resource: 'networkpolicies', singular: 'networkpolicy', namespaced: true,
      shortNames: ['netpol'], subresources: ['status'], schema: NetworkPolicy, defaulter: defaultNetworkPolicy,
      printerColumns: [
        nameColumn,
        { name: 'Pod-Selector', type: 'string', description: 'The pods the policy applies to (spec.podSelector).', priority: 0,
          cell: (np) => formatLabelSelector(np.spec?.podSelector) },
        ageColumn,
      ],
    }),
  ],
});
