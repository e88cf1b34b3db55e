// The Endpoints subsets of a Service, as upstream's endpoints controller computes them from the
// pods its selector picks: each pod with an IP of the service's family, not terminal (and not being
// deleted, unless the service publishes addresses that are not ready), once per service port its
// containers offer, as a ready or a not-ready address; then repacked as upstream's RepackSubsets
// does, one subset per set of addresses offering the same ports, and capped at 1000 addresses.
import { isIP } from 'node:net';
import type { EndpointAddress, EndpointPort, EndpointSubset } from '../../../api/core/v1/endpoints.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { Service } from '../../../api/core/v1/service.js';
import { findPort, isPodReady, shouldPodBeInEndpoints, shouldSetHostname, type ServicePort } from '../service-pods.js';

/** Upstream's maxCapacity: more addresses than this are truncated. */
export const MAX_ENDPOINT_ADDRESSES = 1000;

/** The pod's address of the service's IP family (the first of spec.ipFamilies, else guessed as upstream does), or undefined. */
function podAddress(svc: Service, pod: Pod): EndpointAddress | undefined {
  const spec = svc.spec ?? {};
  let v6: boolean;
  if ((spec.ipFamilies ?? []).length > 0) v6 = spec.ipFamilies![0] === 'IPv6';
  else if (spec.clusterIP && spec.clusterIP !== 'None') v6 = isIP(spec.clusterIP) === 6;
  else v6 = isIP(pod.status?.podIP ?? '') === 6;
  const ip = (pod.status?.podIPs ?? []).map((p) => p.ip).find((a) => (isIP(a) === 6) === v6);
  if (!ip) return undefined;
  const meta = pod.metadata ?? {};
  const address: EndpointAddress = {
    ip,
    nodeName: pod.spec?.nodeName ?? '',
    targetRef: { kind: 'Pod', namespace: meta.namespace ?? '', name: meta.name ?? '', uid: meta.uid ?? '' },
  };
  if (shouldSetHostname(pod, svc)) address.hostname = pod.spec!.hostname!;
  return address;
}

function endpointPort(sp: ServicePort, port: number): EndpointPort {
  return { ...(sp.name ? { name: sp.name } : {}), port, protocol: sp.protocol ?? 'TCP', ...(sp.appProtocol !== undefined ? { appProtocol: sp.appProtocol } : {}) };
}

/** One subset per pod and port, before repacking; each address ready or not as the pod is (or always ready when the service says so). */
function podSubsets(svc: Service, pods: readonly Pod[]): EndpointSubset[] {
  const spec = svc.spec ?? {};
  const publishNotReady = spec.publishNotReadyAddresses === true;
  const out: EndpointSubset[] = [];
  for (const pod of pods) {
    if (!shouldPodBeInEndpoints(pod, publishNotReady)) continue;
    const address = podAddress(svc, pod);
    if (!address) continue;
    const add = (ports: EndpointPort[]) => out.push(publishNotReady || isPodReady(pod) ? { addresses: [address], ports } : { notReadyAddresses: [address], ports });
    const ports = spec.ports ?? [];
    // A headless service may have no ports: its addresses alone.
    if (ports.length === 0) {
      if (spec.clusterIP === 'None') add([]);
      continue;
    }
    for (const sp of ports) {
      const port = findPort(pod, sp);
      if (port !== undefined) add([endpointPort(sp, port)]);
    }
  }
  return out;
}

const addressKey = (a: EndpointAddress) => `${a.ip}/${a.targetRef?.uid ?? ''}`;
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Upstream's RepackSubsets: addresses grouped by the exact set of ports they offer (an address ready
 * for a port in any subset is ready for it), sorted so that equal contents compare equal.
 */
export function repackSubsets(subsets: readonly EndpointSubset[]): EndpointSubset[] {
  const addresses = new Map<string, EndpointAddress>();
  // For each port (`null` for none), the addresses offering it and whether each is ready there.
  const byPort = new Map<string, { port: EndpointPort | null; ready: Map<string, boolean> }>();
  const record = (port: EndpointPort | null, address: EndpointAddress, ready: boolean) => {
    const key = addressKey(address);
    if (!addresses.has(key)) addresses.set(key, address);
    const portKey = JSON.stringify(port);
    let entry = byPort.get(portKey);
    if (!entry) byPort.set(portKey, (entry = { port, ready: new Map() }));
    if (!entry.ready.get(key)) entry.ready.set(key, ready);
  };
  for (const s of subsets) {
    const ports = (s.ports ?? []).length > 0 ? s.ports! : [null];
    for (const port of ports) {
      for (const a of s.addresses ?? []) record(port, a, true);
      for (const a of s.notReadyAddresses ?? []) record(port, a, false);
    }
  }
  // Ports whose address sets are the same share a subset.
  const groups = new Map<string, { ready: Map<string, boolean>; ports: EndpointPort[] }>();
  for (const { port, ready } of byPort.values()) {
    const key = JSON.stringify([...ready].sort(([a], [b]) => compare(a, b)));
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { ready, ports: [] }));
    if (port) group.ports.push(port);
  }
  const sortAddresses = (keys: string[]) => keys.sort(compare).map((k) => addresses.get(k)!);
  const out = [...groups.values()].map(({ ready, ports }): EndpointSubset => {
    const readyKeys = [...ready].filter(([, r]) => r).map(([k]) => k);
    const notReadyKeys = [...ready].filter(([, r]) => !r).map(([k]) => k);
    ports.sort((a, b) => compare(a.name ?? '', b.name ?? '') || a.port - b.port || compare(a.protocol ?? '', b.protocol ?? ''));
    return {
      ...(readyKeys.length > 0 ? { addresses: sortAddresses(readyKeys) } : {}),
      ...(notReadyKeys.length > 0 ? { notReadyAddresses: sortAddresses(notReadyKeys) } : {}),
      ...(ports.length > 0 ? { ports } : {}),
    };
  });
  return out.sort((a, b) => compare(JSON.stringify(a), JSON.stringify(b)));
}

/**
 * Upstream's truncateEndpoints: over MAX_ENDPOINT_ADDRESSES, each subset keeps its share (rounded
 * up) of what fits, ready addresses first; returns whether anything was cut.
 */
export function truncateSubsets(subsets: EndpointSubset[]): boolean {
  const count = (f: 'addresses' | 'notReadyAddresses') => subsets.reduce((n, s) => n + (s[f] ?? []).length, 0);
  const ready = count('addresses');
  const notReady = count('notReadyAddresses');
  if (ready + notReady <= MAX_ENDPOINT_ADDRESSES) return false;
  const truncateReady = ready > MAX_ENDPOINT_ADDRESSES;
  const room = truncateReady ? MAX_ENDPOINT_ADDRESSES : MAX_ENDPOINT_ADDRESSES - ready;
  const total = truncateReady ? ready : notReady;
  let left = room;
  for (const s of subsets) {
    const field = truncateReady ? 'addresses' : 'notReadyAddresses';
    const share = Math.min(Math.ceil(((s[field] ?? []).length / total) * room), left);
    s[field] = (s[field] ?? []).slice(0, share);
    if (truncateReady) s.notReadyAddresses = [];
    left -= s[field]!.length;
  }
  return true;
}

/** The subsets the service's Endpoints should hold for these pods (the ones its selector picks). */
export function serviceSubsets(svc: Service, pods: readonly Pod[]): EndpointSubset[] {
  return repackSubsets(podSubsets(svc, pods));
}
