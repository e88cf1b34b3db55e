// Answers kept by key, each for the time its asker gives it, where concurrent lookups of one key
// share one question: the webhook caches (token reviews, access reviews) as upstream keeps them.
// One server's threads share theirs through shared-answer-cache.ts, behind the same interface.
import { ExpiringLRU } from '../expiring-lru.js';

export interface Answer<V> {
  value: V;
  /** How long the answer is kept; 0 or less keeps it not at all (it still goes to concurrent lookups). */
  ttlMs: number;
}

export interface AnswerCache<V> {
  /** The answer kept for `key`, else `ask`'s, which every concurrent lookup of the key shares (rejections too). */
  get(key: string, ask: () => Promise<Answer<V>>): Promise<V>;
}

/** Makes the answer cache of one webhook: `name` tells the caches of a server apart, `maxEntries` bounds it. */
export type AnswerCacheFactory = <V>(name: string, maxEntries: number) => AnswerCache<V>;

/** An answer cache of this thread alone. */
export class LocalAnswerCache<V> implements AnswerCache<V> {
  private readonly kept: ExpiringLRU<V>;
  private readonly asking = new Map<string, Promise<V>>();

  constructor(maxEntries: number, now?: () => number) {
    this.kept = new ExpiringLRU(maxEntries, now);
  }

  get(key: string, ask: () => Promise<Answer<V>>): Promise<V> {
    const hit = this.kept.get(key);
    if (hit !== undefined) return Promise.resolve(hit);
    let p = this.asking.get(key);
    if (!p) {
      p = ask()
        .then(({ value, ttlMs }) => {
          this.kept.add(key, value, ttlMs);
          return value;
        })
        .finally(() => this.asking.delete(key));
      this.asking.set(key, p);
    }
    return p;
  }
}

/** Local answer caches, one per name: what a server of one thread uses. */
export const localAnswerCaches: AnswerCacheFactory = (_name, maxEntries) => new LocalAnswerCache(maxEntries);
