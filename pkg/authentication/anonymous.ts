// Anonymous requests (spec 5.9, --anonymous-auth, default true): a request that presented no
// credential any method reads is served as system:anonymous in system:unauthenticated. A request
// whose credential failed is never anonymous (the union reports the failure first).
import { authenticated, type AuthenticationResult, type RequestAuthenticator } from './authenticator.js';
import { AnonymousUser, UnauthenticatedGroup } from '../runtime/user.js';

/** Authenticates every request as the anonymous user, valid for the API server's audiences (--api-audiences). */
export function anonymousAuthenticator(apiAudiences: readonly string[] = []): RequestAuthenticator {
  const audiences = apiAudiences.length ? [...apiAudiences] : undefined;
  return {
    name: 'anonymous',
    async authenticate(): Promise<AuthenticationResult> {
      return authenticated({ name: AnonymousUser, groups: [UnauthenticatedGroup], extra: {} }, audiences ? [...audiences] : undefined);
    },
  };
}
