// Legacy service account tokens: the never-expiring tokens the token controller writes into
// Secrets of type service-account-token (spec 5.5.4, 5.5.6; upstream pkg/serviceaccount/legacy.go).
// Issuer `<brand>/serviceaccount`, claims `<keyDomain>/serviceaccount/...`, no audience and no
// expiry. With --service-account-lookup the Secret must still hold exactly this token and the
// account must still exist with the same uid.
import { timingSafeEqual, type KeyObject } from 'node:crypto';
import type { ApiDomain } from '../../../api/domain.js';
import { SecretKeys } from '../../../api/core/v1/secret.js';
import { lookup, type ServiceAccountTokenGetter } from './getter.js';
import { stringClaim, type PublicClaims } from './jwt.js';
import { serviceAccountNames, type ServiceAccountNames } from './names.js';
import { tokenSigner, type TokenSigner } from './signer.js';
import { makeUsername, splitUsername, type ServiceAccountInfo } from './user.js';

export interface LegacyPrivateClaims {
  namespace: string;
  secretName: string;
  serviceAccountName: string;
  serviceAccountUID: string;
}

/** The legacy claims of a verified payload; throws ClaimTypeError on a value of the wrong type. */
export function legacyPrivateClaims(payload: Record<string, unknown>, names: ServiceAccountNames): LegacyPrivateClaims {
  const c = names.legacyClaims;
  return {
    namespace: stringClaim(payload, c.namespace),
    secretName: stringClaim(payload, c.secretName),
    serviceAccountName: stringClaim(payload, c.serviceAccountName),
    serviceAccountUID: stringClaim(payload, c.serviceAccountUID),
  };
}

/** Signs legacy tokens for the token controller (--service-account-private-key-file of the controller manager). */
export class LegacyTokenGenerator {
  private readonly signer: TokenSigner;
  private readonly names: ServiceAccountNames;

  /** Throws when the key cannot sign (not RSA or ECDSA, or an unknown curve). */
  constructor(domain: ApiDomain, privateKey: KeyObject) {
    this.signer = tokenSigner(privateKey);
    this.names = serviceAccountNames(domain);
  }

  /** The token for a service account, to be stored in the named Secret. */
  generate(serviceAccount: { namespace: string; name: string; uid: string }, secretName: string): Promise<string> {
    const c = this.names.legacyClaims;
    return this.signer.sign({
      iss: this.names.legacyIssuer,
      sub: makeUsername(serviceAccount.namespace, serviceAccount.name),
      [c.namespace]: serviceAccount.namespace,
      [c.secretName]: secretName,
      [c.serviceAccountName]: serviceAccount.name,
      [c.serviceAccountUID]: serviceAccount.uid,
    });
  }
}

function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The account a legacy token speaks for, or why it does not (upstream's wording). With `lookup`
 * the Secret and the account are checked; without, the signature and claims suffice.
 */
export async function validateLegacyToken(
  token: string,
  pub: PublicClaims,
  priv: LegacyPrivateClaims,
  names: ServiceAccountNames,
  lookupEnabled: boolean,
  getter: ServiceAccountTokenGetter | undefined,
): Promise<{ info: ServiceAccountInfo } | { error: string }> {
  if (pub.sub === '') return { error: 'sub claim is missing' };
  const { namespace, secretName, serviceAccountName, serviceAccountUID } = priv;
  if (namespace === '') return { error: 'namespace claim is missing' };
  if (secretName === '') return { error: 'secretName claim is missing' };
  if (serviceAccountName === '') return { error: 'serviceAccountName claim is missing' };
  if (serviceAccountUID === '') return { error: 'serviceAccountUID claim is missing' };
  const subject = splitUsername(pub.sub);
  if (!subject || subject.namespace !== namespace || subject.name !== serviceAccountName) return { error: 'sub claim is invalid' };

  if (lookupEnabled) {
    if (!getter) return { error: 'Token could not be validated.' };
    const invalidated = 'Token has been invalidated';
    const secret = await lookup(() => getter.getSecret(namespace, secretName), 'secrets', secretName);
    if (secret instanceof Error) return { error: invalidated };
    if (secret.metadata?.deletionTimestamp) return { error: invalidated };
    const stored = Buffer.from(secret.data?.[SecretKeys.serviceAccountToken] ?? '', 'base64');
    if (!sameBytes(stored, Buffer.from(token))) return { error: "Token does not match server's copy" };

    const account = await lookup(() => getter.getServiceAccount(namespace, serviceAccountName), 'serviceaccounts', serviceAccountName);
    if (account instanceof Error) return { error: account.message };
    if (account.metadata?.deletionTimestamp) return { error: `ServiceAccount ${namespace}/${serviceAccountName} has been deleted` };
    const uid = account.metadata?.uid ?? '';
    if (uid !== serviceAccountUID) return { error: `ServiceAccount UID (${uid}) does not match claim (${serviceAccountUID})` };

    const label = names.legacyTokenInvalidSinceLabel;
    if (secret.metadata?.labels?.[label]) {
      return {
        error:
          `the token in secret ${namespace}/${secretName} for service account ${namespace}/${serviceAccountName} has been marked invalid. ` +
          `Use tokens from the TokenRequest API or manually created secret-based tokens, or remove the '${label}' label from the secret to temporarily allow use of this token`,
      };
    }
  }
  return { info: { namespace, name: serviceAccountName, uid: serviceAccountUID } };
}
