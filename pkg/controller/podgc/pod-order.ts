// Which pods podgc counts as terminated, and the order it deletes them in (upstream's
// isPodTerminated and byEvictionAndCreationTimestamp): evicted pods first, so the terminated pods
// of controllers (a Job's) stay longest, then the oldest, then by name.
import type { PodObject } from '../pod-conditions.js';

/** Neither Pending, Running nor Unknown (an empty phase counts as terminated, as upstream). */
export function isPodTerminated(p: PodObject): boolean {
  const phase = p.status?.phase;
  return phase !== 'Pending' && phase !== 'Running' && phase !== 'Unknown';
}

/** Failed with reason Evicted (upstream's eviction.PodIsEvicted). */
export function isPodEvicted(p: PodObject): boolean {
  return p.status?.phase === 'Failed' && p.status.reason === 'Evicted';
}

/** Sort order: evicted first, then by creation time, then by name. */
export function gcOrder(a: PodObject, b: PodObject): number {
  const evicted = Number(isPodEvicted(b)) - Number(isPodEvicted(a));
  if (evicted !== 0) return evicted;
  const ta = Date.parse(a.metadata.creationTimestamp ?? '');
  const tb = Date.parse(b.metadata.creationTimestamp ?? '');
  if (ta !== tb && !Number.isNaN(ta) && !Number.isNaN(tb)) return ta - tb;
  return (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : (a.metadata.name ?? '') > (b.metadata.name ?? '') ? 1 : 0;
}
