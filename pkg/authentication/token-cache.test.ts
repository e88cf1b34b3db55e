import assert from 'node:assert/strict';
import { test } from 'node:test';
import { authenticated, failed, skipped, type AuthenticationResult } from './authenticator.js';
import { TokenCache } from './token-cache.js';

function counter(result: AuthenticationResult) {
  const c = { calls: 0, lookup: async () => (c.calls++, result) };
  return c;
}

test('keys are salted hashes: never the token, distinct per token, audiences and process; one salt, one key', () => {
  const a = new TokenCache({ ttlMs: 1000 });
  const b = new TokenCache({ ttlMs: 1000 });
  const salt = new Uint8Array(32).fill(7);
  assert.equal(new TokenCache({ ttlMs: 1000, salt }).key('t', ['x']), new TokenCache({ ttlMs: 1000, salt }).key('t', ['x']), 'caches sharing answers share keys');
  const k = a.key('secret-token', ['x']);
  assert.ok(!k.includes('secret-token'));
  assert.equal(k, a.key('secret-token', ['x']));
  assert.notEqual(k, a.key('secret-token', []));
  assert.notEqual(k, a.key('secret-token', ['x', '']));
  assert.notEqual(a.key('ab', ['c']), a.key('a', ['bc']), 'length prefixes keep boundaries apart');
  assert.notEqual(k, b.key('secret-token', ['x']), 'another process (salt) gives another key');
});

test('answers are kept for the TTL, failures are not, concurrent lookups share one call', async () => {
  let clock = 0;
  const cache = new TokenCache({ ttlMs: 1000, now: () => clock });
  const ok = counter(authenticated({ name: 'jane', groups: [], extra: {} }));
  await cache.get('t', [], ok.lookup);
  await cache.get('t', [], ok.lookup);
  assert.equal(ok.calls, 1);
  clock = 999;
  await cache.get('t', [], ok.lookup);
  assert.equal(ok.calls, 1);
  clock = 1000;
  await cache.get('t', [], ok.lookup);
  assert.equal(ok.calls, 2, 'expired at the TTL');

  const denied = counter(skipped);
  await cache.get('d', [], denied.lookup);
  await cache.get('d', [], denied.lookup);
  assert.equal(denied.calls, 1, 'denials are cached too');

  const broken = counter(failed('webhook down'));
  await cache.get('e', [], broken.lookup);
  await cache.get('e', [], broken.lookup);
  assert.equal(broken.calls, 2, 'errors are not cached');

  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let shared = 0;
  const slow = async () => {
    shared++;
    await gate;
    return authenticated({ name: 'x', groups: [], extra: {} });
  };
  const all = Promise.all([cache.get('s', [], slow), cache.get('s', [], slow), cache.get('s', [], slow)]);
  release();
  assert.equal((await all).length, 3);
  assert.equal(shared, 1);
});

test('a TTL of 0 bypasses the cache; the entry count is bounded; callers get copies', async () => {
  const off = new TokenCache({ ttlMs: 0 });
  const c = counter(skipped);
  await off.get('t', [], c.lookup);
  await off.get('t', [], c.lookup);
  assert.equal(c.calls, 2);

  const small = new TokenCache({ ttlMs: 60_000, maxEntries: 10 });
  for (let i = 0; i < 50; i++) await small.get(`t${i}`, [], async () => skipped);
  const again = counter(skipped);
  await small.get('t49', [], again.lookup);
  assert.equal(again.calls, 0, 'the latest answers are kept');
  await small.get('t0', [], again.lookup);
  assert.equal(again.calls, 1, 'the oldest went to keep the cache within its bound');

  const cache = new TokenCache({ ttlMs: 60_000 });
  const first = await cache.get('u', [], async () => authenticated({ name: 'jane', groups: ['a'], extra: {} }));
  if (first.outcome === 'authenticated') first.user.groups.push('mutated');
  const second = await cache.get('u', [], async () => skipped);
  assert.deepEqual(second, { outcome: 'authenticated', user: { name: 'jane', groups: ['a'], extra: {} } });
});

test('success and failure TTLs apart: with a failure TTL of 0 only successes are kept', async () => {
  let clock = 0;
  const cache = new TokenCache({ ttlMs: 1000, failureTtlMs: 0, now: () => clock });
  const ok = counter(authenticated({ name: 'jane', groups: [], extra: {} }));
  await cache.get('t', [], ok.lookup);
  await cache.get('t', [], ok.lookup);
  assert.equal(ok.calls, 1);
  const denied = counter(skipped);
  await cache.get('d', [], denied.lookup);
  await cache.get('d', [], denied.lookup);
  assert.equal(denied.calls, 2, 'not-mine answers are not kept');

  const onlyDenials = new TokenCache({ ttlMs: 0, failureTtlMs: 1000, now: () => clock });
  const ok2 = counter(authenticated({ name: 'jane', groups: [], extra: {} }));
  await onlyDenials.get('t', [], ok2.lookup);
  await onlyDenials.get('t', [], ok2.lookup);
  assert.equal(ok2.calls, 2);
  const denied2 = counter(skipped);
  await onlyDenials.get('d', [], denied2.lookup);
  await onlyDenials.get('d', [], denied2.lookup);
  assert.equal(denied2.calls, 1);
});

test('keys written into one buffer hash as the field-by-field SHA-256 (salt, length-prefixed token, count, audiences)', async () => {
  const { createHash } = await import('node:crypto');
  const cache = new TokenCache({ ttlMs: 1000 });
  const salt = (cache as unknown as { salt: Buffer }).salt;
  const expected = (token: string, auds: string[]) => {
    const h = createHash('sha256').update(salt);
    const len = (n: number) => { const b = Buffer.alloc(4); b.writeUInt32BE(n); h.update(b); };
    const field = (s: string) => { const b = Buffer.from(s, 'utf8'); len(b.length); h.update(b); };
    field(token);
    len(auds.length);
    for (const a of auds) field(a);
    return h.digest('base64');
  };
  for (const [token, auds] of [['', []], ['tök€n', ['api', '']], ['a.b', ['x', 'y', 'zz']]] as Array<[string, string[]]>) {
    assert.equal(cache.key(token, auds), expected(token, auds));
  }
});
