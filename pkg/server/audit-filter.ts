// The audit steps of the handler chain (ARCHITECTURE section 4). withAuditInit, first in the
// chain, gives every request its audit ID (the client's Audit-ID header, or a new UUID) and
// echoes it in the answer's Audit-Id header. withAudit, after authentication and before
// impersonation, evaluates the policy on the authenticated user and the request, and writes the
// request's event at each stage: RequestReceived, ResponseStarted (long-running requests),
// ResponseComplete, or Panic when the request failed with a bug.
import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import type { NextFunction, Request, Response } from 'express';
import { AuditContext, type EventSink } from '../audit/context.js';
import type { PolicyRuleEvaluator } from '../audit/policy.js';
import type { Level } from '../audit/types.js';
import { attributesFrom } from '../authorization/attributes.js';
import type { RequestInfo } from '../endpoints/request-info.js';
import { requestAudit, setRequestAudit } from '../endpoints/request-audit.js';
import { requestUser } from '../endpoints/request-user.js';
import { writeError } from '../endpoints/responses.js';
import type { Logger } from '../log/logger.js';
import { newInternalError } from '../runtime/errors.js';
import type { UserInfo } from '../runtime/user.js';

export interface AuditServerConfig {
  evaluator: PolicyRuleEvaluator;
  /** The backend; false from it refuses the request (only --audit-log-mode=blocking-strict returns false). */
  sink: EventSink;
  /** `audit.<domain>/v1`. */
  apiVersion: string;
  /** `authorization.<domain>/decision` and `/reason`, the annotations authorization adds. */
  authorizationAnnotations: { decision: string; reason: string };
  observe?: {
    /** apiserver_audit_level_total */
    level(level: Level): void;
    /** apiserver_audit_requests_rejected_total */
    rejected(): void;
  };
}

const auditIDHeader = 'Audit-Id';

/** Express middleware: the request's audit context and its Audit-Id header, for every request. */
export function withAuditInit(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    // The first value as sent, as Go's Header.Get reads it; kept as is, however long.
    const sent = req.headersDistinct['audit-id']?.[0] ?? '';
    const ctx = new AuditContext(sent || randomUUID(), undefined, (key, kept, refused) =>
      logger.warn('Failed to set an audit annotation: it is already set to another value', { key, value: refused, auditID: ctx.auditID, current: kept }));
    setRequestAudit(res, ctx);
    try {
      if (!res.getHeader(auditIDHeader)) res.setHeader(auditIDHeader, ctx.auditID);
    } catch {
      // A sent ID Node cannot echo (a character a header may not carry) is still recorded in the event.
    }
    next();
  };
}

/** Long-running requests get a ResponseStarted event when their answer starts. */
function isLongRunning(info: RequestInfo): boolean {
  return info.verb === 'watch' || ['proxy', 'log', 'exec', 'attach', 'portforward'].includes(info.subresource);
}

/** upstream's utilnet.SourceIPs: X-Forwarded-For's addresses, X-Real-Ip, then the peer's address. */
export function sourceIPs(req: Pick<Request, 'headers'> & { socket: { remoteAddress?: string | undefined } }): string[] {
  const ips: string[] = [];
  const parse = (s: string): string | undefined => {
    const v = s.trim();
    if (isIP(v) === 0) return undefined;
    // Go prints an IPv4-mapped address as IPv4.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(v);
    return mapped ? mapped[1]! : v;
  };
  const first = (h: string | string[] | undefined) => (Array.isArray(h) ? h[0] : h);
  const forwarded = first(req.headers['x-forwarded-for']);
  if (forwarded) for (const part of forwarded.split(',')) {
    const ip = parse(part);
    if (ip) ips.push(ip);
  }
  const real = first(req.headers['x-real-ip']);
  if (real) {
    const ip = parse(real);
    if (ip && !ips.includes(ip)) ips.push(ip);
  }
  const remote = req.socket.remoteAddress ? parse(req.socket.remoteAddress) : undefined;
  if (remote && ips[ips.length - 1] !== remote) ips.push(remote);
  return ips;
}

function begin(cfg: AuditServerConfig, ctx: AuditContext, req: Request, info: RequestInfo, user: UserInfo | undefined): void {
  const attrs = attributesFrom(info, user);
  const config = cfg.evaluator.evaluate(attrs);
  cfg.observe?.level(config.level);
  ctx.begin(config, {
    requestURI: req.originalUrl,
    verb: attrs.verb,
    user,
    sourceIPs: sourceIPs(req),
    userAgent: req.headers['user-agent'] ?? '',
    ...(info.isResourceRequest ? {
      objectRef: { resource: info.resource, namespace: info.namespace, name: info.name, apiGroup: info.apiGroup, apiVersion: info.apiVersion, subresource: info.subresource },
    } : {}),
  }, cfg.apiVersion);
}

/** Calls `started(code)` when the answer's head is written (writeHead, or implicitly by the first write). */
function onResponseStart(res: Response, started: (code: number) => void): void {
  const writeHead = res.writeHead;
  let seen = false;
  res.writeHead = function (this: Response, ...args: unknown[]) {
    if (!seen) {
      seen = true;
      started(typeof args[0] === 'number' ? args[0] : res.statusCode);
    }
    return (writeHead as (...a: unknown[]) => Response).apply(this, args);
  } as Response['writeHead'];
}

/** Express middleware: audits the request as the policy says. */
export function withAudit(cfg: AuditServerConfig, infoOf: (res: Response) => RequestInfo) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const ctx = requestAudit(res);
    if (!ctx) {
      next();
      return;
    }
    const info = infoOf(res);
    begin(cfg, ctx, req, info, requestUser(res));
    if (!ctx.enabled()) {
      next();
      return;
    }
    if (!ctx.emit('RequestReceived', cfg.sink)) {
      cfg.observe?.rejected();
      writeError(res, newInternalError(new Error('failed to store audit event')));
      return;
    }
    const longRunning = isLongRunning(info);
    onResponseStart(res, (code) => {
      ctx.responseCode(code);
      if (longRunning) ctx.emit('ResponseStarted', cfg.sink);
    });
    const complete = () => {
      if (ctx.done) return;
      if (ctx.panicMessage !== undefined) {
        ctx.setResponseStatus({ metadata: {}, status: 'Failure', message: `APIServer panic'd: ${ctx.panicMessage}`, reason: 'InternalError', code: 500 });
        ctx.emit('Panic', cfg.sink);
        return;
      }
      // Nothing was answered (the client went away first): upstream's faked success.
      const faked = { metadata: {}, status: 'Success', message: 'Connection closed early', code: 200 } as const;
      if (!ctx.responseStarted) {
        ctx.setResponseStatus(faked);
        if (longRunning) ctx.emit('ResponseStarted', cfg.sink);
      }
      ctx.emit('ResponseComplete', cfg.sink);
    };
    res.on('finish', complete);
    res.on('close', complete);
    next();
  };
}

/**
 * The audit of a request whose credentials were refused: evaluated without a user and written
 * once, at ResponseStarted, when the 401 goes out (as upstream's failed-authentication audit).
 */
export function auditFailedAuthentication(cfg: AuditServerConfig, infoOf: (res: Response) => RequestInfo) {
  return (req: Request, res: Response): void => {
    const ctx = requestAudit(res);
    if (!ctx) return;
    begin(cfg, ctx, req, infoOf(res), undefined);
    if (!ctx.enabled()) return;
    ctx.setResponseStatus({ metadata: {}, message: authMethods(req) });
    onResponseStart(res, (code) => {
      ctx.responseCode(code);
      ctx.emit('ResponseStarted', cfg.sink);
    });
  };
}

/** What the refused request presented, as upstream words it. */
function authMethods(req: Request): string {
  const methods: string[] = [];
  const auth = (req.headers.authorization ?? '').trim();
  if (/^basic\s/i.test(auth)) methods.push('basic');
  const parts = auth.split(' ');
  if (parts.length > 1 && parts[0]!.toLowerCase() === 'bearer') methods.push('bearer');
  const q = req.originalUrl.indexOf('?');
  if (q >= 0 && (new URLSearchParams(req.originalUrl.slice(q + 1)).get('access_token') ?? '').trim()) methods.push('access_token');
  const socket = req.socket as { getPeerCertificate?: () => { raw?: Buffer } };
  if (typeof socket.getPeerCertificate === 'function' && socket.getPeerCertificate()?.raw) methods.push('x509');
  return methods.length > 0 ? `Authentication failed, attempted: ${methods.join(', ')}` : 'Authentication failed, no credentials provided';
}
