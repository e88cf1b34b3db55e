// The --oidc-* flags of kube-apiserver as one options object, with upstream's defaults and
// start-up validation. Nothing here reads flags: cmd/apiserver fills OIDCOptions and calls
// resolveOIDCOptions once; a bad configuration stops the server at start, never a request.
import { readFileSync } from 'node:fs';
import type { ApiDomain } from '../../../api/domain.js';

/** The JOSE algorithms upstream allows: asymmetric signatures only (never `none`, never HMAC). */
export const allowedSigningAlgs: readonly string[] = ['ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512', 'RS256', 'RS384', 'RS512'];

export interface OIDCOptions {
  /** --oidc-issuer-url: the issuer, https only; tokens must carry exactly this `iss`. Required. */
  issuerURL: string;
  /** --oidc-client-id: the audience every token must be issued for. Required. */
  clientID: string;
  /** --oidc-username-claim, default `sub`. */
  usernameClaim?: string;
  /**
   * --oidc-username-prefix. Unset (or empty) with a claim other than `email`: `<issuer-url>#`;
   * `-` disables prefixing.
   */
  usernamePrefix?: string;
  /** --oidc-groups-claim: a claim holding a string or an array of strings; none by default. */
  groupsClaim?: string;
  /** --oidc-groups-prefix, none by default. */
  groupsPrefix?: string;
  /** --oidc-required-claim (repeatable `key=value`; see parseRequiredClaims): each claim must equal its value. */
  requiredClaims?: Record<string, string>;
  /** --oidc-ca-file: PEM bundle the provider's serving certificate must chain to; the host's roots otherwise. */
  caFile?: string;
  /** --oidc-signing-algs, default `RS256`. Only asymmetric algorithms are accepted. */
  signingAlgs?: string[];
  /** --api-domain: names the credential-id extra key (`authentication.<keyDomain>/credential-id`). */
  domain: ApiDomain;

  // Tuning, not flags (upstream hard-codes these or leaves them to go-oidc).
  /** Clock in milliseconds, for token times and key refetch limits; default Date.now. */
  now?: () => number;
  /** Delay between attempts to read the discovery document until it succeeds; upstream 10s. */
  initRetryIntervalMs?: number;
  /** How often the key set is fetched again in the background; default 10 minutes. */
  keyRefreshIntervalMs?: number;
  /**
   * A token signed with a key we do not know makes us fetch the key set again, but at most once
   * in this interval, so a flood of tokens with made-up key ids costs one fetch; default 10s.
   */
  minKeyRefetchIntervalMs?: number;
  /** Timeout of each request to the provider; upstream's http.Client uses 30s. */
  requestTimeoutMs?: number;
  /** Largest discovery document or key set accepted; default 1 MiB. */
  maxResponseBytes?: number;
}

export interface ResolvedOIDCOptions {
  issuerURL: string;
  clientID: string;
  usernameClaim: string;
  usernamePrefix: string;
  groupsClaim: string;
  groupsPrefix: string;
  requiredClaims: Array<[string, string]>;
  /** PEM CA bundle, or undefined for the host's roots. */
  ca?: string;
  signingAlgs: string[];
  credentialIDKey: string;
  now: () => number;
  initRetryIntervalMs: number;
  keyRefreshIntervalMs: number;
  minKeyRefetchIntervalMs: number;
  requestTimeoutMs: number;
  maxResponseBytes: number;
}

function validateIssuerURL(issuer: string): void {
  let u: URL;
  try {
    u = new URL(issuer);
  } catch {
    throw new Error(`oidc-issuer-url: Invalid value: ${JSON.stringify(issuer)}: not a valid URL`);
  }
  const bad = (why: string) => new Error(`oidc-issuer-url: Invalid value: ${JSON.stringify(issuer)}: ${why}`);
  if (u.protocol !== 'https:') throw bad('URL scheme must be https');
  if (u.username || u.password) throw bad('URL must not contain a username or password');
  if (u.search || issuer.includes('?')) throw bad('URL must not contain a query');
  if (u.hash || issuer.includes('#')) throw bad('URL must not contain a fragment');
}

/** Applies upstream's defaults and validation; throws (at start-up) on a configuration upstream refuses. */
export function resolveOIDCOptions(opts: OIDCOptions): ResolvedOIDCOptions {
  if (!opts.issuerURL !== !opts.clientID) throw new Error('oidc-issuer-url and oidc-client-id should be specified together');
  if (!opts.issuerURL) throw new Error('oidc-issuer-url is required');
  validateIssuerURL(opts.issuerURL);
  const usernameClaim = opts.usernameClaim ?? 'sub';
  if (!usernameClaim) throw new Error('oidc-username-claim: Required value: claim is required');
  // Legacy flag behaviour: an unset prefix namespaces every claim but `email` under the issuer.
  let usernamePrefix = opts.usernamePrefix ?? '';
  if (usernamePrefix === '' && usernameClaim !== 'email') usernamePrefix = `${opts.issuerURL}#`;
  if (opts.usernamePrefix === '-') usernamePrefix = '';
  const signingAlgs = opts.signingAlgs?.length ? [...opts.signingAlgs] : ['RS256'];
  for (const alg of signingAlgs) {
    if (!allowedSigningAlgs.includes(alg)) throw new Error(`oidc: unsupported signing alg: ${JSON.stringify(alg)}`);
  }
  let ca: string | undefined;
  if (opts.caFile) {
    ca = readFileSync(opts.caFile, 'utf8');
    if (!ca.includes('-----BEGIN CERTIFICATE-----')) throw new Error(`oidc-ca-file ${JSON.stringify(opts.caFile)} holds no PEM certificate`);
  }
  return {
    issuerURL: opts.issuerURL,
    clientID: opts.clientID,
    usernameClaim,
    usernamePrefix,
    groupsClaim: opts.groupsClaim ?? '',
    groupsPrefix: opts.groupsPrefix ?? '',
    requiredClaims: Object.entries(opts.requiredClaims ?? {}),
    ...(ca ? { ca } : {}),
    signingAlgs,
    credentialIDKey: opts.domain.key('credential-id', 'authentication'),
    now: opts.now ?? Date.now,
    initRetryIntervalMs: opts.initRetryIntervalMs ?? 10_000,
    keyRefreshIntervalMs: opts.keyRefreshIntervalMs ?? 10 * 60_000,
    minKeyRefetchIntervalMs: opts.minKeyRefetchIntervalMs ?? 10_000,
    requestTimeoutMs: opts.requestTimeoutMs ?? 30_000,
    maxResponseBytes: opts.maxResponseBytes ?? 1 << 20,
  };
}

/**
 * Parses repeated --oidc-required-claim values as upstream's map flag does: split at the first
 * `=`, trim both sides, a later key replaces an earlier one; a value without `=` is an error.
 */
export function parseRequiredClaims(values: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of values) {
    const i = v.indexOf('=');
    if (i < 0) throw new Error('malformed pair, expect string=string');
    out[v.slice(0, i).trim()] = v.slice(i + 1).trim();
  }
  return out;
}
