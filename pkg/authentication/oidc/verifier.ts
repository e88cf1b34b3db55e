// Verifying an ID token the way upstream's go-oidc (v2) IDTokenVerifier does, in its order:
// the cheap claim checks (issuer, audience, expiry, not-before) before the signature, so bad
// tokens never cost a key fetch. go-oidc checks `iat` only for its type, not its value, and gives
// `nbf` one minute of leeway and `exp` none; we do the same.
import type { RemoteKeySet } from './key-set.js';
import { parseCompactJWS } from './jwt.js';

const nbfLeewayMs = 60_000;

/** The JSON type name Go's decoder reports in "cannot unmarshal X into ..." errors. */
export function goJSONType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  return typeof v;
}

function fieldError(name: string, v: unknown, goType: string): Error {
  return new Error(`oidc: failed to unmarshal claims: json: cannot unmarshal ${goJSONType(v)} into Go struct field idToken.${name} of type ${goType}`);
}

/** Go's time.Time formatting of a UTC instant, as upstream's messages print times. */
export function goTime(ms: number): string {
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return '0001-01-01 00:00:00 +0000 UTC';
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const frac = d.getUTCMilliseconds() ? `.${p(d.getUTCMilliseconds(), 3).replace(/0+$/, '')}` : '';
  return `${p(d.getUTCFullYear(), 4)}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}${frac} +0000 UTC`;
}

/** Go's %q of a string slice: `["a" "b"]`. */
export function goQuoteList(list: readonly string[]): string {
  return `[${list.map((s) => JSON.stringify(s)).join(' ')}]`;
}

function numericTime(name: string, v: unknown): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw fieldError(name, v, 'oidc.jsonTime');
  return Math.trunc(v) * 1000;
}

function audience(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  if (typeof v === 'string') return [v];
  if (Array.isArray(v) && v.every((a) => typeof a === 'string')) return v as string[];
  throw fieldError('aud', v, 'oidc.audience');
}

export interface VerifierConfig {
  issuer: string;
  clientID: string;
  signingAlgs: readonly string[];
  now: () => number;
}

/** Verifies the token; returns its claims or throws the reason (never containing the token). */
export async function verifyIDToken(token: string, cfg: VerifierConfig, keys: RemoteKeySet): Promise<Record<string, unknown>> {
  const jws = parseCompactJWS(token);
  const c = jws.claims;
  for (const f of ['iss', 'sub', 'nonce', 'at_hash'] as const) {
    if (c[f] !== undefined && c[f] !== null && typeof c[f] !== 'string') throw fieldError(f, c[f], 'string');
  }
  const aud = audience(c.aud);
  const exp = numericTime('exp', c.exp);
  numericTime('iat', c.iat);
  const nbf = numericTime('nbf', c.nbf);

  const iss = typeof c.iss === 'string' ? c.iss : '';
  if (iss !== cfg.issuer && !(cfg.issuer === 'https://accounts.google.com' && iss === 'accounts.google.com')) {
    throw new Error(`oidc: id token issued by a different provider, expected ${JSON.stringify(cfg.issuer)} got ${JSON.stringify(iss)}`);
  }
  if (!aud.includes(cfg.clientID)) throw new Error(`oidc: expected audience ${JSON.stringify(cfg.clientID)} got ${goQuoteList(aud)}`);

  const now = cfg.now();
  // A token without exp reads as expiring at Go's zero time: always expired.
  if (exp === undefined || exp < now) {
    throw new Error(`oidc: token is expired (Token Expiry: ${exp === undefined ? '0001-01-01 00:00:00 +0000 UTC' : goTime(exp)})`);
  }
  if (nbf !== undefined && now + nbfLeewayMs < nbf) {
    throw new Error(`oidc: current time ${goTime(now)} before the nbf (not before) time: ${goTime(nbf)}`);
  }

  if (!cfg.signingAlgs.includes(jws.alg)) {
    throw new Error(`oidc: id token signed with unsupported algorithm, expected ${goQuoteList(cfg.signingAlgs)} got ${JSON.stringify(jws.alg)}`);
  }
  const payload = await keys.verify(token, jws.alg, jws.kid);
  // The bytes the signature covers are the ones whose claims we checked; anything else is a bug.
  if (Buffer.compare(Buffer.from(payload), Buffer.from(token.split('.')[1]!, 'base64url')) !== 0) {
    throw new Error('oidc: internal error, payload parsed did not match previous payload');
  }
  return c;
}
