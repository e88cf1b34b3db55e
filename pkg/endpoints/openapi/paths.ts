// The operations the server serves, read off the scheme the way the API handler routes them, in a
// form both dialects render: one route per path template, each with its operations.
import type { TSchema } from '@sinclair/typebox';
import type { ApiDomain } from '../../../api/domain.js';
import { DeleteOptions, Status } from '../../../api/meta/v1/types.js';
import type { GroupVersionInfo, ResourceInfo, Scheme } from '../../runtime/scheme.js';
import { strategyOverrides } from '../../registry/strategies.js';
import { apiResourceList, discoverableGroupVersion } from '../discovery.js';
import { definitionName } from './definitions.js';
import { APIGroup, APIGroupList, APIResourceList, APIVersions, Patch, listDefinitionName } from './meta-shapes.js';
import { capitalized, groupPrefix, groupTag, groupVersionPrefix, groupVersionTag } from './operation-names.js';
import { nameParameter, namespaceParameter, parameterSets, sortParameters, type Parameter } from './parameters.js';
import type { GroupVersionKind, JsonObject } from './types.js';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type Action = 'get' | 'list' | 'watch' | 'post' | 'put' | 'patch' | 'delete' | 'deletecollection';

export interface Body {
  /** Definition name of the body. */
  definition: string;
  required: boolean;
  /** A patch document (one of the patch media types) rather than an object in any negotiated type. */
  patch: boolean;
  /** A custom resource's patch: no strategic merge patch. */
  customResource?: boolean;
}

export interface Response {
  code: '200' | '201' | '202';
  /** Definition name of the answer, or `string` for a text answer (pods/log). */
  definition: string;
}

/** The Response.definition of an answer that is text, not an object. */
export const textResponse = 'string';

export interface Operation {
  method: Method;
  operationId: string;
  description: string;
  tag: string;
  action?: Action;
  gvk?: GroupVersionKind;
  parameters: Parameter[];
  body?: Body;
  responses: Response[];
  /** A list that also streams watch events. */
  streams: boolean;
  /** The protobuf media type of the platform's domain, which responses are offered in besides JSON and YAML; '' for kinds without one. */
  protobuf: string;
  /** Media types answered first, before the object types (text/plain for pods/log). */
  producesFirst?: string[];
}

export interface Route {
  path: string;
  /** Parameters every operation of the path takes, declared once on the path as upstream does. */
  parameters: Parameter[];
  operations: Operation[];
}

export interface GroupVersionRoutes {
  gv: GroupVersionInfo;
  /** api/v1 or apis/<group>/<version>: the key of the group/version's OpenAPI v3 document. */
  key: string;
  routes: Route[];
}

const reasons: Record<Response['code'], string> = { '200': 'OK', '201': 'Created', '202': 'Accepted' };

/** The HTTP reason phrase of a success code. */
export function reasonPhrase(code: Response['code']): string {
  return reasons[code];
}

/** Where a group/version is served, without leading slash: api/v1, apis/apps/v1. */
export function groupVersionKey(gv: { group: string; version: string }): string {
  return gv.group === '' ? `api/${gv.version}` : `apis/${gv.group}/${gv.version}`;
}

const statusName = definitionName(Status);
const deleteOptionsName = definitionName(DeleteOptions);
const patchName = definitionName(Patch);

const article = (word: string) => (/^[AEIOU]/.test(word) ? 'an' : 'a');

/** The routes of every served group/version, in the scheme's order; custom resources once Established. */
export function groupVersionRoutes(scheme: Scheme): GroupVersionRoutes[] {
  return scheme.groupVersions().filter(discoverableGroupVersion).map((gv) => {
    const subresourceVerbs = new Map(apiResourceList(gv).resources.map((r) => [r.name, r.verbs]));
    const routes: Route[] = [discoveryRoute(gv, scheme.domain)];
    for (const r of gv.resources) if (published(r)) routes.push(...resourceRoutes(r, subresourceVerbs));
    return { gv, key: groupVersionKey(gv), routes: routes.map(hoistCommonParameters) };
  });
}

/** Whether OpenAPI publishes a resource: every built-in one, a custom one once its definition is Established. */
export function published(r: ResourceInfo): boolean {
  return !r.custom || r.custom.established;
}

/** /api/, /apis/ and /apis/<group>/: the discovery documents above the group/versions. */
export function rootDiscoveryRoutes(scheme: Scheme): Route[] {
  const route = (path: string, operationId: string, description: string, tag: string, definition: string): Route => ({
    path,
    parameters: [],
    operations: [{ method: 'get', operationId, description, tag, parameters: [], responses: [{ code: '200', definition }], streams: false, protobuf: scheme.domain.protobufMediaType }],
  });
  const routes: Route[] = [];
  if (scheme.groupVersions().some((gv) => gv.group === '')) {
    routes.push(route('/api/', 'getCoreAPIVersions', 'Get the versions of the core API.', 'core', definitionName(APIVersions)));
  }
  routes.push(route('/apis/', 'getAPIVersions', 'Get the served API groups and their versions.', 'apis', definitionName(APIGroupList)));
  for (const g of scheme.groups()) {
    if (g.name === '' || !g.versions.some(discoverableGroupVersion)) continue;
    routes.push(route(`/apis/${g.name}/`, `get${groupPrefix(g.name, scheme.domain.name)}APIGroup`, `Get the versions of the ${g.name} group.`,
      groupTag(g.name, scheme.domain.name), definitionName(APIGroup)));
  }
  return routes;
}

function discoveryRoute(gv: GroupVersionInfo, domain: ApiDomain): Route {
  return {
    path: `/${groupVersionKey(gv)}/`,
    parameters: [],
    operations: [{
      method: 'get',
      operationId: `get${groupVersionPrefix(gv.group, gv.version, domain.name)}APIResources`,
      description: `Get the resources served in ${gv.apiVersion}.`,
      tag: groupVersionTag(gv.group, gv.version, domain.name),
      parameters: [],
      responses: [{ code: '200', definition: definitionName(APIResourceList) }],
      streams: false,
      protobuf: domain.protobufMediaType,
    }],
  };
}

/** The routes of one resource: collection, all namespaces, item, and one per sub-resource. */
function resourceRoutes(r: ResourceInfo, subresourceVerbs: Map<string, string[]>): Route[] {
  const prefix = groupVersionPrefix(r.group, r.version, r.domain.name);
  const scope = r.namespaced ? 'Namespaced' : '';
  const gvk: GroupVersionKind = { group: r.group, kind: r.kind, version: r.version };
  const tag = groupVersionTag(r.group, r.version, r.domain.name);
  const kindName = definitionName(r.schema);
  const listName = listDefinitionName(r);
  const root = `/${groupVersionKey(r)}`;
  const collection = r.namespaced ? `${root}/namespaces/{namespace}/${r.resource}` : `${root}/${r.resource}`;
  const item = `${collection}/{name}`;
  const scopeParams = r.namespaced ? [namespaceParameter] : [];
  const itemParams = [nameParameter(r.kind), ...scopeParams];
  const serves = (verb: string) => r.verbs.includes(verb);
  const op = (o: Omit<Operation, 'tag' | 'gvk' | 'streams' | 'protobuf'> & { streams?: boolean; gvk?: GroupVersionKind }): Operation =>
    ({ tag, gvk, streams: false, protobuf: r.protobuf ? r.domain.protobufMediaType : '', ...o });
  const objectResponses = (...codes: Response['code'][]) => codes.map((code) => ({ code, definition: kindName }));
  const objectBody: Body = { definition: kindName, required: true, patch: false };
  const patchBody: Body = { definition: patchName, required: true, patch: true, ...(r.custom ? { customResource: true } : {}) };
  const deleteBody: Body = { definition: deleteOptionsName, required: false, patch: false };
  // A kind whose store answers a delete with the deleted object (upstream's ReturnDeletedObject) says so.
  const deleted = strategyOverrides(r.domain).get(`${r.group}/${r.kind}`)?.returnDeletedObject ? kindName : statusName;
  const list = (operationId: string, description: string, params: Parameter[]): Operation => op({
    method: 'get', operationId, description, action: 'list', parameters: [...params, ...parameterSets.list],
    responses: [{ code: '200', definition: listName }], streams: true,
  });

  const routes: Route[] = [];
  const collectionOps: Operation[] = [];
  if (serves('list')) {
    collectionOps.push(list(`list${prefix}${scope}${r.kind}`,
      `List or watch the ${r.kind} objects${r.namespaced ? ' of a namespace' : ''}.`, scopeParams));
  }
  if (serves('create')) {
    collectionOps.push(op({
      method: 'post', operationId: `create${prefix}${scope}${r.kind}`, description: `Create ${article(r.kind)} ${r.kind}.`, action: 'post',
      parameters: [...scopeParams, ...parameterSets.write], body: objectBody, responses: objectResponses('200', '201', '202'),
    }));
  }
  if (serves('deletecollection')) {
    collectionOps.push(op({
      method: 'delete', operationId: `delete${prefix}Collection${scope}${r.kind}`,
      description: `Delete the ${r.kind} objects${r.namespaced ? ' of a namespace' : ''} that the selectors match.`, action: 'deletecollection',
      parameters: [...scopeParams, ...parameterSets.deletecollection], body: deleteBody, responses: [{ code: '200', definition: statusName }],
    }));
  }
  if (collectionOps.length > 0) routes.push({ path: collection, parameters: [], operations: collectionOps });
  if (r.namespaced && serves('list')) {
    routes.push({
      path: `${root}/${r.resource}`,
      parameters: [],
      operations: [list(`list${prefix}${r.kind}ForAllNamespaces`, `List or watch the ${r.kind} objects of all namespaces.`, [])],
    });
  }

  const itemOps: Operation[] = [];
  if (serves('get')) {
    itemOps.push(op({
      method: 'get', operationId: `read${prefix}${scope}${r.kind}`, description: `Read the named ${r.kind}.`, action: 'get',
      parameters: [...itemParams, ...parameterSets.read], responses: objectResponses('200'),
    }));
  }
  if (serves('update')) {
    itemOps.push(op({
      method: 'put', operationId: `replace${prefix}${scope}${r.kind}`, description: `Replace the named ${r.kind}.`, action: 'put',
      parameters: [...itemParams, ...parameterSets.write], body: objectBody, responses: objectResponses('200', '201'),
    }));
  }
  if (serves('patch')) {
    itemOps.push(op({
      method: 'patch', operationId: `patch${prefix}${scope}${r.kind}`, description: `Partially update the named ${r.kind}.`, action: 'patch',
      parameters: [...itemParams, ...parameterSets.patch], body: patchBody, responses: objectResponses('200', '201'),
    }));
  }
  if (serves('delete')) {
    itemOps.push(op({
      method: 'delete', operationId: `delete${prefix}${scope}${r.kind}`, description: `Delete the named ${r.kind}.`, action: 'delete',
      parameters: [...itemParams, ...parameterSets.delete], body: deleteBody,
      responses: [{ code: '200', definition: deleted }, { code: '202', definition: deleted }],
    }));
  }
  if (itemOps.length > 0) routes.push({ path: item, parameters: [], operations: itemOps });

  for (const sub of r.subresources) {
    const verbs = subresourceVerbs.get(`${r.resource}/${sub}`) ?? [];
    const Sub = capitalized(sub);
    const what = sub === 'finalize' ? 'the finalizers (spec.finalizers)' : `the ${sub}`;
    // Some sub-resources speak another kind (Scale, TokenRequest); the others the kind itself.
    const other = r.subresourceKinds[sub];
    if (other?.streamed) {
      routes.push({ path: `${item}/${sub}`, parameters: [], operations: [op({
        method: 'get', operationId: `read${prefix}${scope}${r.kind}${Sub}`, description: `Read the ${sub} of the named ${r.kind}.`, action: 'get',
        parameters: [...itemParams, ...parameterSets.read, ...optionsParameters(other)], responses: [{ code: '200', definition: textResponse }], producesFirst: ['text/plain'],
      })] });
      continue;
    }
    const subKind = other ? definitionName(other.schema) : kindName;
    const subGVK = other ? { gvk: { group: other.group, kind: other.kind, version: other.version } } : {};
    const subResponses = (...codes: Response['code'][]) => codes.map((code) => ({ code, definition: subKind }));
    const subOps: Operation[] = [];
    if (verbs.includes('get')) {
      subOps.push(op({
        method: 'get', operationId: `read${prefix}${scope}${r.kind}${Sub}`, description: `Read ${what} of the named ${r.kind}.`, action: 'get',
        parameters: [...itemParams, ...parameterSets.read], responses: subResponses('200'), ...subGVK,
      }));
    }
    if (verbs.includes('update')) {
      subOps.push(op({
        method: 'put', operationId: `replace${prefix}${scope}${r.kind}${Sub}`, description: `Replace ${what} of the named ${r.kind}.`, action: 'put',
        parameters: [...itemParams, ...parameterSets.write], body: { ...objectBody, definition: subKind }, responses: subResponses('200', '201'), ...subGVK,
      }));
    }
    if (verbs.includes('patch')) {
      subOps.push(op({
        method: 'patch', operationId: `patch${prefix}${scope}${r.kind}${Sub}`, description: `Partially update ${what} of the named ${r.kind}.`,
        action: 'patch', parameters: [...itemParams, ...parameterSets.patch], body: patchBody, responses: subResponses('200', '201'), ...subGVK,
      }));
    }
    if (subOps.length > 0) routes.push({ path: `${item}/${sub}`, parameters: [], operations: subOps });
  }
  return routes;
}

/**
 * The query parameters of an options kind (PodLogOptions), from its schema. A time has none, as
 * upstream publishes none for a field of a struct type.
 */
function optionsParameters(options: ResourceInfo): Parameter[] {
  const out: Parameter[] = [];
  for (const [name, prop] of Object.entries(options.schema.properties as Record<string, TSchema>)) {
    if (name === 'kind' || name === 'apiVersion' || prop.format === 'date-time') continue;
    if (prop.type === 'string' || prop.type === 'integer' || prop.type === 'boolean') {
      out.push({ name, in: 'query', type: prop.type, description: String(prop.description ?? '') });
    }
  }
  return out;
}

const paramKey = (p: Parameter) => `${p.in}:${p.name}`;

/** Moves the parameters every operation of a route shares (same name, place and description) to the route. */
function hoistCommonParameters(route: Route): Route {
  const [first, ...rest] = route.operations;
  if (!first) return route;
  const common = first.parameters.filter((p) =>
    rest.every((o) => o.parameters.some((q) => paramKey(q) === paramKey(p) && q.description === p.description)));
  const commonKeys = new Set(common.map(paramKey));
  return {
    path: route.path,
    parameters: sortParameters([...route.parameters, ...common]),
    operations: route.operations.map((o) => ({ ...o, parameters: sortParameters(o.parameters.filter((p) => !commonKeys.has(paramKey(p)))) })),
  };
}

/** The vendor extensions of an operation: its action and kind (our name and upstream's, which kubectl reads). */
export function operationExtensions(op: Operation): JsonObject {
  const out: JsonObject = {};
  if (op.action) out['x-kubernetes-action'] = op.action;
  if (op.gvk) {
    out['x-kubernetes-group-version-kind'] = { ...op.gvk };
    out['x-orch-group-version-kind'] = { ...op.gvk };
  }
  return out;
}

/** Answered by every operation when the request is not authenticated. */
export const unauthorizedResponse = { '401': { description: 'Unauthorized' } };

/** The bearer-token scheme every operation is secured by (client certificates need no declaration). */
export const bearerTokenScheme = {
  type: 'apiKey',
  name: 'authorization',
  in: 'header',
  description: 'Bearer token authentication: the header value is "Bearer <token>".',
};
