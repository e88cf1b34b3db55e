// Serves the OpenAPI documents, built once at start from the served scheme: /openapi/v2, the
// /openapi/v3 index and one /openapi/v3/<api|apis/...> document per group/version.
import type { NextFunction, Request, Response } from 'express';
import { StatusError } from '../runtime/errors.js';
import type { Scheme } from '../runtime/scheme.js';
import { negotiateOutput } from './negotiation.js';
import { openAPIHash, serializeOpenAPI } from './openapi/canonical.js';
import { buildOpenAPIV2 } from './openapi/v2.js';
import { buildOpenAPIV3Documents, buildOpenAPIV3Index } from './openapi/v3.js';
import { writeError } from './responses.js';

export interface OpenAPIDocs {
  v2: string;
  v3Index: string;
  /** Serialised documents and their hashes, keyed 'api/v1' or 'apis/<group>/<version>'. */
  v3: Map<string, { body: string; hash: string }>;
}

export function buildOpenAPIDocs(scheme: Scheme, version: { gitVersion: string }): OpenAPIDocs {
  const v3docs = buildOpenAPIV3Documents(scheme, version);
  return {
    v2: serializeOpenAPI(buildOpenAPIV2(scheme, version)),
    v3Index: serializeOpenAPI(buildOpenAPIV3Index(v3docs)),
    v3: new Map([...v3docs].map(([k, doc]) => [k, { body: serializeOpenAPI(doc), hash: openAPIHash(doc) }])),
  };
}

const notFound = () => new StatusError(404, 'NotFound', 'the server could not find the requested resource', {});

/** Express middleware answering /openapi/v2 and /openapi/v3[/...]; other paths pass through. */
export function openAPIHandler(docs: OpenAPIDocs) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const url = new URL(req.originalUrl, 'https://localhost');
    const path = url.pathname.replace(/\/+$/, '');
    if (path !== '/openapi/v2' && path !== '/openapi/v3' && !path.startsWith('/openapi/v3/')) {
      next();
      return;
    }
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD') throw new StatusError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
      // Only the JSON form is served; a client that accepts nothing else gets 406.
      negotiateOutput(req.headers.accept, { formats: ['json'], conversions: [] });
      let body: string;
      let immutable = false;
      if (path === '/openapi/v2') body = docs.v2;
      else if (path === '/openapi/v3') body = docs.v3Index;
      else {
        const doc = docs.v3.get(path.slice('/openapi/v3/'.length));
        if (!doc) throw notFound();
        const hash = url.searchParams.get('hash');
        if (hash !== null && hash !== doc.hash) {
          // A stale hash: send the client to the current document rather than caching it under an old URL.
          res.redirect(301, `${path}?hash=${doc.hash}`);
          return;
        }
        body = doc.body;
        immutable = hash !== null;
      }
      res.status(200).setHeader('Content-Type', 'application/json');
      res.setHeader('Cache-Control', immutable ? 'public, immutable' : 'no-cache, private');
      res.end(body);
    } catch (e) {
      writeError(res, e);
    }
  };
}
