// What the extension API servers say of themselves, fetched by this server as upstream's
// aggregator fetches it: each proxied group version's APIResourceList (for discovery) and its
// server's OpenAPI v2 and v3 documents (for /openapi), refreshed on an interval (upstream: every
// minute) and at once when an APIService comes or changes. Discovery gets the group versions as a
// source, `Stale` while the service is unavailable or did not answer (with the resources it last
// gave); OpenAPI gets the documents with a revision that moves when any of them changed.
import type { APIService } from '../../api/apiregistration/v1/api-service.js';
import type { APIResource, DiscoveryGroupVersion, DiscoverySource } from '../endpoints/discovery-model.js';
import type { Logger } from '../log/logger.js';
import { APIServiceIndex, isAvailable } from './api-services.js';
import { getFromBackend } from './backend-client.js';
import { aggregatorUser, remoteUserHeaders } from './remote-headers.js';
import type { Backend } from './service-resolver.js';

type Json = Record<string, unknown>;

/** What was last fetched for one APIService. */
interface Fetched {
  resources?: APIResource[];
  /** Whether the last discovery fetch answered. */
  current: boolean;
  openAPIV2?: Json;
  openAPIV3?: Json;
}

/** The extension servers' OpenAPI documents, by APIService name, with a revision that moves on every change. */
export interface RemoteSpecs {
  revision: number;
  /** Each proxied group version's server's /openapi/v2, with its group and version. */
  v2: { group: string; version: string; doc: Json }[];
  /** Each proxied group version's /openapi/v3 document, keyed `apis/<group>/<version>`. */
  v3: Map<string, Json>;
}

export interface RemoteDocumentsOptions {
  index: APIServiceIndex;
  /** Where an APIService is reached now. */
  backend(s: APIService): Promise<Backend>;
  /** How often every document is fetched again. */
  intervalMs: number;
  logger: Logger;
  timeoutMs?: number;
}

const parse = (body: Buffer): Json | undefined => {
  try {
    const v = JSON.parse(body.toString('utf8')) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
  } catch {
    return undefined;
  }
};

export class RemoteDocuments implements DiscoverySource {
  private readonly fetched = new Map<string, Fetched>();
  private readonly listeners: (() => void)[] = [];
  private revision = 0;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;

  constructor(private readonly o: RemoteDocumentsOptions) {
    o.index.subscribe(() => {
      this.notify();
      this.refresh();
    });
  }

  start(): void {
    this.refresh();
    this.timer = setInterval(() => this.refresh(), this.o.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  groupVersions(): readonly DiscoveryGroupVersion[] {
    return this.o.index.remotes().map((s) => {
      const f = this.fetched.get(s.metadata?.name ?? '');
      return {
        group: s.spec?.group ?? '',
        version: s.spec?.version ?? '',
        groupPriority: s.spec?.groupPriorityMinimum ?? 0,
        versionPriority: s.spec?.versionPriority ?? 0,
        resources: f?.resources ?? [],
        freshness: isAvailable(s) && f?.current ? 'Current' : 'Stale',
      };
    });
  }

  subscribe(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** The documents fetched so far. */
  specs(): RemoteSpecs {
    const v2: RemoteSpecs['v2'] = [];
    const v3 = new Map<string, Json>();
    for (const s of this.o.index.remotes()) {
      const f = this.fetched.get(s.metadata?.name ?? '');
      const group = s.spec?.group ?? '';
      const version = s.spec?.version ?? '';
      if (f?.openAPIV2) v2.push({ group, version, doc: f.openAPIV2 });
      if (f?.openAPIV3) v3.set(`apis/${group}/${version}`, f.openAPIV3);
    }
    return { revision: this.revision, v2, v3 };
  }

  /** Fetches every document once more (a fetch under way is followed by one more). */
  refresh(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.fetchAll().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.refresh();
      }
    });
  }

  private notify(): void {
    for (const l of this.listeners) l();
  }

  private async fetchAll(): Promise<void> {
    const remotes = this.o.index.remotes();
    const names = new Set(remotes.map((s) => s.metadata?.name ?? ''));
    let changed = false;
    for (const name of [...this.fetched.keys()]) {
      if (!names.has(name)) {
        this.fetched.delete(name);
        changed = true;
      }
    }
    const results = await Promise.all(remotes.map(async (s) => ({ name: s.metadata?.name ?? '', next: await this.fetchOne(s) })));
    for (const { name, next } of results) {
      const before = this.fetched.get(name);
      if (JSON.stringify(before) !== JSON.stringify(next)) {
        this.fetched.set(name, next);
        changed = true;
      }
    }
    if (changed) {
      this.revision++;
      this.notify();
    }
  }

  private async fetchOne(s: APIService): Promise<Fetched> {
    const name = s.metadata?.name ?? '';
    const last = this.fetched.get(name);
    const group = s.spec?.group ?? '';
    const version = s.spec?.version ?? '';
    const headers = remoteUserHeaders(aggregatorUser);
    const timeout = this.o.timeoutMs ?? 10_000;
    let backend: Backend;
    try {
      backend = await this.o.backend(s);
    } catch {
      return { ...last, current: false };
    }
    const get = async (path: string) => {
      try {
        const a = await getFromBackend(backend, path, headers, timeout);
        return a.status >= 200 && a.status < 300 ? parse(a.body) : undefined;
      } catch (e) {
        this.o.logger.v(4).info('cannot fetch a document of an extension API server', { apiService: name, path, err: e instanceof Error ? e.message : String(e) });
        return undefined;
      }
    };
    const list = await get(`/apis/${group}/${version}`);
    const resources = Array.isArray(list?.resources) ? (list.resources as APIResource[]) : undefined;
    const v2 = await get('/openapi/v2');
    const index = await get('/openapi/v3');
    const entry = (index?.paths as Record<string, { serverRelativeURL?: string }> | undefined)?.[`apis/${group}/${version}`];
    const v3 = entry?.serverRelativeURL ? await get(entry.serverRelativeURL) : undefined;
    // What did not answer this time stays as it last was.
    const next: Fetched = { ...last, current: resources !== undefined };
    if (resources) next.resources = resources;
    if (v2) next.openAPIV2 = v2;
    if (v3) next.openAPIV3 = v3;
    return next;
  }
}
