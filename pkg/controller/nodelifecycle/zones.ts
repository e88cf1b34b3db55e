// Zones as the node lifecycle controller weighs them (component-helpers' GetZoneKey and upstream's
// ComputeZoneState, ReducedQPSFunc and HealthyQPSFunc): a zone whose nodes are all not Ready is
// fully disrupted, one with at least --unhealthy-zone-threshold of them not Ready (and at least
// three) partially; the eviction rate follows the state, and stops in a small partially
// disrupted zone and when every zone is fully disrupted (most likely the control plane's own
// network, not the nodes).
import type { ApiDomain } from '../../../api/domain.js';
import type { NodeCondition } from '../node-conditions.js';

export type ZoneState = 'Initial' | 'Normal' | 'FullDisruption' | 'PartialDisruption';

/** `<region>:\0:<zone>` from the topology labels (or their deprecated beta names); '' when neither is set. */
export function zoneKey(domain: ApiDomain, labels: Record<string, string> | undefined): string {
  const l = labels ?? {};
  const region = l[domain.key('region', 'topology')] || l[domain.key('region', 'failure-domain.beta')] || '';
  const zone = l[domain.key('zone', 'topology')] || l[domain.key('zone', 'failure-domain.beta')] || '';
  return region === '' && zone === '' ? '' : `${region}:\x00:${zone}`;
}

/** The number of not-Ready nodes and the zone's state, from its nodes' Ready conditions. */
export function computeZoneState(ready: readonly (NodeCondition | undefined)[], unhealthyZoneThreshold: number): { unhealthy: number; state: ZoneState } {
  const readyNodes = ready.filter((c) => c?.status === 'True').length;
  const notReady = ready.length - readyNodes;
  if (readyNodes === 0 && notReady > 0) return { unhealthy: notReady, state: 'FullDisruption' };
  if (notReady > 2 && notReady / (notReady + readyNodes) >= unhealthyZoneThreshold) return { unhealthy: notReady, state: 'PartialDisruption' };
  return { unhealthy: notReady, state: 'Normal' };
}

export interface EvictionRates {
  evictionRate: number;
  secondaryEvictionRate: number;
  largeClusterSizeThreshold: number;
}

/** The tainting rate of a zone of `size` nodes in `state`. */
export function zoneEvictionRate(state: ZoneState, size: number, r: EvictionRates): number {
  switch (state) {
    case 'PartialDisruption':
      return size > r.largeClusterSizeThreshold ? r.secondaryEvictionRate : 0;
    default:
      return r.evictionRate;
  }
}
