// Discovery documents (/api, /apis, /apis/<group>, /api/v1, /apis/<group>/<version>), all read
// off the scheme, so a served resource is discoverable by construction.
import type { Subresource } from '../../api/registration.js';
import type { GroupVersionInfo, ResourceInfo, Scheme } from '../runtime/scheme.js';

const subresourceVerbs: Record<string, string[]> = {
  status: ['get', 'patch', 'update'], finalize: ['update'], ephemeralcontainers: ['get', 'patch', 'update'],
  approval: ['get', 'patch', 'update'],
};

const versionRef = (gv: GroupVersionInfo) => ({ groupVersion: gv.apiVersion, version: gv.version });

/** A custom resource is discovered once its definition is Established (it may be served a moment before). */
const discoverable = (r: ResourceInfo) => !r.custom || r.custom.established;

/** The group/versions with something to discover. */
const discoverableVersions = (versions: GroupVersionInfo[]) => versions.filter((gv) => gv.resources.length === 0 || gv.resources.some(discoverable));

/** Verbs a discovered custom resource of a terminating definition keeps (upstream's discovery controller). */
const terminatingVerbs = ['delete', 'deletecollection', 'get', 'list', 'watch'];

/** The preferred version of a group: the first stable one, else the first registered. */
function preferred(versions: GroupVersionInfo[]): GroupVersionInfo {
  return versions.find((v) => v.stability === 'stable') ?? versions[0]!;
}

export function apiVersions(scheme: Scheme, serverAddress: string) {
  return {
    kind: 'APIVersions',
    versions: scheme.groupVersions().filter((gv) => gv.group === '').map((gv) => gv.version),
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

function apiGroup(name: string, versions: GroupVersionInfo[]) {
  return {
    name,
    versions: versions.map(versionRef),
    preferredVersion: versionRef(preferred(versions)),
  };
}

export function apiGroupList(scheme: Scheme) {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: scheme.groups().filter((g) => g.name !== '')
      .map((g) => ({ name: g.name, versions: discoverableVersions(g.versions) }))
      .filter((g) => g.versions.length > 0)
      .map((g) => apiGroup(g.name, g.versions)),
  };
}

/** The APIGroup document of a named group, or undefined when it is not served. */
export function apiGroupDocument(scheme: Scheme, group: string) {
  const g = scheme.groups().find((x) => x.name === group && group !== '');
  const versions = g ? discoverableVersions(g.versions) : [];
  return versions.length > 0 ? { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(group, versions) } : undefined;
}

/** Whether discovery shows the group/version. */
export function discoverableGroupVersion(gv: GroupVersionInfo): boolean {
  return discoverableVersions([gv]).length > 0;
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

export function apiResourceList(gv: GroupVersionInfo) {
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
