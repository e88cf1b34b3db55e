// Upstream's endpointslicemirroring reconciler, as a plan: the EndpointSlices that mirror a
// hand-made Endpoints object. One slice per subset's ports and address family, holding at most
// maxEndpointsPerSubset of the subset's addresses (ready ones first, then the not-ready ones);
// addresses that are not IPs are skipped. Each slice carries the Endpoints' labels and annotations
// (but its trigger time and kubectl's last-applied record), the service-name and managed-by labels,
// and the Endpoints as its owner. A slice that already holds what it should is left alone.
import type { EndpointAddress, EndpointPort as CorePort, Endpoints } from '../../../api/core/v1/endpoints.js';
import type { AddressType, Endpoint, EndpointPort } from '../../../api/discovery/v1/endpoint-slice.js';
import type { KubeObject } from '../../client/index.js';
import { canonicalIP } from '../../util/ip.js';
import { sameStringMap } from '../../util/string-map.js';
import { newControllerRef } from '../controller-ref.js';
import { EndpointSet, endpointsEqualBeyondKey, portMapKey, slicePrefix, type SliceObject } from '../endpointslice/endpoint-set.js';
import type { SliceChanges } from '../endpointslice/slice-writer.js';
import type { SliceNames } from '../endpointslice/slice-names.js';

export type EndpointsObject = Endpoints & KubeObject;

export interface MirrorPlan extends SliceChanges {
  /** Addresses that are not IPs. */
  invalidAddresses: number;
  /** Addresses left out, invalid or beyond maxEndpointsPerSubset. */
  skippedAddresses: number;
}

export interface MirrorInput {
  endpoints: EndpointsObject;
  /** The slices this controller made for the Endpoints. */
  existing: readonly SliceObject[];
  maxEndpointsPerSubset: number;
  names: SliceNames;
  /** Annotations never copied to the slices (the trigger time, kubectl's last-applied records). */
  droppedAnnotations: ReadonlySet<string>;
}

const groupKey = (addressType: AddressType, ports: readonly EndpointPort[] | undefined) => `${addressType}/${portMapKey(ports)}`;

/** Upstream's epPortsToEpsPorts. */
const slicePorts = (ports: readonly CorePort[] | undefined): EndpointPort[] =>
  (ports ?? []).map((p) => ({ name: p.name ?? '', port: p.port, protocol: p.protocol ?? 'TCP', ...(p.appProtocol !== undefined ? { appProtocol: p.appProtocol } : {}) }));

/** Upstream's addressToEndpoint: the canonical IP and its family, the ready condition, node, host name and target. */
function addressToEndpoint(a: EndpointAddress, ready: boolean): { ep: Endpoint; addressType: AddressType } | undefined {
  const ip = canonicalIP(a.ip ?? '');
  if (!ip) return undefined;
  const ep: Endpoint = { addresses: [ip.text], conditions: { ready }, ...(a.targetRef ? { targetRef: a.targetRef } : {}) };
  if (a.nodeName !== undefined) ep.nodeName = a.nodeName;
  if (a.hostname) ep.hostname = a.hostname;
  return { ep, addressType: ip.family === 6 ? 'IPv6' : 'IPv4' };
}

function mirroredAnnotations(input: MirrorInput): Record<string, string> {
  return Object.fromEntries(Object.entries(input.endpoints.metadata.annotations ?? {}).filter(([k]) => !input.droppedAnnotations.has(k)));
}

function newSlice(input: MirrorInput, ports: EndpointPort[], addressType: AddressType, name: string | undefined): SliceObject {
  const ep = input.endpoints;
  const epName = ep.metadata.name ?? '';
  return {
    apiVersion: `${input.names.group}/v1`,
    kind: 'EndpointSlice',
    metadata: {
      ...(name ? { name } : { generateName: slicePrefix(epName) }),
      namespace: ep.metadata.namespace ?? '',
      labels: { ...(ep.metadata.labels ?? {}), [input.names.serviceName]: epName, [input.names.managedBy]: input.names.mirroringController },
      annotations: mirroredAnnotations(input),
      ownerReferences: [newControllerRef(ep, 'v1', 'Endpoints')],
    },
    addressType,
    endpoints: [],
    ports,
  };
}

/** Whether the slice already holds exactly the desired endpoints, the Endpoints' labels and its annotations (upstream's totalChanges and compare). */
function upToDate(input: MirrorInput, slice: SliceObject, desired: EndpointSet): boolean {
  let matched = 0;
  for (const ep of slice.endpoints ?? []) {
    const want = desired.get(ep);
    if (!want || !endpointsEqualBeyondKey(want, ep)) return false;
    matched++;
  }
  if (matched !== desired.size) return false;
  const { [input.names.serviceName]: _s, [input.names.managedBy]: _m, ...labels } = slice.metadata.labels ?? {};
  return sameStringMap(labels, input.endpoints.metadata.labels) && sameStringMap(slice.metadata.annotations, mirroredAnnotations(input));
}

/** The slices to create, update and delete so the Endpoints is mirrored. */
export function planMirror(input: MirrorInput): MirrorPlan {
  const plan: MirrorPlan = { create: [], update: [], delete: [], invalidAddresses: 0, skippedAddresses: 0 };
  const desired = new Map<string, { ports: EndpointPort[]; addressType: AddressType; set: EndpointSet }>();
  for (const subset of input.endpoints.subsets ?? []) {
    const ports = slicePorts(subset.ports);
    for (const addressType of ['IPv4', 'IPv6'] as const) {
      const key = groupKey(addressType, ports);
      if (!desired.has(key)) desired.set(key, { ports, addressType, set: new EndpointSet() });
    }
    const addresses = [...(subset.addresses ?? []).map((a) => [a, true] as const), ...(subset.notReadyAddresses ?? []).map((a) => [a, false] as const)];
    let added = 0;
    for (const [address, ready] of addresses) {
      // One slice per subset: what does not fit is left out.
      if (added >= input.maxEndpointsPerSubset) break;
      const mirrored = addressToEndpoint(address, ready);
      if (!mirrored) {
        plan.invalidAddresses++;
        continue;
      }
      desired.get(groupKey(mirrored.addressType, ports))!.set.insert(mirrored.ep);
      added++;
    }
    plan.skippedAddresses += addresses.length - added;
  }

  const existingByKey = new Map<string, SliceObject[]>();
  for (const s of input.existing) {
    const key = groupKey(s.addressType, s.ports);
    existingByKey.set(key, [...(existingByKey.get(key) ?? []), s]);
  }
  for (const [key, { ports, addressType, set }] of desired) {
    const existing = existingByKey.get(key) ?? [];
    if (set.size === 0) {
      plan.delete.push(...existing);
      continue;
    }
    plan.delete.push(...existing.slice(1));
    const first = existing[0];
    if (first && upToDate(input, first, set)) continue;
    const slice = newSlice(input, ports, addressType, first?.metadata.name);
    while (set.size > 0 && slice.endpoints!.length < input.maxEndpointsPerSubset) slice.endpoints!.push(set.pop()!);
    (first ? plan.update : plan.create).push(slice);
  }
  for (const [key, slices] of existingByKey) if (!desired.has(key)) plan.delete.push(...slices);
  recycle(plan);
  return plan;
}

/** Upstream's recycleSlices: per address family, a slice to create takes the name of one to delete. */
function recycle(plan: MirrorPlan): void {
  for (const addressType of ['IPv4', 'IPv6'] as const) {
    const creates = plan.create.filter((s) => s.addressType === addressType);
    const deletes = plan.delete.filter((s) => s.addressType === addressType);
    for (let i = 0; i < creates.length && i < deletes.length; i++) {
      const fresh = creates[i]!;
      fresh.metadata.name = deletes[i]!.metadata.name;
      delete fresh.metadata.generateName;
      plan.create.splice(plan.create.indexOf(fresh), 1);
      plan.delete.splice(plan.delete.indexOf(deletes[i]!), 1);
      plan.update.push(fresh);
    }
  }
}
