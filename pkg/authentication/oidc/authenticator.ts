// The OpenID Connect token authenticator (spec 5.6, kube-apiserver's --oidc-* flags). It trusts
// one issuer: tokens that are not JWTs or name another issuer are left to other authenticators;
// tokens of our issuer are verified against the keys its discovery document points at and
// mapped to a user, or refused (401) with upstream's reason.
//
// Start-up never waits for the provider: discovery runs in the background, retried every
// initRetryIntervalMs, and until it succeeds our issuer's tokens fail with upstream's
// "oidc: authenticator not initialized". The key set is refreshed in the background and, for an
// unknown key id, at most once per minKeyRefetchIntervalMs.
//
// The audiences argument is not read: OIDC tokens are for the API server itself. Upstream wraps
// this authenticator so it only answers for the API server's audiences; see audiences.ts.
import { authenticated, failed, skipped, type AuthenticationResult, type TokenAuthenticator } from '../authenticator.js';
import { userFromClaims } from './claims.js';
import { discoverJWKSURL } from './discovery.js';
import { untrustedIssuer } from './jwt.js';
import { RemoteKeySet } from './key-set.js';
import { resolveOIDCOptions, type OIDCOptions, type ResolvedOIDCOptions } from './options.js';
import { verifyIDToken } from './verifier.js';

/** Where background failures (provider unreachable, bad key set) are reported; never sees a token. */
export interface OIDCLogger {
  error(msg: string, kv?: Record<string, unknown>): void;
}

export class OIDCAuthenticator implements TokenAuthenticator {
  readonly name = 'oidc';
  private readonly o: ResolvedOIDCOptions;
  private keySet: RemoteKeySet | undefined;
  private lastError: string;
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  /** Validates the options (throws on a configuration upstream refuses) and starts discovery. */
  constructor(
    opts: OIDCOptions,
    private readonly log?: OIDCLogger,
  ) {
    this.o = resolveOIDCOptions(opts);
    this.lastError = `oidc: authenticator for issuer ${JSON.stringify(this.o.issuerURL)} is not initialized`;
    void this.init();
  }

  private fetchOpts() {
    return { ...(this.o.ca ? { ca: this.o.ca } : {}), timeoutMs: this.o.requestTimeoutMs, maxBytes: this.o.maxResponseBytes };
  }

  private after(ms: number, fn: () => void): void {
    if (this.closed) return;
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    t.unref();
    this.timers.add(t);
  }

  private async init(): Promise<void> {
    if (this.closed) return;
    try {
      const jwksURL = await discoverJWKSURL(this.o.issuerURL, this.fetchOpts());
      if (this.closed) return;
      const keys = new RemoteKeySet(jwksURL, { ...this.fetchOpts(), now: this.o.now, minRefetchIntervalMs: this.o.minKeyRefetchIntervalMs });
      this.keySet = keys;
      this.lastError = '';
      this.refreshKeys(keys);
    } catch (e) {
      this.lastError = e instanceof Error ? e.message : String(e);
      this.log?.error('oidc authenticator: initializing plugin', { issuer: this.o.issuerURL, err: this.lastError });
      this.after(this.o.initRetryIntervalMs, () => void this.init());
    }
  }

  private refreshKeys(keys: RemoteKeySet): void {
    keys
      .refresh()
      .then(() => {
        this.lastError = '';
      })
      .catch((e: unknown) => {
        this.lastError = e instanceof Error ? e.message : String(e);
        this.log?.error('oidc authenticator: refreshing keys', { issuer: this.o.issuerURL, err: this.lastError });
      })
      .finally(() => this.after(this.o.keyRefreshIntervalMs, () => this.refreshKeys(keys)));
  }

  /** Undefined once discovery succeeded and the last key fetch worked; else why not (upstream's HealthCheck). */
  healthCheck(): string | undefined {
    if (!this.keySet || !this.keySet.loaded || this.lastError) {
      return `oidc: authenticator for issuer ${JSON.stringify(this.o.issuerURL)} is not healthy: ${this.lastError || 'keys not loaded yet'}`;
    }
    return undefined;
  }

  async authenticateToken(token: string, _audiences?: readonly string[]): Promise<AuthenticationResult> {
    // Another issuer's token (or no JWT at all) is not ours to judge: other authenticators may accept it.
    if (untrustedIssuer(token) !== this.o.issuerURL) return skipped;
    const keys = this.keySet;
    if (!keys) return failed('oidc: authenticator not initialized');
    let claims: Record<string, unknown>;
    try {
      claims = await verifyIDToken(token, { issuer: this.o.issuerURL, clientID: this.o.clientID, signingAlgs: this.o.signingAlgs, now: this.o.now }, keys);
    } catch (e) {
      return failed(`oidc: verify token: ${e instanceof Error ? e.message : String(e)}`);
    }
    try {
      return authenticated(userFromClaims(claims, this.o));
    } catch (e) {
      return failed(e instanceof Error ? e.message : String(e));
    }
  }

  /** Stops background discovery and key refreshes. */
  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
