// The shape every authentication method has (ARCHITECTURE section 4): small authenticators, each
// answering "this is user U", "not mine", or "presented but invalid" (401), joined by a union.
import type { IncomingHttpHeaders } from 'node:http';
import type { X509Certificate } from 'node:crypto';
import type { UserInfo } from '../runtime/user.js';

/** What an authenticator may look at: the headers and the client certificate chain of the TLS handshake. */
export interface AuthenticationRequest {
  /** Request headers as Node parsed them (lower-case names). */
  headers: IncomingHttpHeaders;
  /** Header names and values in the order they came, for headers that may repeat (Node's rawHeaders). */
  rawHeaders: string[];
  /** The chain the client presented, leaf first; empty without a client certificate. Not yet verified. */
  peerCertificates: X509Certificate[];
}

/**
 * A message as authenticators see it, over the message's own views of its headers: the headers
 * authentication removes (Authorization, a proxy's identity headers) leave the message itself,
 * rawHeaders in place and `headers` replaced (authentication/headers.ts).
 */
export function authenticationRequest(msg: HeaderViews, peerCertificates: X509Certificate[]): AuthenticationRequest {
  return new MessageRequest(msg, peerCertificates);
}

interface HeaderViews {
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
}

/** A class, not an object literal with accessors: each request costs one small object. */
class MessageRequest implements AuthenticationRequest {
  constructor(private readonly msg: HeaderViews, readonly peerCertificates: X509Certificate[]) {}

  get headers(): IncomingHttpHeaders {
    return this.msg.headers;
  }

  set headers(headers: IncomingHttpHeaders) {
    this.msg.headers = headers;
  }

  get rawHeaders(): string[] {
    return this.msg.rawHeaders;
  }
}

export type AuthenticationResult =
  /** The credential is valid and names this user; `audiences` are those it is valid for, when the method says. */
  | { outcome: 'authenticated'; user: UserInfo; audiences?: string[] }
  /** No credential this method reads was presented. */
  | { outcome: 'skipped' }
  /**
   * A credential this method reads was presented and is not valid: the request is refused with
   * 401, never served as anonymous. `reason` is for the log and must never contain the credential.
   */
  | { outcome: 'failed'; reason: string };

/** Authenticates whole requests (client certificates, the authenticating proxy's headers, bearer tokens). */
export interface RequestAuthenticator {
  /** Short name for logs and metrics, e.g. `x509`, `requestheader`, `token`. */
  readonly name: string;
  authenticate(req: AuthenticationRequest): Promise<AuthenticationResult>;
}

/**
 * Authenticates bearer tokens (static file, bootstrap, service account, OIDC, webhook). The same
 * authenticators answer TokenReview. `audiences` are the audiences the token must be valid for:
 * the API server's own (--api-audiences) for requests, TokenReview's spec.audiences otherwise.
 */
export interface TokenAuthenticator {
  readonly name: string;
  authenticateToken(token: string, audiences: readonly string[]): Promise<AuthenticationResult>;
}

export const skipped: AuthenticationResult = { outcome: 'skipped' };

export function failed(reason: string): AuthenticationResult {
  return { outcome: 'failed', reason };
}

export function authenticated(user: UserInfo, audiences?: string[]): AuthenticationResult {
  return audiences ? { outcome: 'authenticated', user, audiences } : { outcome: 'authenticated', user };
}
