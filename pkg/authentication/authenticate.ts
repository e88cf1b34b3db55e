// Authentication of one request, as upstream's authenticator config and authentication filter
// compose it: the union of the configured methods (each authenticated user gains
// system:authenticated), then, only when no method saw a credential at all, the anonymous user if
// allowed. A credential that failed is a 401 even when anonymous requests are allowed. After
// authentication the caller's Authorization header and every proxy identity header are removed,
// so nothing later in the chain reads them.
import type { AuthenticationRequest, RequestAuthenticator } from './authenticator.js';
import { anonymousAuthenticator } from './anonymous.js';
import { audiencesAcceptable } from './audiences.js';
import { deleteHeader } from './headers.js';
import { stripRequestHeaders, type RequestHeaderNames } from './request-header.js';
import { unionRequestAuthenticator } from './union.js';
import { authenticatedUser, type UserInfo } from '../runtime/user.js';

export interface AuthenticationOptions {
  /**
   * The request authenticators, in upstream's order: request header (--requestheader-client-ca-file),
   * x509 (--client-ca-file), then the bearer token and websocket token authenticators over the token
   * authenticators (--token-auth-file, bootstrap tokens, service accounts, OIDC, webhook).
   */
  authenticators: readonly RequestAuthenticator[];
  /** --anonymous-auth. Default: true. */
  anonymous?: boolean;
  /** --api-audiences: a result valid only for other audiences is refused. Default: none (not checked). */
  apiAudiences?: readonly string[];
  /** The configured --requestheader-* names, removed from every request with the standard X-Remote-* set. */
  requestHeaderNames?: RequestHeaderNames;
}

export type AuthenticationOutcome =
  /** Who the request is from (anonymous included) and, when the method said, the audiences its credential is valid for. */
  | { user: UserInfo; audiences?: string[] }
  /**
   * Answer 401. `error` is for the log and never holds a credential; `credentialPresented` is false
   * when nothing was presented and anonymous requests are off (upstream logs nothing then).
   */
  | { error: string; credentialPresented: boolean };

/** Builds the function the server calls once per request. */
export function newAuthenticate(opts: AuthenticationOptions): (req: AuthenticationRequest) => Promise<AuthenticationOutcome> {
  const union = unionRequestAuthenticator(opts.authenticators);
  const apiAudiences = [...(opts.apiAudiences ?? [])];
  const anonymous = (opts.anonymous ?? true) ? anonymousAuthenticator(apiAudiences) : undefined;
  return async (req) => {
    try {
      let r = await union.authenticate(req);
      if (r.outcome === 'failed') return { error: r.reason, credentialPresented: true };
      if (r.outcome === 'authenticated') {
        r = { ...r, user: authenticatedUser(r.user) };
      } else if (anonymous) {
        r = await anonymous.authenticate(req);
        if (r.outcome !== 'authenticated') return { error: 'anonymous authentication failed', credentialPresented: false };
      } else {
        return { error: 'no credentials were presented and anonymous requests are not allowed', credentialPresented: false };
      }
      if (!audiencesAcceptable(apiAudiences, r.audiences)) {
        return { error: `unable to match the audience: [${(r.audiences ?? []).join(' ')}] , accepted: [${apiAudiences.join(' ')}]`, credentialPresented: true };
      }
      return r.audiences ? { user: r.user, audiences: r.audiences } : { user: r.user };
    } finally {
      deleteHeader(req, 'authorization');
      stripRequestHeaders(req, opts.requestHeaderNames);
    }
  };
}
