// Upstream's EndpointSliceTracker: the generation of every slice a controller wrote, per service,
// so its own writes coming back through the informer wake nothing, a change by anyone else wakes
// the service, and a sync never acts on a cache older than its last write (a stale cache is
// retried instead). A deletion the controller made is remembered until the informer reports it.
import type { SliceObject } from './endpoint-set.js';

const deletionExpected = -1;

export class EndpointSliceTracker {
  /** By `namespace/service`, the generation expected of each slice uid. */
  private readonly byService = new Map<string, Map<string, number>>();

  constructor(private readonly serviceLabel: string) {}

  private serviceKey(s: SliceObject): string {
    return `${s.metadata.namespace ?? ''}/${s.metadata.labels?.[this.serviceLabel] ?? ''}`;
  }

  private generations(s: SliceObject): Map<string, number> | undefined {
    return this.byService.get(this.serviceKey(s));
  }

  has(s: SliceObject): boolean {
    return this.generations(s)?.has(s.metadata.uid ?? '') ?? false;
  }

  /** Whether the slice is not one the controller wrote last (unknown, or a newer generation). */
  shouldSync(s: SliceObject): boolean {
    const g = this.generations(s)?.get(s.metadata.uid ?? '');
    return g === undefined || (s.metadata.generation ?? 0) > g;
  }

  /**
   * Whether the cached slices of the service lag behind the controller's writes: one it deleted
   * is still there, one it wrote has an older generation, or one it wrote is missing.
   */
  staleSlices(namespace: string, service: string, slices: readonly SliceObject[]): boolean {
    const gens = this.byService.get(`${namespace}/${service}`);
    if (!gens) return false;
    const seen = new Set<string>();
    for (const s of slices) {
      const uid = s.metadata.uid ?? '';
      seen.add(uid);
      const g = gens.get(uid);
      if (g !== undefined && (g === deletionExpected || g > (s.metadata.generation ?? 0))) return true;
    }
    for (const [uid, g] of gens) if (g !== deletionExpected && !seen.has(uid)) return true;
    return false;
  }

  private record(s: SliceObject, generation: number): void {
    const key = this.serviceKey(s);
    let gens = this.byService.get(key);
    if (!gens) this.byService.set(key, (gens = new Map()));
    gens.set(s.metadata.uid ?? '', generation);
  }

  /** Records a slice the controller just created or updated. */
  update(s: SliceObject): void {
    this.record(s, s.metadata.generation ?? 0);
  }

  /** Records a slice the controller just deleted. */
  expectDeletion(s: SliceObject): void {
    this.record(s, deletionExpected);
  }

  /** Forgets a deleted slice; false when the deletion was not the controller's (the service should sync). */
  handleDeletion(s: SliceObject): boolean {
    const gens = this.generations(s);
    if (!gens) return true;
    const uid = s.metadata.uid ?? '';
    const g = gens.get(uid);
    gens.delete(uid);
    return g === undefined || g === deletionExpected;
  }

  deleteService(namespace: string, service: string): void {
    this.byService.delete(`${namespace}/${service}`);
  }
}
