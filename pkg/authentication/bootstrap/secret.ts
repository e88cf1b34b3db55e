// Reading a bootstrap token Secret (spec 2.12; upstream k8s.io/cluster-bootstrap util/secrets and
// the bootstrap signer's checks): its data as text, its expiry against an injectable clock, its
// groups, and the whole token parsed and checked. Pure functions, shared by the authenticator and
// the token cleaner and bootstrap signer controllers. None of them puts the token secret in a
// message.
import {
  BootstrapDefaultGroup,
  BootstrapGroupPattern,
  BootstrapGroupPatternText,
  BootstrapTokenIdPattern,
  BootstrapTokenKeys,
  BootstrapTokenSecretPattern,
  BootstrapTokenSecretPrefix,
} from '../../../api/core/v1/bootstrap-token.js';
import { parseRFC3339 } from '../../util/rfc3339.js';
import { bootstrapTokenSecretName, tokenIdFromSecretName } from './token.js';

/** The parts of a Secret these helpers read (an API Secret fits). */
export interface BootstrapSecretLike {
  metadata?: { name?: string; namespace?: string; deletionTimestamp?: string };
  type?: string;
  /** Values base64-encoded, as in the API. */
  data?: Record<string, string>;
}

/** The raw bytes under `key`, or undefined when the key is absent. */
export function secretBytes(secret: BootstrapSecretLike, key: string): Buffer | undefined {
  const v = secret.data?.[key];
  return v === undefined ? undefined : Buffer.from(v, 'base64');
}

/** The value under `key` as text; '' when absent, as upstream's GetData. */
export function secretData(secret: BootstrapSecretLike, key: string): string {
  return secretBytes(secret, key)?.toString('utf8') ?? '';
}

export interface BootstrapTokenExpiry {
  expired: boolean;
  /** Milliseconds left; 0 once expired or when the token never expires. */
  remainingMs: number;
  /** Why it counts as expired, for the log. */
  reason?: string;
}

/**
 * Whether the token's `expiration` has passed at `now` (ms since the epoch). No expiration means
 * never; an unparsable one counts as expired, as upstream's GetExpiration decides.
 */
export function bootstrapTokenExpiry(secret: BootstrapSecretLike, now: number): BootstrapTokenExpiry {
  const expiration = secretData(secret, BootstrapTokenKeys.expiration);
  if (expiration === '') return { expired: false, remainingMs: 0 };
  const where = `${secret.metadata?.namespace ?? ''}/${secret.metadata?.name ?? ''}`;
  const at = parseRFC3339(expiration);
  if (at === undefined) {
    return { expired: true, remainingMs: 0, reason: `Unparseable expiration time (${expiration}) in ${where} Secret. Treating as expired.` };
  }
  const remainingMs = at - now;
  if (remainingMs <= 0) return { expired: true, remainingMs: 0, reason: `Expired bootstrap token in ${where} Secret: ${expiration}` };
  return { expired: false, remainingMs };
}

/** Whether the token has expired at `now`. */
export function hasBootstrapTokenExpired(secret: BootstrapSecretLike, now: number): boolean {
  return bootstrapTokenExpiry(secret, now).expired;
}

/** Why `group` cannot be a bootstrap token's extra group, or undefined when it can. */
export function invalidBootstrapGroup(group: string): string | undefined {
  if (BootstrapGroupPattern.test(group)) return undefined;
  return `bootstrap group ${JSON.stringify(group)} is invalid (must match ${BootstrapGroupPatternText})`;
}

/**
 * The token's groups: system:bootstrappers plus `auth-extra-groups` (comma separated), sorted and
 * de-duplicated as upstream's GetGroups returns them; an error naming the first invalid group.
 */
export function bootstrapTokenGroups(secret: BootstrapSecretLike): { groups: string[] } | { error: string } {
  const groups = new Set([BootstrapDefaultGroup]);
  const extra = secretData(secret, BootstrapTokenKeys.extraGroups);
  if (extra !== '') {
    for (const group of extra.split(',')) {
      const why = invalidBootstrapGroup(group);
      if (why) return { error: why };
      groups.add(group);
    }
  }
  return { groups: [...groups].sort() };
}

/** The usages set to `true` (`usage-bootstrap-<usage>: "true"`), sorted. */
export function bootstrapTokenUsages(secret: BootstrapSecretLike): string[] {
  const out: string[] = [];
  for (const key of Object.keys(secret.data ?? {})) {
    if (key.startsWith(BootstrapTokenKeys.usagePrefix) && secretData(secret, key) === 'true') {
      out.push(key.slice(BootstrapTokenKeys.usagePrefix.length));
    }
  }
  return out.sort();
}

/** A bootstrap token Secret read and checked. */
export interface BootstrapTokenSecret {
  tokenId: string;
  tokenSecret: string;
  description: string;
  /** Milliseconds since the epoch; undefined when the token never expires. */
  expiration?: number;
  usages: string[];
  /** The groups the token authenticates into, system:bootstrappers included. */
  groups: string[];
}

/**
 * Reads a bootstrap token Secret of type `secretType` (secretTypes(domain).bootstrapToken):
 * named `bootstrap-token-<token-id>`, with a well-formed token id and secret, a parsable
 * expiration and valid extra groups. Expiry and usages are left to the caller, who knows the
 * time and the use. The reason never contains the token secret.
 */
export function parseBootstrapTokenSecret(
  secret: BootstrapSecretLike,
  secretType: string,
): { token: BootstrapTokenSecret } | { error: string } {
  const name = secret.metadata?.name ?? '';
  if (secret.type !== secretType) return { error: `Secret ${name} has type ${JSON.stringify(secret.type ?? '')}, expected ${secretType}` };
  const nameId = tokenIdFromSecretName(name);
  if (nameId === undefined) return { error: `Invalid secret name: ${name}. Must be of form ${BootstrapTokenSecretPrefix}<secret-id>.` };
  const tokenId = secretData(secret, BootstrapTokenKeys.tokenId);
  if (tokenId === '') return { error: `bootstrap Token Secret has no ${BootstrapTokenKeys.tokenId} data: ${name}` };
  if (!BootstrapTokenIdPattern.test(tokenId)) return { error: `bootstrap Token Secret ${name} has an invalid ${BootstrapTokenKeys.tokenId}` };
  if (tokenId !== nameId) {
    return {
      error: `bootstrap token name is not of the form '${BootstrapTokenSecretPrefix}(token-id)'. Actual: ${JSON.stringify(name)}. Expected: ${JSON.stringify(bootstrapTokenSecretName(tokenId))}`,
    };
  }
  const tokenSecret = secretData(secret, BootstrapTokenKeys.tokenSecret);
  if (tokenSecret === '') return { error: `bootstrap Token Secret has no ${BootstrapTokenKeys.tokenSecret} data: ${name}` };
  if (!BootstrapTokenSecretPattern.test(tokenSecret)) return { error: `bootstrap Token Secret ${name} has an invalid ${BootstrapTokenKeys.tokenSecret}` };
  const expirationText = secretData(secret, BootstrapTokenKeys.expiration);
  let expiration: number | undefined;
  if (expirationText !== '') {
    expiration = parseRFC3339(expirationText);
    if (expiration === undefined) return { error: `can't parse expiration time of bootstrap token ${JSON.stringify(name)}` };
  }
  const groups = bootstrapTokenGroups(secret);
  if ('error' in groups) return { error: groups.error };
  const token: BootstrapTokenSecret = {
    tokenId,
    tokenSecret,
    description: secretData(secret, BootstrapTokenKeys.description),
    usages: bootstrapTokenUsages(secret),
    groups: groups.groups,
  };
  if (expiration !== undefined) token.expiration = expiration;
  return { token };
}
