// Caching token answers, as upstream's cached token authenticator does (for the webhook with its
// --authentication-token-webhook-cache-ttl, and for the union of all token authenticators with
// tokenSuccessCacheTTL/tokenFailureCacheTTL): keyed by a SHA-256 of a random per-process salt, the
// token and the audiences, so the raw token is never a key and a leaked cache reveals nothing.
// An authenticated answer is kept for the success TTL, a "not mine" (upstream's ok=false without an
// error) for the failure TTL, a failure (upstream's error) never: the next request asks again.
// Concurrent lookups of one key share one call, whatever its answer. The answers live in an answer
// cache, this thread's own or the one every thread of the server shares (with the same salt).
import * as crypto from 'node:crypto';
import { LocalAnswerCache, type AnswerCache } from '../util/cache/answer-cache.js';
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
  /** Entries kept at most; the least recently used go first. Bounds memory under a flood of distinct tokens. */
  maxEntries?: number;
  /** Where answers are kept; default this thread's own. */
  answers?: AnswerCache<AuthenticationResult>;
  /** The salt of the keys; default a random one. Caches that share answers share it. */
  salt?: Uint8Array;
}

/** Entries a token cache keeps by default. */
export const defaultTokenCacheEntries = 32_768;

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
  private readonly salt: Buffer;
  private readonly answers: AnswerCache<AuthenticationResult>;
  private readonly successTtlMs: number;
  private readonly failureTtlMs: number;
  private readonly frozen: boolean;

  constructor(opts: TokenCacheOptions) {
    this.salt = opts.salt ? Buffer.from(opts.salt) : crypto.randomBytes(32);
    this.answers = opts.answers ?? new LocalAnswerCache(opts.maxEntries ?? defaultTokenCacheEntries, opts.now);
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

  private ttlOf(result: AuthenticationResult): number {
    return result.outcome === 'authenticated' ? this.successTtlMs : result.outcome === 'skipped' ? this.failureTtlMs : 0;
  }

  /** The cached answer for (token, audiences), or `lookup`'s, shared with concurrent callers. */
  async get(token: string, audiences: readonly string[], lookup: () => Promise<AuthenticationResult>): Promise<AuthenticationResult> {
    if (this.successTtlMs <= 0 && this.failureTtlMs <= 0) return lookup();
    const result = await this.answers.get(this.key(token, audiences), async () => {
      const value = await lookup();
      return { value, ttlMs: this.ttlOf(value) };
    });
    return this.frozen ? deepFreeze(result) : structuredClone(result);
  }
}
