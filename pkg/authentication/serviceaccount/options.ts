// Checks of the service account flags as kube-apiserver makes them at start-up (upstream
// BuiltInAuthenticationOptions.Validate and completeServiceAccountOptions), for cmd/apiserver to
// report before serving:
//   --service-account-issuer (repeatable; required): the first signs, all are accepted
//   --service-account-key-file (repeatable; falls back to --tls-private-key-file, see serviceAccountKeyFiles)
//   --service-account-signing-key-file (no default): the TokenRequest signing key
//   --service-account-jwks-uri (default https://<external address>/openid/v1/jwks)
//   --service-account-max-token-expiration (default 0: no cap)
//   --service-account-extend-token-expiration (default true)
//   --service-account-lookup (default true)
//   --api-audiences (default the issuers)
import { ExpirationExtensionSeconds, WarnOnlyBoundTokenExpirationSeconds } from './issuer.js';

export interface ServiceAccountFlags {
  issuers: readonly string[];
  /** After the --tls-private-key-file fallback. */
  keyFiles: readonly string[];
  jwksUri?: string;
  maxExpirationSeconds?: number;
}

/** Every problem with the flags, in upstream's words; empty when they are fine. */
export function serviceAccountFlagErrors(f: ServiceAccountFlags): string[] {
  const errs: string[] = [];
  const seen = new Set<string>();
  for (const issuer of f.issuers) {
    if (issuer.includes(':') && !URL.canParse(issuer)) {
      errs.push(`service-account-issuer ${JSON.stringify(issuer)} contained a ':' but was not a valid URL`);
      continue;
    }
    if (issuer === '') {
      errs.push('service-account-issuer should not be an empty string');
      continue;
    }
    if (seen.has(issuer)) {
      errs.push(`service-account-issuer ${JSON.stringify(issuer)} is already specified`);
      continue;
    }
    seen.add(issuer);
  }
  if (f.issuers.length === 0) errs.push('service-account-issuer is a required flag');
  if (f.keyFiles.length === 0) errs.push('service-account-key-file is a required flag');
  if (f.jwksUri) {
    if (!URL.canParse(f.jwksUri)) errs.push('service-account-jwks-uri must be a valid URL');
    else if (new URL(f.jwksUri).protocol !== 'https:') errs.push(`service-account-jwks-uri requires https scheme, parsed as: ${f.jwksUri}`);
  }
  const max = f.maxExpirationSeconds ?? 0;
  if (max !== 0 && (max < 3600 || max > 2 ** 32)) errs.push('the service-account-max-token-expiration must be between 1 hour and 2^32 seconds');
  return errs;
}

/** The start-up warnings when the expiration extension and the cap work against each other. */
export function serviceAccountFlagWarnings(extendExpiration: boolean, maxExpirationSeconds: number): string[] {
  if (!extendExpiration || maxExpirationSeconds === 0) return [];
  const out: string[] = [];
  if (maxExpirationSeconds < WarnOnlyBoundTokenExpirationSeconds) {
    out.push(
      `service-account-extend-token-expiration is true, in order to correctly trigger safe transition logic, service-account-max-token-expiration must be set longer than ${WarnOnlyBoundTokenExpirationSeconds} seconds (currently ${maxExpirationSeconds}s)`,
    );
  }
  if (maxExpirationSeconds < ExpirationExtensionSeconds) {
    out.push(
      `service-account-extend-token-expiration is true, enabling tokens valid up to ${ExpirationExtensionSeconds} seconds, which is longer than service-account-max-token-expiration set to ${maxExpirationSeconds}s`,
    );
  }
  return out;
}

/** --api-audiences, defaulting to the issuers as upstream does. */
export function apiAudiences(flag: readonly string[], issuers: readonly string[]): string[] {
  return flag.length > 0 ? [...flag] : [...issuers];
}
