// What individual kinds add to the generic strategy.
import type { StoredObject } from '../storage/interface.js';
import type { StrategyOverrides } from './generic/strategy.js';

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** Keyed `<group>/<Kind>` (core kinds as `/<Kind>`). */
export const strategyOverrides: ReadonlyMap<string, StrategyOverrides> = new Map<string, StrategyOverrides>([
  ['/Namespace', {
    prepareForCreate: (obj: StoredObject) => {
      obj.status = { phase: 'Active' };
    },
    returnDeletedObject: true,
    selectableFields: { 'status.phase': (o) => str((o.status as { phase?: unknown } | undefined)?.phase) },
  }],
  ['/Secret', { selectableFields: { type: (o) => str(o.type) } }],
  ['/ResourceQuota', { returnDeletedObject: true }],
  ['storage.orch.io/CSIDriver', { returnDeletedObject: true }],
]);
