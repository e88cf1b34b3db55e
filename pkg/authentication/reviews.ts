// The authentication review APIs (authentication.<domain>): TokenReview answered by the configured
// token authenticators, SelfSubjectReview by the identity the request itself was authenticated as.
// Both are answered, never stored.
import { formatTime } from '../../api/meta/v1/primitives.js';
import type { VirtualHandler } from '../endpoints/resource-handlers.js';
import { newBadRequest } from '../runtime/errors.js';
import type { UserInfo } from '../runtime/user.js';
import type { StoredObject } from '../storage/interface.js';
import type { TokenAuthenticator } from './authenticator.js';
import { invalidBearerToken } from './bearer-token.js';
import { authenticatedUser } from '../runtime/user.js';

/** UserInfo as the review kinds spell it. */
function userInfo(user: UserInfo) {
  return {
    username: user.name,
    ...(user.uid ? { uid: user.uid } : {}),
    ...(user.groups.length > 0 ? { groups: user.groups } : {}),
    ...(Object.keys(user.extra).length > 0 ? { extra: user.extra } : {}),
  };
}

const created = () => ({ creationTimestamp: formatTime(new Date()) });

/**
 * TokenReview, as upstream's REST answers it through the bearer token path: the token checked by
 * `tokens` for the audiences asked (the API server's own, `apiAudiences`, when none are). A
 * recognised user gains system:authenticated and the answer names the audiences the token is
 * valid for; a refused token is `authenticated: false` with the reason in `status.error` (a token
 * nobody recognised is upstream's "invalid bearer token"), never an error answer.
 */
export function tokenReviewHandler(tokens: TokenAuthenticator, apiAudiences: readonly string[]): VirtualHandler {
  return async ({ obj }) => {
    const spec = (obj.spec ?? {}) as { token?: string; audiences?: string[] };
    if (!spec.token) throw newBadRequest('token is required for TokenReview in authentication');
    const asked = spec.audiences ?? [];
    const audiences = asked.length > 0 ? asked : [...apiAudiences];
    const result = await tokens.authenticateToken(spec.token, audiences);
    const review: StoredObject = { ...obj, metadata: { ...obj.metadata, ...created() } };
    if (result.outcome === 'authenticated') {
      const valid = result.audiences ?? audiences;
      review.status = {
        authenticated: true,
        user: userInfo(authenticatedUser(result.user)),
        ...(valid.length > 0 ? { audiences: valid } : {}),
      };
    } else {
      review.status = { authenticated: false, error: result.outcome === 'failed' ? result.reason : invalidBearerToken };
    }
    // The token itself never goes back, and is not kept.
    review.spec = { ...(asked.length > 0 ? { audiences: asked } : {}) };
    return review;
  };
}

/** SelfSubjectReview: the user the request was authenticated (or impersonated) as. */
export function selfSubjectReviewHandler(): VirtualHandler {
  return async ({ obj, user }) => ({
    ...obj,
    metadata: { ...obj.metadata, ...created() },
    status: { userInfo: user ? userInfo(user) : {} },
  });
}
