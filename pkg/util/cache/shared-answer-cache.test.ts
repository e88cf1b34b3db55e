import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MessageChannel } from 'node:worker_threads';
import { eventually } from '../testing/eventually.js';
import type { Answer, AnswerCache } from './answer-cache.js';
import { SharedAnswerCaches, SharedAnswerStore } from './shared-answer-cache.js';

/** A store and `n` threads' ends of it (real message ports, in this one thread). */
function threads(n: number) {
  // The ports do not keep a thread alive (its server does): this stands in for the server.
  const serving = setInterval(() => undefined, 1000);
  const store = new SharedAnswerStore();
  const ends = Array.from({ length: n }, () => {
    const channel = new MessageChannel();
    const detach = store.attach(channel.port1);
    return { caches: new SharedAnswerCaches(channel.port2), detach, close: () => channel.port2.close() };
  });
  return {
    ends,
    close: () => {
      clearInterval(serving);
      for (const e of ends) {
        e.detach();
        e.close();
      }
    },
  };
}

/** Resolves once the store has read every earlier message of this cache's thread (one port keeps their order). */
const storeHasRead = (cache: AnswerCache<string>) => cache.get(`barrier-${Math.random()}`, async () => ({ value: '', ttlMs: 0 }));

/** An asker that counts its calls and answers when released. */
function asker<V>(answer: (call: number) => Answer<V> | Error) {
  const a = {
    calls: 0,
    releases: [] as (() => void)[],
    ask: () => {
      const call = ++a.calls;
      return new Promise<Answer<V>>((resolve, reject) => {
        a.releases.push(() => {
          const r = answer(call);
          if (r instanceof Error) reject(r);
          else resolve(r);
        });
      });
    },
  };
  return a;
}

test('concurrent lookups of one key in several threads ask once; the answer is kept for its TTL everywhere', async () => {
  const { ends, close } = threads(3);
  try {
    const [a, b, c] = ends.map((e) => e.caches.factory<string>('token-webhook', 100));
    const q = asker((call) => ({ value: `answer-${call}`, ttlMs: 60_000 }));
    const pending = [a!.get('k', q.ask), b!.get('k', q.ask), b!.get('k', q.ask), c!.get('k', q.ask)];
    await eventually(() => q.calls === 1, 'the question asked');
    q.releases[0]!();
    assert.deepEqual(await Promise.all(pending), ['answer-1', 'answer-1', 'answer-1', 'answer-1']);
    // Later lookups, in any thread, are answered from the cache.
    assert.equal(await c!.get('k', q.ask), 'answer-1');
    assert.equal(await ends[2]!.caches.factory<string>('token-webhook', 100).get('k', q.ask), 'answer-1', 'a new cache of the same name shares the answers');
    assert.equal(q.calls, 1);
    // Another key, or another cache name, is another question.
    const other = a!.get('k2', q.ask);
    const named = ends[0]!.caches.factory<string>('authorization-webhook', 100).get('k', q.ask);
    await eventually(() => q.calls === 3, 'two more questions');
    q.releases[1]!();
    q.releases[2]!();
    assert.deepEqual((await Promise.all([other, named])).sort(), ['answer-2', 'answer-3']);
  } finally {
    close();
  }
});

test('an answer expires in every thread at its TTL; an answer with no TTL only goes to the lookups that waited for it', async () => {
  const { ends, close } = threads(2);
  try {
    const [a, b] = ends.map((e) => e.caches.factory<number>('c', 100));
    let ttlMs = 50;
    let calls = 0;
    const ask = async () => ({ value: ++calls, ttlMs });
    assert.equal(await a!.get('k', ask), 1);
    assert.equal(await b!.get('k', ask), 1, 'kept');
    await eventually(async () => (await b!.get('k', ask)) === 2, 'the answer expired and was asked again');
    assert.equal(await a!.get('k', ask), 2, 'the other thread sees the new answer');
    ttlMs = 0;
    await eventually(async () => (await a!.get('k', ask)) === 3, 'expired again');
    // (A lookup that reaches the store before a's answer waits for it, and shares it.)
    await eventually(async () => (await b!.get('k', ask)) > 3, 'an answer with no TTL is not kept: asked again');
  } finally {
    close();
  }
});

test('a failed question is not kept: its waiters in other threads get the error, the next lookup asks again', async () => {
  const { ends, close } = threads(2);
  try {
    const [a, b] = ends.map((e) => e.caches.factory<string>('c', 100));
    const q = asker((call) => (call === 1 ? new Error('webhook unreachable') : { value: 'ok', ttlMs: 60_000 }));
    const first = a!.get('k', q.ask);
    await eventually(() => q.calls === 1, 'asked');
    const waiting = b!.get('k', q.ask);
    // The store has b wait for a's answer.
    await storeHasRead(b!);
    q.releases[0]!();
    await assert.rejects(first, /webhook unreachable/);
    await assert.rejects(waiting, /webhook unreachable/);
    const again = b!.get('k', q.ask);
    await eventually(() => q.calls === 2, 'asked again');
    q.releases[1]!();
    assert.equal(await again, 'ok');
  } finally {
    close();
  }
});

test('a thread that ends while asking leaves the question to a thread waiting for its answer', async () => {
  const { ends, close } = threads(2);
  try {
    const [a, b] = ends.map((e) => e.caches.factory<string>('c', 100));
    const stuck = asker<string>(() => ({ value: 'never', ttlMs: 60_000 }));
    void a!.get('k', stuck.ask);
    await eventually(() => stuck.calls === 1, 'thread a asks');
    const q = asker((call) => ({ value: `b-${call}`, ttlMs: 60_000 }));
    const waiting = b!.get('k', q.ask);
    await storeHasRead(b!);
    assert.equal(q.calls, 0, 'b waits for a');
    ends[0]!.detach();
    await eventually(() => q.calls === 1, 'b asks in a\'s place');
    q.releases[0]!();
    assert.equal(await waiting, 'b-1');
  } finally {
    close();
  }
});
