// The bootstrap token as presented (`<token-id>.<token-secret>`) and the Secret name it maps to
// (upstream k8s.io/cluster-bootstrap util/tokens and util/secrets).
import { BootstrapTokenPattern, BootstrapTokenSecretPrefix } from '../../../api/core/v1/bootstrap-token.js';

export interface BootstrapToken {
  /** The public part, 6 characters of [a-z0-9]; it names the Secret. */
  tokenId: string;
  /** The private part, 16 characters of [a-z0-9]. */
  tokenSecret: string;
}

/** The two parts of a bootstrap token, or undefined when `token` is not of that form. */
export function parseBootstrapToken(token: string): BootstrapToken | undefined {
  const m = BootstrapTokenPattern.exec(token);
  return m ? { tokenId: m[1]!, tokenSecret: m[2]! } : undefined;
}

/** `bootstrap-token-<id>`: the Secret holding the token with this id. */
export function bootstrapTokenSecretName(tokenId: string): string {
  return `${BootstrapTokenSecretPrefix}${tokenId}`;
}

const secretName = new RegExp(`^${BootstrapTokenSecretPrefix}([a-z0-9]{6})$`);

/** The token id a Secret name stands for, or undefined when the name is not `bootstrap-token-<id>`. */
export function tokenIdFromSecretName(name: string): string | undefined {
  return secretName.exec(name)?.[1];
}
