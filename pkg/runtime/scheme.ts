// The scheme: every served group, version and resource, built once at start-up from the api/
// registrations. Routing, discovery, storage keys and codecs read it; nothing else lists kinds.
import type { TObject } from '@sinclair/typebox';
import { defaultApiDomain, type ApiDomain } from '../../api/domain.js';
import type { PrinterColumn } from '../../api/printer-column.js';
import type { GroupVersionRegistration, ScaleAdapter, Stability, StoredAs, Subresource, SubresourceKind } from '../../api/registration.js';
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

export class Scheme {
  private readonly gvs: GroupVersionInfo[] = [];
  private readonly byResource = new Map<string, ResourceInfo>();

  /** The platform domain (--api-domain) every derived name comes from. */
  readonly domain: ApiDomain;

  constructor(registrations: GroupVersionRegistration[], domain: ApiDomain = defaultApiDomain) {
    this.domain = domain;
    for (const gv of registrations) {
      const apiVersion = gv.group ? `${gv.group}/${gv.version}` : gv.version;
      const resources = gv.kinds.map((k): ResourceInfo => ({
        group: gv.group,
        version: gv.version,
        apiVersion,
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
      }));
      this.gvs.push({ group: gv.group, version: gv.version, apiVersion, stability: gv.stability, resources });
      for (const r of resources) this.byResource.set(`${r.group}/${r.version}/${r.resource}`, r);
    }
  }

  /** Every served group/version, core first, in registration order. */
  groupVersions(): readonly GroupVersionInfo[] {
    return this.gvs;
  }

  /** Served groups with their versions, in registration order. */
  groups(): { name: string; versions: GroupVersionInfo[] }[] {
    const out: { name: string; versions: GroupVersionInfo[] }[] = [];
    for (const gv of this.gvs) {
      let g = out.find((x) => x.name === gv.group);
      if (!g) out.push((g = { name: gv.group, versions: [] }));
      g.versions.push(gv);
    }
    return out;
  }

  groupVersion(group: string, version: string): GroupVersionInfo | undefined {
    return this.gvs.find((gv) => gv.group === group && gv.version === version);
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
  };
}
