// Upstream's protectionutil: when a protection controller adds its finalizer, and when it may
// take it off again.
import type { KubeObject } from '../client/index.js';

/** Being deleted and still held by `finalizer`: the controller decides whether to let it go. */
export const isDeletionCandidate = (obj: KubeObject, finalizer: string) =>
  obj.metadata.deletionTimestamp !== undefined && (obj.metadata.finalizers ?? []).includes(finalizer);

/** Not being deleted and without `finalizer` (made before the admission plug-in added it). */
export const needToAddFinalizer = (obj: KubeObject, finalizer: string) =>
  obj.metadata.deletionTimestamp === undefined && !(obj.metadata.finalizers ?? []).includes(finalizer);

/** The object's metadata with `finalizer` added or removed. */
export function withFinalizer<T extends KubeObject>(obj: T, finalizer: string, present: boolean): T {
  const others = (obj.metadata.finalizers ?? []).filter((f) => f !== finalizer);
  return { ...obj, metadata: { ...obj.metadata, finalizers: present ? [...others, finalizer] : others } };
}
