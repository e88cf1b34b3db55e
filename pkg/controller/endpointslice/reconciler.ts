// Upstream's endpointslice Reconciler, as a plan: from a Service, the pods it selects and the slices
// it has, which slices to create, update and delete. One group of slices per address family the
// service serves and per set of ports its pods offer; each pod an endpoint with its ready, serving
// and terminating conditions, node, zone (from its node's topology label), host name and target.
// Packing follows upstream so that a change touches as few slices as it can: existing slices keep
// their endpoints (updated in place), slices that changed anyway are filled up first, then the
// rest goes into the unchanged slice closest to full that can take it all, or into new slices of
// at most maxEndpointsPerSlice. A service without endpoints keeps one empty placeholder slice.
import type { Node } from '../../../api/core/v1/node.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { Service } from '../../../api/core/v1/service.js';
import type { AddressType, Endpoint, EndpointPort } from '../../../api/discovery/v1/endpoint-slice.js';
import type { KubeObject } from '../../client/index.js';
import { canonicalIP } from '../../util/ip.js';
import { sameStringMap } from '../../util/string-map.js';
import { newControllerRef } from '../controller-ref.js';
import { findPort, isPodReady, shouldPodBeInEndpoints, shouldSetHostname } from '../service-pods.js';
import { EndpointSet, endpointsEqualBeyondKey, portMapKey, slicePrefix, type SliceObject } from './endpoint-set.js';
import type { SliceNames } from './slice-names.js';

export interface SlicePlan {
  create: SliceObject[];
  update: SliceObject[];
  delete: SliceObject[];
  /** Pods left out because their node is unknown (upstream retries the service for them). */
  errors: string[];
}

export interface ReconcileInput {
  service: Service & KubeObject;
  pods: readonly Pod[];
  /** The service's slices managed by this controller, none being deleted. */
  existing: readonly SliceObject[];
  node(name: string): Node | undefined;
  maxEndpointsPerSlice: number;
  names: SliceNames;
  /** The topology zone label key of nodes (topology.kubernetes.io/zone). */
  zoneLabel: string;
}

/** Upstream's getAddressTypesForService: the service's IP families, else its cluster IP's, else (headless) both. */
export function addressTypesOf(svc: Service): AddressType[] {
  const spec = svc.spec ?? {};
  const fromFamilies = (spec.ipFamilies ?? []).map((f): AddressType => (f === 'IPv6' ? 'IPv6' : 'IPv4'));
  if (fromFamilies.length > 0) return [...new Set(fromFamilies)];
  if (spec.clusterIP && spec.clusterIP !== 'None') return [canonicalIP(spec.clusterIP)?.family === 6 ? 'IPv6' : 'IPv4'];
  return ['IPv4', 'IPv6'];
}

const isServiceIPSet = (svc: Service) => !!svc.spec?.clusterIP && svc.spec.clusterIP !== 'None';

/**
 * Upstream's setEndpointSliceLabels: the service's labels (but the reserved ones) plus the
 * headless marker, the service name and managed-by; `changed` when the service's own labels differ
 * from the slice's.
 */
export function sliceLabels(slice: SliceObject | undefined, svc: Service, names: SliceNames, controller: string): { labels: Record<string, string>; changed: boolean } {
  const reserved = new Set([names.serviceName, names.managedBy, names.headless]);
  const own = (labels: Record<string, string> | undefined) => Object.fromEntries(Object.entries(labels ?? {}).filter(([k]) => !reserved.has(k)));
  const fromService = own(svc.metadata?.labels);
  const fromSlice = own(slice?.metadata.labels);
  const labels: Record<string, string> = { ...fromService };
  if (!isServiceIPSet(svc)) labels[names.headless] = '';
  labels[names.serviceName] = svc.metadata?.name ?? '';
  labels[names.managedBy] = controller;
  return { labels, changed: !sameStringMap(fromService, fromSlice) };
}

/** Upstream's getEndpointPorts: each service port the pod offers (headless services may have none). */
export function endpointPorts(svc: Service, pod: Pod): EndpointPort[] {
  const out: EndpointPort[] = [];
  for (const sp of svc.spec?.ports ?? []) {
    const port = findPort(pod, sp);
    if (port === undefined) continue;
    out.push({ name: sp.name ?? '', port, protocol: sp.protocol ?? 'TCP', ...(sp.appProtocol !== undefined ? { appProtocol: sp.appProtocol } : {}) });
  }
  return out;
}

/** Upstream's podToEndpoint: the pod's addresses of the family (canonical), its conditions, node, zone, host name and target. */
export function podToEndpoint(pod: Pod, node: Node | undefined, svc: Service, addressType: AddressType, zoneLabel: string): Endpoint {
  const serving = isPodReady(pod);
  const terminating = !!pod.metadata?.deletionTimestamp;
  const want = addressType === 'IPv6' ? 6 : 4;
  const addresses = (pod.status?.podIPs ?? []).flatMap((p) => {
    const ip = canonicalIP(p.ip);
    return ip && ip.family === want ? [ip.text] : [];
  });
  const ep: Endpoint = {
    addresses,
    conditions: { ready: svc.spec?.publishNotReadyAddresses === true || (serving && !terminating), serving, terminating },
    targetRef: { kind: 'Pod', namespace: pod.metadata?.namespace ?? '', name: pod.metadata?.name ?? '', uid: pod.metadata?.uid ?? '' },
  };
  if (pod.spec?.nodeName) ep.nodeName = pod.spec.nodeName;
  const zone = node?.metadata?.labels?.[zoneLabel];
  if (zone) ep.zone = zone;
  if (shouldSetHostname(pod, svc)) ep.hostname = pod.spec!.hostname!;
  return ep;
}

const ownedBy = (s: SliceObject, svc: Service) =>
  (s.metadata.ownerReferences ?? []).some((o) => o.uid === svc.metadata?.uid && o.kind === 'Service' && o.apiVersion === 'v1');

function newSlice(input: ReconcileInput, ports: EndpointPort[], addressType: AddressType): SliceObject {
  const svc = input.service;
  return {
    apiVersion: `${input.names.group}/v1`,
    kind: 'EndpointSlice',
    metadata: {
      generateName: slicePrefix(svc.metadata.name ?? ''),
      namespace: svc.metadata.namespace ?? '',
      labels: sliceLabels(undefined, svc, input.names, input.names.sliceController).labels,
      ownerReferences: [newControllerRef(svc, 'v1', 'Service')],
    },
    addressType,
    endpoints: [],
    ports,
  };
}

/** Upstream's placeholderSliceCompare: the same namespace, labels, owners, address type, and nothing in it. */
function isPlaceholder(s: SliceObject, placeholder: SliceObject): boolean {
  const owners = (o: SliceObject) => JSON.stringify((o.metadata.ownerReferences ?? []).map((r) =>
    [r.apiVersion, r.kind, r.name, r.uid, r.controller ?? null, r.blockOwnerDeletion ?? null]));
  return s.metadata.namespace === placeholder.metadata.namespace && sameStringMap(s.metadata.labels, placeholder.metadata.labels) &&
    owners(s) === owners(placeholder) && s.addressType === placeholder.addressType && (s.endpoints ?? []).length === 0 && (s.ports ?? []).length === 0;
}

/** Upstream's getSliceToFill: the slice left closest to full once `n` endpoints are added, if any can take them. */
function sliceToFill(slices: SliceObject[], n: number, max: number): SliceObject | undefined {
  let closest: SliceObject | undefined;
  let closestDiff = max;
  for (const s of slices) {
    const diff = max - (n + (s.endpoints ?? []).length);
    if (diff >= 0 && diff < closestDiff) {
      closest = s;
      closestDiff = diff;
      if (diff === 0) break;
    }
  }
  return closest;
}

/** Upstream's reconcileByPortMapping for one group of slices offering the same ports. */
function reconcilePortGroup(input: ReconcileInput, existing: SliceObject[], desired: EndpointSet, ports: EndpointPort[], addressType: AddressType) {
  const max = input.maxEndpointsPerSlice;
  const byName = new Map<string, SliceObject>();
  const unchanged = new Set<string>();
  const toUpdate = new Set<string>();
  const toDelete = new Set<string>();

  // 1. Existing slices keep the endpoints still desired, brought up to date.
  for (const slice of existing) {
    const name = slice.metadata.name ?? '';
    byName.set(name, slice);
    const kept: Endpoint[] = [];
    let endpointChanged = false;
    for (const ep of slice.endpoints ?? []) {
      const want = desired.get(ep);
      if (!want) continue;
      kept.push(want);
      if (!endpointsEqualBeyondKey(want, ep)) endpointChanged = true;
      desired.delete(ep);
    }
    const { labels, changed: labelsChanged } = sliceLabels(slice, input.service, input.names, input.names.sliceController);
    if (endpointChanged || kept.length !== (slice.endpoints ?? []).length) {
      if (kept.length === 0) {
        toDelete.add(name);
      } else {
        byName.set(name, { ...structuredClone(slice), endpoints: kept, metadata: { ...structuredClone(slice.metadata), labels } });
        toUpdate.add(name);
      }
    } else if (labelsChanged) {
      byName.set(name, { ...structuredClone(slice), metadata: { ...structuredClone(slice.metadata), labels } });
      toUpdate.add(name);
    } else {
      unchanged.add(name);
    }
  }

  // 2. Slices changing anyway are filled up first, the fullest first.
  if (desired.size > 0 && toUpdate.size > 0) {
    const changing = [...toUpdate].map((n) => byName.get(n)!).sort((a, b) => (b.endpoints ?? []).length - (a.endpoints ?? []).length);
    for (const slice of changing) {
      while (desired.size > 0 && slice.endpoints!.length < max) slice.endpoints!.push(desired.pop()!);
    }
  }

  // 3. What is left goes into the unchanged slice that it fills best, or into new slices.
  const create: SliceObject[] = [];
  while (desired.size > 0) {
    let fill: SliceObject | undefined;
    if (desired.size < max && unchanged.size > 0) {
      const candidate = sliceToFill([...unchanged].map((n) => byName.get(n)!), desired.size, max);
      if (candidate) {
        fill = structuredClone(candidate);
        byName.set(candidate.metadata.name ?? '', fill);
      }
    }
    fill ??= newSlice(input, ports, addressType);
    fill.endpoints ??= [];
    while (desired.size > 0 && fill.endpoints.length < max) fill.endpoints.push(desired.pop()!);
    if (fill.metadata.name) {
      toUpdate.add(fill.metadata.name);
      unchanged.delete(fill.metadata.name);
    } else {
      create.push(fill);
    }
  }
  return { create, update: [...toUpdate].map((n) => byName.get(n)!), delete: [...toDelete].map((n) => byName.get(n)!) };
}

/** The slices of one address family: upstream's reconcileByAddressType. */
function reconcileAddressType(input: ReconcileInput, existing: SliceObject[], addressType: AddressType, plan: SlicePlan): void {
  const svc = input.service;
  const create: SliceObject[] = [];
  const update: SliceObject[] = [];
  const del: SliceObject[] = [];
  const existingByPorts = new Map<string, SliceObject[]>();
  for (const s of existing) {
    if (!ownedBy(s, svc)) {
      del.push(s);
      continue;
    }
    const key = portMapKey(s.ports);
    existingByPorts.set(key, [...(existingByPorts.get(key) ?? []), s]);
  }

  const desired = new Map<string, { ports: EndpointPort[]; set: EndpointSet }>();
  for (const pod of input.pods) {
    if (!shouldPodBeInEndpoints(pod, true)) continue;
    const ports = endpointPorts(svc, pod);
    const key = portMapKey(ports);
    let group = desired.get(key);
    if (!group) desired.set(key, (group = { ports, set: new EndpointSet() }));
    const nodeName = pod.spec?.nodeName ?? '';
    const node = input.node(nodeName);
    if (!node && svc.spec?.publishNotReadyAddresses !== true) {
      // A pod of an unknown node is left out for now, so the slice cannot stay stuck on it.
      plan.errors.push(`skipping Pod ${pod.metadata?.name ?? ''} for Service ${svc.metadata.namespace}/${svc.metadata.name}: Node ${nodeName} Not Found`);
      continue;
    }
    const ep = podToEndpoint(pod, node, svc, addressType, input.zoneLabel);
    if (ep.addresses.length > 0) group.set.insert(ep);
  }

  for (const [key, { ports, set }] of desired) {
    const r = reconcilePortGroup(input, existingByPorts.get(key) ?? [], set, ports, addressType);
    create.push(...r.create);
    update.push(...r.update);
    del.push(...r.delete);
  }
  for (const [key, slices] of existingByPorts) if (!desired.has(key)) del.push(...slices);

  // A service without endpoints keeps one empty slice, so consumers can tell "none" from "not yet".
  if (existing.length === del.length && create.length === 0) {
    const placeholder = newSlice(input, [], addressType);
    if (del.length === 1 && isPlaceholder(del[0]!, placeholder)) del.length = 0;
    else create.push(placeholder);
  }
  plan.create.push(...create);
  plan.update.push(...update);
  plan.delete.push(...del);
}

/**
 * Upstream's finalize, first half: a slice to create takes the name of one to delete (of the same
 * family and service) and becomes an update, so consumers see one change rather than two.
 */
function recycle(plan: SlicePlan, svc: Service): void {
  for (let i = 0; i < plan.delete.length && plan.create.length > 0;) {
    const gone = plan.delete[i]!;
    const fresh = plan.create[plan.create.length - 1]!;
    if (gone.addressType === fresh.addressType && ownedBy(gone, svc)) {
      fresh.metadata.name = gone.metadata.name;
      plan.create.pop();
      plan.update.push(fresh);
      plan.delete.splice(i, 1);
    } else {
      i++;
    }
  }
}

/** What to create, update and delete so the service's slices hold its pods' endpoints. */
export function planSlices(input: ReconcileInput): SlicePlan {
  const plan: SlicePlan = { create: [], update: [], delete: [], errors: [] };
  const types = addressTypesOf(input.service);
  const byType = new Map<AddressType, SliceObject[]>();
  for (const s of input.existing) {
    // Slices of a family the service no longer serves go.
    if (!types.includes(s.addressType)) plan.delete.push(s);
    else byType.set(s.addressType, [...(byType.get(s.addressType) ?? []), s]);
  }
  const unsupported = plan.delete.splice(0);
  for (const t of types) reconcileAddressType(input, byType.get(t) ?? [], t, plan);
  recycle(plan, input.service);
  plan.delete.push(...unsupported);
  return plan;
}
