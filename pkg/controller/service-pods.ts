// What the endpoints and endpoint slice controllers read the same way off Services and their pods
// (upstream's pkg/controller/util/endpoint and k8s.io/endpointslice/util): which pods a service
// selects, which of them may back it, which port a service port reaches on a pod, and which
// services a pod change concerns.
import type { Pod } from '../../api/core/v1/pod.js';
import type { Service } from '../../api/core/v1/service.js';
import { sameStringMap } from '../util/string-map.js';

export type ServicePort = NonNullable<NonNullable<Service['spec']>['ports']>[number];

/** A service's selector as upstream reads a map selector; an empty one counts as none, as on the wire. */
export function serviceSelector(svc: Service): Record<string, string> | undefined {
  const sel = svc.spec?.selector;
  return sel && Object.keys(sel).length > 0 ? sel : undefined;
}

/** Whether every key of a map selector is among the labels with its value. */
const selects = (sel: Record<string, string>, labels: Record<string, string> | undefined): boolean =>
  Object.entries(sel).every(([k, v]) => labels?.[k] === v);

/** The pods (of the service's namespace) the service's selector picks; none without a selector. */
export function selectedPods<P extends Pod>(svc: Service, pods: readonly P[]): P[] {
  const sel = serviceSelector(svc);
  return sel ? pods.filter((p) => selects(sel, p.metadata?.labels)) : [];
}

/** Whether the pod's Ready condition is True. */
export const isPodReady = (pod: Pod): boolean => (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

/** Upstream's ShouldPodBeInEndpoints: not finished, has an IP, and (unless terminating pods count) not being deleted. */
export function shouldPodBeInEndpoints(pod: Pod, includeTerminating: boolean): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Failed' || phase === 'Succeeded') return false;
  if (!pod.status?.podIP && (pod.status?.podIPs ?? []).length === 0) return false;
  return includeTerminating || !pod.metadata?.deletionTimestamp;
}

/** Upstream's ShouldSetHostname: the pod names the service as its subdomain (in the same namespace). */
export const shouldSetHostname = (pod: Pod, svc: Service): boolean =>
  !!pod.spec?.hostname && pod.spec.subdomain === svc.metadata?.name && pod.metadata?.namespace === svc.metadata?.namespace;

/** Upstream's FindPort: a numbered target port as it is, a named one from the pod's containers (and sidecars) with the same protocol. */
export function findPort(pod: Pod, sp: ServicePort): number | undefined {
  const target = sp.targetPort ?? sp.port;
  if (typeof target === 'number') return target;
  const protocol = sp.protocol ?? 'TCP';
  const sidecars = (pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always');
  for (const c of [...(pod.spec?.containers ?? []), ...sidecars]) {
    const found = (c.ports ?? []).find((p) => p.name === target && (p.protocol ?? 'TCP') === protocol);
    if (found) return found.containerPort;
  }
  return undefined;
}

/** The services (of the pods' namespace) whose selector picks any of the pod's versions. */
export function servicesSelecting<S extends Service>(services: readonly S[], ...versions: Pod[]): S[] {
  return services.filter((svc) => {
    const sel = serviceSelector(svc);
    return sel !== undefined && versions.some((p) => selects(sel, p.metadata?.labels));
  });
}

/**
 * Upstream's podEndpointsChanged: whether a pod update can change what endpoints show of it (its
 * deletion, readiness or IPs), and whether it can change which services select it (labels, host
 * name or subdomain).
 */
function podEndpointsChanged(old: Pod, cur: Pod): { podChanged: boolean; labelsChanged: boolean } {
  const labelsChanged = !sameStringMap(old.metadata?.labels, cur.metadata?.labels) ||
    old.spec?.hostname !== cur.spec?.hostname || old.spec?.subdomain !== cur.spec?.subdomain;
  const ips = (p: Pod) => (p.status?.podIPs ?? []).map((i) => i.ip).join(',');
  const podChanged = old.metadata?.deletionTimestamp !== cur.metadata?.deletionTimestamp || isPodReady(old) !== isPodReady(cur) || ips(old) !== ips(cur);
  return { podChanged, labelsChanged };
}

/**
 * Upstream's GetServicesToUpdateOnPodChange: nothing for a pod change endpoints cannot show; else
 * the services selecting the pod now and, when its labels changed, those that selected it before
 * (all of them if the pod itself changed, only those gained or lost otherwise).
 */
export function servicesToSyncOnPodChange<S extends Service>(services: readonly S[], old: Pod, cur: Pod): S[] {
  if (old.metadata?.resourceVersion === cur.metadata?.resourceVersion) return [];
  const { podChanged, labelsChanged } = podEndpointsChanged(old, cur);
  if (!podChanged && !labelsChanged) return [];
  const now = servicesSelecting(services, cur);
  if (!labelsChanged) return now;
  const before = servicesSelecting(services, old);
  if (podChanged) return [...new Set([...now, ...before])];
  return [...now.filter((s) => !before.includes(s)), ...before.filter((s) => !now.includes(s))];
}
