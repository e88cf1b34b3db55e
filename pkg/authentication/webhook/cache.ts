// Caching token answers, as upstream's cached token authenticator does for the webhook: keyed by
// an HMAC-SHA256 (random per-process key) of the token and the audiences, so the raw token is
// never a key and a leaked cache reveals nothing; successes and denials are kept for the TTL,
// errors are not (the next request asks again); concurrent lookups of one key share one call.
import { createHmac, randomBytes } from 'node:crypto';
import type { AuthenticationResult } from '../authenticator.js';

export interface TokenCacheOptions {
  /** How long an answer is kept; 0 turns caching off. */
  ttlMs: number;
  /** Clock in milliseconds; default Date.now. */
  now?: () => number;
  /** Entries kept at most; the oldest go first. Bounds memory under a flood of distinct tokens. */
  maxEntries?: number;
}

export class TokenCache {
  private readonly salt = randomBytes(32);
  private readonly entries = new Map<string, { expires: number; result: AuthenticationResult }>();
  private readonly inflight = new Map<string, Promise<AuthenticationResult>>();
  private readonly now: () => number;
  private readonly maxEntries: number;

  constructor(private readonly opts: TokenCacheOptions) {
    this.now = opts.now ?? Date.now;
    this.maxEntries = opts.maxEntries ?? 32_768;
  }

  /** The cache key: length-prefixed token, audience count, and length-prefixed audiences, so no two inputs collide. */
  key(token: string, audiences: readonly string[]): string {
    const h = createHmac('sha256', this.salt);
    const len = (n: number) => {
      const b = Buffer.alloc(4);
      b.writeUInt32BE(n);
      h.update(b);
    };
    const field = (s: string) => {
      const b = Buffer.from(s, 'utf8');
      len(b.length);
      h.update(b);
    };
    field(token);
    len(audiences.length);
    for (const a of audiences) field(a);
    return h.digest('base64');
  }

  /** Number of answers held (expired ones included until they are swept). */
  get size(): number {
    return this.entries.size;
  }

  /**
   * The cached answer for (token, audiences), or `lookup`'s, shared with concurrent callers. An
   * answer is cached unless it is a failure (an error upstream would not cache).
   */
  async get(token: string, audiences: readonly string[], lookup: () => Promise<AuthenticationResult>): Promise<AuthenticationResult> {
    if (this.opts.ttlMs <= 0) return lookup();
    const key = this.key(token, audiences);
    const hit = this.entries.get(key);
    if (hit) {
      if (hit.expires > this.now()) return structuredClone(hit.result);
      this.entries.delete(key);
    }
    let p = this.inflight.get(key);
    if (!p) {
      p = lookup()
        .then((result) => {
          if (result.outcome !== 'failed') this.store(key, result);
          return result;
        })
        .finally(() => this.inflight.delete(key));
      this.inflight.set(key, p);
    }
    return structuredClone(await p);
  }

  private store(key: string, result: AuthenticationResult): void {
    const now = this.now();
    if (this.entries.size >= this.maxEntries) {
      for (const [k, e] of this.entries) {
        if (e.expires <= now) this.entries.delete(k);
      }
      // Still full: drop the oldest entries (Map order is insertion order).
      for (const k of this.entries.keys()) {
        if (this.entries.size < this.maxEntries) break;
        this.entries.delete(k);
      }
    }
    this.entries.set(key, { expires: now + this.opts.ttlMs, result });
  }
}
