// GET /openapi/v3 and /openapi/v3/<group-version>: one OpenAPI 3.0 document per served
// group/version, holding its paths and the definitions they reach, and the index clients
// discover them by (kubectl explain and kubectl's field-validation support check read these).
import type { Scheme } from '../../runtime/scheme.js';
import { openAPIHash, sortedKeys } from './canonical.js';
import { anyMediaType, patchMediaTypesOf, responseMediaTypes } from './media-types.js';
import type { Parameter } from './parameters.js';
import {
  bearerTokenScheme, groupVersionRoutes, operationExtensions, reasonPhrase, unauthorizedResponse,
  textResponse, type Operation, type Route,
} from './paths.js';
import { reachableDefinitions } from './refs.js';
import { refPrefix } from './schema-conversion.js';
import { servedDefinitions } from './served-definitions.js';
import type { JsonObject, VersionInfoLike } from './types.js';

/** One OpenAPI 3.0 document per group/version, keyed 'api/v1' or 'apis/<group>/<version>'. */
export function buildOpenAPIV3Documents(scheme: Scheme, version: VersionInfoLike): Map<string, object> {
  const defs = servedDefinitions(scheme, 'v3');
  const docs = new Map<string, object>();
  for (const { key, routes } of groupVersionRoutes(scheme)) {
    const paths: JsonObject = {};
    for (const route of routes) paths[route.path] = pathItem(route);
    docs.set(key, sortedKeys({
      openapi: '3.0.0',
      info: { title: 'Orch', version: version.gitVersion },
      paths,
      components: {
        schemas: reachableDefinitions(paths, refPrefix('v3'), (name) => defs.get(name)),
        securitySchemes: { BearerToken: bearerTokenScheme },
      },
      security: [{ BearerToken: [] }],
    }));
  }
  return docs;
}

/**
 * GET /openapi/v3: where each document is, with the hash of its bytes in the URL so clients can
 * cache it for good (the documents must be served as `serializeOpenAPI` writes them).
 */
export function buildOpenAPIV3Index(docs: Map<string, object>): object {
  const paths: JsonObject = {};
  for (const [key, doc] of docs) paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${openAPIHash(doc)}` };
  return { paths };
}

const content = (definition: string, mediaTypes: string[]): JsonObject => {
  const schema: JsonObject = definition === textResponse ? { type: 'string' } : { $ref: `${refPrefix('v3')}${definition}` };
  return Object.fromEntries(mediaTypes.map((mt) => [mt, { schema }]));
};

function parameter(p: Parameter): JsonObject {
  return {
    name: p.name,
    in: p.in,
    description: p.description,
    ...(p.required ? { required: true } : {}),
    schema: { type: p.type, uniqueItems: true },
  };
}

function pathItem(route: Route): JsonObject {
  const item: JsonObject = {};
  for (const op of route.operations) item[op.method] = operation(op);
  if (route.parameters.length > 0) item.parameters = route.parameters.map(parameter);
  return item;
}

function operation(op: Operation): JsonObject {
  const responseTypes = [...(op.producesFirst ?? []), ...responseMediaTypes(op.protobuf, op.streams)];
  const responses: JsonObject = { ...unauthorizedResponse };
  for (const r of op.responses) responses[r.code] = { description: reasonPhrase(r.code), content: content(r.definition, responseTypes) };
  return {
    description: op.description,
    operationId: op.operationId,
    ...(op.parameters.length > 0 ? { parameters: op.parameters.map(parameter) } : {}),
    ...(op.body ? {
      requestBody: {
        content: content(op.body.definition, op.body.patch ? patchMediaTypesOf(op.body) : [anyMediaType]),
        ...(op.body.required ? { required: true } : {}),
      },
    } : {}),
    responses,
    tags: [op.tag],
    ...operationExtensions(op),
  };
}
