// Signs service account tokens (upstream JWTTokenGenerator): compact JWS with header `alg` (as
// the key dictates) and `kid` (the key id), over the claims in the order go-jose writes them
// (sorted keys, at every level).
import type { KeyObject } from 'node:crypto';
import { CompactSign } from 'jose';
import { keyIdFromPublicKey, signingAlgorithm, type SigningAlgorithm } from './keys.js';

export interface TokenSigner {
  readonly alg: SigningAlgorithm;
  readonly kid: string;
  /** The signed token for these claims. */
  sign(claims: Record<string, unknown>): Promise<string>;
}

function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (v !== null && typeof v === 'object') {
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>)
        .filter(([, x]) => x !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, x]) => [k, sorted(x)]),
    );
  }
  return v;
}

/** A signer for an RSA or ECDSA private key; throws, in upstream's words, for any other key. */
export function tokenSigner(privateKey: KeyObject): TokenSigner {
  if (privateKey.type !== 'private') throw new Error('a private key is needed to sign service account tokens');
  let alg: SigningAlgorithm;
  try {
    alg = signingAlgorithm(privateKey);
  } catch (e) {
    const what = privateKey.asymmetricKeyType === 'ec' ? 'ECDSA keypair' : privateKey.asymmetricKeyType === 'rsa' ? 'RSA keypair' : 'private key';
    throw new Error(`could not generate signer for ${what}: ${(e as Error).message}`);
  }
  const kid = keyIdFromPublicKey(privateKey);
  return {
    alg,
    kid,
    sign: (claims) => new CompactSign(Buffer.from(JSON.stringify(sorted(claims)))).setProtectedHeader({ alg, kid }).sign(privateKey),
  };
}
