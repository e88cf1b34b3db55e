// The JWT handling upstream's service account authenticator does before and after the signature
// check (go-jose): reading the unverified issuer to decide whether a token is ours, the compact
// serialization and its algorithm, the registered claims with their JSON types, and the time
// checks with go-jose's one-minute leeway.
import { decodeBase64url, jsonObject } from '../jwt-encoding.js';

/** go-jose's DefaultLeeway: exp, nbf and iat are judged one minute generously. */
export const DefaultLeewaySeconds = 60;

/** The asymmetric algorithms a service account token may be signed with; never `none` or HS*. */
export const AllowedAlgorithms = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512'] as const;
export type AllowedAlgorithm = (typeof AllowedAlgorithms)[number];


/**
 * The `iss` of a compact JWS before any verification, or undefined when the token is not one
 * (upstream's hasCorrectIssuer reads it to tell its tokens from others'). Never trust it further.
 */
export function unverifiedIssuer(token: string): string | undefined {
  if (token.trim().startsWith('{')) return undefined;
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const payload = decodeBase64url(parts[1]!);
  const claims = payload && jsonObject(payload);
  const iss = claims?.['iss'];
  return typeof iss === 'string' ? iss : undefined;
}

export interface ParsedJws {
  alg: AllowedAlgorithm;
  /** The header's `kid`, '' when absent. */
  kid: string;
}

/**
 * The header of a compact JWS signed with an allowed algorithm, or undefined when the token does
 * not parse or names another algorithm (go-jose's ParseSigned with the allowed list).
 */
export function parseCompactJws(token: string): ParsedJws | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [h, p, s] = parts as [string, string, string];
  const header = decodeBase64url(h);
  if (!header || !decodeBase64url(p) || !decodeBase64url(s)) return undefined;
  const obj = jsonObject(header);
  const alg = obj?.['alg'];
  if (typeof alg !== 'string' || !(AllowedAlgorithms as readonly string[]).includes(alg)) return undefined;
  const kid = obj?.['kid'];
  if (kid !== undefined && kid !== null && typeof kid !== 'string') return undefined;
  return { alg: alg as AllowedAlgorithm, kid: typeof kid === 'string' ? kid : '' };
}

/** The registered claims (go-jose jwt.Claims). */
export interface PublicClaims {
  iss: string;
  sub: string;
  aud: string[];
  jti: string;
  /** Seconds since the epoch. */
  exp?: number;
  nbf?: number;
  iat?: number;
}

/** A claim of the wrong JSON type: the token cannot be read (go-jose's unmarshal error). */
export class ClaimTypeError extends Error {}

/** A string claim; '' when absent or null. */
export function stringClaim(obj: Record<string, unknown>, name: string): string {
  const v = obj[name];
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw new ClaimTypeError(`json: cannot unmarshal ${jsonType(v)} into claim ${JSON.stringify(name)} of type string`);
  return v;
}

/** A NumericDate claim in whole seconds (fractions dropped, as go-jose does); undefined when absent or null. */
export function dateClaim(obj: Record<string, unknown>, name: string): number | undefined {
  const v = obj[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new ClaimTypeError('expected number value to unmarshal NumericDate');
  return Math.trunc(v);
}

/** An object claim; undefined when absent or null. */
export function objectClaim(obj: Record<string, unknown>, name: string): Record<string, unknown> | undefined {
  const v = obj[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) throw new ClaimTypeError(`json: cannot unmarshal ${jsonType(v)} into claim ${JSON.stringify(name)} of type object`);
  return v as Record<string, unknown>;
}

function jsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  return typeof v === 'object' ? 'object' : typeof v;
}

/** The verified payload as a JSON object; throws ClaimTypeError when it is not one. */
export function payloadObject(payload: Uint8Array): Record<string, unknown> {
  const obj = jsonObject(Buffer.from(payload));
  if (!obj) throw new ClaimTypeError('json: cannot unmarshal the token payload into an object');
  return obj;
}

/** The registered claims of a verified payload; throws ClaimTypeError on a claim of the wrong type. */
export function publicClaims(obj: Record<string, unknown>): PublicClaims {
  const aud = obj['aud'];
  let audiences: string[];
  if (aud === undefined || aud === null) audiences = [];
  else if (typeof aud === 'string') audiences = [aud];
  else if (Array.isArray(aud) && aud.every((a) => typeof a === 'string')) audiences = aud as string[];
  else throw new ClaimTypeError('expected string or array value to unmarshal to Audience');
  const claims: PublicClaims = { iss: stringClaim(obj, 'iss'), sub: stringClaim(obj, 'sub'), aud: audiences, jti: stringClaim(obj, 'jti') };
  const exp = dateClaim(obj, 'exp');
  const nbf = dateClaim(obj, 'nbf');
  const iat = dateClaim(obj, 'iat');
  if (exp !== undefined) claims.exp = exp;
  if (nbf !== undefined) claims.nbf = nbf;
  if (iat !== undefined) claims.iat = iat;
  return claims;
}

export type TimeProblem = 'expired' | 'not-yet-valid' | 'issued-in-the-future';

/** What is wrong with the token's times at `nowSeconds`, judged with the leeway in go-jose's order. */
export function timeProblem(c: PublicClaims, nowSeconds: number, leewaySeconds = DefaultLeewaySeconds): TimeProblem | undefined {
  if (c.nbf !== undefined && nowSeconds + leewaySeconds < c.nbf) return 'not-yet-valid';
  if (c.exp !== undefined && nowSeconds - leewaySeconds > c.exp) return 'expired';
  if (c.iat !== undefined && nowSeconds + leewaySeconds < c.iat) return 'issued-in-the-future';
  return undefined;
}
