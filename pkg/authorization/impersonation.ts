// Acting as another user (spec 5.10), as upstream's impersonation filter does it after
// authentication and before authorization: the Impersonate-* headers name a user, groups, extra
// values and a uid; the requester must be allowed `impersonate` on every one of them, and the
// request then runs as that user. Headers are read from rawHeaders because each repeated group or
// extra header is a separate value (see ../authentication/headers.ts).
import type { ApiDomain } from '../../api/domain.js';
import { deleteHeaders, headerNames, headerValue, headerValues } from '../authentication/headers.js';
import type { AuthenticationRequest } from '../authentication/authenticator.js';
import { makeGroupNames, makeUsername, splitUsername } from '../authentication/serviceaccount/user.js';
import { newBadRequest } from '../runtime/errors.js';
import { AnonymousUser, AuthenticatedGroup, UnauthenticatedGroup, type UserInfo } from '../runtime/user.js';
import { impersonateAttributes, type Attributes, type ImpersonationTarget } from './attributes.js';
import type { Decision } from './authorizer.js';
import { forbiddenStatusError } from './forbidden.js';

export const ImpersonateUserHeader = 'Impersonate-User';
export const ImpersonateGroupHeader = 'Impersonate-Group';
export const ImpersonateUidHeader = 'Impersonate-Uid';
export const ImpersonateUserExtraHeaderPrefix = 'Impersonate-Extra-';

const extraPrefix = ImpersonateUserExtraHeaderPrefix.toLowerCase();
const isImpersonationHeader = (lower: string) =>
  lower === ImpersonateUserHeader.toLowerCase() || lower === ImpersonateGroupHeader.toLowerCase() ||
  lower === ImpersonateUidHeader.toLowerCase() || lower.startsWith(extraPrefix);

export type ImpersonationRequest = Pick<AuthenticationRequest, 'headers' | 'rawHeaders'>;

export interface ImpersonationOptions {
  /** Names the group of the uids and userextras checks: `authentication.<domain>`. */
  domain: Pick<ApiDomain, 'group'>;
}

/**
 * The user the request runs as: `user` itself without impersonation headers, else the user they
 * name once every target is allowed, with the headers removed from `req`. Throws a 400
 * StatusError for groups, extra or a uid without a user, a 403 for the first target refused.
 */
export async function impersonate(
  req: ImpersonationRequest,
  user: UserInfo,
  authorize: (a: Attributes) => Promise<Decision>,
  opts: ImpersonationOptions,
): Promise<UserInfo> {
  const authenticationGroup = opts.domain.group('authentication');
  const targets = impersonationTargets(req, authenticationGroup);
  if (targets.length === 0) return user;

  // Groups given are the whole truth, system:authenticated included; without them a service
  // account gets the groups every service account token carries.
  const groupsGiven = headerValues(req, ImpersonateGroupHeader).length > 0;
  let name = '';
  let groups: string[] = [];
  const extra: Record<string, string[]> = {};
  let uid = '';
  for (const target of targets) {
    switch (target.kind) {
      case 'ServiceAccount':
        name = makeUsername(target.namespace, target.name);
        if (!groupsGiven) groups = makeGroupNames(target.namespace);
        break;
      case 'User':
        name = target.name;
        break;
      case 'Group':
        groups.push(target.name);
        break;
      case 'UserExtra':
        (extra[target.key] ??= []).push(target.value);
        break;
      case 'UID':
        uid = target.uid;
        break;
    }
    const attrs = impersonateAttributes(user, target, authenticationGroup);
    const d = await authorize(attrs);
    // Unlike the request's own check, an evaluation error refuses even beside an allow.
    if (d.decision !== 'allow' || d.evaluationError) throw forbiddenStatusError(attrs, d.reason);
  }

  if (name !== AnonymousUser) {
    if (!groups.includes(AuthenticatedGroup) && !groups.includes(UnauthenticatedGroup)) groups.push(AuthenticatedGroup);
  } else if (!groups.includes(UnauthenticatedGroup)) {
    groups.push(UnauthenticatedGroup);
  }

  deleteHeaders(req, isImpersonationHeader);
  return { name, ...(uid ? { uid } : {}), groups, extra };
}

/**
 * What the headers ask to act as, in upstream's order: the user (a service account when the name
 * is one), each group, each extra value, the uid. Extra keys come in the order first sent (Go's
 * header map has none).
 */
function impersonationTargets(req: ImpersonationRequest, authenticationGroup: string): ImpersonationTarget[] {
  const targets: ImpersonationTarget[] = [];
  const userName = headerValue(req, ImpersonateUserHeader);
  if (userName) {
    const sa = splitUsername(userName);
    targets.push(sa ? { kind: 'ServiceAccount', ...sa } : { kind: 'User', name: userName });
  }
  const groups = headerValues(req, ImpersonateGroupHeader);
  for (const g of groups) targets.push({ kind: 'Group', name: g });
  const extraHeaders = headerNames(req, (n) => n.startsWith(extraPrefix));
  for (const header of extraHeaders) {
    const key = unescapeExtraKey(header.slice(extraPrefix.length));
    for (const value of headerValues(req, header)) targets.push({ kind: 'UserExtra', key, value });
  }
  const uid = headerValue(req, ImpersonateUidHeader);
  if (uid) targets.push({ kind: 'UID', uid });

  if ((groups.length > 0 || extraHeaders.length > 0 || uid) && !userName) {
    throw newBadRequest(`requested ${goObjectReferences(targets, authenticationGroup)} without impersonating a user`);
  }
  return targets;
}

/**
 * Go's url.PathUnescape of a (lower-cased) extra key: %XX sequences become bytes, nothing else
 * changes (`+` stays); a malformed escape keeps the key as sent, so the value is never lost.
 */
export function unescapeExtraKey(encoded: string): string {
  if (!encoded.includes('%')) return encoded;
  const bytes: number[] = [];
  for (let i = 0; i < encoded.length; ) {
    if (encoded[i] !== '%') {
      const ch = String.fromCodePoint(encoded.codePointAt(i)!);
      bytes.push(...Buffer.from(ch, 'utf8'));
      i += ch.length;
      continue;
    }
    const hex = encoded.slice(i + 1, i + 3);
    if (!/^[0-9a-fA-F]{2}$/.test(hex)) return encoded;
    bytes.push(parseInt(hex, 16));
    i += 3;
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * The targets as upstream's 400 prints its []ObjectReference with %v: each struct's fields
 * (kind, namespace, name, uid, apiVersion, resourceVersion, fieldPath) joined by spaces in braces.
 */
function goObjectReferences(targets: ImpersonationTarget[], authenticationGroup: string): string {
  const authnVersion = `${authenticationGroup}/v1`;
  const ref = (t: ImpersonationTarget): string[] => {
    switch (t.kind) {
      case 'User': return ['User', '', t.name, '', '', '', ''];
      case 'ServiceAccount': return ['ServiceAccount', t.namespace, t.name, '', '', '', ''];
      case 'Group': return ['Group', '', t.name, '', '', '', ''];
      case 'UserExtra': return ['UserExtra', '', t.value, '', authnVersion, '', t.key];
      case 'UID': return ['UID', '', t.uid, '', authnVersion, '', ''];
    }
  };
  return `[${targets.map((t) => `{${ref(t).join(' ')}}`).join(' ')}]`;
}
