// Upstream's APIService availability controller, inside the API server: keeps each APIService's
// Available condition. A local one is always available; one behind a service is available when the
// service exists, listens on the port, has endpoints with an address on that port, and the
// extension server answers its discovery document (/apis/<group>/<version>) with 2xx within 5 s.
// Checked at once when an APIService changes and again every interval; written only on change.
import type { APIService, APIServiceCondition } from '../../api/apiregistration/v1/api-service.js';
import { AvailableReasons } from '../../api/apiregistration/v1/api-service.js';
import { formatTime } from '../../api/meta/v1/primitives.js';
import type { Logger } from '../log/logger.js';
import { getFromBackend } from './backend-client.js';
import type { APIServiceIndex } from './api-services.js';
import { aggregatorUser, remoteUserHeaders } from './remote-headers.js';
import { ResolveError, type Backend } from './service-resolver.js';

type Verdict = Pick<APIServiceCondition, 'status' | 'reason' | 'message'>;

export interface AvailabilityOptions {
  index: APIServiceIndex;
  backend(s: APIService): Promise<Backend>;
  /** Writes a new Available condition, unless the object changed since `s` was read. */
  writeCondition(s: APIService, condition: APIServiceCondition): Promise<void>;
  intervalMs: number;
  logger: Logger;
  /** How long the discovery check may take (upstream: 5 s). */
  checkTimeoutMs?: number;
}

export class AvailabilityController {
  private timer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Set<string>();
  /** APIServices that changed while they were being checked: checked once more after. */
  private readonly pending = new Set<string>();
  private stopped = false;

  constructor(private readonly o: AvailabilityOptions) {}

  start(): void {
    this.o.index.subscribe(() => this.syncAll());
    this.syncAll();
    this.timer = setInterval(() => this.syncAll(), this.o.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }

  /** What the Available condition of `s` should say now. */
  async verdict(s: APIService): Promise<Verdict> {
    if (!s.spec?.service) return { status: 'True', reason: AvailableReasons.local, message: 'Local APIServices are always available' };
    let backend: Backend;
    try {
      backend = await this.o.backend(s);
    } catch (e) {
      if (e instanceof ResolveError) return { status: 'False', reason: e.reason, message: e.message };
      return { status: 'False', reason: AvailableReasons.serviceNotFound, message: e instanceof Error ? e.message : String(e) };
    }
    const path = `/apis/${s.spec.group ?? ''}/${s.spec.version ?? ''}`;
    const url = new URL(path, backend.origin).toString();
    try {
      const answer = await getFromBackend(backend, path, remoteUserHeaders(aggregatorUser), this.o.checkTimeoutMs ?? 5_000);
      if (answer.status < 200 || answer.status >= 300) {
        return { status: 'False', reason: AvailableReasons.failedDiscoveryCheck, message: `failing or missing response from ${url}: bad status from ${url}: ${answer.status}` };
      }
    } catch (e) {
      return { status: 'False', reason: AvailableReasons.failedDiscoveryCheck, message: `failing or missing response from ${url}: ${e instanceof Error ? e.message : String(e)}` };
    }
    return { status: 'True', reason: AvailableReasons.passed, message: 'all checks passed' };
  }

  private syncAll(): void {
    if (this.stopped) return;
    for (const s of this.o.index.all()) void this.sync(s);
  }

  private async sync(s: APIService): Promise<void> {
    const name = s.metadata?.name ?? '';
    if (this.inFlight.has(name)) {
      this.pending.add(name);
      return;
    }
    this.inFlight.add(name);
    try {
      const v = await this.verdict(s);
      if (this.stopped) return;
      const old = (s.status?.conditions ?? []).find((c) => c.type === 'Available');
      if (old && old.status === v.status && old.reason === v.reason && old.message === v.message) return;
      const lastTransitionTime = old && old.status === v.status && old.lastTransitionTime ? old.lastTransitionTime : formatTime(new Date());
      if (v.status !== 'True') this.o.logger.v(2).info('an APIService is not available', { apiService: name, reason: v.reason ?? '', message: v.message ?? '' });
      await this.o.writeCondition(s, { type: 'Available', ...v, lastTransitionTime });
    } catch (e) {
      this.o.logger.warn('cannot update the availability of an APIService', { apiService: name, err: e instanceof Error ? e.message : String(e) });
    } finally {
      this.inFlight.delete(name);
      const current = this.pending.delete(name) ? this.o.index.all().find((x) => x.metadata?.name === name) : undefined;
      if (current && !this.stopped) void this.sync(current);
    }
  }
}
