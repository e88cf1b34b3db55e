// Writes a plan of slice changes (upstream's finalize, shared by both slice controllers): creates
// (none while the owner is being deleted, so the garbage collector is not raced), then updates,
// then deletions, each recorded in the tracker so the informer's echo of it wakes nothing.
import { hasStatusCause, isNotFound, type ResourceClient } from '../../client/index.js';
import type { SliceObject } from './endpoint-set.js';
import type { EndpointSliceTracker } from './slice-tracker.js';
import { rfc3339Nano } from './trigger-time.js';

export interface SliceChanges {
  create: SliceObject[];
  update: SliceObject[];
  delete: SliceObject[];
}

export interface WriteOptions {
  client: ResourceClient<SliceObject>;
  tracker: EndpointSliceTracker;
  /** Whether new slices may be made (not while the service or Endpoints is being deleted). */
  createAllowed: boolean;
  /** `Service ns/name` or `Endpoints ns/name`, for error messages. */
  owner: string;
  /** The last-change-trigger-time annotation key, and the time to write (0: remove it). */
  triggerTimeKey?: string;
  triggerTime?: number;
}

const errText = (e: unknown) => (e instanceof Error ? e.message : String(e));

function stampTriggerTime(s: SliceObject, o: WriteOptions): void {
  if (!o.triggerTimeKey) return;
  const annotations = { ...(s.metadata.annotations ?? {}) };
  if (o.triggerTime) annotations[o.triggerTimeKey] = rfc3339Nano(o.triggerTime);
  else delete annotations[o.triggerTimeKey];
  s.metadata.annotations = annotations;
}

/** Applies the changes in upstream's order; throws upstream's "failed to ..." error at the first failure. */
export async function applySlicePlan(changes: SliceChanges, o: WriteOptions): Promise<void> {
  if (o.createAllowed) {
    for (const s of changes.create) {
      stampTriggerTime(s, o);
      try {
        o.tracker.update(await o.client.namespace(s.metadata.namespace ?? '').create(s));
      } catch (e) {
        // A namespace being deleted takes no new objects: nothing more to do for it.
        if (hasStatusCause(e, 'NamespaceTerminating')) return;
        throw new Error(`failed to create EndpointSlice for ${o.owner}: ${errText(e)}`);
      }
    }
  }
  for (const s of changes.update) {
    stampTriggerTime(s, o);
    try {
      o.tracker.update(await o.client.namespace(s.metadata.namespace ?? '').update(s));
    } catch (e) {
      throw new Error(`failed to update ${s.metadata.name} EndpointSlice for ${o.owner}: ${errText(e)}`);
    }
  }
  for (const s of changes.delete) {
    try {
      await o.client.namespace(s.metadata.namespace ?? '').delete(s.metadata.name ?? '');
    } catch (e) {
      if (!isNotFound(e)) throw new Error(`failed to delete ${s.metadata.name} EndpointSlice for ${o.owner}: ${errText(e)}`);
      continue;
    }
    o.tracker.expectDeletion(s);
  }
}
