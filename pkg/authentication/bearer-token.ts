// Bearer tokens in requests (spec 5.3): `Authorization: Bearer <token>`, and for browsers' websockets,
// which cannot set headers, a subprotocol `base64url.bearer.authorization.<domain>.<base64url token>`
// (upstream's websocket protocol authenticator). The token is offered to the token authenticators
// in order; a token nobody accepts is a failed authentication (401), never anonymous.
import type { ApiDomain } from '../../api/domain.js';
import { failed, skipped, type AuthenticationRequest, type AuthenticationResult, type RequestAuthenticator, type TokenAuthenticator } from './authenticator.js';
import { deleteHeader, headerValue, headerValues, setHeader } from './headers.js';
import { unionTokenAuthenticator } from './union.js';

export interface BearerTokenOptions {
  /** The token authenticators (token file, bootstrap, service accounts, OIDC, webhook), asked in order. */
  authenticators: readonly TokenAuthenticator[];
  /** --api-audiences: the audiences tokens are checked against. Default: none. */
  apiAudiences?: readonly string[];
  /** Receives upstream's warnings for a request (e.g. a space before the token), for a `Warning` header. */
  onWarning?: (req: AuthenticationRequest, warning: string) => void;
}

/** Upstream's default failure when no token authenticator accepted the token and none said why. */
export const invalidBearerToken = 'invalid bearer token';

const extraSpaceWarning = 'the provided Authorization header contains extra space before the bearer token, and is ignored';

/**
 * The token of an Authorization header value, as upstream's bearertoken authenticator reads it:
 * trimmed, split on single spaces into at most three parts, the scheme `bearer` in any case, the
 * token the second part. `emptyBecauseOfSpace` reports `Bearer  token` (ignored, with a warning).
 */
export function bearerTokenOf(header: string): { token: string } | { emptyBecauseOfSpace: boolean } | undefined {
  const auth = header.trim();
  if (!auth) return undefined;
  const first = auth.indexOf(' ');
  if (first < 0 || auth.slice(0, first).toLowerCase() !== 'bearer') return undefined;
  const rest = auth.slice(first + 1);
  const second = rest.indexOf(' ');
  const token = second < 0 ? rest : rest.slice(0, second);
  if (!token) return { emptyBecauseOfSpace: second >= 0 };
  return { token };
}

/** Authenticates `Authorization: Bearer <token>`; on success the header is removed from the request. */
export function bearerTokenAuthenticator(opts: BearerTokenOptions): RequestAuthenticator {
  const tokens = unionTokenAuthenticator(opts.authenticators, 'token');
  const audiences = [...(opts.apiAudiences ?? [])];
  return {
    name: 'bearertoken',
    async authenticate(req: AuthenticationRequest): Promise<AuthenticationResult> {
      const parsed = bearerTokenOf(headerValue(req, 'authorization'));
      if (!parsed) return skipped;
      if (!('token' in parsed)) {
        if (parsed.emptyBecauseOfSpace) opts.onWarning?.(req, extraSpaceWarning);
        return skipped;
      }
      const r = await tokens.authenticateToken(parsed.token, audiences);
      if (r.outcome === 'authenticated') {
        // Nobody inside the server is ever tempted to reuse the caller's token.
        deleteHeader(req, 'authorization');
        return r;
      }
      return r.outcome === 'failed' ? r : failed(invalidBearerToken);
    },
  };
}

/** `base64url.bearer.authorization.<domain>.`: upstream's `base64url.bearer.authorization.k8s.io.` in our domain. */
export function websocketBearerProtocolPrefix(domain: ApiDomain): string {
  return `${domain.group('base64url.bearer.authorization')}.`;
}

/** wsstream.IsWebSocketRequest: `Upgrade: websocket` and a Connection header mentioning upgrade. */
function isWebSocketRequest(req: AuthenticationRequest): boolean {
  if (headerValue(req, 'upgrade').toLowerCase() !== 'websocket') return false;
  return headerValues(req, 'connection').some((v) => v.toLowerCase().includes('upgrade'));
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** base64.RawURLEncoding.DecodeString, then the UTF-8 check; undefined on bad encoding, null on bad UTF-8. */
function decodeToken(encoded: string): string | undefined | null {
  const s = encoded.replace(/[\r\n]/g, ''); // Go's decoder skips line breaks
  if (!/^[A-Za-z0-9_-]*$/.test(s) || s.length % 4 === 1) return undefined;
  try {
    return utf8.decode(Buffer.from(s, 'base64url'));
  } catch {
    return null;
  }
}

export interface WebSocketTokenOptions extends BearerTokenOptions {
  /** --api-domain: names the subprotocol. */
  domain: ApiDomain;
}

/**
 * Authenticates a websocket upgrade carrying the token in a subprotocol. Another subprotocol must
 * be offered too (it is the one echoed back); on success the token's protocol is removed from the
 * request's Sec-WebSocket-Protocol.
 */
export function websocketTokenAuthenticator(opts: WebSocketTokenOptions): RequestAuthenticator {
  const tokens = unionTokenAuthenticator(opts.authenticators, 'token');
  const audiences = [...(opts.apiAudiences ?? [])];
  const prefix = websocketBearerProtocolPrefix(opts.domain);
  return {
    name: 'websocket',
    async authenticate(req: AuthenticationRequest): Promise<AuthenticationResult> {
      if (!isWebSocketRequest(req)) return skipped;
      let token = '';
      let sawToken = false;
      const others: string[] = [];
      for (const value of headerValues(req, 'sec-websocket-protocol')) {
        for (const raw of value.split(',')) {
          const protocol = raw.trim();
          if (!protocol.startsWith(prefix)) {
            others.push(protocol);
            continue;
          }
          if (sawToken) return failed('multiple base64.bearer.authorization tokens specified');
          sawToken = true;
          const decoded = decodeToken(protocol.slice(prefix.length));
          if (decoded === undefined) return failed('invalid base64.bearer.authorization token encoding');
          if (decoded === null) return failed('invalid base64.bearer.authorization token');
          token = decoded;
        }
      }
      if (token && others.length === 0) return failed('missing additional subprotocol');
      if (!token) return skipped;
      const r = await tokens.authenticateToken(token, audiences);
      if (r.outcome === 'authenticated') {
        setHeader(req, 'Sec-WebSocket-Protocol', others.join(','));
        return r;
      }
      return r.outcome === 'failed' ? r : failed(invalidBearerToken);
    },
  };
}
