// Service: a stable virtual address in front of a set of pods, as upstream core/v1 Service. Field
// numbers follow upstream core/v1 generated.proto.
import { type Static } from '@sinclair/typebox';
import { bool, enumOf, field, int32, list, object, opt, str, stringList, stringMap } from '../../schema.js';
import { intOrString } from '../../meta/v1/primitives.js';
import { Condition, topLevel } from '../../meta/v1/types.js';
import { Protocols } from './container.js';

const P = 'io.orch.api.core.v1';

export const ServiceTypes = ['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'] as const;
export type ServiceType = (typeof ServiceTypes)[number];
export const ServiceAffinities = ['ClientIP', 'None'] as const;
export const TrafficPolicies = ['Cluster', 'Local'] as const;
export const IPFamilies = ['IPv4', 'IPv6'] as const;
export const IPFamilyPolicies = ['SingleStack', 'PreferDualStack', 'RequireDualStack'] as const;
export const LoadBalancerIPModes = ['VIP', 'Proxy'] as const;

export const ServicePort = object(`${P}.ServicePort`, {
  name: opt(str(1, { description: 'Name of the port, a DNS label unique within the service; required when the service has several ports.' })),
  protocol: opt(enumOf(2, Protocols, { default: 'TCP', description: 'IP protocol of the port: TCP (the default), UDP or SCTP.' })),
  appProtocol: opt(str(6, {
    'x-orch-emit': 'pointer',
    description: 'Application protocol carried on the port, a standard service name or a domain-prefixed name such as example.com/proto.',
  })),
  port: int32(3, { description: 'Port the service exposes, 1-65535.' }),
  targetPort: opt(intOrString(4, { description: 'Port number or named container port of the pods the traffic goes to; defaults to port.' })),
  nodePort: opt(int32(5, { description: 'Port opened on every node for NodePort and LoadBalancer services; allocated from the node port range when not given.' })),
}, { required: ['port'], description: 'One port a service exposes and where its traffic goes.' });
export type ServicePort = Static<typeof ServicePort>;

export const ClientIPConfig = object(`${P}.ClientIPConfig`, {
  timeoutSeconds: opt(int32(1, { 'x-orch-emit': 'pointer', description: 'How long, in seconds (1-86400), a client stays with the same endpoint; default 10800.' })),
}, { description: 'Settings of ClientIP session affinity.' });

export const SessionAffinityConfig = object(`${P}.SessionAffinityConfig`, {
  clientIP: opt(field(1, ClientIPConfig, { description: 'Settings used when sessionAffinity is ClientIP: how long a client sticks.' })),
}, { description: 'Settings of session affinity.' });

export const ServiceSpec = object(`${P}.ServiceSpec`, {
  ports: opt(list(1, ServicePort, { listType: 'map', mapKeys: ['port', 'protocol'], patchStrategy: 'merge', patchMergeKey: 'port' }, {
    description: 'Ports the service exposes.',
  })),
  selector: opt(stringMap(2, { 'x-orch-map-type': 'atomic', description: 'Labels of the pods traffic goes to; absent means the endpoints are managed by someone else.' })),
  clusterIP: opt(str(3, { description: 'The virtual IP of the service, allocated from the service IP range when empty; None makes a headless service. Cannot change but to or from ExternalName.' })),
  clusterIPs: opt(stringList(18, { listType: 'atomic' }, { description: 'The virtual IPs of the service, one per IP family; the first equals clusterIP.' })),
  type: opt(enumOf(4, ServiceTypes, { default: 'ClusterIP', description: 'How the service is exposed: ClusterIP (the default), NodePort, LoadBalancer or ExternalName.' })),
  externalIPs: opt(stringList(5, { listType: 'atomic' }, { description: 'Further IPs on which nodes accept traffic for the service; not managed by the cluster.' })),
  sessionAffinity: opt(enumOf(7, ServiceAffinities, { default: 'None', description: 'ClientIP keeps each client on one endpoint; None (the default) does not.' })),
  loadBalancerIP: opt(str(8, { description: 'Deprecated: IP the load balancer should take, where the provider supports it.' })),
  loadBalancerSourceRanges: opt(stringList(9, { listType: 'atomic' }, { description: 'Client IP ranges (CIDRs) a load balancer accepts traffic from, where the provider supports it.' })),
  externalName: opt(str(10, { description: 'DNS name the service is an alias for (a CNAME record); required for ExternalName services.' })),
  externalTrafficPolicy: opt(enumOf(11, [...TrafficPolicies, ''] as const, { description: 'For traffic from outside: Cluster spreads it over every endpoint, Local keeps it on endpoints of the receiving node.' })),
  healthCheckNodePort: opt(int32(12, { description: 'Node port of the health check of LoadBalancer services with the Local external traffic policy.' })),
  publishNotReadyAddresses: opt(bool(13, { description: 'Publish addresses of endpoints that are not ready yet (DNS of stateful sets).' })),
  sessionAffinityConfig: opt(field(14, SessionAffinityConfig, { description: 'Settings of the session affinity chosen in sessionAffinity.' })),
  ipFamilies: opt(stringList(19, { listType: 'atomic' }, { description: 'IP families of the service, IPv4 and/or IPv6, in the order of clusterIPs.' })),
  ipFamilyPolicy: opt(enumOf(17, IPFamilyPolicies, { 'x-orch-emit': 'pointer', description: 'SingleStack, PreferDualStack or RequireDualStack: how many IP families the service gets.' })),
  allocateLoadBalancerNodePorts: opt(bool(20, { 'x-orch-emit': 'pointer', description: 'Whether LoadBalancer services get node ports; default true.' })),
  loadBalancerClass: opt(str(21, { 'x-orch-emit': 'pointer', description: 'Which load balancer implementation serves a LoadBalancer service, a domain-prefixed name; cannot change.' })),
  internalTrafficPolicy: opt(enumOf(22, TrafficPolicies, { 'x-orch-emit': 'pointer', description: 'For traffic from inside the cluster: Cluster spreads it over every endpoint, Local keeps it on the node.' })),
  trafficDistribution: opt(str(23, { 'x-orch-emit': 'pointer', description: 'A preference for how traffic is spread over endpoints, such as PreferClose.' })),
}, { description: 'The desired state of a service.' });
export type ServiceSpec = Static<typeof ServiceSpec>;

export const PortStatus = object(`${P}.PortStatus`, {
  port: int32(1, { description: 'Port number of the load balancer port.' }),
  protocol: enumOf(2, Protocols, { description: 'Protocol of the port: TCP, UDP or SCTP.' }),
  error: opt(str(3, { 'x-orch-emit': 'pointer', description: 'Why the port is not served, as a CamelCase reason; absent when it is.' })),
}, { required: ['port', 'protocol'], description: 'The state of one port of a load balancer.' });

export const LoadBalancerIngress = object(`${P}.LoadBalancerIngress`, {
  ip: opt(str(1, { description: 'IP of the load balancer entry point.' })),
  hostname: opt(str(2, { description: 'DNS name of the load balancer entry point.' })),
  ipMode: opt(enumOf(3, LoadBalancerIPModes, { 'x-orch-emit': 'pointer', description: 'How the IP behaves: VIP delivers traffic to nodes with the IP as destination, Proxy rewrites it.' })),
  ports: opt(list(4, PortStatus, { listType: 'atomic' }, { description: 'States of the ports of the entry point.' })),
}, { description: 'One entry point of a load balancer.' });

export const LoadBalancerStatus = object(`${P}.LoadBalancerStatus`, {
  ingress: opt(list(1, LoadBalancerIngress, { listType: 'atomic' }, { description: 'Entry points of the load balancer.' })),
}, { description: 'The state of a load balancer.' });

export const ServiceStatus = object(`${P}.ServiceStatus`, {
  loadBalancer: opt(field(1, LoadBalancerStatus, { 'x-orch-emit': 'always', description: 'The state of the load balancer of a LoadBalancer service.' })),
  conditions: opt(list(2, Condition, { listType: 'map', mapKeys: ['type'], patchStrategy: 'merge', patchMergeKey: 'type' }, {
    description: 'Latest observations of the state of the service.',
  })),
}, { description: 'The observed state of a service.' });

export const Service = topLevel(`${P}.Service`, {
  spec: opt(field(2, ServiceSpec, { 'x-orch-emit': 'always', description: 'The desired state of the service: ports, selector, type and addresses.' })),
  status: opt(field(3, ServiceStatus, { 'x-orch-emit': 'always', description: 'The observed state of the service, such as its load balancer.' })),
}, { description: 'A stable virtual IP and DNS name in front of a set of pods chosen by labels.' });
export type Service = Static<typeof Service>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Upstream's SetDefaults_Service and SetDefaults_ServicePort beyond the schema defaults: an empty
 * type or affinity, a missing target port, the traffic policies, load balancer node ports and
 * the ClientIP timeout. The IP families are the allocator's, as upstream's registry does them.
 */
export function defaultService(svc: Service): void {
  const spec: unknown = svc.spec;
  if (!isObject(spec)) return;
  if (spec.type === '' || spec.type === undefined) spec.type = 'ClusterIP';
  if (spec.sessionAffinity === '' || spec.sessionAffinity === undefined) spec.sessionAffinity = 'None';
  if (Array.isArray(spec.ports)) {
    for (const p of spec.ports as unknown[]) {
      if (!isObject(p)) continue;
      if (p.protocol === '' || p.protocol === undefined) p.protocol = 'TCP';
      if (p.targetPort === undefined || p.targetPort === 0 || p.targetPort === '') p.targetPort = p.port;
    }
  }
  const type = spec.type;
  if ((type === 'NodePort' || type === 'LoadBalancer') && !spec.externalTrafficPolicy) spec.externalTrafficPolicy = 'Cluster';
  if (type !== 'ExternalName' && spec.internalTrafficPolicy === undefined) spec.internalTrafficPolicy = 'Cluster';
  if (type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts === undefined) spec.allocateLoadBalancerNodePorts = true;
  if (spec.sessionAffinity === 'ClientIP') {
    const cfg = isObject(spec.sessionAffinityConfig) ? spec.sessionAffinityConfig : (spec.sessionAffinityConfig = {});
    const clientIP = isObject(cfg.clientIP) ? cfg.clientIP : (cfg.clientIP = {});
    if (clientIP.timeoutSeconds === undefined) clientIP.timeoutSeconds = 10800;
  }
}
