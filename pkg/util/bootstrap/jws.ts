// The detached JWS that binds cluster-info's `kubeconfig` to a bootstrap token (spec 2.12): the
// bootstrap signer controller signs with it, and a joining machine verifies what it downloaded
// with the very same code. Unlike upstream (which keys the HMAC with the token secret alone) the
// key is the full token `<token-id>.<token-secret>`, as our specification says; the header names
// the token id as `kid`. Only HS256 is ever accepted.
import { CompactSign, compactVerify, decodeProtectedHeader } from 'jose';

const algorithm = 'HS256';

/** The token a signature is made with: the id (public, the `kid`) and the secret. */
export interface SigningToken {
  tokenId: string;
  tokenSecret: string;
}

const hmacKey = (t: SigningToken) => new TextEncoder().encode(`${t.tokenId}.${t.tokenSecret}`);
const bytes = (payload: Uint8Array | string) => (typeof payload === 'string' ? new TextEncoder().encode(payload) : payload);

/** The detached compact JWS (`header..signature`) of `payload` made with `token`. Deterministic: the same inputs give the same string. */
export async function signDetached(payload: Uint8Array | string, token: SigningToken): Promise<string> {
  const full = await new CompactSign(bytes(payload)).setProtectedHeader({ alg: algorithm, kid: token.tokenId }).sign(hmacKey(token));
  const [header, , signature] = full.split('.');
  return `${header}..${signature}`;
}

export type DetachedVerification = { valid: true } | { valid: false; reason: string };

/**
 * Whether `detached` is a signature of `payload` made with `token`: a detached compact JWS whose
 * protected header says HS256 (anything else, `none` included, is refused) and names the token id
 * as `kid`, and whose HMAC verifies. The reason never contains the token secret.
 */
export async function verifyDetached(detached: string, payload: Uint8Array | string, token: SigningToken): Promise<DetachedVerification> {
  const parts = detached.split('.');
  if (parts.length !== 3) return { valid: false, reason: 'a compact JWS has three parts' };
  const [header, content, signature] = parts as [string, string, string];
  if (content !== '') return { valid: false, reason: 'the JWS is not detached (it carries a payload)' };
  let protectedHeader: ReturnType<typeof decodeProtectedHeader>;
  try {
    protectedHeader = decodeProtectedHeader(detached);
  } catch {
    return { valid: false, reason: 'the JWS header is not base64url-encoded JSON' };
  }
  if (protectedHeader.alg !== algorithm) return { valid: false, reason: `the JWS algorithm is ${JSON.stringify(protectedHeader.alg ?? '')}, not ${algorithm}` };
  if (protectedHeader.kid !== token.tokenId) return { valid: false, reason: `the JWS was made with another token (kid ${JSON.stringify(protectedHeader.kid ?? '')})` };
  const attached = `${header}.${Buffer.from(bytes(payload)).toString('base64url')}.${signature}`;
  try {
    await compactVerify(attached, hmacKey(token), { algorithms: [algorithm] });
  } catch {
    return { valid: false, reason: 'the JWS signature does not verify with this token' };
  }
  return { valid: true };
}
