// Whether each etcd member answers, known from a probe of its own rather than from the requests
// that happen to fail. A hung member (frozen disk, partition, stalled leader) fails nothing: calls
// to it just wait. So each member is probed on a client of its own, every second while it answers
// and without pause while it does not, and the main client's calls to a member whose probe failed
// are refused without being sent (the member's gate), to be let through again the moment a probe
// answers.
// Nothing else opens or closes a gate: a call that timed out or was cancelled says nothing about
// the member, and no trial call is sent to a member that may hang. The one exception is the
// server's other threads (--workers), each with a client and a probe of its own: when one's probe
// of a member fails, the others shut their gate to it too and probe it at once (shutByPeer), so
// the server refuses calls to a hung member as one, whichever thread serves; each gate opens again
// on its own thread's probe.
import { circuitBreaker, ConsecutiveBreaker, handleWhen, noop, type CircuitBreakerPolicy, type IDisposable } from 'cockatiel';
import { Etcd3 } from 'etcd3';
import { AbandonableCall } from './abandonable-call.js';
import { etcdCredentials, type EtcdClientTLS } from './credentials.js';

/** Upstream's --etcd-healthcheck-timeout: a probe not answered within it failed. */
export const PROBE_TIMEOUT_MS = 2_000;
/** How often a member that answers is probed again, unless told otherwise. */
export const PROBE_INTERVAL_MS = 1_000;
/** The pause between probes of a member that does not answer (each waits up to PROBE_TIMEOUT_MS). */
const DOWN_PROBE_INTERVAL_MS = 100;

export interface HealthMonitorOptions {
  hosts: string[];
  /** The same client TLS as the main client's: a member requiring client certificates answers no probe without it. */
  tls?: EtcdClientTLS | undefined;
  /** The key each probe reads (a count-only range, which etcd answers with a linearizable read). */
  probeKey: Buffer;
  /** How often a member that answers is probed; 0: only when check() is called (no background probes). */
  intervalMs?: number;
  /** Told after every round of probes whether etcd as a whole answers (some member does), and if not why. */
  checked(up: boolean, err?: string): void;
  /** The server's other threads, told of this one's failed probes and telling of theirs (see shutByPeer). */
  peers?: HealthPeers | undefined;
}

/** The server's other threads (--workers), each probing etcd on its own: see shutByPeer. */
export interface HealthPeers {
  /** Tells the other threads that this one's probe of `host` failed. */
  shut(host: string): void;
  /** Calls `f` when another thread's probe of a member failed. */
  onShut(f: (host: string) => void): void;
}

interface Member {
  host: string;
  client: Etcd3;
  /** Refuses the main client's calls to this member while it is isolated. */
  gate: CircuitBreakerPolicy;
  isolation: IDisposable | undefined;
  probing: Promise<boolean> | undefined;
  lastError: string;
}

export class HealthMonitor {
  private readonly members = new Map<string, Member>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** Told when a member's gate opens. */
  private readonly opened = new Set<() => void>();

  constructor(private readonly opts: HealthMonitorOptions) {
    for (const host of opts.hosts) {
      this.members.set(host, {
        host,
        // No retries and no breaker of its own: a probe is one call, answered or not.
        client: new Etcd3({ hosts: [host], ...etcdCredentials(opts.tls), faultHandling: { global: noop, host: () => noop } }),
        gate: neverTrips(),
        isolation: undefined,
        probing: undefined,
        lastError: '',
      });
    }
    opts.peers?.onShut((host) => this.shutByPeer(host));
  }

  /** The policy the main client runs its calls to `host` under: refused while the member's probe fails. */
  gate(host: string): CircuitBreakerPolicy {
    const m = this.members.get(host);
    if (!m) throw new Error(`no health monitor for etcd member ${host}`);
    return m.gate;
  }

  /** Whether some member answered its last probe. */
  get up(): boolean {
    for (const m of this.members.values()) if (!m.isolation) return true;
    return false;
  }

  /** Resolves true once some member answers its probe, or false after `ms` if none does. */
  waitUp(ms: number): Promise<boolean> {
    if (this.up) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.opened.delete(done);
        resolve(this.up);
      };
      const timer = setTimeout(done, ms);
      this.opened.add(done);
    });
  }

  /** Starts probing in the background (unless the interval is 0). */
  start(): void {
    const intervalMs = this.opts.intervalMs ?? PROBE_INTERVAL_MS;
    if (intervalMs <= 0) return;
    const loop = async () => {
      await this.check();
      if (this.stopped) return;
      this.timer = setTimeout(loop, this.up ? intervalMs : DOWN_PROBE_INTERVAL_MS);
      this.timer.unref();
    };
    void loop();
  }

  /**
   * Another thread's probe of `host` failed: this thread's gate to it shuts as well, and the member
   * is probed now, which opens the gate again if it answers this thread.
   */
  private shutByPeer(host: string): void {
    const m = this.members.get(host);
    if (!m || this.stopped) return;
    if (!m.isolation) {
      m.isolation = m.gate.isolate();
      m.lastError = 'no answer to another thread\'s probe';
    }
    void this.check();
  }

  /** Probes every member now (joining probes already out); true when some member answered. */
  async check(): Promise<boolean> {
    await Promise.all([...this.members.values()].map((m) => this.probe(m)));
    const up = this.up;
    this.opts.checked(up, up ? undefined : [...this.members.values()].map((m) => m.lastError).join('; '));
    return up;
  }

  /**
   * One probe of a member. One not answered in time is given up without closing the connection (a
   * gRPC deadline would make the etcd3 client close it): a hung member still holds the connection,
   * and the moment it runs again it answers the probe out on it, with no new connection to make.
   */
  private probe(m: Member): Promise<boolean> {
    if (m.probing) return m.probing;
    const call = new AbandonableCall();
    const timer = setTimeout(() => call.abandon(new Error(`no answer within ${PROBE_TIMEOUT_MS / 1000}s`)), PROBE_TIMEOUT_MS);
    m.probing = m.client.kv
      .range({ key: this.opts.probeKey, count_only: true }, call.options)
      .then(() => true, (e: unknown) => {
        const err = call.reason ?? e;
        m.lastError = err instanceof Error ? err.message : String(err);
        return false;
      })
      .then((ok) => {
        clearTimeout(timer);
        m.probing = undefined;
        if (ok && m.isolation) {
          m.isolation.dispose();
          m.isolation = undefined;
          for (const done of this.opened) done();
        } else if (!ok && !m.isolation && !this.stopped) {
          m.isolation = m.gate.isolate();
          this.opts.peers?.shut(m.host);
        }
        return ok;
      });
    return m.probing;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    for (const m of this.members.values()) m.client.close();
  }
}

/** A circuit breaker that no failure opens: only isolate() holds it open. */
function neverTrips(): CircuitBreakerPolicy {
  return circuitBreaker(handleWhen(() => false), { halfOpenAfter: PROBE_INTERVAL_MS, breaker: new ConsecutiveBreaker(1) });
}
