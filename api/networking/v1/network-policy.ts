import { Type, type Static } from '@sinclair/typebox';
import { enumOf, field, int32, list, object, opt, str, stringList } from '../../schema.js';
import { intOrString } from '../../meta/v1/primitives.js';
import { Condition, LabelSelector, topLevel } from '../../meta/v1/types.js';

const P = 'io.orch.api.networking.v1';

export const Protocols = ['TCP', 'UDP', 'SCTP'] as const;
export const PolicyTypes = ['Ingress', 'Egress'] as const;

export const IPBlock = object(`${P}.IPBlock`, {
  cidr: str(1, { description: 'The range of addresses, as a CIDR such as 192.168.1.0/24 or 2001:db8::/64.' }),
  except: opt(stringList(2, { listType: 'atomic' }, { description: 'CIDRs inside cidr to leave out of the range.' })),
}, { required: ['cidr'], description: 'A range of IP addresses allowed by a rule, with optional exceptions.' });
export type IPBlock = Static<typeof IPBlock>;

export const NetworkPolicyPeer = object(`${P}.NetworkPolicyPeer`, {
  podSelector: opt(field(1, LabelSelector, {
    description: 'Pods allowed: in the namespace of the policy, or with namespaceSelector in the namespaces it selects. Empty selects all pods.',
  })),
  namespaceSelector: opt(field(2, LabelSelector, {
    description: 'Namespaces whose pods are allowed (narrowed by podSelector when both are given). Empty selects all namespaces.',
  })),
  ipBlock: opt(field(3, IPBlock, { description: 'Addresses allowed; cannot be combined with the selectors.' })),
}, { description: 'A source or destination a rule allows: pods, namespaces, or an address range.' });
export type NetworkPolicyPeer = Static<typeof NetworkPolicyPeer>;

export const NetworkPolicyPort = object(`${P}.NetworkPolicyPort`, {
  protocol: opt(enumOf(1, Protocols, {
    default: 'TCP',
    'x-orch-emit': 'pointer',
    description: 'TCP (the default), UDP or SCTP.',
  })),
  port: opt(intOrString(2, {
    'x-orch-emit': 'pointer',
    description: 'A port number or a named port of the pods; absent matches every port.',
  })),
  endPort: opt(int32(3, {
    'x-orch-emit': 'pointer',
    description: 'Last port of a range starting at port, which must then be a number no larger than endPort.',
  })),
}, { description: 'A port (or range of ports) a rule allows traffic on.' });
export type NetworkPolicyPort = Static<typeof NetworkPolicyPort>;

export const NetworkPolicyIngressRule = object(`${P}.NetworkPolicyIngressRule`, {
  ports: opt(list(1, NetworkPolicyPort, { listType: 'atomic' }, {
    description: 'Ports traffic may arrive on; absent or empty allows all ports.',
  })),
  from: opt(list(2, NetworkPolicyPeer, { listType: 'atomic' }, {
    description: 'Sources traffic may come from, any of them; absent or empty allows all sources.',
  })),
}, { description: 'Incoming traffic a policy allows: from these sources and to these ports.' });

export const NetworkPolicyEgressRule = object(`${P}.NetworkPolicyEgressRule`, {
  ports: opt(list(1, NetworkPolicyPort, { listType: 'atomic' }, {
    description: 'Ports traffic may go to; absent or empty allows all ports.',
  })),
  to: opt(list(2, NetworkPolicyPeer, { listType: 'atomic' }, {
    description: 'Destinations traffic may go to, any of them; absent or empty allows all destinations.',
  })),
}, { description: 'Outgoing traffic a policy allows: to these destinations and ports.' });

export const NetworkPolicySpec = object(`${P}.NetworkPolicySpec`, {
  podSelector: field(1, LabelSelector, {
    description: 'The pods of the namespace the policy applies to; an empty selector selects them all.',
  }),
  ingress: opt(list(2, NetworkPolicyIngressRule, { listType: 'atomic' }, {
    description: 'Incoming traffic allowed to the selected pods, in addition to what other policies allow. Empty allows none.',
  })),
  egress: opt(list(3, NetworkPolicyEgressRule, { listType: 'atomic' }, {
    description: 'Outgoing traffic allowed from the selected pods, in addition to what other policies allow. Empty allows none.',
  })),
  policyTypes: opt(list(4, Type.Unsafe<(typeof PolicyTypes)[number]>(Type.String({ enum: [...PolicyTypes] })), { listType: 'atomic' }, {
    description: 'Directions the policy isolates: Ingress, Egress or both. Defaults to Ingress, plus Egress when there are egress rules.',
  })),
}, { required: ['podSelector'], description: 'Which pods a network policy selects and the traffic it allows them.' });
export type NetworkPolicySpec = Static<typeof NetworkPolicySpec>;

export const NetworkPolicyStatus = object(`${P}.NetworkPolicyStatus`, {
  conditions: opt(list(1, Condition, { listType: 'map', mapKeys: ['type'], patchStrategy: 'merge', patchMergeKey: 'type' }, {
    description: 'Latest observations of the policy, as reported by the network implementation.',
  })),
}, { description: 'The observed state of a network policy.' });

export const NetworkPolicy = topLevel(`${P}.NetworkPolicy`, {
  spec: opt(field(2, NetworkPolicySpec, { 'x-orch-emit': 'always', description: 'The pods the policy selects and the traffic it allows them.' })),
  status: opt(field(3, NetworkPolicyStatus, { description: 'The observed state of the policy.' })),
}, { description: 'Which network traffic selected pods may receive and send; traffic no policy allows is dropped once a pod is selected.' });
export type NetworkPolicy = Static<typeof NetworkPolicy>;

/**
 * Upstream SetDefaults_NetworkPolicy: without policyTypes a policy affects ingress, and egress too
 * when it has egress rules. (Port protocols default to TCP through the schema.)
 */
export function defaultNetworkPolicy(np: NetworkPolicy): void {
  const spec = np.spec;
  if (!spec || (spec.policyTypes ?? []).length > 0) return;
  spec.policyTypes = (spec.egress ?? []).length > 0 ? ['Ingress', 'Egress'] : ['Ingress'];
}
