import { type Static } from '@sinclair/typebox';
import { enumOf, field, int32, list, object, opt, str, stringList } from '../../schema.js';
import { embedded } from '../../embedded-fields.js';
import { topLevel } from '../../meta/v1/types.js';
import { TypedLocalObjectReference } from '../../core/v1/object-reference.js';

const P = 'io.orch.api.networking.v1';

export const PathTypes = ['Exact', 'Prefix', 'ImplementationSpecific'] as const;

export const ServiceBackendPort = object(`${P}.ServiceBackendPort`, {
  name: opt(str(1, { description: 'Name of the port of the service; not together with number.' })),
  number: opt(int32(2, { description: 'Number of the port of the service; not together with name.' })),
}, { 'x-orch-map-type': 'atomic', description: 'A port of a service, by name or by number.' });

export const IngressServiceBackend = object(`${P}.IngressServiceBackend`, {
  name: str(1, { description: 'Name of the service, in the namespace of the ingress.' }),
  port: opt(field(2, ServiceBackendPort, { 'x-orch-emit': 'always', description: 'Port of the service traffic is sent to.' })),
}, { required: ['name'], description: 'A service that receives the traffic of an ingress path.' });

export const IngressBackend = object(`${P}.IngressBackend`, {
  service: opt(field(4, IngressServiceBackend, { description: 'The service traffic is sent to; not together with resource.' })),
  resource: opt(field(3, TypedLocalObjectReference, {
    description: 'Another object in the namespace of the ingress that receives the traffic (such as a storage bucket); not together with service.',
  })),
}, { description: 'Where an ingress sends matching traffic: a service or another resource.' });

export const HTTPIngressPath = object(`${P}.HTTPIngressPath`, {
  path: opt(str(1, { description: 'Path matched against the request path; must start with "/" (except that ImplementationSpecific may leave it empty).' })),
  pathType: enumOf(3, PathTypes, {
    description: 'How path is matched: Exact (the whole path), Prefix (by "/"-separated elements) or ImplementationSpecific (as the ingress class decides).',
  }),
  backend: field(2, IngressBackend, { description: 'Where matching requests are sent.' }),
}, { required: ['pathType', 'backend'], description: 'A path of a host and the backend its requests go to.' });

export const HTTPIngressRuleValue = object(`${P}.HTTPIngressRuleValue`, {
  paths: list(1, HTTPIngressPath, { listType: 'atomic' }, { description: 'Paths and their backends.' }),
}, { required: ['paths'], description: 'HTTP paths of a host and their backends.' });

export const IngressRule = object(`${P}.IngressRule`, {
  host: opt(str(1, {
    description: 'Fully qualified domain name the rule applies to (not an IP address, no port); a leading "*." matches one more label. Empty matches every host.',
  })),
  ...embedded(2, {
    http: opt(field(1, HTTPIngressRuleValue, { description: 'HTTP paths of the host and their backends.' })),
  }),
}, { description: 'The paths of one host and their backends.' });

export const IngressTLS = object(`${P}.IngressTLS`, {
  hosts: opt(stringList(1, { listType: 'atomic' }, { description: 'Hosts the certificate is for; they must match the hosts of rules. Defaults to the wildcard host of the controller.' })),
  secretName: opt(str(2, { description: 'Name of the secret in the namespace of the ingress holding the certificate and key.' })),
}, { description: 'TLS for some hosts of an ingress, with the secret holding the certificate.' });

export const IngressSpec = object(`${P}.IngressSpec`, {
  ingressClassName: opt(str(4, {
    'x-orch-emit': 'pointer',
    description: 'Name of the IngressClass whose controller implements the ingress; unset uses the default class, if any.',
  })),
  defaultBackend: opt(field(1, IngressBackend, { description: 'Where requests no rule matches are sent.' })),
  tls: opt(list(2, IngressTLS, { listType: 'atomic' }, { description: 'TLS settings; by default the ingress serves plain HTTP only.' })),
  rules: opt(list(3, IngressRule, { listType: 'atomic' }, { description: 'Host rules; without rules every request goes to defaultBackend.' })),
}, { description: 'The desired state of an ingress: hosts, paths and their backends, and TLS.' });
export type IngressSpec = Static<typeof IngressSpec>;

export const IngressPortStatus = object(`${P}.IngressPortStatus`, {
  port: int32(1, { description: 'Port number of the load balancer.' }),
  protocol: enumOf(2, ['TCP', 'UDP', 'SCTP'] as const, { description: 'Protocol of the port: TCP, UDP or SCTP.' }),
  error: opt(str(3, {
    'x-orch-emit': 'pointer',
    description: 'Why the port is in error, as a CamelCase reason or domain-prefixed name; unset when fine.',
  })),
}, { required: ['port', 'protocol'], description: 'The state of one port of the load balancer of an ingress.' });

export const IngressLoadBalancerIngress = object(`${P}.IngressLoadBalancerIngress`, {
  ip: opt(str(1, { description: 'IP address of the load balancer.' })),
  hostname: opt(str(2, { description: 'DNS name of the load balancer.' })),
  ports: opt(list(4, IngressPortStatus, { listType: 'atomic' }, { description: 'The state of the ports of the load balancer.' })),
}, { description: 'One entry point of the load balancer of an ingress.' });

export const IngressLoadBalancerStatus = object(`${P}.IngressLoadBalancerStatus`, {
  ingress: opt(list(1, IngressLoadBalancerIngress, { listType: 'atomic' }, { description: 'Entry points of the load balancer.' })),
}, { description: 'The state of the load balancer of an ingress.' });

export const IngressStatus = object(`${P}.IngressStatus`, {
  loadBalancer: opt(field(1, IngressLoadBalancerStatus, { 'x-orch-emit': 'always', description: 'The state of the load balancer.' })),
}, { description: 'The observed state of an ingress.' });

export const Ingress = topLevel(`${P}.Ingress`, {
  spec: opt(field(2, IngressSpec, { 'x-orch-emit': 'always', description: 'The desired state: hosts, paths, backends and TLS.' })),
  status: opt(field(3, IngressStatus, {
    'x-orch-emit': 'always',
    description: 'The observed state, written by the ingress controller through the status sub-resource.',
  })),
}, { description: 'Routes outside HTTP(S) traffic to services by host and path, as its ingress controller implements it.' });
export type Ingress = Static<typeof Ingress>;
