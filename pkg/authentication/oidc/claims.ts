// From verified ID-token claims to a user, as upstream's flag-configured OIDC authenticator maps
// them: username claim (string) with its prefix, the email_verified rule for `email`, groups (a
// string or an array of strings) with their prefix, the credential id from `jti`, then every
// required claim. Messages follow upstream's, whose Go JSON decoding errors we spell the same.
import type { UserInfo } from '../../runtime/user.js';
import type { ResolvedOIDCOptions } from './options.js';
import { goJSONType } from './verifier.js';

type Claims = Record<string, unknown>;

const cannot = (v: unknown, goType: string) => `json: cannot unmarshal ${goJSONType(v)} into Go value of type ${goType}`;

type MappingOptions = Pick<ResolvedOIDCOptions, 'usernameClaim' | 'usernamePrefix' | 'groupsClaim' | 'groupsPrefix' | 'requiredClaims' | 'credentialIDKey'>;

function username(c: Claims, o: MappingOptions): string {
  const claim = o.usernameClaim;
  if (!(claim in c)) throw new Error(`oidc: parse username claims ${JSON.stringify(claim)}: claim not present`);
  const v = c[claim];
  if (typeof v !== 'string') throw new Error(`oidc: parse username claims ${JSON.stringify(claim)}: ${cannot(v, 'string')}`);
  // Upstream lets an empty claim through as an empty (or prefix-only) name; no user should be nameless.
  if (v === '') throw new Error(`oidc: empty username via claim ${JSON.stringify(claim)} is not allowed`);
  if (claim === 'email' && 'email_verified' in c) {
    // OIDC Core: when the provider says whether the address is verified, it must say yes.
    const ev = c.email_verified;
    if (ev !== null && typeof ev !== 'boolean') throw new Error(`oidc: parse 'email_verified' claim: ${cannot(ev, 'bool')}`);
    if (ev !== true) throw new Error('oidc: email not verified');
  }
  return o.usernamePrefix + v;
}

function groups(c: Claims, o: MappingOptions): string[] {
  if (!o.groupsClaim || !(o.groupsClaim in c)) return [];
  const v = c[o.groupsClaim];
  let list: string[];
  if (v === null) list = [];
  else if (typeof v === 'string') list = [v];
  else if (Array.isArray(v) && v.every((g) => typeof g === 'string' || g === null)) list = v.map((g) => (g === null ? '' : (g as string)));
  else throw new Error(`oidc: parse groups claim ${JSON.stringify(o.groupsClaim)}: ${cannot(v, 'string')}`);
  return o.groupsPrefix ? list.map((g) => o.groupsPrefix + g) : list;
}

function checkRequired(c: Claims, o: MappingOptions): void {
  for (const [claim, want] of o.requiredClaims) {
    if (!(claim in c)) throw new Error(`oidc: required claim ${claim} not present in ID token`);
    const v = c[claim];
    if (v !== null && typeof v !== 'string') throw new Error(`oidc: parse claim ${claim}: ${cannot(v, 'string')}`);
    const got = v ?? '';
    if (got !== want) throw new Error(`oidc: required claim ${claim} value does not match. Got = ${got}, want = ${want}`);
  }
}

/** The user the verified claims name; throws upstream's reason when they do not map. */
export function userFromClaims(c: Claims, o: MappingOptions): UserInfo {
  const user: UserInfo = { name: username(c, o), groups: groups(c, o), extra: {} };
  if (typeof c.jti === 'string' && c.jti !== '') user.extra[o.credentialIDKey] = [`JTI=${c.jti}`];
  checkRequired(c, o);
  return user;
}
