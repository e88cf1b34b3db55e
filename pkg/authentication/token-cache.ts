// Caching token answers, as upstream's cached token authenticator does (for the webhook with its
// --authentication-token-webhook-cache-ttl, and for the union of all token authenticators with
// tokenSuccessCacheTTL/tokenFailureCacheTTL): keyed by a SHA-256 of a random per-process salt, the
// token and the audiences, so the raw token is never a key and a leaked cache reveals nothing.
// An authenticated answer is kept for the success TTL, a "not mine" (upstream's ok=false without an
// error) for the failure TTL, a failure (upstream's error) never: the next request asks again.
// Concurrent lookups of one key share one call, whatever its answer.
import * as crypto from 'node:crypto';
import type { AuthenticationResult } from './authenticator.js';

export interface TokenCacheOptions {
  /** How long an authenticated answer is kept; 0 keeps none. */
  ttlMs: number;
  /** How long a "not mine" (skipped) answer is kept; default `ttlMs` (the webhook's denials). */
  failureTtlMs?: number;
  /**
   * How hits are handed out: `copy` (the default) gives every caller its own structured clone;
   * `frozen` gives every caller the one answer, frozen, so a caller that tried to change it would
   * throw rather than change what the next request is told (cheaper: nothing is copied per hit).
   */
  share?: 'copy' | 'frozen';
  /** Clock in milliseconds; default Date.now. */
  now?: () => number;
  /** Entries kept at most; the oldest go first. Bounds memory under a flood of distinct tokens. */
  maxEntries?: number;
}

/** Freezes an answer and what it holds (user, groups, extra values, audiences). */
function deepFreeze<T>(v: T): T {
  if (v && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

/**
 * One-shot SHA-256 (node >= 20.12), base64: on every request, and under load a createHmac object
 * per request cost several times the hash itself.
 */
const sha256: (data: Buffer) => string = typeof crypto.hash === 'function'
  ? (data) => crypto.hash('sha256', data, 'base64')
  : (data) => crypto.createHash('sha256').update(data).digest('base64');

export class TokenCache {
  private readonly salt = crypto.randomBytes(32);
  private readonly entries = new Map<string, { expires: number; result: AuthenticationResult }>();
  private readonly inflight = new Map<string, Promise<AuthenticationResult>>();
  private readonly now: () => number;
  private readonly maxEntries: number;
  private readonly successTtlMs: number;
  private readonly failureTtlMs: number;
  private readonly frozen: boolean;

  constructor(opts: TokenCacheOptions) {
    this.now = opts.now ?? Date.now;
    this.maxEntries = opts.maxEntries ?? 32_768;
    this.successTtlMs = Math.max(0, opts.ttlMs);
    this.failureTtlMs = Math.max(0, opts.failureTtlMs ?? opts.ttlMs);
    this.frozen = opts.share === 'frozen';
  }

  /**
   * The cache key: length-prefixed token, audience count, and length-prefixed audiences, so no two
   * inputs collide. Written into one buffer and hashed in one update (this runs on every request).
   */
  key(token: string, audiences: readonly string[]): string {
    const salt = this.salt.length;
    let size = salt + 8 + Buffer.byteLength(token, 'utf8');
    for (const a of audiences) size += 4 + Buffer.byteLength(a, 'utf8');
    const b = Buffer.allocUnsafe(size);
    this.salt.copy(b);
    let at = salt;
    const field = (s: string) => {
      const n = b.write(s, at + 4, 'utf8');
      b.writeUInt32BE(n, at);
      at += 4 + n;
    };
    field(token);
    b.writeUInt32BE(audiences.length, at);
    at += 4;
    for (const a of audiences) field(a);
    return sha256(b);
  }

  /** Number of answers held (expired ones included until they are swept). */
  get size(): number {
    return this.entries.size;
  }

  private ttlOf(result: AuthenticationResult): number {
    return result.outcome === 'authenticated' ? this.successTtlMs : result.outcome === 'skipped' ? this.failureTtlMs : 0;
  }

  /** The cached answer for (token, audiences), or `lookup`'s, shared with concurrent callers. */
  async get(token: string, audiences: readonly string[], lookup: () => Promise<AuthenticationResult>): Promise<AuthenticationResult> {
    if (this.successTtlMs <= 0 && this.failureTtlMs <= 0) return lookup();
    const key = this.key(token, audiences);
    const hit = this.entries.get(key);
    if (hit) {
      if (hit.expires > this.now()) return this.frozen ? hit.result : structuredClone(hit.result);
      this.entries.delete(key);
    }
    let p = this.inflight.get(key);
    if (!p) {
      p = lookup()
        .then((result) => {
          const ttl = this.ttlOf(result);
          if (ttl > 0) this.store(key, result, ttl);
          return result;
        })
        .finally(() => this.inflight.delete(key));
      this.inflight.set(key, p);
    }
    const result = await p;
    return this.frozen ? result : structuredClone(result);
  }

  private store(key: string, result: AuthenticationResult, ttlMs: number): void {
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
    if (this.frozen) deepFreeze(result);
    this.entries.set(key, { expires: now + ttlMs, result });
  }
}
