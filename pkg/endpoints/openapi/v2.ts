// GET /openapi/v2: one Swagger 2.0 document for every served path, in upstream's shape
// (kubectl reads it for strategic merge patch and client-side validation).
import { createHash } from 'node:crypto';
import type { Scheme } from '../../runtime/scheme.js';
import { sortedKeys } from './canonical.js';
import { anyMediaType, patchMediaTypesOf, responseMediaTypes } from './media-types.js';
import type { Parameter } from './parameters.js';
import {
  bearerTokenScheme, groupVersionRoutes, operationExtensions, reasonPhrase, rootDiscoveryRoutes, unauthorizedResponse,
  textResponse, type Operation, type Route,
} from './paths.js';
import { reachableDefinitions } from './refs.js';
import { refPrefix } from './schema-conversion.js';
import { servedDefinitions } from './served-definitions.js';
import type { JsonObject, VersionInfoLike } from './types.js';

/** GET /openapi/v2: Swagger 2.0 JSON for every served resource. */
export function buildOpenAPIV2(scheme: Scheme, version: VersionInfoLike): object {
  const defs = servedDefinitions(scheme, 'v2');
  const params = new SharedParameters();
  const routes = [...rootDiscoveryRoutes(scheme), ...groupVersionRoutes(scheme).flatMap((g) => g.routes)];
  const paths: JsonObject = {};
  for (const route of routes) paths[route.path] = pathItem(route, params);
  return sortedKeys({
    swagger: '2.0',
    info: { title: 'Orch', version: version.gitVersion },
    paths,
    definitions: reachableDefinitions(paths, refPrefix('v2'), (name) => defs.get(name)),
    parameters: params.definitions(),
    securityDefinitions: { BearerToken: bearerTokenScheme },
    security: [{ BearerToken: [] }],
  });
}

const ref = (definition: string) => ({ $ref: `${refPrefix('v2')}${definition}` });

function pathItem(route: Route, params: SharedParameters): JsonObject {
  const item: JsonObject = {};
  for (const op of route.operations) item[op.method] = operation(op, params);
  if (route.parameters.length > 0) item.parameters = route.parameters.map((p) => params.ref(p));
  return item;
}

function operation(op: Operation, params: SharedParameters): JsonObject {
  const parameters = [
    ...(op.body ? [{ in: 'body', name: 'body', ...(op.body.required ? { required: true } : {}), schema: ref(op.body.definition) }] : []),
    ...op.parameters.map((p) => params.ref(p)),
  ];
  const responses: JsonObject = { ...unauthorizedResponse };
  for (const r of op.responses) responses[r.code] = { description: reasonPhrase(r.code), schema: r.definition === textResponse ? { type: 'string' } as JsonObject : ref(r.definition) };
  return {
    description: op.description,
    operationId: op.operationId,
    consumes: op.body?.patch ? patchMediaTypesOf(op.body) : [anyMediaType],
    produces: [...(op.producesFirst ?? []), ...responseMediaTypes(op.protobuf, op.streams)],
    ...(parameters.length > 0 ? { parameters } : {}),
    responses,
    schemes: ['https'],
    tags: [op.tag],
    ...operationExtensions(op),
  };
}

/**
 * Query and path parameters declared once in the document's `parameters` and referenced, as
 * upstream's document does, named `<name>-<hash of the declaration>`.
 */
class SharedParameters {
  private readonly byKey = new Map<string, JsonObject>();

  ref(p: Parameter): JsonObject {
    const declaration: JsonObject = {
      name: p.name,
      in: p.in,
      type: p.type,
      description: p.description,
      uniqueItems: true,
      ...(p.required ? { required: true } : {}),
    };
    const digest = createHash('sha256').update(JSON.stringify(sortedKeys(declaration))).digest('base64url').slice(0, 8);
    const key = `${p.name}-${digest}`;
    this.byKey.set(key, declaration);
    return { $ref: `#/parameters/${key}` };
  }

  definitions(): JsonObject {
    return Object.fromEntries(this.byKey);
  }
}
