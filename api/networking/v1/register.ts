// networking.<domain>/v1: ingresses, their classes and network policies.
import { ageColumn, formatLabelSelector, nameColumn } from '../../printer-column.js';
import type { ApiDomain } from '../../domain.js';
import { defineKind, type GroupVersionRegistration } from '../../registration.js';
import { Ingress } from './ingress.js';
import { IngressClass } from './ingress-class.js';
import { NetworkPolicy, defaultNetworkPolicy } from './network-policy.js';

/** Upstream's hosts cell: the first three non-empty hosts, `+ N more...` after them, `*` for none. */
function formatHosts(ing: Ingress): string {
  const rules = ing.spec?.rules ?? [];
  const max = 3;
  const hosts: string[] = [];
  let more = false;
  for (const rule of rules) {
    if (hosts.length === max) more = true;
    if (!more && rule.host) hosts.push(rule.host);
  }
  if (hosts.length === 0) return '*';
  return more ? `${hosts.join(',')} + ${rules.length - max} more...` : hosts.join(',');
}

/** The load balancer's addresses (an IP, else the host name), sorted and without duplicates. */
function formatAddress(ing: Ingress): string {
  const set = new Set<string>();
  for (const entry of ing.status?.loadBalancer?.ingress ?? []) {
    if (entry.ip) set.add(entry.ip);
    else if (entry.hostname) set.add(entry.hostname);
  }
  return [...set].sort().join(',');
}

export const networkingV1 = (d: ApiDomain): GroupVersionRegistration => ({
  group: d.group('networking'),
  version: 'v1',
  stability: 'stable',
  kinds: [
    defineKind({
      kind: 'IngressClass', resource: 'ingressclasses', singular: 'ingressclass', namespaced: false,
      schema: IngressClass,
      printerColumns: [
        nameColumn,
        { name: 'Controller', type: 'string', description: 'The controller that implements the class.', priority: 0, cell: (ic) => ic.spec?.controller ?? '' },
        { name: 'Parameters', type: 'string', description: 'The object holding the parameters of the class, as Kind.group/name.', priority: 0,
          cell: (ic) => {
            const p = ic.spec?.parameters;
            if (!p) return '<none>';
            return `${p.kind}${p.apiGroup !== undefined && p.apiGroup !== null ? `.${p.apiGroup}` : ''}/${p.name}`;
          } },
        ageColumn,
      ],
    }),
    defineKind({
      kind: 'Ingress', resource: 'ingresses', singular: 'ingress', namespaced: true,
      shortNames: ['ing'], subresources: ['status'], schema: Ingress,
      printerColumns: [
        nameColumn,
        { name: 'Class', type: 'string', description: 'The ingress class of the ingress.', priority: 0, cell: (ing) => ing.spec?.ingressClassName ?? '<none>' },
        { name: 'Hosts', type: 'string', description: 'Hosts the ingress routes.', priority: 0, cell: formatHosts },
        { name: 'Address', type: 'string', description: 'Addresses of the load balancer.', priority: 0, cell: formatAddress },
        { name: 'Ports', type: 'string', description: 'Ports the ingress serves: 80, and 443 with TLS.', priority: 0,
          cell: (ing) => ((ing.spec?.tls ?? []).length > 0 ? '80, 443' : '80') },
        ageColumn,
      ],
    }),
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
