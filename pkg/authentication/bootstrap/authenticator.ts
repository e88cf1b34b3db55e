// Bootstrap token authentication (spec 5.4; --enable-bootstrap-token-auth; upstream
// plugin/pkg/auth/authenticator/token/bootstrap). A bearer token `<id>.<secret>` names the Secret
// `bootstrap-token-<id>` in the system namespace; when that Secret is a live, unexpired bootstrap
// token marked for authentication and holding the same secret, the request is
// `system:bootstrap:<id>` in system:bootstrappers plus the token's extra groups.
//
// Like upstream, every problem with the token or its Secret answers "not mine" (skipped) and is
// only logged: the bearer layer refuses a token nobody accepts with 401 anyway, and a token that
// merely looks like a bootstrap token may belong to another authenticator. Only a failure to read
// the Secret is an error (failed).
import { timingSafeEqual } from 'node:crypto';
import type { ApiDomain } from '../../../api/domain.js';
import { secretTypes } from '../../../api/core/v1/secret.js';
import { BootstrapTokenKeys, BootstrapUserPrefix } from '../../../api/core/v1/bootstrap-token.js';
import type { Logger } from '../../log/logger.js';
import { authenticated, failed, skipped, type AuthenticationResult, type TokenAuthenticator } from '../authenticator.js';
import { bootstrapTokenExpiry, bootstrapTokenGroups, secretBytes, secretData, type BootstrapSecretLike } from './secret.js';
import { bootstrapTokenSecretName, parseBootstrapToken } from './token.js';

/** Upstream reads bootstrap token Secrets from kube-system; ours is the platform's system namespace. */
export const DefaultBootstrapTokenNamespace = 'orch-system';

export interface BootstrapTokenAuthenticatorOptions {
  /** The platform domain (--api-domain): the Secret type is `bootstrap.<keyDomain>/token`. */
  domain: ApiDomain;
  /** Where bootstrap token Secrets live; default orch-system (upstream kube-system). */
  namespace?: string;
  /**
   * The Secret, from an informer cache; undefined when it does not exist. Throws (or rejects)
   * only when it cannot tell, which fails the authentication.
   */
  getSecret(namespace: string, name: string): BootstrapSecretLike | undefined | Promise<BootstrapSecretLike | undefined>;
  /** The clock, ms since the epoch; default Date.now. */
  now?: () => number;
  /** Where the reasons for refusing a token go (at -v=3, as upstream); default nowhere. */
  logger?: Logger;
}

function sameBytes(a: Buffer, b: Buffer): boolean {
  // Lengths are not secret (the format fixes them); the contents are compared in constant time.
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The bootstrap token authenticator (--enable-bootstrap-token-auth). */
export function bootstrapTokenAuthenticator(options: BootstrapTokenAuthenticatorOptions): TokenAuthenticator {
  const namespace = options.namespace ?? DefaultBootstrapTokenNamespace;
  const secretType = secretTypes(options.domain).bootstrapToken;
  const now = options.now ?? Date.now;
  // Each line names the check that failed, one frame above this arrow.
  const verbose = options.logger?.withCallDepth(1).v(3);
  const log = (msg: string) => verbose?.info(msg);

  return {
    name: 'bootstrap',
    async authenticateToken(token: string): Promise<AuthenticationResult> {
      const parsed = parseBootstrapToken(token);
      if (!parsed) return skipped;
      const name = bootstrapTokenSecretName(parsed.tokenId);

      let secret: BootstrapSecretLike | undefined;
      try {
        secret = await options.getSecret(namespace, name);
      } catch (e) {
        return failed(e instanceof Error ? e.message : String(e));
      }
      if (!secret) {
        log(`No secret of name ${name} to match bootstrap bearer token`);
        return skipped;
      }
      const refuse = (why: string): AuthenticationResult => {
        log(`Bootstrap secret ${namespace}/${name} matching bearer token ${why}`);
        return skipped;
      };

      if (secret.metadata?.deletionTimestamp) return refuse('is deleted and awaiting removal');
      if (secret.type !== secretType || secret.data === undefined) return refuse(`has invalid type, expected ${secretType}.`);
      const stored = secretBytes(secret, BootstrapTokenKeys.tokenSecret) ?? Buffer.alloc(0);
      if (!sameBytes(stored, Buffer.from(parsed.tokenSecret))) return refuse(`has invalid value for key ${BootstrapTokenKeys.tokenSecret}.`);
      if (secretData(secret, BootstrapTokenKeys.tokenId) !== parsed.tokenId) return refuse(`has invalid value for key ${BootstrapTokenKeys.tokenId}.`);
      const expiry = bootstrapTokenExpiry(secret, now());
      if (expiry.expired) {
        log(expiry.reason ?? `Expired bootstrap token in ${namespace}/${name} Secret`);
        return skipped;
      }
      if (secretData(secret, BootstrapTokenKeys.usageAuthentication) !== 'true') {
        return refuse(`not marked ${BootstrapTokenKeys.usageAuthentication}=true.`);
      }
      const groups = bootstrapTokenGroups(secret);
      if ('error' in groups) return refuse(`has invalid value for key ${BootstrapTokenKeys.extraGroups}: ${groups.error}.`);

      return authenticated({ name: `${BootstrapUserPrefix}${parsed.tokenId}`, groups: groups.groups, extra: {} });
    },
  };
}
