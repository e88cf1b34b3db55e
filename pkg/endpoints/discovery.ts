// Discovery documents (/api, /apis, /apis/<group>, /api/v1, /apis/<group>/<version>), all read
// off the discovery model, which the scheme feeds: a served resource is discoverable by construction.
import type { Subresource } from '../../api/registration.js';
import type { ApiDomain } from '../../api/domain.js';
import { builtInPriority, customResourcePriority } from '../../api/group-priorities.js';
import type { GroupVersionInfo, ResourceInfo, Scheme } from '../runtime/scheme.js';
import type { APIResource, DiscoveryGroup, DiscoveryGroupVersion, DiscoveryModel, DiscoverySource } from './discovery-model.js';

const subresourceVerbs: Record<string, string[]> = {
  status: ['get', 'patch', 'update'], finalize: ['update'], ephemeralcontainers: ['get', 'patch', 'update'],
  approval: ['get', 'patch', 'update'],
};

/** A custom resource is discovered once its definition is Established (it may be served a moment before). */
const discoverable = (r: ResourceInfo) => !r.custom || r.custom.established;

/** Verbs a discovered custom resource of a terminating definition keeps (upstream's discovery controller). */
const terminatingVerbs = ['delete', 'deletecollection', 'get', 'list', 'watch'];

/** The APIVersions document of /api: the core group's versions. */
export function apiVersions(model: DiscoveryModel, serverAddress: string) {
  return {
    kind: 'APIVersions',
    versions: model.group('')?.versions.map((gv) => gv.version) ?? [],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

const groupVersionOf = (gv: DiscoveryGroupVersion) => (gv.group ? `${gv.group}/${gv.version}` : gv.version);
const versionRef = (gv: DiscoveryGroupVersion) => ({ groupVersion: groupVersionOf(gv), version: gv.version });

/** A group as /apis lists it: the first version is preferred (the model keeps them best first). */
function apiGroup(g: DiscoveryGroup) {
  return { name: g.name, versions: g.versions.map(versionRef), preferredVersion: versionRef(g.versions[0]!) };
}

/** The APIGroupList of /apis: every named group, in discovery order. */
export function apiGroupList(model: DiscoveryModel) {
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: model.groups().filter((g) => g.name !== '').map(apiGroup) };
}

/** The APIGroup document of a named group, or undefined when it is not served. */
export function apiGroupDocument(model: DiscoveryModel, group: string) {
  const g = group === '' ? undefined : model.group(group);
  return g ? { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(g) } : undefined;
}

/** The APIResourceList of a served group version. */
export function apiResourceListDocument(gv: DiscoveryGroupVersion) {
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: groupVersionOf(gv), resources: gv.resources };
}

/** The scheme's group versions (built-in and custom resources) as a source of the discovery model. */
export function schemeDiscoverySource(scheme: Scheme): DiscoverySource {
  return {
    groupVersions: () => scheme.groupVersions().filter(discoverableGroupVersion).map((gv): DiscoveryGroupVersion => {
      const p = groupVersionPriority(gv, scheme.domain);
      return { group: gv.group, version: gv.version, groupPriority: p.group, versionPriority: p.version, resources: apiResourceList(gv).resources, freshness: 'Current' };
    }),
    subscribe: (listener) => scheme.subscribe(listener),
  };
}

/** The priorities of a scheme group version (its local APIService's): upstream's for built-in groups, one for every custom resource group. */
export function groupVersionPriority(gv: GroupVersionInfo, domain: ApiDomain): { group: number; version: number } {
  return gv.resources.some((r) => r.custom) ? customResourcePriority : builtInPriority(gv.group, gv.version, domain);
}

/** Whether discovery shows the group/version. */
export function discoverableGroupVersion(gv: GroupVersionInfo): boolean {
  return gv.resources.length === 0 || gv.resources.some(discoverable);
}

/**
 * A sub-resource's kind; its group and version only when they are not the parent's (upstream omits
 * them then). A streamed read (pods/log) names the parent's kind, as upstream's LogREST serves Pods.
 */
function subKind(r: ResourceInfo, sub: Subresource) {
  const k = r.subresourceKinds[sub];
  if (!k || k.streamed) return undefined;
  return k.group === r.group && k.version === r.version ? { kind: k.kind } : { group: k.group, version: k.version, kind: k.kind };
}

/** The resources of a scheme group version, as its APIResourceList names them. */
export function apiResourceList(gv: GroupVersionInfo): { kind: 'APIResourceList'; apiVersion: 'v1'; groupVersion: string; resources: APIResource[] } {
  const resources = gv.resources.filter(discoverable).flatMap((r) => [
    {
      name: r.resource,
      singularName: r.singular,
      namespaced: r.namespaced,
      kind: r.kind,
      verbs: r.custom?.terminating ? terminatingVerbs : r.verbs,
      ...(r.shortNames.length ? { shortNames: r.shortNames } : {}),
      ...(r.categories.length ? { categories: r.categories } : {}),
    },
    ...r.subresources.map((sub) => ({
      name: `${r.resource}/${sub}`,
      singularName: '',
      namespaced: r.namespaced,
      // A sub-resource speaking another group's kind (Scale, TokenRequest) says so, as upstream's do.
      ...(subKind(r, sub) ?? { kind: r.kind }),
      verbs: r.subresourceKinds[sub]?.verbs ?? subresourceVerbs[sub] ?? ['get'],
    })),
  ]);
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: gv.apiVersion, resources };
}
