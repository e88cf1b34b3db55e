// Endpoints: the addresses and ports that back a service, as upstream core/v1 Endpoints. Field
// numbers follow upstream core/v1 generated.proto.
import { type Static } from '@sinclair/typebox';
import { enumOf, field, int32, list, object, opt, str } from '../../schema.js';
import { topLevel } from '../../meta/v1/types.js';
import { Protocols } from './container.js';
import { ObjectReference } from './object-reference.js';

const P = 'io.orch.api.core.v1';

export const EndpointAddress = object(`${P}.EndpointAddress`, {
  ip: str(1, { description: 'IP address of the endpoint. Loopback, link-local, link-local multicast and unspecified addresses are refused.' }),
  hostname: opt(str(3, { description: 'Host name of the endpoint, a DNS label, used for DNS records of headless services.' })),
  nodeName: opt(str(4, { 'x-orch-emit': 'pointer', description: 'Name of the node that hosts the endpoint, when known.' })),
  targetRef: opt(field(2, ObjectReference, { description: 'The object (usually a pod) that provides the endpoint.' })),
}, {
  required: ['ip'],
  'x-orch-map-type': 'atomic',
  description: 'One address of an endpoint, with the node and object behind it.',
});
export type EndpointAddress = Static<typeof EndpointAddress>;

export const EndpointPort = object(`${P}.EndpointPort`, {
  name: opt(str(1, { description: 'Name of the port, matching a service port name; a DNS label, required when a subset has more than one port.' })),
  port: int32(2, { description: 'Port number of the endpoint, 1-65535.' }),
  protocol: opt(enumOf(3, Protocols, { default: 'TCP', description: 'IP protocol of the port: TCP (the default), UDP or SCTP.' })),
  appProtocol: opt(str(4, {
    'x-orch-emit': 'pointer',
    description: 'Application protocol carried on the port, a standard service name or a domain-prefixed name such as example.com/proto.',
  })),
}, {
  required: ['port'],
  'x-orch-map-type': 'atomic',
  description: 'A port on which the addresses of a subset can be reached.',
});
export type EndpointPort = Static<typeof EndpointPort>;

export const EndpointSubset = object(`${P}.EndpointSubset`, {
  addresses: opt(list(1, EndpointAddress, { listType: 'atomic' }, {
    description: 'Addresses that are ready to receive traffic on the ports of the subset.',
  })),
  notReadyAddresses: opt(list(2, EndpointAddress, { listType: 'atomic' }, {
    description: 'Addresses that exist but are not ready yet (starting, or failing their readiness checks).',
  })),
  ports: opt(list(3, EndpointPort, { listType: 'atomic' }, {
    description: 'Ports available on every address of the subset.',
  })),
}, { description: 'A group of addresses sharing the same ports: every address is reachable on every port.' });
export type EndpointSubset = Static<typeof EndpointSubset>;

export const Endpoints = topLevel(`${P}.Endpoints`, {
  subsets: opt(list(2, EndpointSubset, { listType: 'atomic' }, {
    description: 'Groups of addresses and the ports they share; together they are all the endpoints of the service.',
  })),
}, { description: 'The network endpoints (addresses and ports) that back a service.' });
export type Endpoints = Static<typeof Endpoints>;

/** Upstream's SetDefaults_EndpointPort also replaces an empty protocol (the schema default covers only an absent one). */
export function defaultEndpoints(ep: Endpoints): void {
  const subsets: unknown = ep.subsets;
  if (!Array.isArray(subsets)) return;
  for (const ss of subsets as unknown[]) {
    const ports = typeof ss === 'object' && ss !== null ? (ss as { ports?: unknown }).ports : undefined;
    if (!Array.isArray(ports)) continue;
    for (const p of ports as unknown[]) {
      if (typeof p === 'object' && p !== null && (p as { protocol?: unknown }).protocol === '') (p as { protocol: string }).protocol = 'TCP';
    }
  }
}
