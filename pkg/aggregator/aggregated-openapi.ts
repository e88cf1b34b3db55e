// /openapi/v2 and /openapi/v3 with the extension servers' documents folded in, as upstream's
// aggregator serves them: v2 gains each proxied group version's paths and the definitions it does
// not have yet (this server's own win a clash); v3 gains each proxied group version's document
// beside its own. Rebuilt only when this server's documents or the fetched ones changed.
import type { Logger } from '../log/logger.js';
import { openAPIHash, serializeOpenAPI } from '../endpoints/openapi/canonical.js';
import { encodeOpenAPIV2Protobuf, openAPIV2ProtobufMediaType } from '../endpoints/openapi/gnostic-v2.js';
import type { JsonObject } from '../endpoints/openapi/types.js';
import type { OpenAPIDocs } from '../endpoints/openapi-handler.js';
import type { RemoteSpecs } from './remote-documents.js';

type Json = Record<string, unknown>;

const jsonBody = (doc: object) => ({ body: serializeOpenAPI(doc), contentType: 'application/json' });
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `base`'s v2 document with the remote paths of each group version and the definitions it lacks. */
function mergeV2(base: Json, remote: RemoteSpecs['v2']): Json {
  const paths: Json = { ...(isObject(base.paths) ? base.paths : {}) };
  const definitions: Json = { ...(isObject(base.definitions) ? base.definitions : {}) };
  for (const { group, version, doc } of remote) {
    const prefix = `/apis/${group}/${version}`;
    for (const [path, item] of Object.entries(isObject(doc.paths) ? doc.paths : {})) {
      if ((path === prefix || path.startsWith(`${prefix}/`)) && !(path in paths)) paths[path] = item;
    }
    for (const [name, schema] of Object.entries(isObject(doc.definitions) ? doc.definitions : {})) {
      if (!(name in definitions)) definitions[name] = schema;
    }
  }
  return { ...base, paths, definitions };
}

/** The documents of `base`, with those `remote` fetched merged in. */
export function withRemoteSpecs(base: () => OpenAPIDocs, remote: () => RemoteSpecs, logger: Logger): () => OpenAPIDocs {
  let cached: { base: OpenAPIDocs; revision: number; docs: OpenAPIDocs } | undefined;
  return () => {
    const b = base();
    const r = remote();
    if (cached && cached.base === b && cached.revision === r.revision) return cached.docs;
    let docs = b;
    if (r.v2.length > 0 || r.v3.size > 0) {
      try {
        const v2 = mergeV2(JSON.parse(String(b.v2.json.body)) as Json, r.v2);
        const v3 = new Map(b.v3);
        for (const [key, doc] of r.v3) if (!v3.has(key)) v3.set(key, { json: jsonBody(doc), hash: openAPIHash(doc) });
        const index = { paths: Object.fromEntries([...v3].map(([key, d]) => [key, { serverRelativeURL: `/openapi/v3/${key}?hash=${d.hash}` }])) };
        docs = {
          v2: { json: jsonBody(v2), protobuf: { body: encodeOpenAPIV2Protobuf(v2 as JsonObject), contentType: openAPIV2ProtobufMediaType }, hash: openAPIHash(v2) },
          v3Index: { json: jsonBody(index), hash: openAPIHash(index) },
          v3,
          built: new Date(),
        };
      } catch (e) {
        // A document the protobuf form cannot carry leaves this server's own documents served.
        logger.warn('cannot merge the OpenAPI documents of the extension API servers', { err: e instanceof Error ? e.message : String(e) });
      }
    }
    cached = { base: b, revision: r.revision, docs };
    return docs;
  };
}
