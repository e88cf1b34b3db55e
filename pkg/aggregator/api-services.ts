// The APIServices this server knows, from its in-process cache of them: which group versions are
// proxied to an extension server (and whether that server is available), for the proxy, the
// discovery source and the OpenAPI aggregation to read from memory.
import type { APIService } from '../../api/apiregistration/v1/api-service.js';
import type { ObjectCache } from '../registry/generic/object-cache.js';

const key = (group: string, version: string) => `${group}/${version}`;

/** Whether the Available condition of an APIService is True. */
export const isAvailable = (s: APIService): boolean => (s.status?.conditions ?? []).some((c) => c.type === 'Available' && c.status === 'True');

export class APIServiceIndex {
  private remote = new Map<string, APIService>();
  private readonly listeners: (() => void)[] = [];

  constructor(private readonly cache: ObjectCache) {
    // The cache holds objects decoded and validated as APIServices, which makes the casts sound.
    cache.subscribe(() => this.rebuild());
    this.rebuild();
  }

  /** The APIService that proxies `group`/`version` to a service, if one does. */
  proxied(group: string, version: string): APIService | undefined {
    return this.remote.get(key(group, version));
  }

  /** Every APIService backed by a service. */
  remotes(): APIService[] {
    return [...this.remote.values()];
  }

  /** Every APIService, local ones included. */
  all(): APIService[] {
    return this.cache.list() as unknown as APIService[];
  }

  /** Calls `listener` after any APIService changed. */
  subscribe(listener: () => void): void {
    this.listeners.push(listener);
  }

  private rebuild(): void {
    const next = new Map<string, APIService>();
    for (const s of this.all()) {
      if (s.spec?.service && s.spec.version) next.set(key(s.spec.group ?? '', s.spec.version), s);
    }
    this.remote = next;
    for (const l of this.listeners) l();
  }
}
