// The one in-memory model of what discovery shows: every group version the server answers for,
// fed by sources (the scheme's built-in and custom resources; the aggregator's APIServices), kept
// sorted by upstream's APIService priorities. /api, /apis, /apis/<group>, /apis/<group>/<version>
// and the aggregated documents (APIGroupDiscoveryList) are all views of it, so they cannot disagree,
// and none of them reads etcd.
//
// Contract for a source (the aggregator's APIServices are one):
// - groupVersions() answers, synchronously and from memory, every group version the source serves
//   now, each with its APIResourceList resources as `/apis/<group>/<version>` lists them
//   (sub-resources as `<resource>/<sub>` entries), its group and version priority (upstream's
//   APIService spec.groupPriorityMinimum and spec.versionPriority) and its freshness (Stale when
//   the source could not refresh the resources, e.g. an unreachable extension server; they are then
//   the last ones it knew).
// - It calls every listener given to subscribe() after anything groupVersions() answers changed;
//   the model rebuilds its documents lazily on the next request.
// - A group version served by several sources is taken from the one added with the lowest
//   precedence (sourcePrecedence: aggregated APIServices, then built-in groups, then custom
//   resources), as upstream's aggregated discovery manager does.
// - Groups are listed by the highest group priority of their versions, then by name; versions
//   within a group by version priority, then kube-aware version order (v2, v1, v1beta1, ...). The
//   first version is the group's preferred version.
import { compareKubeAwareVersions } from '../util/kube-version.js';

/** One entry of an APIResourceList (meta/v1 APIResource); group and version only when they differ from the list's. */
export interface APIResource {
  name: string;
  singularName: string;
  namespaced: boolean;
  group?: string;
  version?: string;
  kind: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
}

/** upstream's apidiscovery DiscoveryFreshness. */
export type Freshness = 'Current' | 'Stale';

/** A group version as a source serves it. */
export interface DiscoveryGroupVersion {
  /** '' for the core group (served below /api). */
  group: string;
  version: string;
  /** Orders groups, highest first (APIService spec.groupPriorityMinimum). */
  groupPriority: number;
  /** Orders the versions of a group, highest first (APIService spec.versionPriority). */
  versionPriority: number;
  resources: readonly APIResource[];
  freshness: Freshness;
}

/** A feed of group versions into the model (see the contract above). */
export interface DiscoverySource {
  /** Every group version the source serves now. */
  groupVersions(): readonly DiscoveryGroupVersion[];
  /** Calls `listener` after what groupVersions() answers has changed. */
  subscribe(listener: () => void): void;
}

/** Which source wins a group version several serve: the lowest number. */
export const sourcePrecedence = { aggregated: 0, builtIn: 100, custom: 200 } as const;

/** A group with its versions, best first. */
export interface DiscoveryGroup {
  name: string;
  versions: readonly DiscoveryGroupVersion[];
}

/** What the model derives from its sources, until the next change. */
interface Snapshot {
  groups: readonly DiscoveryGroup[];
  byGroupVersion: ReadonlyMap<string, DiscoveryGroupVersion>;
  /** Views derived on first use (the aggregated documents and their ETags), dropped with the snapshot. */
  views: Map<string, unknown>;
}

const gvKey = (group: string, version: string) => `${group}/${version}`;

export class DiscoveryModel {
  private readonly sources: { source: DiscoverySource; precedence: number }[] = [];
  private readonly listeners: (() => void)[] = [];
  private snapshot: Snapshot | undefined;

  /** Adds a source; it takes effect on the next read. */
  add(source: DiscoverySource, precedence: number): void {
    this.sources.push({ source, precedence });
    this.sources.sort((a, b) => a.precedence - b.precedence);
    source.subscribe(() => this.changed());
    this.changed();
  }

  /** Calls `listener` after the model's content may have changed. */
  subscribe(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Every group, core ('') included, in discovery order. */
  groups(): readonly DiscoveryGroup[] {
    return this.current().groups;
  }

  /** A group by name, if any source serves it. */
  group(name: string): DiscoveryGroup | undefined {
    return this.current().groups.find((g) => g.name === name);
  }

  groupVersion(group: string, version: string): DiscoveryGroupVersion | undefined {
    return this.current().byGroupVersion.get(gvKey(group, version));
  }

  /**
   * A value derived from the current content, computed once per change of it: what a view
   * builds (an encoded document, its ETag) is kept as long as the content it came from.
   */
  derived<T>(key: string, build: () => T): T {
    const views = this.current().views;
    if (!views.has(key)) views.set(key, build());
    return views.get(key) as T;
  }

  private changed(): void {
    this.snapshot = undefined;
    for (const l of this.listeners) l();
  }

  private current(): Snapshot {
    return (this.snapshot ??= this.build());
  }

  private build(): Snapshot {
    const byGroupVersion = new Map<string, DiscoveryGroupVersion>();
    for (const { source } of this.sources) {
      for (const gv of source.groupVersions()) {
        const key = gvKey(gv.group, gv.version);
        if (!byGroupVersion.has(key)) byGroupVersion.set(key, gv);
      }
    }
    const grouped = new Map<string, DiscoveryGroupVersion[]>();
    for (const gv of byGroupVersion.values()) {
      const versions = grouped.get(gv.group);
      if (versions) versions.push(gv);
      else grouped.set(gv.group, [gv]);
    }
    const groups = [...grouped].map(([name, versions]) => ({
      name,
      versions: versions.sort((a, b) => b.versionPriority - a.versionPriority || compareKubeAwareVersions(a.version, b.version)),
      priority: Math.max(...versions.map((v) => v.groupPriority)),
    }));
    groups.sort((a, b) => b.priority - a.priority || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { groups: groups.map(({ name, versions }) => ({ name, versions })), byGroupVersion, views: new Map() };
  }
}
