// The user a request is from travels with the request (ARCHITECTURE section 4): set once by
// authentication (and impersonation), read by every layer after it.
import type { Response } from 'express';
import type { UserInfo } from '../runtime/user.js';

/** Attaches the user the request was authenticated as. */
export function setRequestUser(res: Response, user: UserInfo): void {
  res.locals.user = user;
}

/** The user the request was authenticated as; undefined only where authentication does not run (tests of lower layers). */
export function requestUser(res: Response): UserInfo | undefined {
  return res.locals.user as UserInfo | undefined;
}
