import assert from 'node:assert/strict';
import { test } from 'node:test';
import { audienceAgnosticToken } from './audiences.js';
import { authenticated, failed, type TokenAuthenticator } from './authenticator.js';

// A real (if tiny) token authenticator: one known token, anything else is a failure.
const inner: TokenAuthenticator & { calls: number } = {
  name: 'fixed',
  calls: 0,
  async authenticateToken(token) {
    this.calls++;
    return token === 'good' ? authenticated({ name: 'jane', groups: [], extra: {} }) : failed('unknown token');
  },
};

test('answers for the API server audiences only, reporting the audiences in common', async () => {
  const a = audienceAgnosticToken(inner, ['https://api.example', 'orch']);
  assert.deepEqual(await a.authenticateToken('good', ['orch', 'other']), { outcome: 'authenticated', user: { name: 'jane', groups: [], extra: {} }, audiences: ['orch'] });
  const before = inner.calls;
  assert.deepEqual(await a.authenticateToken('good', ['vault']), { outcome: 'skipped' });
  assert.equal(inner.calls, before, 'the inner authenticator is not asked for a foreign audience');
  assert.deepEqual(await a.authenticateToken('bad', ['orch']), { outcome: 'failed', reason: 'unknown token' });
  assert.deepEqual(await a.authenticateToken('good', []), { outcome: 'authenticated', user: { name: 'jane', groups: [], extra: {} } });
  assert.deepEqual(await audienceAgnosticToken(inner, []).authenticateToken('good', ['orch']), { outcome: 'skipped' });
});
