// The aggregated discovery document (apidiscovery v2 and v2beta1 APIGroupDiscoveryList): every
// group, version and resource of /api or /apis in one answer, which kubectl 1.26 and later ask for
// before anything else. It is a view of the discovery model, converted from the very
// APIResourceLists /apis/<group>/<version> serves, so the two cannot disagree.
import { createHash } from 'node:crypto';
import type { ApiDomain } from '../../api/domain.js';
import type { APIResource, DiscoveryGroup, DiscoveryGroupVersion, DiscoveryModel } from './discovery-model.js';
import type { AggregatedDiscoveryVersion } from './negotiation.js';

interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

interface APISubresourceDiscovery {
  subresource: string;
  responseKind: GroupVersionKind;
  verbs: string[];
}

interface APIResourceDiscovery {
  resource: string;
  responseKind: GroupVersionKind;
  scope: 'Cluster' | 'Namespaced';
  singularResource: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  subresources?: APISubresourceDiscovery[];
}

/** Which document: the core group's (/api) or the named groups' (/apis). */
export type DiscoveryRoot = 'api' | 'apis';

/** A document ready to send: its ETag, and its JSON in each version, encoded once. */
export interface AggregatedDocument {
  /** The quoted ETag: a hash of the items, the same in either version (the answer varies by Accept). */
  etag: string;
  /** The whole APIGroupDiscoveryList in `version`. */
  document(version: AggregatedDiscoveryVersion): Record<string, unknown>;
  /** Its JSON, encoded once per version. */
  json(version: AggregatedDiscoveryVersion): string;
}

const scope = (namespaced: boolean) => (namespaced ? 'Namespaced' : 'Cluster');
const kindOf = (r: APIResource): GroupVersionKind => ({ group: r.group ?? '', version: r.version ?? '', kind: r.kind });

/**
 * An APIResourceList's entries as APIResourceDiscovery: sub-resources (`<resource>/<sub>`) folded
 * into their parent, as upstream converts a group version's resources. A sub-resource whose parent
 * is not listed gets an empty parent, as upstream's does.
 */
export function resourcesForDiscovery(list: readonly APIResource[]): APIResourceDiscovery[] {
  const out: APIResourceDiscovery[] = [];
  const parents = new Map<string, APIResourceDiscovery>();
  for (const r of list) {
    if (r.name.includes('/')) continue;
    const d: APIResourceDiscovery = {
      resource: r.name,
      responseKind: kindOf(r),
      scope: scope(r.namespaced),
      singularResource: r.singularName,
      verbs: r.verbs,
      ...(r.shortNames?.length ? { shortNames: r.shortNames } : {}),
      ...(r.categories?.length ? { categories: r.categories } : {}),
    };
    out.push(d);
    parents.set(r.name, d);
  }
  for (const r of list) {
    const slash = r.name.indexOf('/');
    if (slash < 0) continue;
    const parentName = r.name.slice(0, slash);
    let parent = parents.get(parentName);
    if (!parent) {
      parent = { resource: parentName, responseKind: { group: '', version: '', kind: '' }, scope: scope(r.namespaced), singularResource: '', verbs: [] };
      out.push(parent);
      parents.set(parentName, parent);
    }
    (parent.subresources ??= []).push({ subresource: r.name.slice(slash + 1), responseKind: kindOf(r), verbs: r.verbs });
  }
  return out;
}

function versionDiscovery(gv: DiscoveryGroupVersion) {
  const resources = resourcesForDiscovery(gv.resources);
  return { version: gv.version, ...(resources.length ? { resources } : {}), freshness: gv.freshness };
}

/** An APIGroupDiscovery; its metadata as Go writes an ObjectMeta holding only a name. */
function groupDiscovery(g: DiscoveryGroup) {
  return { metadata: { ...(g.name ? { name: g.name } : {}), creationTimestamp: null }, versions: g.versions.map(versionDiscovery) };
}

function build(model: DiscoveryModel, root: DiscoveryRoot, domain: ApiDomain): AggregatedDocument {
  const groups = model.groups().filter((g) => (root === 'api') === (g.name === ''));
  const items = groups.map(groupDiscovery);
  const etag = `"${createHash('sha512').update(JSON.stringify(items)).digest('hex').toUpperCase()}"`;
  const document = (version: AggregatedDiscoveryVersion) => ({
    kind: 'APIGroupDiscoveryList', apiVersion: `${domain.group('apidiscovery')}/${version}`, metadata: {}, items,
  });
  const encoded = new Map<AggregatedDiscoveryVersion, string>();
  return {
    etag,
    document,
    json: (version) => {
      let s = encoded.get(version);
      if (s === undefined) encoded.set(version, (s = JSON.stringify(document(version))));
      return s;
    },
  };
}

/** The aggregated document of /api or /apis as the model now stands; built once per change of the model. */
export function aggregatedDocument(model: DiscoveryModel, root: DiscoveryRoot, domain: ApiDomain): AggregatedDocument {
  return model.derived(`aggregated-discovery/${root}`, () => build(model, root, domain));
}

/** The Content-Type naming the aggregated document in `version`, as upstream labels it. */
export function aggregatedContentType(format: 'json' | 'yaml', version: AggregatedDiscoveryVersion, domain: ApiDomain): string {
  return `application/${format};g=${domain.group('apidiscovery')};v=${version};as=APIGroupDiscoveryList`;
}
