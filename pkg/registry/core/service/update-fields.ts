// Upstream's service strategy on update: values the server allocated are kept when a client
// leaves them out (patchAllocatedValues), and values a type change makes meaningless are dropped
// when the client did not change them (dropTypeDependentFields). Both run before validation.
import { isDeepStrictEqual } from 'node:util';
import type { Service } from '../../../../api/core/v1/service.js';
import { needsClusterIP, needsHealthCheckNodePort } from './allocator.js';

const needsNodePort = (s: Service) => s.spec?.type === 'NodePort' || s.spec?.type === 'LoadBalancer';
const externallyAccessible = (s: Service) =>
  s.spec?.type === 'NodePort' || s.spec?.type === 'LoadBalancer' || ((s.spec?.type ?? 'ClusterIP') === 'ClusterIP' && (s.spec?.externalIPs ?? []).length > 0);

/** Fills in cluster IPs, IP families, node ports and the health check port the old Service had. */
export function patchAllocatedValues(svc: Service, old: Service): void {
  const s = (svc.spec ??= {});
  const o = old.spec ?? {};
  if (needsClusterIP(old) && needsClusterIP(svc)) {
    if (!s.clusterIP && o.clusterIP) s.clusterIP = o.clusterIP;
    if ((s.clusterIPs ?? []).length === 0 && (o.clusterIPs ?? []).length > 0) s.clusterIPs = o.clusterIPs;
    if ((s.ipFamilies ?? []).length === 0 && (o.ipFamilies ?? []).length > 0) s.ipFamilies = o.ipFamilies;
    if (s.ipFamilyPolicy === undefined && o.ipFamilyPolicy !== undefined) s.ipFamilyPolicy = o.ipFamilyPolicy;
  }
  if (needsNodePort(old) && needsNodePort(svc)) {
    const used = new Set((o.ports ?? []).map((p) => p.nodePort ?? 0).filter((n) => (s.ports ?? []).some((p) => p.nodePort === n)));
    const byName = new Map((o.ports ?? []).map((p) => [p.name ?? '', p.nodePort ?? 0]));
    for (const p of s.ports ?? []) {
      if (p.nodePort) continue;
      const was = byName.get(p.name ?? '') ?? 0;
      if (was && !used.has(was)) p.nodePort = was;
    }
  }
  if (needsHealthCheckNodePort(old) && needsHealthCheckNodePort(svc) && !s.healthCheckNodePort && o.healthCheckNodePort) {
    s.healthCheckNodePort = o.healthCheckNodePort;
  }
}

/** Drops what the new type no longer uses, where the client left the old value as it was. */
export function dropTypeDependentFields(svc: Service, old: Service): void {
  const s = (svc.spec ??= {});
  const o = old.spec ?? {};
  if (needsClusterIP(old) && !needsClusterIP(svc)) {
    if ((s.clusterIP ?? '') === (o.clusterIP ?? '') && isDeepStrictEqual(s.clusterIPs ?? [], o.clusterIPs ?? [])) {
      delete s.clusterIP;
      delete s.clusterIPs;
    }
    if (isDeepStrictEqual(s.ipFamilies ?? [], o.ipFamilies ?? [])) delete s.ipFamilies;
    if (s.ipFamilyPolicy === o.ipFamilyPolicy) delete s.ipFamilyPolicy;
  }
  if (needsNodePort(old) && !needsNodePort(svc)) {
    const same = (s.ports ?? []).every((p, i) => (p.nodePort ?? 0) === ((o.ports ?? [])[i]?.nodePort ?? 0));
    if (same) for (const p of s.ports ?? []) delete p.nodePort;
  }
  if (needsHealthCheckNodePort(old) && !needsHealthCheckNodePort(svc) && s.healthCheckNodePort === o.healthCheckNodePort) delete s.healthCheckNodePort;
  if (o.type === 'LoadBalancer' && s.type !== 'LoadBalancer') {
    if (s.allocateLoadBalancerNodePorts !== undefined && s.allocateLoadBalancerNodePorts === o.allocateLoadBalancerNodePorts) delete s.allocateLoadBalancerNodePorts;
    if (s.loadBalancerClass !== undefined && s.loadBalancerClass === o.loadBalancerClass) delete s.loadBalancerClass;
  }
  if (externallyAccessible(old) && !externallyAccessible(svc) && s.externalTrafficPolicy === o.externalTrafficPolicy) delete s.externalTrafficPolicy;
}
