// Audiences (--api-audiences): which audiences a credential is valid for. Methods whose tokens
// carry no audience (the token file, bootstrap tokens) are "audience-agnostic": upstream makes
// them valid for exactly the API server's own audiences, so a TokenReview asking about other
// audiences does not accept them.
import { authenticated, skipped, type AuthenticationResult, type TokenAuthenticator } from './authenticator.js';

/** The members of `a` also in `b`, in `a`'s order. */
export function intersectAudiences(a: readonly string[], b: readonly string[]): string[] {
  return a.filter((x, i) => b.includes(x) && a.indexOf(x) === i);
}

/**
 * Upstream's WrapAudienceAgnosticToken: asked without audiences, the wrapped authenticator answers
 * as is; asked with audiences, only when they meet `apiAudiences`, and the answer is valid for
 * that intersection.
 */
export function audienceAgnosticToken(auth: TokenAuthenticator, apiAudiences: readonly string[]): TokenAuthenticator {
  return {
    name: auth.name,
    async authenticateToken(token: string, audiences: readonly string[]): Promise<AuthenticationResult> {
      if (audiences.length === 0) return auth.authenticateToken(token, audiences);
      const auds = intersectAudiences(apiAudiences, audiences);
      if (auds.length === 0) return skipped;
      const r = await auth.authenticateToken(token, audiences);
      if (r.outcome !== 'authenticated') return r.outcome === 'failed' ? r : skipped;
      return authenticated(r.user, auds);
    },
  };
}

/**
 * Upstream's audiencesAreAcceptable: a request's authentication stands when either side names no
 * audiences, or they share one.
 */
export function audiencesAcceptable(apiAudiences: readonly string[], resultAudiences: readonly string[] | undefined): boolean {
  if (apiAudiences.length === 0 || !resultAudiences || resultAudiences.length === 0) return true;
  return intersectAudiences(apiAudiences, resultAudiences).length > 0;
}
