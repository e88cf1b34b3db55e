// Who a request is from, as authentication establishes it and every later layer (impersonation,
// authorization, admission, audit, the registry) reads it. It lives this low so every layer may carry it.

/** An authenticated (or anonymous) identity: opaque strings that authorization interprets. */
export interface UserInfo {
  /** The user name, e.g. `jane`, `system:serviceaccount:default:ci`, `system:anonymous`. */
  name: string;
  /** A unique id, when the method knows one. */
  uid?: string;
  groups: string[];
  /** Further attributes (e.g. the bound pod of a service account token); never secret data. */
  extra: Record<string, string[]>;
}

/** Every authenticated user is in this group (spec 5.3). */
export const AuthenticatedGroup = 'system:authenticated';
/** Requests no method claimed, when anonymous requests are allowed (spec 5.9). */
export const AnonymousUser = 'system:anonymous';
export const UnauthenticatedGroup = 'system:unauthenticated';
/** Members of this group are allowed everything, whatever the authorizers say. */
export const MastersGroup = 'system:masters';

/** The user a successful authentication attaches: groups de-duplicated, system:authenticated added. */
export function authenticatedUser(user: UserInfo): UserInfo {
  const groups = [...new Set(user.groups)];
  if (user.name !== AnonymousUser && !groups.includes(AuthenticatedGroup) && !groups.includes(UnauthenticatedGroup)) groups.push(AuthenticatedGroup);
  return { ...user, groups };
}
