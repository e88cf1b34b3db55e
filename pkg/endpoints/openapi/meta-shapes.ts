// Shapes the published paths need beyond the kinds themselves: each kind's List, the PATCH body and
// the discovery documents. Declared with the same helpers as api/, so they convert like any kind.
// (The discovery shapes belong in api/meta/v1 once something besides OpenAPI needs them; they carry
// no protobuf numbers because nothing encodes them as protobuf yet.)
import { CloneType, Type, type TObject, type TSchema } from '@sinclair/typebox';
import { object, opt } from '../../../api/schema.js';
import { ListMeta } from '../../../api/meta/v1/types.js';
import type { ResourceInfo } from '../../runtime/scheme.js';
import { definitionName } from './definitions.js';

const P = 'io.orch.apimachinery.pkg.apis.meta.v1';

const strings = (description: string, markers: Record<string, string> = {}) => Type.Array(Type.String(), { ...markers, description });
/** Upstream marks the discovery lists +listType=atomic (all but APIResource.verbs, a named type). */
const atomic = { 'x-orch-list-type': 'atomic' };
const kind = () => opt(Type.String({ description: 'The kind of the document.' }));
const apiVersion = () => opt(Type.String({ description: 'The API version of the document, v1.' }));
const cidrs = 'Addresses clients should use to reach the server, by the network they come from; empty here.';

/** The body of a PATCH: its form depends on the patch type (Content-Type). */
export const Patch = Type.Unsafe<Record<string, unknown>>({
  type: 'object',
  'x-orch-type': `${P}.Patch`,
  'x-orch-type-description': 'A patch; its form (JSON patch, merge patch, strategic merge patch) follows the Content-Type of the request.',
});

export const APIResource = object(`${P}.APIResource`, {
  name: Type.String({ description: 'Plural name of the resource as used in URLs, with /<subresource> for a sub-resource.' }),
  singularName: Type.String({ description: 'Singular name of the resource, used by kubectl.' }),
  namespaced: Type.Boolean({ description: 'Whether objects of the resource live in namespaces.' }),
  group: opt(Type.String({ description: 'Group of the resource when it differs from the one of the list (for sub-resources).' })),
  version: opt(Type.String({ description: 'Version of the resource when it differs from the one of the list (for sub-resources).' })),
  kind: Type.String({ description: 'Kind of the objects of the resource.' }),
  verbs: strings('Verbs the resource serves: get, list, watch, create, update, patch, delete, deletecollection.'),
  shortNames: opt(strings('Short aliases of the resource, such as sts.', atomic)),
  categories: opt(strings('Groups of resources this one belongs to, such as all.', atomic)),
  storageVersionHash: opt(Type.String({ description: 'Hash of the version objects are stored in; changes when it does.' })),
}, { description: 'One resource served in a group/version, as discovery lists it.' });

export const APIResourceList = object(`${P}.APIResourceList`, {
  kind: kind(),
  apiVersion: apiVersion(),
  groupVersion: Type.String({ description: 'The group/version the resources belong to.' }),
  resources: Type.Array(APIResource, { ...atomic, description: 'The resources served in the group/version.' }),
}, { description: 'The resources served in one group/version.' });

export const ServerAddressByClientCIDR = object(`${P}.ServerAddressByClientCIDR`, {
  clientCIDR: Type.String({ description: 'The network of the clients this address is for.' }),
  serverAddress: Type.String({ description: 'Address (host:port) those clients should use.' }),
}, { description: 'The address of the server for clients of one network.' });

export const APIVersions = object(`${P}.APIVersions`, {
  kind: kind(),
  apiVersion: apiVersion(),
  versions: strings('The versions of the core group served at /api.', atomic),
  serverAddressByClientCIDRs: Type.Array(ServerAddressByClientCIDR, { ...atomic, description: cidrs }),
}, { description: 'The versions of the core group.' });

export const GroupVersionForDiscovery = object(`${P}.GroupVersionForDiscovery`, {
  groupVersion: Type.String({ description: 'group/version, such as apps/v1.' }),
  version: Type.String({ description: 'The version alone, such as v1.' }),
}, { description: 'One version of a group.' });

export const APIGroup = object(`${P}.APIGroup`, {
  kind: kind(),
  apiVersion: apiVersion(),
  name: Type.String({ description: 'Name of the group.' }),
  versions: Type.Array(GroupVersionForDiscovery, { ...atomic, description: 'The versions of the group the server serves.' }),
  preferredVersion: opt(Object.assign(CloneType(GroupVersionForDiscovery), { description: 'The version clients should use when they can choose.' })),
  serverAddressByClientCIDRs: opt(Type.Array(ServerAddressByClientCIDR, { ...atomic, description: cidrs })),
}, { description: 'An API group and its served versions.' });

export const APIGroupList = object(`${P}.APIGroupList`, {
  kind: kind(),
  apiVersion: apiVersion(),
  groups: Type.Array(APIGroup, { ...atomic, description: 'The groups served at /apis.' }),
}, { description: 'The API groups the server serves.' });

/** The name of a kind's List definition: the kind's own name with its list kind, e.g. io.orch.api.apps.v1.StatefulSetList. */
export function listDefinitionName(r: ResourceInfo): string {
  const kindName = definitionName(r.schema);
  return `${kindName.slice(0, kindName.lastIndexOf('.') + 1)}${r.listKind}`;
}

/** The schema of a kind's List (apiVersion, kind, list metadata and the required items), as every list response has it. */
export function listSchemaOf(r: ResourceInfo): TObject {
  const items: TSchema = r.schema;
  return object(listDefinitionName(r), {
    apiVersion: opt(Type.String({ description: 'The API version of the list: that of its items.' })),
    kind: opt(Type.String({ description: `Always ${r.listKind}.` })),
    metadata: opt(Object.assign(CloneType(ListMeta), { description: 'List metadata: the version the list was read at and where paging continues.' })),
    items: Type.Array(items, { description: `The ${r.kind} objects.` }),
  }, { description: `A list of ${r.kind} objects.` });
}
