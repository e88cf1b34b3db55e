import { Type, type Static } from '@sinclair/typebox';
import { enumOf, field, int32, list, object, opt, str, stringList } from '../../schema.js';
import { intOrString } from '../../meta/v1/primitives.js';
import { Condition, LabelSelector, topLevel } from '../../meta/v1/types.js';

const P = 'io.orch.api.networking.v1';

export const Protocols = ['TCP', 'UDP', 'SCTP'] as const;
export const PolicyTypes = ['Ingress', 'Egress'] as const;

export const IPBlock = object(`${P}.IPBlock`, {
  cidr: str(1),
  except: opt(stringList(2, { listType: 'atomic' })),
}, { required: ['cidr'] });
export type IPBlock = Static<typeof IPBlock>;

export const NetworkPolicyPeer = object(`${P}.NetworkPolicyPeer`, {
  podSelector: opt(field(1, LabelSelector)),
  namespaceSelector: opt(field(2, LabelSelector)),
  ipBlock: opt(field(3, IPBlock)),
});
export type NetworkPolicyPeer = Static<typeof NetworkPolicyPeer>;

export const NetworkPolicyPort = object(`${P}.NetworkPolicyPort`, {
  protocol: opt(enumOf(1, Protocols, { default: 'TCP' })),
  port: opt(intOrString(2)),
  endPort: opt(int32(3)),
});
export type NetworkPolicyPort = Static<typeof NetworkPolicyPort>;

export const NetworkPolicyIngressRule = object(`${P}.NetworkPolicyIngressRule`, {
  ports: opt(list(1, NetworkPolicyPort, { listType: 'atomic' })),
  from: opt(list(2, NetworkPolicyPeer, { listType: 'atomic' })),
});

export const NetworkPolicyEgressRule = object(`${P}.NetworkPolicyEgressRule`, {
  ports: opt(list(1, NetworkPolicyPort, { listType: 'atomic' })),
  to: opt(list(2, NetworkPolicyPeer, { listType: 'atomic' })),
});

export const NetworkPolicySpec = object(`${P}.NetworkPolicySpec`, {
  podSelector: field(1, LabelSelector),
  ingress: opt(list(2, NetworkPolicyIngressRule, { listType: 'atomic' })),
  egress: opt(list(3, NetworkPolicyEgressRule, { listType: 'atomic' })),
  policyTypes: opt(list(4, Type.Unsafe<(typeof PolicyTypes)[number]>(Type.String({ enum: [...PolicyTypes] })), { listType: 'atomic' })),
}, { required: ['podSelector'] });
export type NetworkPolicySpec = Static<typeof NetworkPolicySpec>;

export const NetworkPolicyStatus = object(`${P}.NetworkPolicyStatus`, {
  conditions: opt(list(1, Condition, { listType: 'map', mapKeys: ['type'], patchStrategy: 'merge', patchMergeKey: 'type' })),
});

export const NetworkPolicy = topLevel(`${P}.NetworkPolicy`, {
  spec: opt(field(2, NetworkPolicySpec)),
  status: opt(field(3, NetworkPolicyStatus)),
});
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
