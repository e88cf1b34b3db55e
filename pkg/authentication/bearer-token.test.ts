import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apiDomain, defaultApiDomain } from '../../api/domain.js';
import { authenticated, failed, skipped, type AuthenticationResult, type TokenAuthenticator } from './authenticator.js';
import { bearerTokenAuthenticator, bearerTokenOf, websocketBearerProtocolPrefix, websocketTokenAuthenticator } from './bearer-token.js';
import { authRequest } from './testing/request.js';
import { TokenFileAuthenticator } from './token-file.js';

const file = new TokenFileAuthenticator('s3cret,alice,1,"dev,ops"\nother,bob,2\n', 'tokens.csv');

/** A token authenticator that records what it was asked and answers as told. */
function scripted(name: string, answer: (token: string) => AuthenticationResult): TokenAuthenticator & { asked: Array<[string, readonly string[]]> } {
  const asked: Array<[string, readonly string[]]> = [];
  return { name, asked, authenticateToken: async (t, a) => (asked.push([t, a]), answer(t)) };
}

test('the Authorization header is read as upstream reads it', () => {
  assert.deepEqual(bearerTokenOf('Bearer abc'), { token: 'abc' });
  assert.deepEqual(bearerTokenOf('  bEaReR abc  '), { token: 'abc' }, 'trimmed; the scheme in any case');
  assert.deepEqual(bearerTokenOf('Bearer abc def'), { token: 'abc' }, 'a third part is ignored');
  assert.deepEqual(bearerTokenOf('Bearer  abc'), { emptyBecauseOfSpace: true });
  for (const h of ['', 'Bearer', 'Bearer ', 'Basic YWxpY2U6cHc=', 'Bearerabc', 'Token abc']) assert.equal(bearerTokenOf(h), undefined, h);
});

test('a missing or non-Bearer header, or an empty token, is not this method', async () => {
  const warnings: string[] = [];
  const auth = bearerTokenAuthenticator({ authenticators: [file], onWarning: (_r, w) => warnings.push(w) });
  for (const headers of [[], [['Authorization', 'Basic YWxpY2U6cHc=']], [['Authorization', 'Bearer']], [['Authorization', 'Bearer  s3cret']]] as Array<Array<[string, string]>>) {
    assert.deepEqual(await auth.authenticate(authRequest(headers)), skipped, JSON.stringify(headers));
  }
  assert.deepEqual(warnings, ['the provided Authorization header contains extra space before the bearer token, and is ignored']);
});

test('a known token authenticates and its header is removed; an unknown one fails as "invalid bearer token"', async () => {
  const auth = bearerTokenAuthenticator({ authenticators: [file] });
  const req = authRequest([['Accept', '*/*'], ['authorization', 'bearer s3cret']]);
  const r = await auth.authenticate(req);
  assert.deepEqual(r, authenticated({ name: 'alice', uid: '1', groups: ['dev', 'ops'], extra: {} }));
  assert.deepEqual(req.rawHeaders, ['Accept', '*/*']);
  assert.equal(req.headers.authorization, undefined);
  const bad = authRequest([['Authorization', 'Bearer nope']]);
  assert.deepEqual(await auth.authenticate(bad), failed('invalid bearer token'));
  assert.equal(bad.headers.authorization, 'Bearer nope', 'left in place; the request is refused anyway');
});

test('token authenticators are asked in order with the API audiences; the first acceptance wins; failures aggregate as Go\'s union', async () => {
  const refuses = scripted('a', () => failed('token has expired'));
  const alsoRefuses = scripted('b', () => failed('square/go-jose: error in cryptographic primitive'));
  const same = scripted('c', () => failed('token has expired'));
  const accepts = scripted('d', () => authenticated({ name: 'sa', groups: [], extra: {} }, ['api']));
  const never = scripted('e', () => assert.fail('not asked after an acceptance'));
  const auth = bearerTokenAuthenticator({ authenticators: [refuses, file, accepts, never], apiAudiences: ['api', 'other'] });
  const r = await auth.authenticate(authRequest([['Authorization', 'Bearer tok']]));
  assert.equal(r.outcome, 'authenticated');
  assert.deepEqual(refuses.asked, [['tok', ['api', 'other']]]);
  assert.equal(never.asked.length, 0);

  const one = bearerTokenAuthenticator({ authenticators: [refuses, file] });
  assert.deepEqual(await one.authenticate(authRequest([['Authorization', 'Bearer tok']])), { outcome: 'failed', reason: 'token has expired', reasons: ['token has expired'] });
  const many = bearerTokenAuthenticator({ authenticators: [refuses, alsoRefuses, same] });
  const r2 = await many.authenticate(authRequest([['Authorization', 'Bearer tok']]));
  assert.equal(r2.outcome === 'failed' && r2.reason, '[token has expired, square/go-jose: error in cryptographic primitive]');
});

test('an authenticator that throws fails the token without quoting it', async () => {
  const throws: TokenAuthenticator = { name: 'webhook', authenticateToken: async (t) => JSON.parse(t) };
  const auth = bearerTokenAuthenticator({ authenticators: [throws] });
  const r = await auth.authenticate(authRequest([['Authorization', 'Bearer {not-json-SECRET']]));
  assert.equal(r.outcome, 'failed');
  if (r.outcome === 'failed') {
    assert.equal(r.reason, 'webhook authenticator failed unexpectedly (SyntaxError)');
    assert.ok(!r.reason.includes('SECRET'));
  }
});

function ws(protocols: string[], extra: Array<[string, string]> = []): ReturnType<typeof authRequest> {
  return authRequest([['Connection', 'keep-alive, Upgrade'], ['Upgrade', 'WebSocket'], ...protocols.map((p) => ['Sec-WebSocket-Protocol', p] as [string, string]), ...extra]);
}

test('websocket subprotocol tokens: the prefix is derived from the platform domain', async () => {
  assert.equal(websocketBearerProtocolPrefix(defaultApiDomain), 'base64url.bearer.authorization.orch.io.');
  assert.equal(websocketBearerProtocolPrefix(apiDomain('k8s.io')), 'base64url.bearer.authorization.k8s.io.');
  const auth = websocketTokenAuthenticator({ authenticators: [file], domain: defaultApiDomain });
  const enc = Buffer.from('s3cret').toString('base64url');
  const req = ws([`v4.channel.k8s.io, base64url.bearer.authorization.orch.io.${enc}`, 'v5.channel.k8s.io']);
  const r = await auth.authenticate(req);
  assert.equal(r.outcome === 'authenticated' && r.user.name, 'alice');
  assert.equal(req.headers['sec-websocket-protocol'], 'v4.channel.k8s.io,v5.channel.k8s.io', 'the token protocol is removed');
  assert.deepEqual(req.rawHeaders.slice(-2), ['Sec-WebSocket-Protocol', 'v4.channel.k8s.io,v5.channel.k8s.io']);
  const upstreamName = ws([`base64url.bearer.authorization.k8s.io.${enc}`, 'v4.channel.k8s.io']);
  assert.deepEqual(await auth.authenticate(upstreamName), skipped, 'another domain\'s prefix is just another protocol');
});

test('websocket subprotocol tokens: upstream\'s refusals', async () => {
  const auth = websocketTokenAuthenticator({ authenticators: [file], domain: defaultApiDomain });
  const p = 'base64url.bearer.authorization.orch.io.';
  const enc = (s: string) => Buffer.from(s).toString('base64url');
  const cases: Array<[ReturnType<typeof authRequest>, AuthenticationResult]> = [
    [authRequest([['Sec-WebSocket-Protocol', `${p}${enc('s3cret')}, chat`]]), skipped], // not an upgrade
    [authRequest([['Connection', 'Upgrade'], ['Upgrade', 'h2c'], ['Sec-WebSocket-Protocol', `${p}${enc('s3cret')}, chat`]]), skipped],
    [ws(['chat']), skipped],
    [ws([`${p}, chat`]), skipped], // an empty token
    [ws([`${p}${enc('s3cret')}`]), failed('missing additional subprotocol')],
    [ws([`${p}${enc('s3cret')}, chat`, `${p}${enc('other')}`]), failed('multiple base64.bearer.authorization tokens specified')],
    [ws([`${p}${enc('s3cret')}=, chat`]), failed('invalid base64.bearer.authorization token encoding')],
    [ws([`${p}a+b/, chat`]), failed('invalid base64.bearer.authorization token encoding')],
    [ws([`${p}${Buffer.from([0xff, 0xfe]).toString('base64url')}, chat`]), failed('invalid base64.bearer.authorization token')],
    [ws([`${p}${enc('unknown')}, chat`]), failed('invalid bearer token')],
  ];
  for (const [req, want] of cases) assert.deepEqual(await auth.authenticate(req), want, JSON.stringify(req.rawHeaders));
});
