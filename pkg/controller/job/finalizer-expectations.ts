// Upstream's uidTrackingExpectations for the job tracking finalizer: the pods (by uid) whose
// finalizer this controller removed and whose update the informer has not shown yet. Until then
// the controller does not count them again from its lagging cache.
export class FinalizerExpectations {
  private readonly byJob = new Map<string, Set<string>>();

  expectRemoved(jobKey: string, uids: readonly string[]): void {
    let set = this.byJob.get(jobKey);
    if (!set) this.byJob.set(jobKey, (set = new Set()));
    for (const u of uids) set.add(u);
  }

  /** The informer saw the pod without the finalizer, or gone (or the removal failed). */
  observed(jobKey: string, uid: string): void {
    const set = this.byJob.get(jobKey);
    set?.delete(uid);
    if (set?.size === 0) this.byJob.delete(jobKey);
  }

  /** A copy of the uids still awaited for the job. */
  expected(jobKey: string): ReadonlySet<string> {
    return new Set(this.byJob.get(jobKey));
  }

  delete(jobKey: string): void {
    this.byJob.delete(jobKey);
  }
}
