// OpenID Connect discovery: the provider document below the issuer names the key set's URL. As
// go-oidc, the document must claim exactly our issuer, so a misconfigured URL fails loudly at
// start instead of trusting another provider's keys.
import { fetchJSON, type FetchJSONOptions } from './fetch.js';

export const wellKnownPath = '/.well-known/openid-configuration';

/** The discovery document's URL for an issuer (a trailing slash of the issuer is not doubled). */
export function discoveryURL(issuer: string): string {
  return issuer.replace(/\/$/, '') + wellKnownPath;
}

/** Reads the discovery document and returns its `jwks_uri`; throws upstream's wording. */
export async function discoverJWKSURL(issuer: string, opts: FetchJSONOptions): Promise<string> {
  let doc: unknown;
  try {
    doc = await fetchJSON(discoveryURL(issuer), opts);
  } catch (e) {
    throw new Error(`oidc: failed to query provider discovery: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw new Error('oidc: failed to decode provider discovery object: not a JSON object');
  const d = doc as Record<string, unknown>;
  if (d.issuer !== issuer) {
    throw new Error(`oidc: issuer did not match the issuer returned by provider, expected ${JSON.stringify(issuer)} got ${JSON.stringify(d.issuer ?? '')}`);
  }
  if (typeof d.jwks_uri !== 'string' || d.jwks_uri === '') throw new Error('provider did not return JWKS URL');
  let u: URL;
  try {
    u = new URL(d.jwks_uri);
  } catch {
    throw new Error(`provider returned an invalid JWKS URL ${JSON.stringify(d.jwks_uri)}`);
  }
  if (u.protocol !== 'https:') throw new Error(`provider returned a JWKS URL that is not https: ${JSON.stringify(d.jwks_uri)}`);
  return d.jwks_uri;
}
