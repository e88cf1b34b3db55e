// The authorization step of the handler chain (ARCHITECTURE section 4): the configured authorizers
// decide on the request's attributes (user, verb, resource or path); anything not allowed is 403
// with upstream's Status, and an authorizer that failed to decide is 500, as upstream answers.
import type { NextFunction, Request, Response } from 'express';
import { attributesFrom } from '../authorization/attributes.js';
import type { Authorizer } from '../authorization/authorizer.js';
import { forbiddenStatusError } from '../authorization/forbidden.js';
import type { RequestInfo } from '../endpoints/request-info.js';
import { requestUser, setRequestUser } from '../endpoints/request-user.js';
import { requestAudit } from '../endpoints/request-audit.js';
import { writeError } from '../endpoints/responses.js';
import type { Logger } from '../log/logger.js';
import { isStatusError, newInternalError } from '../runtime/errors.js';
import type { UserInfo } from '../runtime/user.js';

/** Turns the authenticated user into the one the request impersonates (the same one when it impersonates nobody). */
export type Impersonation = (req: Request, user: UserInfo) => Promise<UserInfo>;

/** Express middleware: the Impersonate-* headers, allowed by the authorizers, replace the request's user. */
export function withImpersonation(impersonation: Impersonation) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const user = requestUser(res);
    if (!user) {
      next();
      return;
    }
    impersonation(req, user).then((as) => {
      if (as !== user) {
        setRequestUser(res, as);
        requestAudit(res)?.setImpersonatedUser(as);
      }
      next();
    }, (err: unknown) => (isStatusError(err) ? writeError(res, err) : next(err)));
  };
}

const streamSubresources = new Set(['exec', 'attach', 'portforward']);

/**
 * A WebSocket upgrade of pods/exec, attach or portforward arrives as a GET but starts a process or
 * a tunnel: upstream (AuthorizePodWebsocketUpgradeCreatePermission) requires `create` as well.
 */
function isPodStreamUpgrade(req: Request, info: RequestInfo): boolean {
  return req.method === 'GET' && info.apiGroup === '' && info.resource === 'pods' && streamSubresources.has(info.subresource)
    && String(req.headers.upgrade ?? '').toLowerCase() === 'websocket';
}

/** The audit annotation keys of authorization's decision: `authorization.<domain>/decision` and `/reason`. */
export interface DecisionAnnotationKeys {
  decision: string;
  reason: string;
}

/** Express middleware: authorizes every request, recording the decision in its audit event. */
export function withAuthorization(authorizer: Authorizer, infoOf: (res: Response) => RequestInfo, logger: Logger, keys?: DecisionAnnotationKeys) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const info = infoOf(res);
    const user = requestUser(res);
    const checks = [attributesFrom(info, user)];
    if (isPodStreamUpgrade(req, info)) checks.push(attributesFrom({ ...info, verb: 'create' }, user));
    // Upstream records the reason even when it is empty.
    const annotate = (decision: string | undefined, reason: string) => {
      if (!keys) return;
      requestAudit(res)?.addAnnotations({ ...(decision ? { [keys.decision]: decision } : {}), [keys.reason]: reason });
    };
    void authorizeAll(authorizer, checks, { logger, req, res, next, annotate });
  };
}

interface Answer {
  logger: Logger;
  req: Request;
  res: Response;
  next: NextFunction;
  annotate(decision: string | undefined, reason: string): void;
}

/** Every check must allow, in order; the first that does not answers the request. */
async function authorizeAll(authorizer: Authorizer, checks: ReturnType<typeof attributesFrom>[], { logger, req, res, next, annotate }: Answer): Promise<void> {
  let reason = '';
  for (const attributes of checks) {
    let d: Awaited<ReturnType<Authorizer['authorize']>>;
    try {
      d = await authorizer.authorize(attributes);
    } catch (err) {
      next(err);
      return;
    }
    if (d.decision === 'allow') {
      reason = d.reason;
      continue;
    }
    if (d.evaluationError) {
      annotate(undefined, 'internal error');
      logger.error('authorization failed with an error', { path: req.path, user: attributes.user?.name ?? '', err: d.evaluationError });
      writeError(res, newInternalError(new Error(d.evaluationError)));
      return;
    }
    logger.v(4).info('Forbidden', { path: req.path, user: attributes.user?.name ?? '', reason: d.reason });
    annotate('forbid', d.reason);
    writeError(res, forbiddenStatusError(attributes, d.reason));
    return;
  }
  annotate('allow', reason);
  next();
}
