// The scheme: every served group, version and resource, built at start-up from the api/
// registrations, plus the custom resources CustomResourceDefinitions register while the server
// runs. Routing, discovery, storage keys and codecs read it; nothing else lists kinds.
import type { TObject } from '@sinclair/typebox';
import { defaultApiDomain, type ApiDomain } from '../../api/domain.js';
import type { PrinterColumn } from '../../api/printer-column.js';
import type {
  FreeFormDecoding, GroupVersionRegistration, KindRegistration, ScaleAdapter, Stability, StoredAs, Subresource, SubresourceKind,
} from '../../api/registration.js';
import { compareKubeAwareVersions } from '../util/kube-version.js';
import type { CustomResourceServing } from './custom-resource-schema.js';
import type { GroupResource } from './errors.js';

/** Where a resource's objects live below --etcd-prefix: `/<group, or core>/<resource>/`. */
export function storagePrefix(group: string, resource: string): string {
  return `/${group || 'core'}/${resource}/`;
}

/**
 * The key of a resource's store: `<group>/<resource>`, or `<group>/<version>/<resource>` for a
 * version served from another version's storage of the same resource (autoscaling/v1 from v2), so
 * that what looks a resource up by group and name finds the storage version's store.
 */
export function storeKey(info: Pick<ResourceInfo, 'group' | 'version' | 'resource' | 'storedAs'>): string {
  const s = info.storedAs;
  return s && s.group === info.group && s.resource === info.resource ? `${info.group}/${info.version}/${info.resource}` : `${info.group}/${info.resource}`;
}

export interface ResourceInfo {
  group: string;
  version: string;
  /** `apps/v1`, or `v1` for the core group. */
  apiVersion: string;
  kind: string;
  listKind: string;
  resource: string;
  singular: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  subresources: Subresource[];
  /** Verbs served on the main resource, in discovery order. */
  verbs: string[];
  stability: Stability;
  schema: TObject;
  defaulter?: (obj: Record<string, unknown>) => void;
  /** The kind's Table columns; absent for kinds that print the default Name and Created At. */
  printerColumns?: PrinterColumn[];
  groupResource: GroupResource;
  /** The platform domain the scheme names its groups in. */
  domain: ApiDomain;
  /** How the kind maps onto its `scale` sub-resource's Scale. */
  scale?: ScaleAdapter;
  /** Sub-resources that speak another kind (Scale, TokenRequest), as resources of that kind below this one. */
  subresourceKinds: Partial<Record<Subresource, ResourceInfo>>;
  /** Not stored; only create is served, answered by a handler the server is given. */
  virtual: boolean;
  /** The options kind of a CONNECT sub-resource (pods/exec: PodExecOptions), read off the query. */
  connect?: boolean;
  /** The options kind of a streamed read (pods/log: PodLogOptions), read off the query. */
  streamed?: boolean;
  /** The storage key prefix of the resource's objects: `/<group or core>/<resource>/`, or those of the resource it is stored as. */
  storagePrefix: string;
  /** Set when the kind lives in another resource's storage. */
  storedAs?: StoredAs;
  /** Reads the parts of a decoded object the kind types by hand (see KindRegistration.decodeFreeForm). */
  decodeFreeForm?: (obj: Record<string, unknown>) => FreeFormDecoding;
  /** Whether the kind is served in protobuf (custom resources and CustomResourceDefinitions are not). */
  protobuf: boolean;
  /** Set for a custom resource: its schema and how its definition wants it served. */
  custom?: CustomResourceServing;
}

export interface GroupVersionInfo {
  group: string;
  version: string;
  apiVersion: string;
  stability: Stability;
  resources: ResourceInfo[];
}

const resourceVerbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const virtualVerbs = ['create'];

/** The group/version a kind is registered in. */
export interface GroupVersionOf {
  group: string;
  version: string;
  stability: Stability;
}

/** The scheme's entry for kind `k` registered in `gv`. */
export function resourceInfoOf(gv: GroupVersionOf, k: KindRegistration, domain: ApiDomain): ResourceInfo {
  return {
    group: gv.group,
    version: gv.version,
    apiVersion: gv.group ? `${gv.group}/${gv.version}` : gv.version,
    kind: k.kind,
    listKind: `${k.kind}List`,
    resource: k.resource,
    singular: k.singular,
    namespaced: k.namespaced,
    shortNames: k.shortNames ?? [],
    categories: k.categories ?? [],
    subresources: k.subresources ?? [],
    verbs: k.virtual ? virtualVerbs : resourceVerbs.filter((v) => !(k.unservedVerbs ?? []).some((u) => u === v)),
    stability: gv.stability,
    schema: k.schema,
    ...(k.defaulter ? { defaulter: k.defaulter } : {}),
    ...(k.printerColumns ? { printerColumns: k.printerColumns } : {}),
    groupResource: { group: gv.group, resource: k.resource },
    domain,
    ...(k.scale ? { scale: k.scale } : {}),
    subresourceKinds: Object.fromEntries(Object.entries(k.subresourceKinds ?? {})
      .map(([sub, kind]) => [sub, subresourceInfo(kind, k.resource, k.namespaced, gv.group, domain)])),
    virtual: k.virtual ?? false,
    storagePrefix: k.storedAs ? storagePrefix(k.storedAs.group, k.storedAs.resource) : storagePrefix(gv.group, k.resource),
    ...(k.storedAs ? { storedAs: k.storedAs } : {}),
    ...(k.decodeFreeForm ? { decodeFreeForm: k.decodeFreeForm } : {}),
    protobuf: k.protobuf !== false,
  };
}

const gvKey = (group: string, version: string) => `${group}/${version}`;

export class Scheme {
  /** The built-in group/versions, in registration order. */
  private readonly builtIn: GroupVersionInfo[] = [];
  private readonly builtInByResource = new Map<string, ResourceInfo>();
  /** The served resources of each CustomResourceDefinition, by its name. */
  private readonly custom = new Map<string, ResourceInfo[]>();
  /** Every served group/version: the built-in ones, then the custom ones. */
  private gvs: GroupVersionInfo[] = [];
  private byResource = new Map<string, ResourceInfo>();
  private byGroupVersion = new Map<string, GroupVersionInfo>();
  private grouped: { name: string; versions: GroupVersionInfo[] }[] = [];
  private generation = 0;
  private readonly listeners: (() => void)[] = [];

  /** The platform domain (--api-domain) every derived name comes from. */
  readonly domain: ApiDomain;

  constructor(registrations: GroupVersionRegistration[], domain: ApiDomain = defaultApiDomain) {
    this.domain = domain;
    for (const gv of registrations) {
      const resources = gv.kinds.map((k) => resourceInfoOf(gv, k, domain));
      const apiVersion = gv.group ? `${gv.group}/${gv.version}` : gv.version;
      this.builtIn.push({ group: gv.group, version: gv.version, apiVersion, stability: gv.stability, resources });
      for (const r of resources) this.builtInByResource.set(`${r.group}/${r.version}/${r.resource}`, r);
    }
    this.rebuild();
  }

  /**
   * How many times the served set changed (custom resources came, changed or went): what is
   * derived from the scheme (OpenAPI documents) is rebuilt when it moves.
   */
  get revision(): number {
    return this.generation;
  }

  /**
   * Serves `resources` (one per served version) for the CustomResourceDefinition `definition`,
   * replacing what it served before; an empty list stops serving it. A custom resource naming a
   * built-in group, version and resource is not served: the built-in one keeps its path.
   */
  setCustomResources(definition: string, resources: ResourceInfo[]): void {
    if (resources.length === 0) {
      if (!this.custom.delete(definition)) return;
    } else {
      this.custom.set(definition, resources);
    }
    this.rebuild();
  }

  /** The resources served for `definition`, if any. */
  customResources(definition: string): readonly ResourceInfo[] {
    return this.custom.get(definition) ?? [];
  }

  /**
   * Recomputes the lookups. Custom groups follow the built-in ones, by name, their versions by
   * priority (v2, v1, v1beta1, ...). A custom resource in a group the server serves itself is
   * not served: built-in groups keep their paths and documents.
   */
  private rebuild(): void {
    const builtInGroups = new Set(this.builtIn.map((gv) => gv.group));
    const customGVs = new Map<string, GroupVersionInfo>();
    for (const name of [...this.custom.keys()].sort()) {
      for (const r of this.custom.get(name)!) {
        if (builtInGroups.has(r.group)) continue;
        const key = gvKey(r.group, r.version);
        let gv = customGVs.get(key);
        if (!gv) customGVs.set(key, (gv = { group: r.group, version: r.version, apiVersion: r.apiVersion, stability: r.stability, resources: [] }));
        gv.resources.push(r);
      }
    }
    const custom = [...customGVs.values()].sort((a, b) => (a.group === b.group ? compareKubeAwareVersions(a.version, b.version) : a.group < b.group ? -1 : 1));
    this.gvs = [...this.builtIn, ...custom];
    this.byResource = new Map(this.builtInByResource);
    this.byGroupVersion = new Map();
    this.grouped = [];
    for (const gv of this.gvs) {
      this.byGroupVersion.set(gvKey(gv.group, gv.version), gv);
      for (const r of gv.resources) this.byResource.set(`${r.group}/${r.version}/${r.resource}`, r);
      const g = this.grouped.find((x) => x.name === gv.group);
      if (g) g.versions.push(gv);
      else this.grouped.push({ name: gv.group, versions: [gv] });
    }
    this.generation++;
    for (const l of this.listeners) l();
  }

  /** Calls `listener` after each change of the served set (custom resources came, changed or went). */
  subscribe(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Every served group/version, core first, built-in ones in registration order, then the custom ones. */
  groupVersions(): readonly GroupVersionInfo[] {
    return this.gvs;
  }

  /** Served groups with their versions, in the order of groupVersions(). */
  groups(): { name: string; versions: GroupVersionInfo[] }[] {
    return this.grouped;
  }

  groupVersion(group: string, version: string): GroupVersionInfo | undefined {
    return this.byGroupVersion.get(gvKey(group, version));
  }

  resource(group: string, version: string, resource: string): ResourceInfo | undefined {
    return this.byResource.get(`${group}/${version}/${resource}`);
  }

  /** All resources across group/versions. */
  resources(): ResourceInfo[] {
    return this.gvs.flatMap((gv) => gv.resources);
  }
}

/** The kind a sub-resource speaks, as a resource below its parent: its own kind and schema, the parent's scope and name. */
function subresourceInfo(k: SubresourceKind, parentResource: string, namespaced: boolean, parentGroup: string, domain: ApiDomain): ResourceInfo {
  return {
    group: k.group,
    version: k.version,
    apiVersion: k.group ? `${k.group}/${k.version}` : k.version,
    kind: k.kind,
    listKind: `${k.kind}List`,
    resource: parentResource,
    singular: '',
    namespaced,
    shortNames: [],
    categories: [],
    subresources: [],
    verbs: k.verbs,
    stability: 'stable',
    schema: k.schema,
    // Errors about the sub-resource name the parent, as upstream's do (statefulsets.apps "web" not found).
    groupResource: { group: parentGroup, resource: parentResource },
    domain,
    subresourceKinds: {},
    virtual: true,
    ...(k.connect ? { connect: true } : {}),
    ...(k.streamed ? { streamed: true } : {}),
    storagePrefix: storagePrefix(parentGroup, parentResource),
    protobuf: true,
  };
}
