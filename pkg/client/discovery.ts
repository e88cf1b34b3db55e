// Discovery: the groups, versions and resources the server serves (/api, /apis and each
// group/version's APIResourceList), which is how a controller finds every namespaced kind (the
// namespace controller empties them all) whatever the scheme it was built with.
import type { Requester } from './requester.js';

export interface DiscoveredResource {
  group: string;
  version: string;
  /** The plural, or `parent/sub` for a sub-resource. */
  name: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
  shortNames: string[];
}

export interface DiscoveredGroup {
  name: string;
  versions: string[];
  preferredVersion: string;
}

export class Discovery {
  constructor(private readonly requester: Requester) {}

  /** Every served group, core ('') first, with its versions and the preferred one. */
  async serverGroups(): Promise<DiscoveredGroup[]> {
    const core = await this.requester.call('GET', '/api');
    const versions = Array.isArray(core.versions) ? (core.versions as string[]) : [];
    const out: DiscoveredGroup[] = versions.length ? [{ name: '', versions, preferredVersion: versions[0]! }] : [];
    const apis = await this.requester.call('GET', '/apis');
    for (const g of (apis.groups ?? []) as { name: string; versions?: { version: string }[]; preferredVersion?: { version: string } }[]) {
      const vs = (g.versions ?? []).map((v) => v.version);
      out.push({ name: g.name, versions: vs, preferredVersion: g.preferredVersion?.version ?? vs[0] ?? '' });
    }
    return out;
  }

  /** The resources of one group/version (sub-resources included, named `parent/sub`). */
  async resourcesFor(group: string, version: string): Promise<DiscoveredResource[]> {
    const list = await this.requester.call('GET', group ? `/apis/${group}/${version}` : `/api/${version}`);
    return ((list.resources ?? []) as { name: string; kind: string; namespaced: boolean; verbs?: string[]; shortNames?: string[]; group?: string; version?: string }[])
      .map((r) => ({
        group: r.group ?? group,
        version: r.version ?? version,
        name: r.name,
        kind: r.kind,
        namespaced: r.namespaced,
        verbs: r.verbs ?? [],
        shortNames: r.shortNames ?? [],
      }));
  }

  /** The resources of every group's preferred version. */
  async serverPreferredResources(): Promise<DiscoveredResource[]> {
    const groups = await this.serverGroups();
    const lists = await Promise.all(groups.map((g) => this.resourcesFor(g.name, g.preferredVersion)));
    return lists.flat();
  }

  /** Top-level namespaced resources (preferred versions) that serve every verb in `verbs`, e.g. ['list', 'deletecollection']. */
  async namespacedResources(verbs: string[] = []): Promise<DiscoveredResource[]> {
    return (await this.serverPreferredResources())
      .filter((r) => r.namespaced && !r.name.includes('/') && verbs.every((v) => r.verbs.includes(v)));
  }
}
