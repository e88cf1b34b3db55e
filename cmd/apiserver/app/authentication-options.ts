// The authentication flags of the API server, named and defaulted as kube-apiserver's are.
import type { Argv } from 'yargs';
import { parseDuration } from '../../../pkg/util/duration.js';

export interface OIDCOptions {
  issuerURL: string;
  clientID: string;
  usernameClaim: string;
  usernamePrefix: string;
  groupsClaim: string;
  groupsPrefix: string;
  requiredClaims: Record<string, string>;
  caFile: string;
  signingAlgs: string[];
}

export interface RequestHeaderOptions {
  usernameHeaders: string[];
  groupHeaders: string[];
  extraHeadersPrefix: string[];
  clientCAFile: string;
  allowedNames: string[];
}

export interface AuthenticationOptions {
  anonymousAuth: boolean;
  clientCAFile: string;
  tokenAuthFile: string;
  enableBootstrapTokenAuth: boolean;
  serviceAccountKeyFiles: string[];
  serviceAccountIssuers: string[];
  serviceAccountSigningKeyFile: string;
  /** Milliseconds; 0 means no maximum beyond upstream's own. */
  serviceAccountMaxTokenExpirationMs: number;
  serviceAccountExtendTokenExpiration: boolean;
  serviceAccountLookup: boolean;
  serviceAccountJWKSURI: string;
  apiAudiences: string[];
  oidc: OIDCOptions;
  webhookConfigFile: string;
  webhookVersion: string;
  webhookCacheTTLMs: number;
  requestHeader: RequestHeaderOptions;
}

/** Authentication as kube-apiserver defaults it: anonymous requests allowed, nothing else configured. */
export function defaultAuthenticationOptions(): AuthenticationOptions {
  return {
    anonymousAuth: true,
    clientCAFile: '',
    tokenAuthFile: '',
    enableBootstrapTokenAuth: false,
    serviceAccountKeyFiles: [],
    serviceAccountIssuers: [],
    serviceAccountSigningKeyFile: '',
    serviceAccountMaxTokenExpirationMs: 0,
    serviceAccountExtendTokenExpiration: true,
    serviceAccountLookup: true,
    serviceAccountJWKSURI: '',
    apiAudiences: [],
    oidc: { issuerURL: '', clientID: '', usernameClaim: 'sub', usernamePrefix: '', groupsClaim: '', groupsPrefix: '', requiredClaims: {}, caFile: '', signingAlgs: ['RS256'] },
    webhookConfigFile: '',
    webhookVersion: 'v1',
    webhookCacheTTLMs: 120_000,
    requestHeader: { usernameHeaders: [], groupHeaders: [], extraHeadersPrefix: [], clientCAFile: '', allowedNames: [] },
  };
}

const group = 'Authentication:';

/** Declares the flags on a yargs parser. */
export function authenticationFlags<T>(y: Argv<T>) {
  const list = (describe: string) => ({ type: 'string' as const, array: true, default: [] as string[], describe, group });
  const str = (describe: string, def = '') => ({ type: 'string' as const, default: def, describe, group });
  return y
    .option('anonymous-auth', { type: 'boolean', default: true, describe: 'Enables anonymous requests to the secure port of the API server. Requests that are not rejected by another authentication method are treated as anonymous requests. Anonymous requests have a username of system:anonymous, and a group name of system:unauthenticated.', group })
    .option('client-ca-file', str('If set, any request presenting a client certificate signed by one of the authorities in the client-ca-file is authenticated with an identity corresponding to the CommonName of the client certificate, and its Organizations as groups.'))
    .option('token-auth-file', str('If set, the file that will be used to secure the secure port of the API server via token authentication (CSV: token, user name, user uid, then optionally a quoted comma-separated group list).'))
    .option('enable-bootstrap-token-auth', { type: 'boolean', default: false, describe: 'Enable to allow secrets of type \'bootstrap.<domain>/token\' in the \'orch-system\' namespace to be used for TLS bootstrapping authentication.', group })
    .option('service-account-key-file', list('File containing PEM-encoded x509 RSA or ECDSA private or public keys, used to verify ServiceAccount tokens. The specified file can contain multiple keys, and the flag can be specified multiple times with different files. If unspecified, --tls-private-key-file is used. Must be specified when --service-account-signing-key-file is provided.'))
    .option('service-account-issuer', list('Identifier of the service account token issuer. The issuer will assert this identifier in "iss" claim of issued tokens. This value is a string or URI. When this flag is specified multiple times, the first is used to generate tokens and all are used to determine which issuers are accepted.'))
    .option('service-account-signing-key-file', str('Path to the file that contains the current private key of the service account token issuer. The issuer will sign issued ID tokens with this private key.'))
    .option('service-account-max-token-expiration', str('The maximum validity duration of a token created by the service account token issuer. If an otherwise valid TokenRequest with a validity duration larger than this value is requested, a token will be issued with a validity duration of this value.', '0s'))
    .option('service-account-extend-token-expiration', { type: 'boolean', default: true, describe: 'Turns on projected service account expiration extension during token generation, which helps safe transition from legacy token to bound service account token feature.', group })
    .option('service-account-lookup', { type: 'boolean', default: true, describe: 'If true, validate ServiceAccount tokens exist in etcd as part of authentication.', group })
    .option('service-account-jwks-uri', str('Overrides the URI for the JSON Web Key Set in the discovery doc served at /.well-known/openid-configuration.'))
    .option('api-audiences', list('Identifiers of the API. The service account token authenticator will validate that tokens used against the API are bound to at least one of these audiences. If unset, the first --service-account-issuer is used.'))
    .option('oidc-issuer-url', str('The URL of the OpenID issuer, only HTTPS scheme will be accepted. If set, it will be used to verify the OIDC JSON Web Token (JWT).'))
    .option('oidc-client-id', str('The client ID for the OpenID Connect client, must be set if oidc-issuer-url is set.'))
    .option('oidc-username-claim', str('The OpenID claim to use as the user name. Note that claims other than the default (\'sub\') is not guaranteed to be unique and immutable.', 'sub'))
    .option('oidc-username-prefix', str('If provided, all usernames will be prefixed with this value. If not provided, username claims other than \'email\' are prefixed by the issuer URL to avoid clashes. To skip any prefixing, provide the value \'-\'.'))
    .option('oidc-groups-claim', str('If provided, the name of a custom OpenID Connect claim for specifying user groups. The claim value is expected to be a string or array of strings.'))
    .option('oidc-groups-prefix', str('If provided, all groups will be prefixed with this value to prevent conflicts with other authentication strategies.'))
    .option('oidc-required-claim', list('A key=value pair that describes a required claim in the ID Token. If set, the claim is verified to be present in the ID Token with a matching value. Repeat this flag to specify multiple claims.'))
    .option('oidc-ca-file', str('If set, the OpenID server\'s certificate will be verified by one of the authorities in the oidc-ca-file, otherwise the host\'s root CA set will be used.'))
    .option('oidc-signing-algs', { type: 'string', array: true, default: ['RS256'], describe: 'Comma-separated list of allowed JOSE asymmetric signing algorithms. JWTs with a supported \'alg\' header values are: RS256, RS384, RS512, ES256, ES384, ES512, PS256, PS384, PS512.', group })
    .option('authentication-token-webhook-config-file', str('File with webhook configuration for token authentication in kubeconfig format. The API server will query the remote service to determine authentication for bearer tokens.'))
    .option('authentication-token-webhook-version', str('The API version of the authentication.<domain> TokenReview to send to and expect from the webhook.', 'v1'))
    .option('authentication-token-webhook-cache-ttl', str('The duration to cache responses from the webhook token authenticator.', '2m0s'))
    .option('requestheader-username-headers', list('List of request headers to inspect for usernames. X-Remote-User is common.'))
    .option('requestheader-group-headers', list('List of request headers to inspect for groups. X-Remote-Group is suggested.'))
    .option('requestheader-extra-headers-prefix', list('List of request header prefixes to inspect. X-Remote-Extra- is suggested.'))
    .option('requestheader-client-ca-file', str('Root certificate bundle to use to verify client certificates on incoming requests before trusting usernames in headers specified by --requestheader-username-headers.'))
    .option('requestheader-allowed-names', list('List of client certificate common names to allow to provide usernames in headers specified by --requestheader-username-headers. If empty, any client certificate validated by the authorities in --requestheader-client-ca-file is allowed.'));
}

/** A pflag string slice: repeated flags and comma-separated values both add entries. */
function slice(values: unknown): string[] {
  return (Array.isArray(values) ? values : values === undefined ? [] : [values]).flatMap((v) => String(v).split(',')).map((s) => s.trim()).filter(Boolean);
}

/** A pflag string array: each flag one entry, commas kept. */
function array(values: unknown): string[] {
  return (Array.isArray(values) ? values : values === undefined ? [] : [values]).map(String).filter(Boolean);
}

/** The options from parsed flags; throws with the flag's name on a malformed value. */
export function authenticationOptionsFrom(p: Record<string, unknown>): AuthenticationOptions {
  const duration = (flag: string) => {
    try {
      return parseDuration(String(p[flag]));
    } catch (e) {
      throw new Error(`--${flag}: ${(e as Error).message}`);
    }
  };
  const requiredClaims: Record<string, string> = {};
  for (const pair of slice(p['oidc-required-claim'])) {
    const i = pair.indexOf('=');
    if (i <= 0) throw new Error(`--oidc-required-claim: ${JSON.stringify(pair)} must be formatted as key=value`);
    requiredClaims[pair.slice(0, i)] = pair.slice(i + 1);
  }
  return {
    anonymousAuth: p['anonymous-auth'] !== false,
    clientCAFile: String(p['client-ca-file'] ?? ''),
    tokenAuthFile: String(p['token-auth-file'] ?? ''),
    enableBootstrapTokenAuth: p['enable-bootstrap-token-auth'] === true,
    serviceAccountKeyFiles: array(p['service-account-key-file']),
    serviceAccountIssuers: array(p['service-account-issuer']),
    serviceAccountSigningKeyFile: String(p['service-account-signing-key-file'] ?? ''),
    serviceAccountMaxTokenExpirationMs: duration('service-account-max-token-expiration'),
    serviceAccountExtendTokenExpiration: p['service-account-extend-token-expiration'] !== false,
    serviceAccountLookup: p['service-account-lookup'] !== false,
    serviceAccountJWKSURI: String(p['service-account-jwks-uri'] ?? ''),
    apiAudiences: slice(p['api-audiences']),
    oidc: {
      issuerURL: String(p['oidc-issuer-url'] ?? ''),
      clientID: String(p['oidc-client-id'] ?? ''),
      usernameClaim: String(p['oidc-username-claim'] ?? 'sub'),
      usernamePrefix: String(p['oidc-username-prefix'] ?? ''),
      groupsClaim: String(p['oidc-groups-claim'] ?? ''),
      groupsPrefix: String(p['oidc-groups-prefix'] ?? ''),
      requiredClaims,
      caFile: String(p['oidc-ca-file'] ?? ''),
      signingAlgs: slice(p['oidc-signing-algs']),
    },
    webhookConfigFile: String(p['authentication-token-webhook-config-file'] ?? ''),
    webhookVersion: String(p['authentication-token-webhook-version'] ?? 'v1'),
    webhookCacheTTLMs: duration('authentication-token-webhook-cache-ttl'),
    requestHeader: {
      usernameHeaders: slice(p['requestheader-username-headers']),
      groupHeaders: slice(p['requestheader-group-headers']),
      extraHeadersPrefix: slice(p['requestheader-extra-headers-prefix']),
      clientCAFile: String(p['requestheader-client-ca-file'] ?? ''),
      allowedNames: slice(p['requestheader-allowed-names']),
    },
  };
}

/** Mistakes in the authentication flags, worded as kube-apiserver words them. */
export function validateAuthenticationOptions(o: AuthenticationOptions): string[] {
  const errs: string[] = [];
  if (o.oidc.issuerURL || o.oidc.clientID) {
    if (!o.oidc.issuerURL || !o.oidc.clientID) errs.push('oidc-issuer-url and oidc-client-id should be specified together');
    else if (!o.oidc.issuerURL.startsWith('https://')) errs.push(`oidc-issuer-url (${o.oidc.issuerURL}) must use https scheme`);
  }
  for (const alg of o.oidc.signingAlgs) {
    if (!['RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512'].includes(alg)) {
      errs.push(`oidc-signing-algs: unsupported signing alg: ${alg}`);
    }
  }
  if (o.webhookVersion !== 'v1' && o.webhookVersion !== 'v1beta1') {
    errs.push(`authentication-token-webhook-version: unsupported version ${JSON.stringify(o.webhookVersion)}: supported versions are "v1" and "v1beta1"`);
  }
  const rh = o.requestHeader;
  if (rh.usernameHeaders.length > 0 !== (rh.clientCAFile !== '')) {
    errs.push('--requestheader-username-headers and --requestheader-client-ca-file must be given together');
  }
  if (o.serviceAccountSigningKeyFile && o.serviceAccountIssuers.length === 0) errs.push('service-account-issuer is a required flag when service-account-signing-key-file is set');
  if (o.serviceAccountIssuers.length > 0 && !o.serviceAccountSigningKeyFile) errs.push('service-account-signing-key-file is a required flag when service-account-issuer is set');
  if (o.serviceAccountMaxTokenExpirationMs !== 0 && o.serviceAccountMaxTokenExpirationMs < 3_600_000) {
    errs.push(`service-account-max-token-expiration ${o.serviceAccountMaxTokenExpirationMs / 1000}s should be at least 1 hour`);
  }
  return errs;
}
