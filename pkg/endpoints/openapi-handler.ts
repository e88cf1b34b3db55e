// Serves the OpenAPI documents, built once from the served scheme: /openapi/v2 (JSON or gnostic
// protobuf), the /openapi/v3 index and one /openapi/v3/<api|apis/...> document per group/version.
// Like upstream, every document carries an ETag (the SHA-512 of its JSON bytes) and Last-Modified,
// and a client that already holds it gets 304.
//
// The documents are built on the first request for any of them, as upstream builds its specs
// lazily: they take several MiB per server process and most of a second of CPU, and most clients
// (controllers, kubelets, watchers) never ask. Their Last-Modified is still the server's start.
import type { NextFunction, Request, Response } from 'express';
import { newNotAcceptable, StatusError } from '../runtime/errors.js';
import type { Scheme } from '../runtime/scheme.js';
import { pickRepresentation, type Representation } from './openapi/accept.js';
import { openAPIHash, serializeOpenAPI } from './openapi/canonical.js';
import { encodeOpenAPIV2Protobuf, openAPIV2ProtobufMediaType, openAPIV2ProtobufMediaTypeAlias } from './openapi/gnostic-v2.js';
import { buildOpenAPIV2 } from './openapi/v2.js';
import { buildOpenAPIV3Documents, buildOpenAPIV3Index } from './openapi/v3.js';
import type { JsonObject } from './openapi/types.js';
import { writeError } from './responses.js';

/** One served form of a document. */
export interface SpecBody {
  body: string | Uint8Array;
  contentType: string;
}

export interface OpenAPIDocs {
  v2: { json: SpecBody; protobuf: SpecBody; hash: string };
  v3Index: { json: SpecBody; hash: string };
  /** Documents and the hashes of their JSON bytes, keyed 'api/v1' or 'apis/<group>/<version>'. */
  v3: Map<string, { json: SpecBody; hash: string }>;
  /** When the documents were built: their Last-Modified. */
  built: Date;
}

const jsonBody = (doc: object): SpecBody => ({ body: serializeOpenAPI(doc), contentType: 'application/json' });

/** Builds every document, and the protobuf form of /openapi/v2, once. */
export function buildOpenAPIDocs(scheme: Scheme, version: { gitVersion: string }, built = new Date()): OpenAPIDocs {
  const v2 = buildOpenAPIV2(scheme, version);
  const v3docs = buildOpenAPIV3Documents(scheme, version);
  const v3Index = buildOpenAPIV3Index(v3docs);
  return {
    v2: {
      json: jsonBody(v2),
      protobuf: { body: encodeOpenAPIV2Protobuf(v2 as JsonObject), contentType: openAPIV2ProtobufMediaType },
      hash: openAPIHash(v2),
    },
    v3Index: { json: jsonBody(v3Index), hash: openAPIHash(v3Index) },
    v3: new Map([...v3docs].map(([k, doc]) => [k, { json: jsonBody(doc), hash: openAPIHash(doc) }])),
    built,
  };
}

const notFound = () => new StatusError(404, 'NotFound', 'the server could not find the requested resource', {});

/** Picks the representation, or answers 406 naming the media types the endpoint serves. */
function negotiate(req: Request, res: Response, offered: Representation<SpecBody>[]): SpecBody {
  // The answer depends on Accept, so caches must key on it.
  res.setHeader('Vary', 'Accept');
  const picked = pickRepresentation(req.headers.accept, offered);
  if (!picked) throw newNotAcceptable(`only the following media types are accepted: ${[...new Set(offered.map((o) => o.value.contentType))].join(', ')}`);
  return picked;
}

/**
 * The documents of `scheme`, built on the first call and kept until the scheme changes (custom
 * resources came or went), then built again on the next call. Their Last-Modified is `built`
 * until the first change, the time of the change's rebuild after it.
 */
export function lazyOpenAPIDocs(scheme: Scheme, version: { gitVersion: string }, built = new Date()): () => OpenAPIDocs {
  let docs: OpenAPIDocs | undefined;
  let revision = scheme.revision;
  return () => {
    if (docs && revision === scheme.revision) return docs;
    const changed = docs !== undefined || revision !== scheme.revision;
    revision = scheme.revision;
    docs = buildOpenAPIDocs(scheme, version, changed ? new Date() : built);
    return docs;
  };
}

/** Express middleware answering /openapi/v2 and /openapi/v3[/...]; other paths pass through. */
export function openAPIHandler(documents: OpenAPIDocs | (() => OpenAPIDocs)) {
  let built: { docs: OpenAPIDocs; v2Offers: Representation<SpecBody>[]; lastModified: string } | undefined;
  const current = () => {
    const docs = typeof documents === 'function' ? documents() : documents;
    if (built?.docs === docs) return built;
    const v2Offers: Representation<SpecBody>[] = [
      { mediaType: 'application/json', value: docs.v2.json },
      { mediaType: openAPIV2ProtobufMediaTypeAlias, value: docs.v2.protobuf },
      { mediaType: openAPIV2ProtobufMediaType, value: docs.v2.protobuf },
    ];
    return (built = { docs, v2Offers, lastModified: docs.built.toUTCString() });
  };
  return (req: Request, res: Response, next: NextFunction): void => {
    const url = new URL(req.originalUrl, 'https://localhost');
    const path = url.pathname.replace(/\/+$/, '');
    if (path !== '/openapi/v2' && path !== '/openapi/v3' && !path.startsWith('/openapi/v3/')) {
      next();
      return;
    }
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD') throw new StatusError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
      const { docs, v2Offers, lastModified } = current();
      if (path === '/openapi/v2') {
        serve(req, res, negotiate(req, res, v2Offers), docs.v2.hash, lastModified);
        return;
      }
      if (path === '/openapi/v3') {
        // Upstream serves the index as JSON whatever the client accepts.
        serve(req, res, docs.v3Index.json, docs.v3Index.hash, lastModified);
        return;
      }
      const doc = docs.v3.get(path.slice('/openapi/v3/'.length));
      if (!doc) throw notFound();
      const body = negotiate(req, res, [{ mediaType: 'application/json', value: doc.json }]);
      const hash = url.searchParams.get('hash');
      if (hash !== null && hash !== '') {
        if (hash !== doc.hash) {
          // A stale hash: send the client to the current document rather than caching it under an old URL.
          res.setHeader('ETag', `"${doc.hash}"`);
          res.redirect(301, `${path}?hash=${doc.hash}`);
          return;
        }
        res.setHeader('Cache-Control', 'public, immutable');
        res.setHeader('Expires', new Date(Date.now() + 365 * 24 * 3600 * 1000).toUTCString());
      }
      serve(req, res, body, doc.hash, lastModified);
    } catch (e) {
      writeError(res, e);
    }
  };
}

/** Writes a document, or 304 when the client's copy (If-None-Match, else If-Modified-Since) is current. */
function serve(req: Request, res: Response, spec: SpecBody, hash: string, lastModified: string): void {
  const etag = `"${hash}"`;
  res.setHeader('ETag', etag);
  if (!res.hasHeader('Cache-Control')) res.setHeader('Cache-Control', 'no-cache, private');
  if (notModified(req.headers['if-none-match'], req.headers['if-modified-since'], etag, lastModified)) {
    res.status(304).end();
    return;
  }
  res.setHeader('Last-Modified', lastModified);
  res.status(200).setHeader('Content-Type', spec.contentType);
  // Stated explicitly so HEAD answers carry it too.
  res.setHeader('Content-Length', typeof spec.body === 'string' ? Buffer.byteLength(spec.body) : spec.body.byteLength);
  res.end(spec.body);
}

/** RFC 9110 weak comparison against an If-None-Match list (or `*`); If-Modified-Since counts only without it. */
function notModified(ifNoneMatch: string | undefined, ifModifiedSince: string | undefined, etag: string, lastModified: string): boolean {
  if (ifNoneMatch !== undefined) {
    const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
    return ifNoneMatch.split(',').some((t) => t.trim() === '*' || opaque(t) === etag);
  }
  if (ifModifiedSince === undefined) return false;
  const since = Date.parse(ifModifiedSince);
  return !Number.isNaN(since) && Date.parse(lastModified) <= since;
}
