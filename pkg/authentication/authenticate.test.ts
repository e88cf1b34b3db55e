import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultApiDomain } from '../../api/domain.js';
import { authenticated, failed, skipped, type AuthenticationResult, type RequestAuthenticator, type TokenAuthenticator } from './authenticator.js';
import { anonymousAuthenticator } from './anonymous.js';
import { audienceAgnosticToken } from './audiences.js';
import { newAuthenticate } from './authenticate.js';
import { bearerTokenAuthenticator, websocketTokenAuthenticator } from './bearer-token.js';
import { requestHeaderAuthenticator } from './request-header.js';
import { TestCA } from './testing/ca.js';
import { authRequest } from './testing/request.js';
import { startTLSServer } from './testing/tls-server.js';
import { TokenFileAuthenticator } from './token-file.js';
import { unionRequestAuthenticator } from './union.js';
import { x509Authenticator } from './x509.js';

function fixed(name: string, r: AuthenticationResult): RequestAuthenticator & { calls: number } {
  const a = { name, calls: 0, authenticate: async () => (a.calls++, r) };
  return a;
}

const jane = { name: 'jane', groups: ['dev'], extra: {} };

test('union: the first authenticated wins, failures before it do not matter; otherwise failures aggregate, else skipped', async () => {
  const later = fixed('later', authenticated({ name: 'other', groups: [], extra: {} }));
  const u = unionRequestAuthenticator([fixed('a', failed('x509: certificate signed by unknown authority')), fixed('b', skipped), fixed('c', authenticated(jane)), later]);
  assert.deepEqual(await u.authenticate(authRequest()), authenticated(jane));
  assert.equal(later.calls, 0);
  const none = unionRequestAuthenticator([fixed('a', failed('one')), fixed('b', skipped), fixed('c', failed('two')), fixed('d', failed('one'))]);
  assert.deepEqual(await none.authenticate(authRequest()), { outcome: 'failed', reason: '[one, two]', reasons: ['one', 'two'] });
  // A nested aggregate (the bearer layer's) flattens as Go's does.
  const nested = unionRequestAuthenticator([unionRequestAuthenticator([fixed('a', failed('one')), fixed('b', failed('two'))]), fixed('c', failed('three'))]);
  assert.equal(((await nested.authenticate(authRequest())) as { reason: string }).reason, '[one, two, three]');
  assert.deepEqual(await unionRequestAuthenticator([fixed('a', skipped)]).authenticate(authRequest()), skipped);
  assert.deepEqual(await unionRequestAuthenticator([]).authenticate(authRequest()), skipped);
});

test('authenticated users gain system:authenticated; anonymous only when nothing was presented', async () => {
  const authenticate = newAuthenticate({ authenticators: [fixed('a', skipped), fixed('b', authenticated(jane))] });
  assert.deepEqual(await authenticate(authRequest()), { user: { name: 'jane', groups: ['dev', 'system:authenticated'], extra: {} } });
  const nothing = newAuthenticate({ authenticators: [fixed('a', skipped)] });
  assert.deepEqual(await nothing(authRequest()), { user: { name: 'system:anonymous', groups: ['system:unauthenticated'], extra: {} } });
  const bad = newAuthenticate({ authenticators: [fixed('a', failed('invalid bearer token')), fixed('b', skipped)] });
  assert.deepEqual(await bad(authRequest()), { error: 'invalid bearer token', credentialPresented: true }, 'a failed credential is never anonymous');
  const closed = newAuthenticate({ authenticators: [fixed('a', skipped)], anonymous: false });
  const r = await closed(authRequest());
  assert.ok('error' in r && r.credentialPresented === false);
  const none = newAuthenticate({ authenticators: [], anonymous: false });
  assert.ok('error' in (await none(authRequest())));
});

test('groups that already say authenticated or unauthenticated, and the anonymous name, gain nothing', async () => {
  for (const user of [
    { name: 'system:anonymous', groups: ['x'], extra: {} },
    { name: 'proxy-says', groups: ['system:unauthenticated'], extra: {} },
    { name: 'j', groups: ['system:authenticated', 'dev'], extra: {} },
  ]) {
    const r = await newAuthenticate({ authenticators: [fixed('a', authenticated(user))] })(authRequest());
    assert.deepEqual(r, { user });
  }
});

test('a result valid only for other audiences is refused; anonymous is valid for the API audiences', async () => {
  const authenticate = newAuthenticate({ authenticators: [fixed('a', authenticated(jane, ['vault']))], apiAudiences: ['https://orch.default.svc'] });
  assert.deepEqual(await authenticate(authRequest()), { error: 'unable to match the audience: [vault] , accepted: [https://orch.default.svc]', credentialPresented: true });
  const ok = newAuthenticate({ authenticators: [fixed('a', authenticated(jane, ['vault', 'api']))], apiAudiences: ['api'] });
  assert.deepEqual(await ok(authRequest()), { user: { ...jane, groups: ['dev', 'system:authenticated'] }, audiences: ['vault', 'api'] });
  const anon = newAuthenticate({ authenticators: [], apiAudiences: ['api'] });
  assert.deepEqual(await anon(authRequest()), { user: { name: 'system:anonymous', groups: ['system:unauthenticated'], extra: {} }, audiences: ['api'] });
  assert.deepEqual(await anonymousAuthenticator().authenticate(authRequest()), authenticated({ name: 'system:anonymous', groups: ['system:unauthenticated'], extra: {} }));
});

test('audience-agnostic token authenticators are valid for the API audiences only', async () => {
  const file = new TokenFileAuthenticator('tok,alice,1\n', 'tokens.csv');
  const wrapped: TokenAuthenticator = audienceAgnosticToken(file, ['api', 'api2']);
  assert.deepEqual(await wrapped.authenticateToken('tok', []), authenticated({ name: 'alice', uid: '1', groups: [], extra: {} }));
  assert.deepEqual(await wrapped.authenticateToken('tok', ['api2', 'x']), authenticated({ name: 'alice', uid: '1', groups: [], extra: {} }, ['api2']));
  assert.deepEqual(await wrapped.authenticateToken('tok', ['vault']), skipped);
  assert.deepEqual(await wrapped.authenticateToken('nope', ['api']), skipped);
});

test('after authentication the Authorization header and every proxy header are gone, whoever the user is', async () => {
  const authenticate = newAuthenticate({ authenticators: [fixed('a', skipped)], requestHeaderNames: { usernameHeaders: ['X-Proxy-User'] } });
  const req = authRequest([['Authorization', 'Basic eDp5'], ['X-Remote-User', 'admin'], ['X-Remote-Group', 'system:masters'], ['X-Proxy-User', 'admin'], ['Accept', '*/*']]);
  assert.deepEqual(await authenticate(req), { user: { name: 'system:anonymous', groups: ['system:unauthenticated'], extra: {} } });
  assert.deepEqual(req.rawHeaders, ['Accept', '*/*']);
  assert.deepEqual(req.headers, { accept: '*/*' });
});

test('over real TLS with every method of this module configured in upstream\'s order', async () => {
  const clientCA = TestCA.root({ commonName: 'client-ca' });
  const proxyCA = TestCA.root({ commonName: 'front-proxy-ca' });
  const strangerCA = TestCA.root({ commonName: 'client-ca' });
  const tokens = new TokenFileAuthenticator('s3cret,alice,1,"dev"\n', 'tokens.csv');
  const headerNames = { usernameHeaders: ['X-Remote-User'], groupHeaders: ['X-Remote-Group'], extraHeaderPrefixes: ['X-Remote-Extra-'] };
  const tokenAuths = [audienceAgnosticToken(tokens, ['api'])];
  const build = (anonymous: boolean) =>
    newAuthenticate({
      authenticators: [
        requestHeaderAuthenticator({ ...headerNames, clientCA: [proxyCA.certificate], allowedNames: ['front-proxy'] }),
        x509Authenticator({ clientCA: [clientCA.certificate], domain: defaultApiDomain }),
        bearerTokenAuthenticator({ authenticators: tokenAuths, apiAudiences: ['api'] }),
        websocketTokenAuthenticator({ authenticators: tokenAuths, apiAudiences: ['api'], domain: defaultApiDomain }),
      ],
      anonymous,
      apiAudiences: ['api'],
      requestHeaderNames: headerNames,
    });
  const open = build(true);
  const closed = build(false);
  const server = await startTLSServer([[clientCA.certificate], [proxyCA.certificate]], async (req, raw) => {
    const anonymous = req.headers['x-test-closed'] === undefined;
    const r = await (anonymous ? open : closed)(req);
    return 'user' in r
      ? { name: r.user.name, groups: r.user.groups, leftover: Object.keys(raw.headers).filter((h) => h === 'authorization' || h.startsWith('x-remote-')) }
      : { error: r.error };
  });
  try {
    const call = (o: Parameters<typeof server.call>[0]) => server.call(o) as Promise<Record<string, unknown>>;
    const proxy = proxyCA.client('front-proxy');
    assert.deepEqual(await call({ cert: proxy, headers: { 'X-Remote-User': 'jane', 'X-Remote-Group': 'dev' } }), { name: 'jane', groups: ['dev', 'system:authenticated'], leftover: [] });
    assert.deepEqual(await call({ cert: clientCA.client('bob', ['ops']) }), { name: 'bob', groups: ['ops', 'system:authenticated'], leftover: [] });
    // A client certificate user cannot pose as someone else through the proxy headers.
    assert.deepEqual(await call({ cert: clientCA.client('bob'), headers: { 'X-Remote-User': 'admin', 'X-Remote-Group': 'system:masters' } }), { name: 'bob', groups: ['system:authenticated'], leftover: [] });
    assert.deepEqual(await call({ headers: { Authorization: 'Bearer s3cret' } }), { name: 'alice', groups: ['dev', 'system:authenticated'], leftover: [] });
    assert.deepEqual(await call({ headers: { 'X-Remote-User': 'admin' } }), { name: 'system:anonymous', groups: ['system:unauthenticated'], leftover: [] });
    assert.deepEqual(await call({ headers: { Authorization: 'Bearer wrong' } }), { error: 'invalid bearer token' });
    const stranger = await call({ cert: strangerCA.client('admin', ['system:masters']) });
    // Both certificate methods refuse it, reported together as Go's aggregate error.
    assert.match(String(stranger.error), /^\[x509: certificate signed by unknown authority, verifying certificate SN=\d+, .* failed: x509: certificate signed by unknown authority/);
    // A bad certificate next to a good token: the token decides, as in upstream's union.
    assert.equal((await call({ cert: strangerCA.client('admin'), headers: { Authorization: 'Bearer s3cret' } })).name, 'alice');
    assert.deepEqual(await call({ headers: { 'X-Test-Closed': '1' } }), { error: 'no credentials were presented and anonymous requests are not allowed' });
    assert.equal((await call({ headers: { 'X-Test-Closed': '1', Authorization: 'Bearer s3cret' } })).name, 'alice');
  } finally {
    await server.close();
  }
});
