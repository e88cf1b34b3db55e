// EndpointSlice: a bounded share of the network endpoints of a service, as upstream
// discovery/v1. Field numbers follow upstream discovery/v1 generated.proto.
import { type Static } from '@sinclair/typebox';
import { bool, enumOf, field, int32, list, object, opt, str, stringList, stringMap } from '../../schema.js';
import { topLevel } from '../../meta/v1/types.js';
import { ObjectReference } from '../../core/v1/object-reference.js';

const P = 'io.orch.api.discovery.v1';

/** Upstream's supported address types, sorted as its NotSupported errors list them. */
export const AddressTypes = ['FQDN', 'IPv4', 'IPv6'] as const;
export type AddressType = (typeof AddressTypes)[number];

/** The port protocols an EndpointSlice accepts, sorted as upstream's errors list them. */
export const EndpointSliceProtocols = ['SCTP', 'TCP', 'UDP'] as const;

/** Upstream's limits: endpoints per slice, addresses per endpoint, ports per slice, zone hints per endpoint. */
export const maxEndpointsPerSlice = 1000;
export const maxAddressesPerEndpoint = 100;
export const maxPortsPerSlice = 20000;
export const maxZoneHints = 8;

export const EndpointConditions = object(`${P}.EndpointConditions`, {
  ready: opt(bool(1, {
    'x-orch-emit': 'pointer',
    description: 'Whether the endpoint should receive traffic: serving and not terminating, unless the service publishes addresses that are not ready. Unset means ready.',
  })),
  serving: opt(bool(2, {
    'x-orch-emit': 'pointer',
    description: 'Whether the endpoint can answer traffic (for a pod: its Ready condition), whether or not it is terminating. Unset means serving.',
  })),
  terminating: opt(bool(3, { 'x-orch-emit': 'pointer', description: 'Whether the endpoint is shutting down. Unset means not terminating.' })),
}, { description: 'The state of an endpoint as consumers of the slice should read it.' });
export type EndpointConditions = Static<typeof EndpointConditions>;

export const ForZone = object(`${P}.ForZone`, {
  name: str(1, { description: 'Name of the zone.' }),
}, { required: ['name'], description: 'A zone that should consume an endpoint under topology aware routing.' });
export type ForZone = Static<typeof ForZone>;

export const EndpointHints = object(`${P}.EndpointHints`, {
  forZones: opt(list(1, ForZone, { listType: 'atomic' }, {
    maxItems: maxZoneHints,
    description: `Zones that should consume the endpoint under topology aware routing; at most ${maxZoneHints}.`,
  })),
}, { description: 'Hints about how an endpoint should be consumed.' });
export type EndpointHints = Static<typeof EndpointHints>;

export const Endpoint = object(`${P}.Endpoint`, {
  addresses: stringList(1, { listType: 'set' }, {
    maxItems: maxAddressesPerEndpoint,
    description: `Addresses of the endpoint, read according to the slice's addressType (canonical IPs for IPv4 and IPv6). One to ${maxAddressesPerEndpoint}; consumers use the first.`,
  }),
  conditions: opt(field(2, EndpointConditions, { 'x-orch-emit': 'always', description: 'The current state of the endpoint.' })),
  hostname: opt(str(3, {
    'x-orch-emit': 'pointer',
    description: 'Host name of the endpoint, a DNS label, which consumers may use to tell endpoints apart (e.g. in DNS names).',
  })),
  targetRef: opt(field(4, ObjectReference, { description: 'The object (usually a pod) behind the endpoint.' })),
  deprecatedTopology: opt(stringMap(5, {
    description: 'Topology labels of the v1beta1 API. Not writable through v1: anything written here is dropped; use zone and nodeName.',
  })),
  nodeName: opt(str(6, { 'x-orch-emit': 'pointer', description: 'Name of the node hosting the endpoint.' })),
  zone: opt(str(7, { 'x-orch-emit': 'pointer', description: 'Name of the zone the endpoint is in.' })),
  hints: opt(field(8, EndpointHints, { description: 'How consumers should use the endpoint (topology aware routing).' })),
}, { required: ['addresses'], description: 'One backend of a service: its addresses and state.' });
export type Endpoint = Static<typeof Endpoint>;

export const EndpointPort = object(`${P}.EndpointPort`, {
  name: opt(str(1, {
    'x-orch-emit': 'pointer',
    default: '',
    description: 'Name of the port, unique in the slice: empty or a DNS label. For a slice made from a service, the service port\'s name.',
  })),
  protocol: opt(enumOf(2, EndpointSliceProtocols, {
    'x-orch-emit': 'pointer',
    default: 'TCP',
    description: 'IP protocol of the port: TCP (the default), UDP or SCTP.',
  })),
  port: opt(int32(3, {
    'x-orch-emit': 'pointer',
    description: 'Port number of the endpoints (for a slice made from a service, the target port). Unset means no port restriction, left to the consumer.',
  })),
  appProtocol: opt(str(4, {
    'x-orch-emit': 'pointer',
    description: 'Application protocol carried on the port: an IANA service name, or a domain-prefixed name such as example.com/proto.',
  })),
}, { 'x-orch-map-type': 'atomic', description: 'A port on which every endpoint of the slice can be reached.' });
export type EndpointPort = Static<typeof EndpointPort>;

export const EndpointSlice = topLevel(`${P}.EndpointSlice`, {
  addressType: enumOf(4, AddressTypes, {
    description: 'Type of every address in the slice: IPv4, IPv6 or FQDN (deprecated, no semantics). Cannot be changed.',
  }),
  endpoints: opt(list(2, Endpoint, { listType: 'atomic' }, {
    'x-orch-emit': 'always',
    maxItems: maxEndpointsPerSlice,
    description: `The unique endpoints of the slice; at most ${maxEndpointsPerSlice}.`,
  })),
  ports: opt(list(3, EndpointPort, { listType: 'atomic' }, {
    'x-orch-emit': 'always',
    maxItems: maxPortsPerSlice,
    description: 'Ports every endpoint of the slice offers, each with a unique name. Empty means no ports are defined.',
  })),
}, {
  required: ['addressType'],
  description: 'A set of the endpoints of a service. The slices of a service carry its name in a service-name label; together they hold all its endpoints.',
});
export type EndpointSlice = Static<typeof EndpointSlice>;
