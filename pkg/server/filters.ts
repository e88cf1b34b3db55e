// The filters every request passes before it reaches a handler (ARCHITECTURE section 4).
import type { NextFunction, Request, Response } from 'express';
import { isLongRunning, parseRequestInfo, type RequestInfo } from '../endpoints/request-info.js';
import { writeError } from '../endpoints/responses.js';
import { StatusError } from '../runtime/errors.js';

export function requestInfoOf(res: Response): RequestInfo {
  return res.locals.requestInfo as RequestInfo;
}

/** Reads verb, group, version, resource, namespace, name and sub-resource off the request. */
export function withRequestInfo(req: Request, res: Response, next: NextFunction): void {
  res.locals.requestInfo = parseRequestInfo(req.method, req.originalUrl);
  next();
}

const mutating = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Caps concurrent requests (--max-requests-inflight, --max-mutating-requests-inflight); long-running
 * requests (watches, exec, proxies) and health probes are not counted, as upstream. Over the cap the answer is 429 with Retry-After.
 */
export function withInflightLimit(maxReadOnly: number, maxMutating: number, report: (kind: 'readOnly' | 'mutating', n: number) => void = () => undefined) {
  let readOnly = 0;
  let writes = 0;
  return (req: Request, res: Response, next: NextFunction): void => {
    const info = requestInfoOf(res);
    if (isLongRunning(info) || !info.path.startsWith('/api')) {
      next();
      return;
    }
    const isWrite = mutating.has(req.method);
    const limit = isWrite ? maxMutating : maxReadOnly;
    if (limit > 0 && (isWrite ? writes : readOnly) >= limit) {
      writeError(res, new StatusError(429, 'TooManyRequests', 'Too many requests, please try again later.', { retryAfterSeconds: 1 }, { 'Retry-After': '1' }));
      return;
    }
    const bump = (d: number) => {
      if (isWrite) report('mutating', (writes += d));
      else report('readOnly', (readOnly += d));
    };
    bump(1);
    let done = false;
    const release = () => {
      if (done) return;
      done = true;
      bump(-1);
    };
    res.on('finish', release);
    res.on('close', release);
    next();
  };
}

/** Metric labels of a request, as upstream reports them. */
export function requestLabels(method: string, info: RequestInfo) {
  let verb = method.toUpperCase();
  if (info.verb === 'list') verb = 'LIST';
  else if (info.verb === 'watch') verb = 'WATCH';
  const scope = !info.isResourceRequest ? '' : info.name ? 'resource' : info.namespace ? 'namespace' : 'cluster';
  return {
    verb,
    group: info.apiGroup,
    version: info.apiVersion,
    resource: info.resource,
    subresource: info.subresource,
    scope,
  };
}
