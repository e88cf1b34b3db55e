// Upstream's ControllerExpectations / UIDTrackingControllerExpectations: the creations and deletions
// a controller has asked for and not yet seen in its informer. While any are outstanding the
// controller does not act on its (lagging) cache, so it never creates or deletes twice; after
// five minutes an expectation is presumed lost and the controller acts again.
const expectationsTimeoutMs = 5 * 60_000;

interface Expectation {
  add: number;
  /** Keys (namespace/name) of the objects whose deletion is awaited, so a deletion is counted once. */
  deletions: Set<string>;
  at: number;
}

export class ControllerExpectations {
  private readonly byKey = new Map<string, Expectation>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Whether the controller may sync `key`: nothing outstanding, never expected, or expired. */
  satisfied(key: string): boolean {
    const e = this.byKey.get(key);
    if (!e) return true;
    return (e.add <= 0 && e.deletions.size === 0) || this.now() - e.at > expectationsTimeoutMs;
  }

  /** Creations and deletions asked for together (upstream's SetExpectations), as the DaemonSet controller makes them. */
  expect(key: string, creations: number, deletions: readonly string[]): void {
    this.byKey.set(key, { add: creations, deletions: new Set(deletions), at: this.now() });
  }

  expectCreations(key: string, n: number): void {
    this.byKey.set(key, { add: n, deletions: new Set(), at: this.now() });
  }

  expectDeletions(key: string, objectKeys: readonly string[]): void {
    this.byKey.set(key, { add: 0, deletions: new Set(objectKeys), at: this.now() });
  }

  /** An informer saw a creation (or the create failed and will never be seen). */
  creationObserved(key: string): void {
    const e = this.byKey.get(key);
    if (e) e.add--;
  }

  /** An informer saw `objectKey` go or be marked deleted (or its delete failed). */
  deletionObserved(key: string, objectKey: string): void {
    this.byKey.get(key)?.deletions.delete(objectKey);
  }

  delete(key: string): void {
    this.byKey.delete(key);
  }
}
