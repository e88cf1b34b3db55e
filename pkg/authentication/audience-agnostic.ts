// Token authenticators whose tokens carry no audience of ours (OIDC ID tokens, static tokens,
// bootstrap tokens) are valid for the API server only. Upstream wraps them so they answer only
// when the audiences asked for (the API server's own on requests, TokenReview's spec.audiences)
// include one of the API server's audiences (--api-audiences), and report that intersection.
import { authenticated, skipped, type AuthenticationResult, type TokenAuthenticator } from './authenticator.js';

/**
 * Wraps `inner` as upstream's WrapAudienceAgnosticToken: with no audiences asked for, `inner`
 * answers as is; otherwise only if `apiAudiences` (--api-audiences) meets them, and a success
 * carries the audiences in common.
 */
export function audienceAgnostic(apiAudiences: readonly string[], inner: TokenAuthenticator): TokenAuthenticator {
  return {
    name: inner.name,
    async authenticateToken(token: string, audiences: readonly string[]): Promise<AuthenticationResult> {
      if (audiences.length === 0) return inner.authenticateToken(token, audiences);
      const common = apiAudiences.filter((a) => audiences.includes(a));
      if (common.length === 0) return skipped;
      const r = await inner.authenticateToken(token, audiences);
      return r.outcome === 'authenticated' ? authenticated(r.user, common) : r;
    },
  };
}
