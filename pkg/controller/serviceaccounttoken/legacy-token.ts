// Legacy service account tokens as the token controller signs them (upstream's JWTTokenGenerator
// over serviceaccount.LegacyClaims): a compact JWS, header `alg` from the key and `kid` (base64url
// SHA-256 of the public key's DER SPKI, as the API server names its verification keys), claims with
// keys sorted, issuer `<brand>/serviceaccount`, private claims under `<keyDomain>/serviceaccount/`,
// no audience, no expiry. The API server's service-account authenticator accepts exactly these.
import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { CompactSign } from 'jose';
import type { ApiDomain } from '../../../api/domain.js';

export interface LegacyTokenSubject {
  namespace: string;
  serviceAccountName: string;
  serviceAccountUID: string;
  secretName: string;
}

/** The algorithms Go's jose uses by key; P-224 parses but nothing signs with it. */
const curveAlgorithms: Record<string, string | undefined> = { prime256v1: 'ES256', secp384r1: 'ES384', secp521r1: 'ES512' };

/** Signs legacy tokens with one private key. */
export class LegacyTokenGenerator {
  private readonly key: KeyObject;
  private readonly alg: string;
  private readonly kid: string;

  /** Throws, in upstream's words, for a PEM that holds no RSA or ECDSA private key. */
  constructor(private readonly domain: ApiDomain, privateKeyPem: string) {
    try {
      this.key = createPrivateKey(privateKeyPem);
    } catch (e) {
      throw new Error(`error reading private key file: ${(e as Error).message}`);
    }
    const type = this.key.asymmetricKeyType;
    const alg = type === 'rsa' ? 'RS256' : type === 'ec' ? curveAlgorithms[this.key.asymmetricKeyDetails?.namedCurve ?? ''] : undefined;
    if (!alg) throw new Error(type === 'ec' ? 'unknown private key curve, must be 256, 384, or 521' : `unknown private key type ${type ?? ''}, must be an RSA or ECDSA key`);
    this.alg = alg;
    this.kid = createHash('sha256').update(createPublicKey(this.key).export({ type: 'spki', format: 'der' })).digest('base64url');
  }

  /** The claims of a legacy token, keys sorted as go-jose writes them. */
  claims(s: LegacyTokenSubject): Record<string, string> {
    const brand = this.domain.keyDomain.split('.')[0]!;
    const claim = (name: string) => `${this.domain.keyDomain}/serviceaccount/${name}`;
    const c: Record<string, string> = {
      iss: `${brand}/serviceaccount`,
      [claim('namespace')]: s.namespace,
      [claim('secret.name')]: s.secretName,
      [claim('service-account.name')]: s.serviceAccountName,
      [claim('service-account.uid')]: s.serviceAccountUID,
      sub: `system:serviceaccount:${s.namespace}:${s.serviceAccountName}`,
    };
    return Object.fromEntries(Object.entries(c).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  generate(s: LegacyTokenSubject): Promise<string> {
    return new CompactSign(Buffer.from(JSON.stringify(this.claims(s)))).setProtectedHeader({ alg: this.alg, kid: this.kid }).sign(this.key);
  }
}
