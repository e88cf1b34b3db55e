// What EndpointSlices add to the generic strategy (upstream pkg/registry/discovery/endpointslice
// strategy.go): the generation starts at 1 and moves when the endpoints, ports, address type or
// labels change (consumers such as the slice controllers' trackers read it to tell their own
// writes from others'), and deprecatedTopology, which v1 cannot write, is dropped.
import { isDeepStrictEqual } from 'node:util';
import { EndpointSlice } from '../../../api/discovery/v1/endpoint-slice.js';
import { sameOnWire } from '../../runtime/wire-shape.js';
import type { StoredObject } from '../../storage/interface.js';
import type { StrategyOverrides } from '../generic/strategy.js';

const content = ['addressType', 'endpoints', 'ports'] as const;

/** Upstream's dropTopologyOnV1: whatever a v1 client writes in deprecatedTopology is ignored. */
function dropTopology(obj: StoredObject): void {
  const endpoints: unknown = obj.endpoints;
  if (!Array.isArray(endpoints)) return;
  for (const ep of endpoints as unknown[]) {
    if (typeof ep === 'object' && ep !== null) delete (ep as { deprecatedTopology?: unknown }).deprecatedTopology;
  }
}

export const endpointSliceStrategy: StrategyOverrides = {
  prepareForCreate: (obj) => {
    obj.metadata.generation = 1;
    dropTopology(obj);
  },
  prepareForUpdate: (obj, old) => {
    dropTopology(obj);
    const changed = content.some((f) => !sameOnWire(EndpointSlice.properties[f], obj[f], old[f])) ||
      !isDeepStrictEqual(obj.metadata.labels ?? {}, old.metadata.labels ?? {});
    obj.metadata.generation = (old.metadata.generation ?? 0) + (changed ? 1 : 0);
  },
};
