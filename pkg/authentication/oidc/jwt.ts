// Reading a compact JWT before it is verified: just enough to tell whose token it is and which
// key and algorithm it claims, with Go's strict base64url (no padding, no stray characters) so we
// refuse exactly the tokens upstream refuses. Nothing read here is trusted until the signature is.
import { decodeBase64url, jsonObject } from '../jwt-encoding.js';


/**
 * The `iss` of a token, unverified, or undefined when the token is not a compact JWT with a JSON
 * payload (upstream then leaves the token to other authenticators). Google's scheme-less legacy
 * issuer is read as its https form, as upstream does.
 */
export function untrustedIssuer(token: string): string | undefined {
  if (token.trim().startsWith('{')) return undefined;
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const payload = decodeBase64url(parts[1]!);
  if (!payload) return undefined;
  let claims: unknown;
  try {
    claims = JSON.parse(payload.toString('utf8'));
  } catch {
    return undefined;
  }
  if (claims === null || typeof claims !== 'object' || Array.isArray(claims)) return undefined;
  const iss = (claims as Record<string, unknown>).iss;
  if (iss === undefined || iss === null) return '';
  if (typeof iss !== 'string') return undefined;
  return iss === 'accounts.google.com' ? 'https://accounts.google.com' : iss;
}

export interface ParsedJWS {
  header: Record<string, unknown>;
  alg: string;
  kid?: string;
  claims: Record<string, unknown>;
}

/** Splits and decodes a compact JWS; throws with go-oidc's "malformed jwt" wording. */
export function parseCompactJWS(token: string): ParsedJWS {
  const parts = token.split('.');
  if (parts.length !== 3) throw new Error('oidc: malformed jwt: compact JWS format must have three parts');
  const headerBytes = decodeBase64url(parts[0]!);
  if (!headerBytes) throw new Error('oidc: malformed jwt: illegal base64 data in protected header');
  const header = jsonObject(headerBytes);
  if (!header) throw new Error('oidc: malformed jwt: protected header is not a JSON object');
  if (!decodeBase64url(parts[2]!)) throw new Error('oidc: malformed jwt: illegal base64 data in signature');
  if (typeof header.alg !== 'string' || header.alg === '') throw new Error('oidc: malformed jwt: missing or invalid algorithm in protected header');
  if (header.kid !== undefined && typeof header.kid !== 'string') throw new Error('oidc: malformed jwt: invalid key id in protected header');
  if (header.crit !== undefined) throw new Error('oidc: malformed jwt: unsupported crit header');
  const payloadBytes = decodeBase64url(parts[1]!);
  if (!payloadBytes) throw new Error('oidc: malformed jwt: oidc: malformed jwt payload: illegal base64 data');
  const claims = jsonObject(payloadBytes);
  if (!claims) throw new Error('oidc: failed to unmarshal claims: payload is not a JSON object');
  return { header, alg: header.alg, ...(typeof header.kid === 'string' && header.kid ? { kid: header.kid } : {}), claims };
}
