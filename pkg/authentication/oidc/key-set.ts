// The provider's signing keys (its JWKS), cached in memory. Upstream's go-oidc fetches the set
// again whenever a signature does not verify with the cached keys; we refresh in the background
// and, for a key id we have not seen, fetch at most once per interval, so tokens with made-up key
// ids cannot turn every request into a call to the provider.
import { createPublicKey, type KeyObject } from 'node:crypto';
import { compactVerify } from 'jose';
import { fetchJSON, type FetchJSONOptions } from './fetch.js';

interface Key {
  kid?: string;
  key: KeyObject;
}

/** Public keys of a JWKS document; keys we cannot use for signatures (symmetric, encryption-only, malformed) are left out. */
export function parseJWKS(doc: unknown): Key[] {
  if (doc === null || typeof doc !== 'object' || !Array.isArray((doc as { keys?: unknown }).keys)) {
    throw new Error('oidc: failed to decode keys: not a JSON Web Key Set');
  }
  const out: Key[] = [];
  for (const jwk of (doc as { keys: unknown[] }).keys) {
    if (jwk === null || typeof jwk !== 'object') continue;
    const j = jwk as Record<string, unknown>;
    // Never a shared secret: HMAC "keys" published in a key set would let anyone sign.
    if (j.kty !== 'RSA' && j.kty !== 'EC') continue;
    if (j.use !== undefined && j.use !== 'sig') continue;
    try {
      const pub: Record<string, unknown> = { kty: j.kty };
      for (const f of j.kty === 'RSA' ? ['n', 'e'] : ['crv', 'x', 'y']) pub[f] = j[f];
      const key = createPublicKey({ key: pub as never, format: 'jwk' });
      out.push({ ...(typeof j.kid === 'string' && j.kid ? { kid: j.kid } : {}), key });
    } catch {
      // A malformed key does not take the usable ones down with it.
    }
  }
  return out;
}

export interface RemoteKeySetOptions extends FetchJSONOptions {
  now: () => number;
  minRefetchIntervalMs: number;
}

export class RemoteKeySet {
  private keys: Key[] = [];
  private inflight: Promise<void> | undefined;
  private lastFetchStart = Number.NEGATIVE_INFINITY;
  private fetched = false;

  constructor(
    readonly jwksURL: string,
    private readonly opts: RemoteKeySetOptions,
  ) {}

  /** Whether a key set has been loaded at least once. */
  get loaded(): boolean {
    return this.fetched;
  }

  /** Fetches the set now (joining a fetch already under way); on failure the old keys stay. */
  refresh(): Promise<void> {
    if (this.inflight) return this.inflight;
    this.lastFetchStart = this.opts.now();
    const p = fetchJSON(this.jwksURL, this.opts)
      .then((doc) => {
        this.keys = parseJWKS(doc);
        this.fetched = true;
      })
      .catch((e: unknown) => {
        throw new Error(`oidc: get keys failed ${e instanceof Error ? e.message : String(e)}`);
      })
      .finally(() => {
        this.inflight = undefined;
      });
    this.inflight = p;
    return p;
  }

  /**
   * Verifies a compact JWS whose header names `alg` (already checked against the allowed list)
   * and maybe `kid`; returns the verified payload bytes or throws go-oidc's wording.
   */
  async verify(token: string, alg: string, kid: string | undefined): Promise<Uint8Array> {
    const tryKeys = async (): Promise<Uint8Array | undefined> => {
      for (const k of this.keys) {
        if (kid !== undefined && k.kid !== kid) continue;
        try {
          return (await compactVerify(token, k.key, { algorithms: [alg] })).payload;
        } catch {
          // wrong key for this token, or a bad signature: try the next
        }
      }
      return undefined;
    };
    if (this.inflight && !this.fetched) await this.inflight.catch(() => undefined);
    const first = await tryKeys();
    if (first) return first;
    // A known key id whose signature fails is a bad token, not a rotation: no fetch.
    const unknownKey = kid === undefined || !this.keys.some((k) => k.kid === kid);
    if (!unknownKey) throw new Error('failed to verify signature: failed to verify id token signature');
    if (this.inflight) {
      await this.inflight.catch(() => undefined);
    } else if (this.opts.now() - this.lastFetchStart >= this.opts.minRefetchIntervalMs) {
      try {
        await this.refresh();
      } catch (e) {
        throw new Error(`failed to verify signature: fetching keys ${e instanceof Error ? e.message : String(e)}`);
      }
    } else {
      throw new Error('failed to verify signature: failed to verify id token signature');
    }
    const second = await tryKeys();
    if (second) return second;
    throw new Error('failed to verify signature: failed to verify id token signature');
  }
}
