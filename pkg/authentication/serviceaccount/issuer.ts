// Issuing bound service account tokens (TokenRequest, `serviceaccounts/<name>/token`; upstream
// pkg/registry/core/serviceaccount/storage/token.go and pkg/serviceaccount/claims.go). The caller
// (the TokenRequest REST handler) has already found the service account and the bound object and
// checked that they match the request; this module applies the expiration rules, builds the
// claims and signs them.
import { randomUUID, type KeyObject } from 'node:crypto';
import type { ApiDomain } from '../../../api/domain.js';
import { newInvalid } from '../../runtime/errors.js';
import { invalid, Path, type FieldError } from '../../runtime/field-errors.js';
import { serviceAccountNames, type ServiceAccountNames } from './names.js';
import { tokenSigner, type TokenSigner } from './signer.js';
import { makeUsername } from './user.js';

/** TokenRequest's default `spec.expirationSeconds` (one hour). */
export const DefaultTokenExpirationSeconds = 3600;
/** The shortest token a TokenRequest may ask for (ten minutes). */
export const MinTokenAgeSeconds = 600;
/** The longest token a TokenRequest may ask for. */
export const MaxTokenAgeSeconds = 2 ** 32;
/** The lifetime admission gives projected tokens; such pod-bound tokens get the extension. */
export const WarnOnlyBoundTokenExpirationSeconds = 3607;
/** How long an extended token lives (one year). */
export const ExpirationExtensionSeconds = 365 * 24 * 60 * 60;

/** The problems of a requested `spec.expirationSeconds`, in upstream's words (ValidateTokenRequest). */
export function tokenRequestErrors(expirationSeconds: number): FieldError[] {
  const path = Path.root('spec').child('expirationSeconds');
  const errs: FieldError[] = [];
  if (expirationSeconds < MinTokenAgeSeconds) errs.push(invalid(path, expirationSeconds, 'may not specify a duration less than 10 minutes'));
  if (expirationSeconds > MaxTokenAgeSeconds) errs.push(invalid(path, expirationSeconds, 'may not specify a duration larger than 2^32 seconds'));
  return errs;
}

export interface TokenIssuerOptions {
  /** The platform domain (--api-domain): names the private claim and the TokenRequest group. */
  domain: ApiDomain;
  /** The first --service-account-issuer: the `iss` of every token issued. */
  issuer: string;
  /** The key of --service-account-signing-key-file (RSA or ECDSA). */
  signingKey: KeyObject;
  /** --api-audiences (default: the --service-account-issuer values): audiences of requests naming none. */
  apiAudiences: readonly string[];
  /** --service-account-max-token-expiration in seconds; longer requests are shortened to it. 0 or absent: no cap. */
  maxExpirationSeconds?: number;
  /** --service-account-extend-token-expiration (default true): see ExpirationExtensionSeconds. */
  extendExpiration?: boolean;
  /** How long extended tokens live; default ExpirationExtensionSeconds (upstream's MaxExtendedExpiration). */
  maxExtendedExpirationSeconds?: number;
  /** Token ids (`jti`); default random UUIDs. */
  newUUID?: () => string;
}

export interface BoundObject {
  kind: 'Secret' | 'Pod';
  name: string;
  uid: string;
  /** For a pod: the node it runs on (uid unknown when the Node object is missing). */
  node?: { name: string; uid?: string };
}

export interface TokenRequestInput {
  namespace: string;
  serviceAccount: { name: string; uid: string };
  /** `spec.audiences`; empty means the API server's own. */
  audiences?: readonly string[];
  /** `spec.expirationSeconds`; default one hour. */
  expirationSeconds?: number;
  /** `spec.boundObjectRef`, resolved: the token dies with this object. */
  boundObject?: BoundObject;
  /** The time of issue, ms since the epoch; default now. */
  now?: number;
}

export interface IssuedToken {
  token: string;
  /** `status.expirationTimestamp`: issue time plus the (capped) requested lifetime, RFC 3339. */
  expirationTimestamp: string;
  /** `spec.audiences` as served: the API server's audiences when the request named none. */
  audiences: string[];
  /** `spec.expirationSeconds` as served: after defaulting and the cap. */
  expirationSeconds: number;
  /** Warning headers for the response (e.g. the lifetime was shortened). */
  warnings: string[];
}

function rfc3339Seconds(seconds: number): string {
  return `${new Date(seconds * 1000).toISOString().slice(0, 19)}Z`;
}

/** Issues bound service account tokens for TokenRequest. */
export class ServiceAccountTokenIssuer {
  private readonly signer: TokenSigner;
  private readonly names: ServiceAccountNames;
  private readonly apiAudiences: Set<string>;

  /** Throws when the signing key cannot sign (not RSA or ECDSA, or an unknown curve). */
  constructor(private readonly options: TokenIssuerOptions) {
    this.signer = tokenSigner(options.signingKey);
    this.names = serviceAccountNames(options.domain);
    this.apiAudiences = new Set(options.apiAudiences);
  }

  /** The key id tokens are signed under. */
  get keyId(): string {
    return this.signer.kid;
  }

  /**
   * A token for the request. Throws a 422 Invalid StatusError (TokenRequest) for a lifetime out
   * of bounds, as upstream does before it looks at anything else.
   */
  async issue(req: TokenRequestInput): Promise<IssuedToken> {
    const o = this.options;
    let expirationSeconds = req.expirationSeconds ?? DefaultTokenExpirationSeconds;
    const errs = tokenRequestErrors(expirationSeconds);
    if (errs.length > 0) throw newInvalid('TokenRequest', o.domain.group('authentication'), '', errs);

    const audiences = req.audiences && req.audiences.length > 0 ? [...req.audiences] : [...o.apiAudiences];
    const warnings: string[] = [];
    const max = o.maxExpirationSeconds ?? 0;
    if (max > 0 && expirationSeconds > max) {
      warnings.push(`requested expiration of ${expirationSeconds} seconds shortened to ${max} seconds`);
      expirationSeconds = max;
    }

    // Projected tokens of pods keep working for a year after they should have been refreshed, so
    // clients that never reload their token are found by the warnafter audit rather than broken.
    let lifetime = expirationSeconds;
    let warnAfter: number | undefined;
    const bound = req.boundObject;
    if (
      (o.extendExpiration ?? true) &&
      bound?.kind === 'Pod' &&
      expirationSeconds === WarnOnlyBoundTokenExpirationSeconds &&
      audiences.every((a) => this.apiAudiences.has(a))
    ) {
      warnAfter = expirationSeconds;
      lifetime = o.maxExtendedExpirationSeconds ?? ExpirationExtensionSeconds;
    }

    const now = Math.floor((req.now ?? Date.now()) / 1000);
    const priv: Record<string, unknown> = {
      namespace: req.namespace,
      serviceaccount: { name: req.serviceAccount.name, uid: req.serviceAccount.uid },
    };
    if (bound?.kind === 'Pod') {
      priv['pod'] = { name: bound.name, uid: bound.uid };
      if (bound.node) priv['node'] = bound.node.uid ? { name: bound.node.name, uid: bound.node.uid } : { name: bound.node.name };
    } else if (bound?.kind === 'Secret') {
      priv['secret'] = { name: bound.name, uid: bound.uid };
    }
    if (warnAfter !== undefined) priv['warnafter'] = now + warnAfter;

    const token = await this.signer.sign({
      iss: o.issuer,
      sub: makeUsername(req.namespace, req.serviceAccount.name),
      aud: audiences,
      exp: now + lifetime,
      iat: now,
      nbf: now,
      jti: (o.newUUID ?? randomUUID)(),
      [this.names.privateClaim]: priv,
    });
    return { token, expirationTimestamp: rfc3339Seconds(now + expirationSeconds), audiences, expirationSeconds, warnings };
  }
}
