// Answer caches shared by the threads of one process: the store (in the thread that starts the
// others) holds every answer and knows which key some thread is asking about; each thread keeps a
// copy of the answers it has seen, until the moment they expire everywhere. A lookup a thread
// cannot answer from its copy goes to the store, which answers with what it holds, or tells the
// thread to ask (the first to come), or has it wait for the answer of the thread that is asking.
// So within an answer's time to live one question is asked per key, whichever thread serves, and
// the question itself (a token, say) never leaves the thread that asks it: only its key does.
import type { MessagePort } from 'node:worker_threads';
import { ExpiringLRU } from '../expiring-lru.js';
import type { Answer, AnswerCache, AnswerCacheFactory } from './answer-cache.js';

/** What a thread tells the store. */
type ToStore =
  | { kind: 'get'; id: number; cache: string; key: string; maxEntries: number }
  /** The answer this thread was told to ask for; kept until `expires` (ms since the epoch), 0 not at all. */
  | { kind: 'answer'; cache: string; key: string; value?: unknown; error?: string; expires: number };

/** What the store answers a `get`. */
type FromStore =
  | { id: number; kind: 'hit'; value: unknown; expires: number }
  | { id: number; kind: 'ask' }
  | { id: number; kind: 'result'; value?: unknown; error?: string; expires: number };

interface Asking {
  asker: MessagePort;
  waiters: { port: MessagePort; id: number }[];
}

interface StoredCache {
  kept: ExpiringLRU<{ value: unknown; expires: number }>;
  asking: Map<string, Asking>;
}

/** The answers of every shared cache, held in the thread that starts the others. */
export class SharedAnswerStore {
  private readonly caches = new Map<string, StoredCache>();

  /** Serves the thread at the other end of `port`; the function returned forgets it (the thread ended). */
  attach(port: MessagePort): () => void {
    port.on('message', (m: ToStore) => (m.kind === 'get' ? this.get(port, m) : this.answer(m)));
    port.unref();
    return () => {
      port.close();
      this.forget(port);
    };
  }

  private cacheOf(name: string, maxEntries: number): StoredCache {
    let c = this.caches.get(name);
    if (!c) this.caches.set(name, (c = { kept: new ExpiringLRU(maxEntries), asking: new Map() }));
    return c;
  }

  private get(port: MessagePort, m: Extract<ToStore, { kind: 'get' }>): void {
    const c = this.cacheOf(m.cache, m.maxEntries);
    const hit = c.kept.get(m.key);
    if (hit) return reply(port, { id: m.id, kind: 'hit', value: hit.value, expires: hit.expires });
    const asking = c.asking.get(m.key);
    if (asking) {
      asking.waiters.push({ port, id: m.id });
      return;
    }
    c.asking.set(m.key, { asker: port, waiters: [] });
    reply(port, { id: m.id, kind: 'ask' });
  }

  private answer(m: Extract<ToStore, { kind: 'answer' }>): void {
    const c = this.caches.get(m.cache);
    const asking = c?.asking.get(m.key);
    if (!c || !asking) return;
    c.asking.delete(m.key);
    if (m.error === undefined) c.kept.addUntil(m.key, { value: m.value, expires: m.expires }, m.expires);
    const result = m.error === undefined ? { value: m.value, expires: m.expires } : { error: m.error, expires: 0 };
    for (const w of asking.waiters) reply(w.port, { id: w.id, kind: 'result', ...result });
  }

  /** A thread that ended while asking leaves its question to the first thread waiting for the answer. */
  private forget(port: MessagePort): void {
    for (const c of this.caches.values()) {
      for (const [key, asking] of c.asking) {
        asking.waiters = asking.waiters.filter((w) => w.port !== port);
        if (asking.asker !== port) continue;
        const next = asking.waiters.shift();
        if (!next) {
          c.asking.delete(key);
          continue;
        }
        asking.asker = next.port;
        reply(next.port, { id: next.id, kind: 'ask' });
      }
    }
  }
}

function reply(port: MessagePort, m: FromStore): void {
  port.postMessage(m);
}

/** One thread's end of the shared caches: a factory of answer caches backed by the store. */
export class SharedAnswerCaches {
  private nextId = 1;
  private readonly waiting = new Map<number, (m: FromStore) => void>();

  constructor(private readonly port: MessagePort) {
    port.on('message', (m: FromStore) => {
      const done = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      done?.(m);
    });
    port.unref();
  }

  /** The shared cache called `name`, this thread's copy holding at most `maxEntries` answers. */
  readonly factory: AnswerCacheFactory = <V>(name: string, maxEntries: number): AnswerCache<V> => new SharedAnswerCache<V>(name, maxEntries, this);

  /** Asks the store about `key`. */
  request(cache: string, key: string, maxEntries: number): Promise<FromStore> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.send({ kind: 'get', id, cache, key, maxEntries });
    });
  }

  send(m: ToStore): void {
    this.port.postMessage(m);
  }
}

class SharedAnswerCache<V> implements AnswerCache<V> {
  /** This thread's copy of the answers it has seen, each until it expires in the store too. */
  private readonly kept: ExpiringLRU<V>;
  /** Lookups of this thread that went to the store: a key's concurrent lookups here share one. */
  private readonly asking = new Map<string, Promise<V>>();

  constructor(private readonly name: string, private readonly maxEntries: number, private readonly link: SharedAnswerCaches) {
    this.kept = new ExpiringLRU(maxEntries);
  }

  get(key: string, ask: () => Promise<Answer<V>>): Promise<V> {
    const hit = this.kept.get(key);
    if (hit !== undefined) return Promise.resolve(hit);
    let p = this.asking.get(key);
    if (!p) {
      p = this.fetch(key, ask).finally(() => this.asking.delete(key));
      this.asking.set(key, p);
    }
    return p;
  }

  private async fetch(key: string, ask: () => Promise<Answer<V>>): Promise<V> {
    const m = await this.link.request(this.name, key, this.maxEntries);
    switch (m.kind) {
      case 'hit':
        this.kept.addUntil(key, m.value as V, m.expires);
        return m.value as V;
      case 'result':
        if (m.error !== undefined) throw new Error(m.error);
        this.kept.addUntil(key, m.value as V, m.expires);
        return m.value as V;
      case 'ask': {
        let answer: Answer<V>;
        try {
          answer = await ask();
        } catch (e) {
          this.link.send({ kind: 'answer', cache: this.name, key, error: e instanceof Error ? e.message : String(e), expires: 0 });
          throw e;
        }
        const expires = answer.ttlMs > 0 ? Date.now() + answer.ttlMs : 0;
        this.kept.addUntil(key, answer.value, expires);
        this.link.send({ kind: 'answer', cache: this.name, key, value: answer.value, expires });
        return answer.value;
      }
    }
  }
}
