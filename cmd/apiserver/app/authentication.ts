// Builds authentication from the flags (spec 5, kube-apiserver's authenticator config): the
// request authenticators in upstream's order (request header, x509, bearer and websocket tokens
// over the token authenticators), anonymous last, the review APIs, the TokenRequest sub-resource
// and the service account issuer's discovery documents. Secrets and service accounts are read
// from in-process caches, never from etcd per request.
import type { ApiDomain } from '../../../api/domain.js';
import { authenticationGroup } from '../../../api/authentication/v1/register.js';
import type { TokenAuthenticator } from '../../../pkg/authentication/authenticator.js';
import { newAuthenticate } from '../../../pkg/authentication/authenticate.js';
import { audienceAgnosticToken } from '../../../pkg/authentication/audiences.js';
import { bearerTokenAuthenticator, websocketTokenAuthenticator } from '../../../pkg/authentication/bearer-token.js';
import { cachedTokenAuthenticator } from '../../../pkg/authentication/cached-token.js';
import { bootstrapTokenAuthenticator, DefaultBootstrapTokenNamespace } from '../../../pkg/authentication/bootstrap/authenticator.js';
import type { BootstrapSecretLike } from '../../../pkg/authentication/bootstrap/secret.js';
import { OIDCAuthenticator } from '../../../pkg/authentication/oidc/authenticator.js';
import { requestHeaderAuthenticator } from '../../../pkg/authentication/request-header.js';
import { selfSubjectReviewHandler, tokenReviewHandler } from '../../../pkg/authentication/reviews.js';
import { serviceAccountTokenAuthenticator } from '../../../pkg/authentication/serviceaccount/authenticator.js';
import { openIDMetadata, JWKSPath, OpenIDConfigPath, DiscoveryCacheControl, JWKSMediaType } from '../../../pkg/authentication/serviceaccount/discovery.js';
import { ServiceAccountTokenIssuer } from '../../../pkg/authentication/serviceaccount/issuer.js';
import { tokenRequestHandler } from '../../../pkg/authentication/serviceaccount/token-request.js';
import { loadPublicKeys, privateKeyFromFile, serviceAccountKeyFiles } from '../../../pkg/authentication/serviceaccount/keys.js';
import { apiAudiences as defaultAPIAudiences, serviceAccountFlagErrors, serviceAccountFlagWarnings } from '../../../pkg/authentication/serviceaccount/options.js';
import { loadTokenFile } from '../../../pkg/authentication/token-file.js';
import { unionTokenAuthenticator } from '../../../pkg/authentication/union.js';
import { WebhookTokenAuthenticator } from '../../../pkg/authentication/webhook/authenticator.js';
import { defaultTokenCacheEntries } from '../../../pkg/authentication/token-cache.js';
import { loadCABundle, tlsClientCAs, x509Authenticator } from '../../../pkg/authentication/x509.js';
import type { RequestAuthenticator } from '../../../pkg/authentication/authenticator.js';
import type { VirtualHandler } from '../../../pkg/endpoints/resource-handlers.js';
import type { Logger } from '../../../pkg/log/logger.js';
import type { AnswerCacheFactory } from '../../../pkg/util/cache/answer-cache.js';
import type { SharedCaches } from './caches.js';
import type { Store } from '../../../pkg/registry/generic/store.js';
import type { RequestAuthentication } from '../../../pkg/server/authentication-filter.js';
import type { StaticDocument } from '../../../pkg/server/server.js';
import type { AuthenticationOptions } from './authentication-options.js';

export interface Authentication {
  authenticate: RequestAuthentication;
  /** CA certificates (PEM) client certificates are asked for against. */
  clientCAs: string[];
  /** The --client-ca-file and --requestheader-client-ca-file bundles as read ('' without the flag), for what publishes them. */
  caFiles: { clientCA: string; requestHeaderCA: string };
  /** Handlers of the review kinds and of serviceaccounts/token. */
  virtual: Map<string, VirtualHandler>;
  /** The service account issuer's discovery documents, when the issuer is a URL. */
  documents: StaticDocument[];
  stop(): Promise<void>;
}

export interface AuthenticationDeps {
  domain: ApiDomain;
  /** Stores by `<group>/<resource>`. */
  stores: ReadonlyMap<string, Store>;
  /** The caches of Secrets, ServiceAccounts and Pods, shared with admission. */
  caches: SharedCaches;
  /** --tls-private-key-file, the service account key fallback. */
  tlsPrivateKeyFile: string;
  /** host:port the server is reached at, for the default JWKS URI. */
  externalAddress: string;
  /**
   * Where the token webhook keeps its answers, and the salt of their keys: with --workers, the cache
   * and salt every thread shares.
   */
  answerCaches: AnswerCacheFactory;
  tokenKeySalt?: Uint8Array;
  logger: Logger;
}

/** Start-up problems with the authentication flags that need the files read (the rest is validateAuthenticationOptions). */
export class AuthenticationConfigError extends Error {}

export async function buildAuthentication(o: AuthenticationOptions, deps: AuthenticationDeps): Promise<Authentication> {
  const { domain, logger } = deps;
  const stoppers: (() => void)[] = [];
  const cacheOf = (resource: string) => deps.caches.synced('', resource);

  // Service accounts: the issuer signs TokenRequests, the authenticator verifies bound and legacy tokens.
  const keyFiles = serviceAccountKeyFiles({ keyFiles: o.serviceAccountKeyFiles, tlsPrivateKeyFile: deps.tlsPrivateKeyFile });
  if (keyFiles.warning) logger.warn(keyFiles.warning);
  const serviceAccountsConfigured = o.serviceAccountIssuers.length > 0 || keyFiles.files.length > 0;
  const apiAudiences = defaultAPIAudiences(o.apiAudiences, o.serviceAccountIssuers);
  const tokens: TokenAuthenticator[] = [];
  const agnostic = (t: TokenAuthenticator) => audienceAgnosticToken(t, apiAudiences);

  if (o.tokenAuthFile) tokens.push(agnostic(loadTokenFile(o.tokenAuthFile, { warn: (m) => logger.warn(m) })));

  const secrets = await cacheOf('secrets');
  if (o.enableBootstrapTokenAuth) {
    if (!secrets) throw new AuthenticationConfigError('--enable-bootstrap-token-auth needs the secrets resource, which --runtime-config turned off');
    tokens.push(agnostic(bootstrapTokenAuthenticator({
      domain, namespace: DefaultBootstrapTokenNamespace, // Stored Secrets passed decoding and validation as Secrets, so the shape holds.
      getSecret: (ns, name) => secrets.get(ns, name) as BootstrapSecretLike | undefined, logger,
    })));
  }

  let issuer: ServiceAccountTokenIssuer | undefined;
  const documents: Authentication['documents'] = [];
  if (serviceAccountsConfigured) {
    const errs = serviceAccountFlagErrors({
      issuers: o.serviceAccountIssuers, keyFiles: keyFiles.files,
      jwksUri: o.serviceAccountJWKSURI, maxExpirationSeconds: o.serviceAccountMaxTokenExpirationMs / 1000,
    });
    if (errs.length > 0) throw new AuthenticationConfigError(errs.join('; '));
    for (const w of serviceAccountFlagWarnings(o.serviceAccountExtendTokenExpiration, o.serviceAccountMaxTokenExpirationMs / 1000)) logger.warn(w);
    const keys = loadPublicKeys(keyFiles.files);
    const serviceAccounts = await cacheOf('serviceaccounts');
    const pods = await cacheOf('pods');
    tokens.push(serviceAccountTokenAuthenticator({
      domain, issuers: o.serviceAccountIssuers, keys, apiAudiences, lookup: o.serviceAccountLookup,
      getter: {
        getServiceAccount: (ns, name) => serviceAccounts?.get(ns, name),
        getSecret: (ns, name) => secrets?.get(ns, name),
        getPod: (ns, name) => pods?.get(ns, name),
      },
    }));
    if (o.serviceAccountSigningKeyFile) {
      issuer = new ServiceAccountTokenIssuer({
        domain, issuer: o.serviceAccountIssuers[0]!, signingKey: privateKeyFromFile(o.serviceAccountSigningKeyFile), apiAudiences,
        maxExpirationSeconds: o.serviceAccountMaxTokenExpirationMs / 1000, extendExpiration: o.serviceAccountExtendTokenExpiration,
      });
    }
    try {
      const meta = openIDMetadata({ issuer: o.serviceAccountIssuers[0]!, ...(o.serviceAccountJWKSURI ? { jwksUri: o.serviceAccountJWKSURI } : {}), externalAddress: deps.externalAddress, keys });
      documents.push(
        { path: OpenIDConfigPath, contentType: 'application/json', cacheControl: DiscoveryCacheControl, body: JSON.stringify(meta.configuration) },
        { path: JWKSPath, contentType: JWKSMediaType, cacheControl: DiscoveryCacheControl, body: JSON.stringify(meta.keySet) },
      );
    } catch (e) {
      logger.info('the service account issuer discovery documents are not served', { reason: (e as Error).message });
    }
  }

  if (o.oidc.issuerURL) {
    const oidc = new OIDCAuthenticator({
      domain, issuerURL: o.oidc.issuerURL, clientID: o.oidc.clientID, usernameClaim: o.oidc.usernameClaim,
      usernamePrefix: o.oidc.usernamePrefix, groupsClaim: o.oidc.groupsClaim, groupsPrefix: o.oidc.groupsPrefix,
      requiredClaims: o.oidc.requiredClaims, signingAlgs: o.oidc.signingAlgs, ...(o.oidc.caFile ? { caFile: o.oidc.caFile } : {}),
    }, logger);
    stoppers.push(() => oidc.close());
    tokens.push(agnostic(oidc));
  }
  if (o.webhookConfigFile) {
    tokens.push(new WebhookTokenAuthenticator({
      domain, configFile: o.webhookConfigFile, version: o.webhookVersion as 'v1' | 'v1beta1', cacheTTLMs: o.webhookCacheTTLMs, apiAudiences,
      answers: deps.answerCaches('token-webhook', defaultTokenCacheEntries), ...(deps.tokenKeySalt ? { keySalt: deps.tokenKeySalt } : {}),
    }));
  }

  // Request authenticators, in upstream's order.
  const request: RequestAuthenticator[] = [];
  const requestHeaderCA = o.requestHeader.clientCAFile ? loadCABundle(o.requestHeader.clientCAFile) : undefined;
  if (requestHeaderCA) {
    request.push(requestHeaderAuthenticator({
      clientCA: requestHeaderCA.certificates, allowedNames: o.requestHeader.allowedNames, usernameHeaders: o.requestHeader.usernameHeaders,
      groupHeaders: o.requestHeader.groupHeaders, extraHeaderPrefixes: o.requestHeader.extraHeadersPrefix,
    }));
  }
  const clientCA = o.clientCAFile ? loadCABundle(o.clientCAFile) : undefined;
  if (clientCA) request.push(x509Authenticator({ clientCA: clientCA.certificates, domain }));
  // The union of the token authenticators behind upstream's token cache (successes kept 10s), shared
  // by bearer tokens, websocket tokens and TokenReview as upstream's one cached union is.
  const tokenUnion = cachedTokenAuthenticator(unionTokenAuthenticator(tokens, 'token'));
  if (tokens.length > 0) {
    request.push(bearerTokenAuthenticator({ authenticators: [tokenUnion], apiAudiences }));
    request.push(websocketTokenAuthenticator({ authenticators: [tokenUnion], apiAudiences, domain }));
  }
  const authenticate = newAuthenticate({
    authenticators: request, anonymous: o.anonymousAuth, apiAudiences,
    requestHeaderNames: { usernameHeaders: o.requestHeader.usernameHeaders, groupHeaders: o.requestHeader.groupHeaders, extraHeaderPrefixes: o.requestHeader.extraHeadersPrefix },
  });
  logger.info('authentication configured', {
    methods: [requestHeaderCA && 'requestheader', clientCA && 'x509', ...tokens.map((t) => t.name), o.anonymousAuth && 'anonymous'].filter(Boolean).join(','),
    apiAudiences: apiAudiences.join(','),
  });

  const virtual = new Map<string, VirtualHandler>();
  const group = authenticationGroup(domain);
  virtual.set(`${group}/tokenreviews`, tokenReviewHandler(tokenUnion, apiAudiences));
  virtual.set(`${group}/selfsubjectreviews`, selfSubjectReviewHandler());
  if (issuer) virtual.set('/serviceaccounts/token', tokenRequestHandler(issuer, deps.stores));

  return {
    authenticate: async (req) => {
      const outcome = await authenticate(req);
      return 'error' in outcome ? { error: outcome.error, credentialPresented: outcome.credentialPresented } : { user: outcome.user };
    },
    clientCAs: tlsClientCAs(clientCA?.certificates, requestHeaderCA?.certificates),
    caFiles: { clientCA: clientCA?.pem ?? '', requestHeaderCA: requestHeaderCA?.pem ?? '' },
    virtual,
    documents,
    stop: async () => {
      for (const stop of stoppers) stop();
    },
  };
}
