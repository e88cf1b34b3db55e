// Every definition the served paths can refer to, in one dialect: the kinds of the scheme with their
// Lists, and the meta shapes (Status, DeleteOptions, Patch, discovery documents). Documents keep
// only the definitions their paths reach.
import { DeleteOptions, Status, WatchEvent } from '../../../api/meta/v1/types.js';
import type { Scheme } from '../../runtime/scheme.js';
import { discoverableGroupVersion } from '../discovery.js';
import { DefinitionSet } from './definitions.js';
import { published } from './paths.js';
import { APIGroup, APIGroupList, APIResourceList, APIVersions, Patch, listSchemaOf } from './meta-shapes.js';
import type { Dialect, GroupVersionKind } from './types.js';

/** The definitions of every kind the scheme serves, each marked with the kinds it is the schema of. */
export function servedDefinitions(scheme: Scheme, dialect: Dialect): DefinitionSet {
  const defs = new DefinitionSet(dialect);
  const kinds = new Map<string, GroupVersionKind[]>();
  const mark = (name: string, gvk: GroupVersionKind) => {
    const list = kinds.get(name) ?? [];
    if (!list.some((g) => g.group === gvk.group && g.kind === gvk.kind && g.version === gvk.version)) list.push(gvk);
    kinds.set(name, list);
  };
  for (const served of scheme.resources()) {
    if (!published(served)) continue;
    // Swagger 2.0 publishes a custom resource's schema as upstream's ToStructuralOpenAPIV2 leaves it.
    const r = dialect === 'v2' && served.custom ? { ...served, schema: served.custom.openAPIV2Schema } : served;
    mark(defs.add(r.schema), { group: r.group, kind: r.kind, version: r.version });
    // A virtual kind (a review) is never listed, so it has no List, as upstream's have none.
    if (!r.virtual) mark(defs.add(listSchemaOf(r)), { group: r.group, kind: r.listKind, version: r.version });
    for (const k of Object.values(r.subresourceKinds)) mark(defs.add(k.schema), { group: k.group, kind: k.kind, version: k.version });
  }
  // The meta kinds are served in the core version of every group; the shared ones name every served group/version, as upstream.
  const core = (kind: string): GroupVersionKind => ({ group: '', kind, version: 'v1' });
  const everyGroupVersion = (kind: string): GroupVersionKind[] => [
    core(kind),
    ...scheme.groupVersions().filter((gv) => gv.group !== '' && discoverableGroupVersion(gv)).map((gv) => ({ group: gv.group, kind, version: gv.version })),
  ];
  for (const [schema, gvks] of [
    [Status, [core('Status')]],
    [APIResourceList, [core('APIResourceList')]],
    [APIVersions, [core('APIVersions')]],
    [APIGroupList, [core('APIGroupList')]],
    [APIGroup, [core('APIGroup')]],
    [DeleteOptions, everyGroupVersion('DeleteOptions')],
    [WatchEvent, everyGroupVersion('WatchEvent')],
  ] as const) {
    const name = defs.add(schema);
    for (const gvk of gvks) mark(name, gvk);
  }
  defs.add(Patch);
  for (const [name, gvks] of kinds) defs.setKinds(name, sortKinds(gvks));
  return defs;
}

function sortKinds(gvks: GroupVersionKind[]): GroupVersionKind[] {
  const key = (g: GroupVersionKind) => `${g.group}\u0000${g.version}\u0000${g.kind}`;
  return [...gvks].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}
