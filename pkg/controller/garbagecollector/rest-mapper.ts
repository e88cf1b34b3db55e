// Which resource serves a kind in a given apiVersion, and whether it is namespaced, from the
// server's discovery of every group and version (owner references may name any served version,
// not only the preferred one). Re-read when a kind is not found, as upstream resets its mapper.
import type { Client, DiscoveredResource } from '../../client/index.js';

export interface Mapping {
  group: string;
  version: string;
  resource: string;
  namespaced: boolean;
}

export class RestMapper {
  private byKind = new Map<string, Mapping>();
  private preferred: DiscoveredResource[] = [];
  private loadedAt = 0;

  constructor(private readonly client: Client, private readonly minRefreshMs = 5_000) {}

  /** Reads discovery again (every group, every version). */
  async refresh(): Promise<void> {
    const groups = await this.client.discovery.serverGroups();
    const byKind = new Map<string, Mapping>();
    const preferred: DiscoveredResource[] = [];
    for (const g of groups) {
      for (const v of g.versions) {
        const resources = await this.client.discovery.resourcesFor(g.name, v);
        for (const r of resources) {
          if (r.name.includes('/')) continue;
          const apiVersion = g.name ? `${g.name}/${v}` : v;
          byKind.set(`${apiVersion}/${r.kind}`, { group: g.name, version: v, resource: r.name, namespaced: r.namespaced });
          if (v === g.preferredVersion) preferred.push(r);
        }
      }
    }
    this.byKind = byKind;
    this.preferred = preferred;
    this.loadedAt = Date.now();
  }

  /** The mapping of `kind` in `apiVersion`, re-reading discovery (at most every few seconds) when unknown. */
  async mapping(apiVersion: string, kind: string): Promise<Mapping | undefined> {
    const key = `${apiVersion}/${kind}`;
    let m = this.byKind.get(key);
    if (!m && Date.now() - this.loadedAt > this.minRefreshMs) {
      await this.refresh();
      m = this.byKind.get(key);
    }
    return m;
  }

  /** Top-level resources of the preferred versions that serve every verb in `verbs`. */
  resourcesWith(verbs: string[]): DiscoveredResource[] {
    return this.preferred.filter((r) => verbs.every((v) => r.verbs.includes(v)));
  }
}
