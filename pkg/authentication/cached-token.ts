// The cache in front of the union of token authenticators, as kube-apiserver puts one there
// (its authenticator config wraps the token union in the token cache whenever a TTL is set):
// a successful answer is kept for tokenSuccessCacheTTL, 10 seconds, and a refused one for
// tokenFailureCacheTTL, 0 (not kept). So, as upstream, a token that stops being valid (its service
// account, pod or Secret deleted, a bootstrap token expired or removed) may still authenticate for
// up to 10 seconds after it last did; every request in between skips the signature check and the
// lookups. Keys are salted hashes of token and audiences (see token-cache.ts), never the token.
import type { AuthenticationResult, TokenAuthenticator } from './authenticator.js';
import { TokenCache } from './token-cache.js';

/** Upstream's TokenSuccessCacheTTL default for the token authenticators' union. */
export const TokenSuccessCacheTTLMs = 10_000;
/** Upstream's TokenFailureCacheTTL default: refusals are asked again every time. */
export const TokenFailureCacheTTLMs = 0;

export interface CachedTokenOptions {
  /** Default TokenSuccessCacheTTLMs. */
  successTtlMs?: number;
  /** Default TokenFailureCacheTTLMs. */
  failureTtlMs?: number;
  /** Clock in milliseconds; default Date.now. */
  now?: () => number;
}

/**
 * `auth` behind the cache. Answers are shared frozen between requests (nothing downstream changes
 * an authentication result; the user a request carries is a copy made by authenticatedUser).
 */
export function cachedTokenAuthenticator(auth: TokenAuthenticator, opts: CachedTokenOptions = {}): TokenAuthenticator {
  const successTtlMs = opts.successTtlMs ?? TokenSuccessCacheTTLMs;
  const failureTtlMs = opts.failureTtlMs ?? TokenFailureCacheTTLMs;
  if (successTtlMs <= 0 && failureTtlMs <= 0) return auth;
  const cache = new TokenCache({ ttlMs: successTtlMs, failureTtlMs, share: 'frozen', ...(opts.now ? { now: opts.now } : {}) });
  return {
    name: auth.name,
    authenticateToken: (token: string, audiences: readonly string[]): Promise<AuthenticationResult> =>
      cache.get(token, audiences, () => auth.authenticateToken(token, audiences)),
  };
}
