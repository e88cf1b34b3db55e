// The aggregator's proxy (upstream's proxyHandler): a request below /apis/<group>/<version> of a
// group version an APIService gives to a service goes to that service, with the user this server
// authenticated as X-Remote-* headers vouched for by the front-proxy client certificate. The
// extension server authorizes the request; this server only authenticated it. A watch streams
// through; an upgrade (exec-like streams) is joined to the backend's connection. An unavailable
// service, or one that cannot be reached, answers 503 as upstream's does (plain text).
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import express from 'express';
import type { APIService } from '../../api/apiregistration/v1/api-service.js';
import { takeUpgradeConnection } from '../endpoints/upgrade.js';
import { requestUser } from '../endpoints/request-user.js';
import type { Logger } from '../log/logger.js';
import { ProxyError, proxyRequest, proxyUpgrade } from '../util/proxy/upgrade-aware.js';
import { isAvailable, type APIServiceIndex } from './api-services.js';
import { remoteUserHeaders } from './remote-headers.js';
import type { Backend } from './service-resolver.js';

export interface ProxyHandlerOptions {
  index: APIServiceIndex;
  /** Where an APIService is reached now (throws when it cannot be). */
  backend(s: APIService): Promise<Backend>;
  /** Request bodies above this many bytes are refused, as on any other path. */
  maxRequestBodyBytes: number;
  logger: Logger;
}

/** The group and version a path below /apis names, if it names both. */
function groupVersionOf(path: string): { group: string; version: string } | undefined {
  const segs = path.split('/').filter(Boolean);
  if (segs[0] !== 'apis' || segs.length < 3) return undefined;
  return { group: segs[1]!, version: segs[2]! };
}

/** Upstream answers with Go's http.Error: plain text and a newline. */
function plainError(res: Response, code: number, message: string): void {
  const body = `${message}\n`;
  res.writeHead(code, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

/** Express middleware proxying the requests of aggregated group versions; other requests pass on. */
export function aggregatorProxy(o: ProxyHandlerOptions): RequestHandler {
  const body = express.raw({ type: () => true, limit: o.maxRequestBodyBytes });
  return (req: Request, res: Response, next: NextFunction): void => {
    const gv = groupVersionOf(req.path);
    const service = gv && o.index.proxied(gv.group, gv.version);
    if (!service) {
      next();
      return;
    }
    const user = requestUser(res);
    if (!user) {
      plainError(res, 500, 'missing user');
      return;
    }
    if (!isAvailable(service)) {
      plainError(res, 503, 'service unavailable');
      return;
    }
    const upgrade = takeUpgradeConnection(req);
    const forward = async () => {
      let backend: Backend;
      try {
        backend = await o.backend(service);
      } catch (e) {
        o.logger.warn('cannot resolve the service of an APIService', { apiService: service.metadata?.name ?? '', err: e instanceof Error ? e.message : String(e) });
        if (upgrade) upgrade.socket.destroy();
        else plainError(res, 503, 'service unavailable');
        return;
      }
      const url = new URL(req.originalUrl, backend.origin);
      const target = { url, tls: backend.tls, headers: remoteUserHeaders(user) };
      try {
        if (upgrade) await proxyUpgrade(req, upgrade.socket, upgrade.head, target);
        else await proxyRequest(req, Buffer.isBuffer(req.body) ? req.body : undefined, res, target);
      } catch (e) {
        if (!(e instanceof ProxyError)) throw e;
        o.logger.warn('error while proxying a request to an extension API server', { apiService: service.metadata?.name ?? '', err: e.message });
        if (upgrade) upgrade.socket.destroy();
        else if (!res.headersSent) plainError(res, 503, `error trying to reach service: ${e.message}`);
      }
    };
    if (upgrade) {
      forward().catch(next);
      return;
    }
    body(req, res, (err?: unknown) => {
      if (err) {
        next(err);
        return;
      }
      forward().catch(next);
    });
  };
}
