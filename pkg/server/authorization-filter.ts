// The authorization step of the handler chain (ARCHITECTURE section 4): the configured authorizers
// decide on the request's attributes (user, verb, resource or path); anything not allowed is 403
// with upstream's Status, and an authorizer that failed to decide is 500, as upstream answers.
import type { NextFunction, Request, Response } from 'express';
import { attributesFrom } from '../authorization/attributes.js';
import type { Authorizer } from '../authorization/authorizer.js';
import { forbiddenStatusError } from '../authorization/forbidden.js';
import type { RequestInfo } from '../endpoints/request-info.js';
import { requestUser } from '../endpoints/request-user.js';
import { writeError } from '../endpoints/responses.js';
import type { Logger } from '../log/logger.js';
import { newInternalError } from '../runtime/errors.js';

/** Express middleware: authorizes every request. */
export function withAuthorization(authorizer: Authorizer, infoOf: (res: Response) => RequestInfo, logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const attributes = attributesFrom(infoOf(res), requestUser(res));
    authorizer.authorize(attributes).then((d) => {
      if (d.decision === 'allow') {
        next();
        return;
      }
      if (d.evaluationError) {
        logger.error('authorization failed with an error', { path: req.path, user: attributes.user?.name ?? '', err: d.evaluationError });
        writeError(res, newInternalError(new Error(d.evaluationError)));
        return;
      }
      logger.v(4).info('Forbidden', { path: req.path, user: attributes.user?.name ?? '', reason: d.reason });
      writeError(res, forbiddenStatusError(attributes, d.reason));
    }, (err: unknown) => next(err));
  };
}
