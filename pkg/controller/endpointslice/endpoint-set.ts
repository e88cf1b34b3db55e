// How both slice controllers compare endpoints and ports (upstream's k8s.io/endpointslice/util):
// an endpoint is identified by its addresses, host name and target; the rest (node, zone,
// conditions, hints, the target's uid) is its state, which a write brings up to date. Slices are
// grouped by the exact set of ports they offer.
import type { Endpoint, EndpointPort, EndpointSlice } from '../../../api/discovery/v1/endpoint-slice.js';
import type { KubeObject } from '../../client/index.js';

export type SliceObject = EndpointSlice & KubeObject;

/** Upstream's hashEndpoint: what identifies an endpoint across syncs. */
export function endpointKey(ep: Endpoint): string {
  return JSON.stringify([[...(ep.addresses ?? [])].sort(), ep.hostname ?? '', ep.targetRef?.namespace ?? '', ep.targetRef?.name ?? '']);
}

const state = (ep: Endpoint) => JSON.stringify([
  ep.nodeName ?? null, ep.zone ?? null, ep.conditions?.ready ?? null, ep.conditions?.serving ?? null, ep.conditions?.terminating ?? null,
  (ep.hints?.forZones ?? []).map((z) => z.name),
  ep.targetRef ? [ep.targetRef.kind ?? '', ep.targetRef.namespace ?? '', ep.targetRef.name ?? '', ep.targetRef.uid ?? '', ep.targetRef.apiVersion ?? '', ep.targetRef.resourceVersion ?? '', ep.targetRef.fieldPath ?? ''] : null,
]);

/** Upstream's EndpointsEqualBeyondHash: the same node, zone, conditions, hints and target. */
export const endpointsEqualBeyondKey = (a: Endpoint, b: Endpoint): boolean => state(a) === state(b);

/** Endpoints by key, popped in the order they were added (upstream pops any). */
export class EndpointSet {
  private readonly byKey = new Map<string, Endpoint>();

  insert(ep: Endpoint): void {
    this.byKey.set(endpointKey(ep), ep);
  }

  get(ep: Endpoint): Endpoint | undefined {
    return this.byKey.get(endpointKey(ep));
  }

  delete(ep: Endpoint): void {
    this.byKey.delete(endpointKey(ep));
  }

  pop(): Endpoint | undefined {
    const first = this.byKey.entries().next();
    if (first.done) return undefined;
    this.byKey.delete(first.value[0]);
    return first.value[1];
  }

  get size(): number {
    return this.byKey.size;
  }
}

const portKey = (p: EndpointPort) => JSON.stringify([p.name ?? '', p.protocol ?? 'TCP', p.port ?? null, p.appProtocol ?? null]);

/** Upstream's NewPortMapKey: the same key for the same set of ports in any order. */
export const portMapKey = (ports: readonly EndpointPort[] | undefined): string => JSON.stringify((ports ?? []).map(portKey).sort());

/** Upstream's getEndpointSlicePrefix: `<name>-`, unless that is too long to be a name prefix. */
export const slicePrefix = (name: string): string => (name.length + 1 <= 253 ? `${name}-` : name);

/** The slices marked for deletion set apart, as upstream's dropEndpointSlicesPendingDeletion. */
export const notDeleting = (slices: readonly SliceObject[]): SliceObject[] => slices.filter((s) => !s.metadata.deletionTimestamp);

/** Whether the key's value is the controller's managed-by value. */
export const managedBy = (s: SliceObject, label: string, controller: string): boolean => s.metadata.labels?.[label] === controller;
