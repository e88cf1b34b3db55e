// Service account token authentication (spec 5.5; upstream pkg/serviceaccount/jwt.go and the two
// authenticators kube-apiserver builds from it, bound and legacy). A token is ours when its
// unverified `iss` is one of --service-account-issuer (bound tokens) or the legacy issuer; any
// other token, or one that is not a compact JWS signed with an allowed asymmetric algorithm, is
// "not mine". Ours must verify with a configured key (the one its `kid` names, or any when it has
// none), be meant for one of the requested audiences, and pass its kind's validation.
import type { KeyObject } from 'node:crypto';
import { compactVerify, errors as joseErrors } from 'jose';
import type { ApiDomain } from '../../../api/domain.js';
import { authenticated, failed, skipped, type AuthenticationResult, type TokenAuthenticator } from '../authenticator.js';
import { boundPrivateClaims, validateBoundToken } from './bound.js';
import type { ServiceAccountTokenGetter } from './getter.js';
import { ClaimTypeError, parseCompactJws, payloadObject, publicClaims, unverifiedIssuer, type AllowedAlgorithm, type PublicClaims } from './jwt.js';
import type { PublicKey } from './keys.js';
import { legacyPrivateClaims, validateLegacyToken } from './legacy.js';
import { serviceAccountNames } from './names.js';
import { serviceAccountUser } from './user.js';

export interface ServiceAccountTokenAuthenticatorOptions {
  /** The platform domain (--api-domain): names the private claims, the legacy issuer and extra keys. */
  domain: ApiDomain;
  /** --service-account-issuer (repeatable): the issuers of bound tokens accepted. */
  issuers: readonly string[];
  /** --service-account-key-file (repeatable; falls back to --tls-private-key-file): see loadPublicKeys. */
  keys: readonly PublicKey[];
  /**
   * --api-audiences (default: the --service-account-issuer values): the audiences of the API server,
   * assumed for legacy tokens (which name none) and for callers that request none.
   */
  apiAudiences: readonly string[];
  /** --service-account-lookup (default true): legacy tokens must still be in their Secret. Bound tokens are always checked. */
  lookup?: boolean;
  /** Service accounts, Secrets and Pods, from informer caches. */
  getter: ServiceAccountTokenGetter;
  /** The clock, ms since the epoch; default Date.now. */
  now?: () => number;
}

const ecCurveOf: Partial<Record<AllowedAlgorithm, string>> = { ES256: 'prime256v1', ES384: 'secp384r1', ES512: 'secp521r1' };

/** Why this key cannot have made a signature with this algorithm, or undefined when it can. */
function keyMismatch(key: KeyObject, alg: AllowedAlgorithm): string | undefined {
  const curve = ecCurveOf[alg];
  if (curve === undefined) return key.asymmetricKeyType === 'rsa' ? undefined : 'unknown/unsupported algorithm';
  if (key.asymmetricKeyType !== 'ec') return 'unknown/unsupported algorithm';
  return key.asymmetricKeyDetails?.namedCurve === curve ? undefined : 'error in cryptographic primitive';
}

async function verify(token: string, key: KeyObject, alg: AllowedAlgorithm): Promise<Uint8Array | Error> {
  const mismatch = keyMismatch(key, alg);
  if (mismatch) return new Error(mismatch);
  try {
    return (await compactVerify(token, key, { algorithms: [alg] })).payload;
  } catch (e) {
    if (e instanceof joseErrors.JWSSignatureVerificationFailed) return new Error('error in cryptographic primitive');
    return e instanceof Error ? e : new Error(String(e));
  }
}

/** Several errors as upstream's aggregate prints them: one message alone, else `[a, b]`, duplicates dropped. */
function aggregate(errs: Error[]): string {
  const unique = [...new Set(errs.map((e) => e.message))];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}

/** A string list as Go's %q prints it: `["a" "b"]`. */
function quotedList(list: readonly string[]): string {
  return `[${list.map((s) => JSON.stringify(s)).join(' ')}]`;
}

/** The service account token authenticator: bound tokens of the configured issuers and legacy Secret tokens. */
export function serviceAccountTokenAuthenticator(options: ServiceAccountTokenAuthenticatorOptions): TokenAuthenticator {
  const names = serviceAccountNames(options.domain);
  const issuers = new Set(options.issuers);
  const implicitAudiences = [...options.apiAudiences];
  const now = options.now ?? Date.now;
  const lookupLegacy = options.lookup ?? true;

  return {
    name: 'serviceaccount',
    async authenticateToken(token: string, audiences: readonly string[]): Promise<AuthenticationResult> {
      const iss = unverifiedIssuer(token);
      if (iss === undefined) return skipped;
      const kind = issuers.has(iss) ? 'bound' : iss === names.legacyIssuer ? 'legacy' : undefined;
      if (!kind) return skipped;
      const jws = parseCompactJws(token);
      if (!jws) return skipped;

      const candidates = jws.kid === '' ? options.keys : options.keys.filter((k) => k.keyId === jws.kid);
      if (candidates.length === 0) return failed('invalid signature, no keys found');

      const errs: Error[] = [];
      let verified: { pub: PublicClaims; payload: Record<string, unknown> } | undefined;
      for (const { key } of candidates) {
        const payload = await verify(token, key, jws.alg);
        if (payload instanceof Error) {
          errs.push(payload);
          continue;
        }
        try {
          const obj = payloadObject(payload);
          verified = { pub: publicClaims(obj), payload: obj };
          // The kind's own claims are read now too, as go-jose decodes all claims at once.
          if (kind === 'bound') boundPrivateClaims(obj, names);
          else legacyPrivateClaims(obj, names);
          break;
        } catch (e) {
          verified = undefined;
          errs.push(e instanceof ClaimTypeError ? e : new Error(String(e)));
        }
      }
      if (!verified) return failed(aggregate(errs));
      const { pub, payload } = verified;

      const expectedIssuer = kind === 'bound' ? issuers.has(pub.iss) : pub.iss === names.legacyIssuer;
      if (!expectedIssuer) return failed(`token issuer ${JSON.stringify(pub.iss)} is invalid`);

      // Legacy tokens name no audience: they are the API server's.
      const tokenAudiences = pub.aud.length > 0 ? pub.aud : implicitAudiences;
      const requested = audiences.length > 0 ? [...audiences] : implicitAudiences;
      const granted = requested.filter((a) => tokenAudiences.includes(a));
      if (granted.length === 0 && implicitAudiences.length > 0) {
        return failed(`token audiences ${quotedList(tokenAudiences)} is invalid for the target audiences ${quotedList(requested)}`);
      }

      const result =
        kind === 'bound'
          ? await validateBoundToken(pub, boundPrivateClaims(payload, names), options.getter, now())
          : await validateLegacyToken(token, pub, legacyPrivateClaims(payload, names), names, lookupLegacy, options.getter);
      if ('error' in result) return failed(result.error);
      return authenticated(serviceAccountUser(result.info, names), granted);
    },
  };
}
