import assert from 'node:assert/strict';
import { test } from 'node:test';
import { authenticated, failed, skipped, type AuthenticationResult, type TokenAuthenticator } from './authenticator.js';
import { cachedTokenAuthenticator, TokenFailureCacheTTLMs, TokenSuccessCacheTTLMs } from './cached-token.js';

/** A token authenticator answering from a table that the test changes (a revocation), counting calls. */
function table(answers: Record<string, AuthenticationResult>) {
  const seen: Array<[string, readonly string[]]> = [];
  const auth: TokenAuthenticator = {
    name: 'table',
    authenticateToken: async (token, audiences) => (seen.push([token, audiences]), answers[token] ?? skipped),
  };
  return { auth, seen, answers };
}

const jane = () => authenticated({ name: 'jane', uid: 'u1', groups: ['dev'], extra: { scope: ['a'] } }, ['api']);

test("upstream's defaults: successes kept 10 seconds, refusals not kept", () => {
  assert.equal(TokenSuccessCacheTTLMs, 10_000);
  assert.equal(TokenFailureCacheTTLMs, 0);
});

test('a success is kept for the TTL: a revoked token works until it runs out, then is refused', async () => {
  let clock = 0;
  const t = table({ good: jane() });
  const cached = cachedTokenAuthenticator(t.auth, { now: () => clock });
  assert.equal(cached.name, 'table');
  assert.deepEqual(await cached.authenticateToken('good', []), jane());
  delete t.answers.good; // revoked
  clock = TokenSuccessCacheTTLMs - 1;
  assert.deepEqual(await cached.authenticateToken('good', []), jane(), 'still the cached answer inside the TTL');
  assert.equal(t.seen.length, 1);
  clock = TokenSuccessCacheTTLMs;
  assert.deepEqual(await cached.authenticateToken('good', []), skipped, 'asked again once the TTL ran out');
  assert.equal(t.seen.length, 2);
});

test('refusals and failures are asked again every time', async () => {
  const t = table({ bad: failed('token has expired') });
  const cached = cachedTokenAuthenticator(t.auth);
  await cached.authenticateToken('bad', []);
  await cached.authenticateToken('bad', []);
  await cached.authenticateToken('unknown', []);
  await cached.authenticateToken('unknown', []);
  assert.equal(t.seen.length, 4);
  // A token that becomes valid is accepted at once.
  t.answers.unknown = jane();
  assert.equal((await cached.authenticateToken('unknown', [])).outcome, 'authenticated');
});

test('audiences are part of the key, and passed on unchanged', async () => {
  const t = table({ good: jane() });
  const cached = cachedTokenAuthenticator(t.auth);
  await cached.authenticateToken('good', ['api']);
  await cached.authenticateToken('good', ['other']);
  await cached.authenticateToken('good', ['api']);
  await cached.authenticateToken('good', []);
  assert.deepEqual(t.seen, [['good', ['api']], ['good', ['other']], ['good', []]]);
});

test('answers are shared frozen: nobody can change what the next request is told', async () => {
  const t = table({ good: jane() });
  const cached = cachedTokenAuthenticator(t.auth);
  const a = await cached.authenticateToken('good', []);
  const b = await cached.authenticateToken('good', []);
  assert.equal(a, b);
  assert.ok(a.outcome === 'authenticated');
  assert.throws(() => (a.user.groups as string[]).push('system:masters'), TypeError);
  assert.throws(() => { (a.user as { name: string }).name = 'admin'; }, TypeError);
  assert.throws(() => (a.user.extra.scope as string[]).push('b'), TypeError);
  assert.deepEqual(b, jane());
});

test('a TTL of 0 for both answers is no cache at all', async () => {
  const t = table({ good: jane() });
  assert.equal(cachedTokenAuthenticator(t.auth, { successTtlMs: 0, failureTtlMs: 0 }), t.auth);
});
