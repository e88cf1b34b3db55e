// Leader election on a coordination.<domain>/v1 Lease, as client-go's leaderelection package does
// it: a candidate takes the lease when it is free, released, or not renewed for leaseDuration as
// observed on the candidate's own clock (never comparing clocks across machines); the leader
// renews every retryPeriod and stops leading when it could not renew within renewDeadline; on a
// graceful stop it releases the lease so a standby takes over at once.
import { isAlreadyExists, isConflict, isNotFound } from '../../../pkg/client/errors.js';
import type { Client } from '../../../pkg/client/client.js';
import type { KubeObject } from '../../../pkg/client/resource-client.js';
import type { Logger } from '../../../pkg/log/logger.js';

export interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

export interface Lease extends KubeObject {
  spec?: LeaseSpec;
}

export interface LeaderElectionConfig {
  /** coordination.<domain> */
  group: string;
  namespace: string;
  name: string;
  /** `<hostname>_<uuid>`: unique per process, readable by an operator. */
  identity: string;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
}

/** A MicroTime as the API writes it: RFC 3339 with microseconds. */
export function microTime(d: Date): string {
  return d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** client-go's wait.Jitter(retryPeriod, 1.2) between attempts to acquire. */
const jittered = (ms: number) => ms * (1 + Math.random() * 1.2);

/** upstream's NewLeaderHealthzAdaptor(20 * time.Second). */
const maxTolerableExpiredLeaseMs = 20_000;

export class LeaderElector {
  private observedRecord = '';
  private observedAt = 0;
  private leading = false;
  /** When the lease was last renewed by us (our clock); 0 when not leading. */
  private renewedAt = 0;

  constructor(private readonly client: Client, private readonly config: LeaderElectionConfig, private readonly logger: Logger) {}

  private get leases() {
    return this.client.resource<Lease>(this.config.group, 'v1', 'leases').namespace(this.config.namespace);
  }

  isLeader(): boolean {
    return this.leading;
  }

  /**
   * Whether a leader has fallen behind its renewals by more than the lease and the 20 s upstream's
   * healthz adaptor tolerates on top (a slow renewal under load is not yet a failure).
   */
  overdue(): boolean {
    return this.leading && Date.now() - this.renewedAt > this.config.leaseDurationMs + maxTolerableExpiredLeaseMs;
  }

  /** Blocks until this candidate holds the lease (true) or `signal` aborts (false). */
  async acquire(signal: AbortSignal): Promise<boolean> {
    const lease = `${this.config.namespace}/${this.config.name}`;
    this.logger.info('attempting to acquire leader lease', { lease });
    while (!signal.aborted) {
      if (await this.tryAcquireOrRenew()) {
        this.leading = true;
        this.renewedAt = Date.now();
        this.logger.info('successfully acquired lease', { lease, identity: this.config.identity });
        return true;
      }
      await sleep(jittered(this.config.retryPeriodMs), signal);
    }
    return false;
  }

  /**
   * Renews every retryPeriod while `signal` holds. Resolves 'stopped' when signal aborts, or
   * 'lost' when a renewal could not be made within renewDeadline (someone else may lead now).
   */
  async renew(signal: AbortSignal): Promise<'stopped' | 'lost'> {
    while (!signal.aborted) {
      await sleep(this.config.retryPeriodMs, signal);
      if (signal.aborted) break;
      const ok = await this.tryAcquireOrRenew();
      if (ok) {
        this.renewedAt = Date.now();
        continue;
      }
      if (Date.now() - this.renewedAt > this.config.renewDeadlineMs) {
        this.leading = false;
        this.logger.error('failed to renew lease: timed out waiting for the condition', { lease: `${this.config.namespace}/${this.config.name}` });
        return 'lost';
      }
    }
    return 'stopped';
  }

  /** Gives the lease up (holder cleared, duration 1s) if we still hold it, so a standby need not wait out the lease. */
  async release(): Promise<void> {
    if (!this.leading) return;
    this.leading = false;
    try {
      const lease = await this.leases.get(this.config.name);
      if (lease.spec?.holderIdentity !== this.config.identity) return;
      const now = microTime(new Date());
      await this.leases.update({
        ...lease,
        spec: { holderIdentity: '', leaseDurationSeconds: 1, acquireTime: now, renewTime: now, leaseTransitions: lease.spec?.leaseTransitions ?? 0 },
      });
      this.logger.info('released the leader lease', { lease: `${this.config.namespace}/${this.config.name}` });
    } catch (e) {
      this.logger.warn('failed to release the leader lease', { err: e instanceof Error ? e.message : String(e) });
    }
  }

  /** One attempt; never throws (a failure is a `false`). Bounded by renewDeadline so a hung request cannot keep a lost leader leading. */
  private async tryAcquireOrRenew(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), this.config.renewDeadlineMs);
    });
    try {
      return await Promise.race([this.attempt(), timeout]);
    } catch (e) {
      this.logger.v(2).info('leader election attempt failed', { err: e instanceof Error ? e.message : String(e) });
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  private async attempt(): Promise<boolean> {
    const nowDate = new Date();
    const now = nowDate.getTime();
    const durationSeconds = Math.ceil(this.config.leaseDurationMs / 1000);
    let lease: Lease;
    try {
      lease = await this.leases.get(this.config.name);
    } catch (e) {
      if (!isNotFound(e)) throw e;
      const spec: LeaseSpec = {
        holderIdentity: this.config.identity, leaseDurationSeconds: durationSeconds, acquireTime: microTime(nowDate), renewTime: microTime(nowDate), leaseTransitions: 0,
      };
      try {
        await this.leases.create({ metadata: { name: this.config.name, namespace: this.config.namespace }, spec });
      } catch (c) {
        if (isAlreadyExists(c)) return false;
        throw c;
      }
      this.observe(spec, now);
      return true;
    }
    const old = lease.spec ?? {};
    const raw = JSON.stringify(old);
    if (raw !== this.observedRecord) this.observe(old, now);
    const holder = old.holderIdentity ?? '';
    const ours = holder === this.config.identity;
    // Someone else holds a lease we saw renewed less than a lease duration ago: stand by.
    const heldFor = (old.leaseDurationSeconds ?? durationSeconds) * 1000;
    if (holder && !ours && this.observedAt + heldFor > now) return false;
    const spec: LeaseSpec = {
      holderIdentity: this.config.identity,
      leaseDurationSeconds: durationSeconds,
      acquireTime: ours && old.acquireTime ? old.acquireTime : microTime(nowDate),
      renewTime: microTime(nowDate),
      leaseTransitions: ours ? old.leaseTransitions ?? 0 : (old.leaseTransitions ?? 0) + 1,
    };
    try {
      await this.leases.update({ ...lease, spec });
    } catch (e) {
      if (isConflict(e)) return false;
      throw e;
    }
    if (!ours) this.logger.info('took over the leader lease', { lease: `${this.config.namespace}/${this.config.name}`, previousHolder: holder || undefined });
    this.observe(spec, now);
    return true;
  }

  private observe(spec: LeaseSpec, at: number): void {
    this.observedRecord = JSON.stringify(spec);
    this.observedAt = at;
  }
}
