// Shapes the published paths need beyond the kinds themselves: each kind's List, the PATCH body and
// the discovery documents. Declared with the same helpers as api/, so they convert like any kind.
// (The discovery shapes belong in api/meta/v1 once something besides OpenAPI needs them; they carry
// no protobuf numbers because nothing encodes them as protobuf yet.)
import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import { object, opt } from '../../../api/schema.js';
import { ListMeta } from '../../../api/meta/v1/types.js';
import type { ResourceInfo } from '../../runtime/scheme.js';
import { definitionName } from './definitions.js';

const P = 'io.orch.apimachinery.pkg.apis.meta.v1';

const strings = () => Type.Array(Type.String());

/** The body of a PATCH: its form depends on the patch type (Content-Type). */
export const Patch = Type.Unsafe<Record<string, unknown>>({ type: 'object', 'x-orch-type': `${P}.Patch` });

export const APIResource = object(`${P}.APIResource`, {
  name: Type.String(),
  singularName: Type.String(),
  namespaced: Type.Boolean(),
  group: opt(Type.String()),
  version: opt(Type.String()),
  kind: Type.String(),
  verbs: strings(),
  shortNames: opt(strings()),
  categories: opt(strings()),
  storageVersionHash: opt(Type.String()),
});

export const APIResourceList = object(`${P}.APIResourceList`, {
  kind: opt(Type.String()),
  apiVersion: opt(Type.String()),
  groupVersion: Type.String(),
  resources: Type.Array(APIResource),
});

export const ServerAddressByClientCIDR = object(`${P}.ServerAddressByClientCIDR`, {
  clientCIDR: Type.String(),
  serverAddress: Type.String(),
});

export const APIVersions = object(`${P}.APIVersions`, {
  kind: opt(Type.String()),
  apiVersion: opt(Type.String()),
  versions: strings(),
  serverAddressByClientCIDRs: Type.Array(ServerAddressByClientCIDR),
});

export const GroupVersionForDiscovery = object(`${P}.GroupVersionForDiscovery`, {
  groupVersion: Type.String(),
  version: Type.String(),
});

export const APIGroup = object(`${P}.APIGroup`, {
  kind: opt(Type.String()),
  apiVersion: opt(Type.String()),
  name: Type.String(),
  versions: Type.Array(GroupVersionForDiscovery),
  preferredVersion: opt(GroupVersionForDiscovery),
  serverAddressByClientCIDRs: opt(Type.Array(ServerAddressByClientCIDR)),
});

export const APIGroupList = object(`${P}.APIGroupList`, {
  kind: opt(Type.String()),
  apiVersion: opt(Type.String()),
  groups: Type.Array(APIGroup),
});

/** The name of a kind's List definition: the kind's own name with its list kind, e.g. io.orch.api.apps.v1.StatefulSetList. */
export function listDefinitionName(r: ResourceInfo): string {
  const kindName = definitionName(r.schema);
  return `${kindName.slice(0, kindName.lastIndexOf('.') + 1)}${r.listKind}`;
}

/** The schema of a kind's List (apiVersion, kind, list metadata and the required items), as every list response has it. */
export function listSchemaOf(r: ResourceInfo): TObject {
  const items: TSchema = r.schema;
  return object(listDefinitionName(r), {
    apiVersion: opt(Type.String()),
    kind: opt(Type.String()),
    metadata: opt(ListMeta),
    items: Type.Array(items),
  });
}
