// The OpenID Connect discovery documents of the service account token issuer (upstream
// pkg/serviceaccount/openidmetadata.go, pkg/routes/openidmetadata.go), so that relying parties
// outside the cluster can verify service account tokens: the provider configuration at
// /.well-known/openid-configuration and the key set at /openid/v1/jwks. Upstream serves them only
// when the issuer is an https URL without query or fragment; openIDMetadata throws otherwise, and
// main then logs the reason and leaves the two paths unserved.
import type { PublicKey } from './keys.js';
import { signingAlgorithm } from './keys.js';

export const OpenIDConfigPath = '/.well-known/openid-configuration';
export const JWKSPath = '/openid/v1/jwks';
/** Both documents are served with this Cache-Control (keys change only with a restart). */
export const DiscoveryCacheControl = 'public, max-age=3600';
/** The configuration is application/json; the key set this (RFC 7517). */
export const JWKSMediaType = 'application/jwk-set+json';

export interface JSONWebKey {
  use: 'sig';
  kty: 'RSA' | 'EC';
  kid: string;
  crv?: string;
  alg: string;
  n?: string;
  e?: string;
  x?: string;
  y?: string;
}

export interface OpenIDConfiguration {
  issuer: string;
  jwks_uri: string;
  response_types_supported: string[];
  subject_types_supported: string[];
  id_token_signing_alg_values_supported: string[];
}

export interface OpenIDMetadataOptions {
  /** The first --service-account-issuer. */
  issuer: string;
  /** --service-account-jwks-uri; default https://<externalAddress>/openid/v1/jwks. */
  jwksUri?: string;
  /** The server's external host[:port] (--external-hostname, else the advertised address and port). */
  externalAddress?: string;
  /** The verification keys (--service-account-key-file). */
  keys: readonly PublicKey[];
}

export interface OpenIDMetadata {
  configuration: OpenIDConfiguration;
  keySet: { keys: JSONWebKey[] };
}

/** The public JWK of a verification key, as upstream publishes it (use, kty, kid, crv, alg, then the key). */
export function jwkFromPublicKey(pk: PublicKey): JSONWebKey {
  const alg = signingAlgorithm(pk.key);
  const jwk = pk.key.export({ format: 'jwk' });
  if (pk.key.asymmetricKeyType === 'rsa') return { use: 'sig', kty: 'RSA', kid: pk.keyId, alg, n: jwk.n!, e: jwk.e! };
  return { use: 'sig', kty: 'EC', kid: pk.keyId, crv: jwk.crv!, alg, x: jwk.x!, y: jwk.y! };
}

function parseURL(s: string): URL | undefined {
  try {
    return new URL(s);
  } catch {
    return undefined;
  }
}

/** The two documents for these options; throws with upstream's reason when they cannot be served. */
export function openIDMetadata(o: OpenIDMetadataOptions): OpenIDMetadata {
  if (o.issuer === '') throw new Error('empty issuer URL');
  if (!o.jwksUri && !o.externalAddress) throw new Error('either the JWKS URI or the default external address, or both, must be set');
  const iss = parseURL(o.issuer);
  if (!iss || iss.protocol !== 'https:') throw new Error(`issuer URL must use https scheme, got: ${o.issuer}`);
  if (iss.search !== '') throw new Error(`issuer URL may not include a query, got: ${o.issuer}`);
  if (iss.hash !== '') throw new Error(`issuer URL may not include a fragment, got: ${o.issuer}`);

  let jwksUri = o.jwksUri ?? '';
  if (jwksUri === '') {
    jwksUri = `https://${o.externalAddress}${JWKSPath}`;
    const parsed = parseURL(jwksUri);
    if (!parsed || parsed.host !== o.externalAddress?.toLowerCase() || parsed.pathname !== JWKSPath) {
      throw new Error(`attempted to build jwks_uri from external address ${o.externalAddress}, but could not construct a valid URL`);
    }
  } else {
    const parsed = parseURL(jwksUri);
    if (!parsed) throw new Error(`jwksURI is not a valid URL: ${jwksUri}`);
    if (parsed.protocol !== 'https:') throw new Error(`jwksURI requires https scheme, parsed as: ${jwksUri}`);
  }

  if (o.keys.length === 0) throw new Error('no keys provided for validating keyset');
  const problems: string[] = [];
  const keys: JSONWebKey[] = [];
  o.keys.forEach((k, i) => {
    try {
      keys.push(jwkFromPublicKey(k));
    } catch (e) {
      problems.push(`error constructing JWK for key #${i}: ${(e as Error).message}`);
    }
  });
  if (problems.length > 0) throw new Error(problems.length === 1 ? problems[0] : `[${problems.join(', ')}]`);

  return {
    configuration: {
      issuer: o.issuer,
      jwks_uri: jwksUri,
      // Only ID tokens are produced, all with public subjects.
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: [...new Set(keys.map((k) => k.alg))].sort(),
    },
    keySet: { keys },
  };
}
