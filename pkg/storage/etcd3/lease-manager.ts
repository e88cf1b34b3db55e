// Leases for keys that expire on their own (events, with --event-ttl). As upstream's lease
// manager does, one lease is shared by the writes of a short window: a lease is granted with a
// little more time than asked (5% of the TTL, at most a minute) and reused while it still outlives
// the requested TTL, so a burst of events costs one LeaseGrant rather than one per event.

/** Grants an etcd lease of `ttlSeconds`, answering its id. */
export type GrantLease = (ttlSeconds: number) => Promise<string>;

export interface LeaseManagerOptions {
  /** Longest extra lifetime a lease is granted for reuse. Default 60 s. */
  reuseDurationSeconds?: number;
  /** Extra lifetime as a share of the TTL, capped by reuseDurationSeconds. Default 0.05. */
  reuseDurationPercent?: number;
  /** Most keys attached to one lease. Default 1000. */
  maxObjectsPerLease?: number;
  now?: () => number;
}

interface Held {
  id: string;
  expiresAt: number;
  attached: number;
}

export class LeaseManager {
  private readonly held = new Map<number, Held>();
  private readonly reuseSeconds: number;
  private readonly reusePercent: number;
  private readonly maxObjects: number;
  private readonly now: () => number;

  constructor(private readonly grant: GrantLease, opts: LeaseManagerOptions = {}) {
    this.reuseSeconds = opts.reuseDurationSeconds ?? 60;
    this.reusePercent = opts.reuseDurationPercent ?? 0.05;
    this.maxObjects = opts.maxObjectsPerLease ?? 1000;
    this.now = opts.now ?? Date.now;
  }

  /** The id of a lease that lives at least `ttlSeconds` more and at most the reuse window beyond. */
  async leaseFor(ttlSeconds: number): Promise<string> {
    const now = this.now();
    const reuse = Math.min(Math.floor(this.reusePercent * ttlSeconds), this.reuseSeconds);
    const prev = this.held.get(ttlSeconds);
    if (prev) {
      prev.attached++;
      const valid = now + ttlSeconds * 1000 < prev.expiresAt;
      const sufficient = now + (ttlSeconds + reuse) * 1000 > prev.expiresAt;
      if (valid && sufficient && prev.attached <= this.maxObjects) return prev.id;
    }
    const id = await this.grant(ttlSeconds + reuse);
    this.held.set(ttlSeconds, { id, expiresAt: now + (ttlSeconds + reuse) * 1000, attached: 1 });
    return id;
  }
}
