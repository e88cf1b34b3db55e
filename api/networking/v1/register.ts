// networking.orch.io/v1: network policies.
import { defineKind, type GroupVersionRegistration } from '../../registration.js';
import { NetworkPolicy, defaultNetworkPolicy } from './network-policy.js';

export const networkingV1: GroupVersionRegistration = {
  group: 'networking.orch.io',
  version: 'v1',
  stability: 'stable',
  kinds: [
    defineKind({
      kind: 'NetworkPolicy', resource: 'networkpolicies', singular: 'networkpolicy', namespaced: true,
      shortNames: ['netpol'], subresources: ['status'], schema: NetworkPolicy, defaulter: defaultNetworkPolicy,
    }),
  ],
};
