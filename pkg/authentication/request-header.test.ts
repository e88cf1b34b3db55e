import assert from 'node:assert/strict';
import type { X509Certificate } from 'node:crypto';
import { test } from 'node:test';
import type { AuthenticationResult } from './authenticator.js';
import { requestHeaderAuthenticator, stripRequestHeaders, type RequestHeaderOptions } from './request-header.js';
import { TestCA } from './testing/ca.js';
import { authRequest } from './testing/request.js';
import { startTLSServer } from './testing/tls-server.js';

const proxyCA = TestCA.root({ commonName: 'front-proxy-ca' });
const clientCA = TestCA.root({ commonName: 'client-ca' });
const proxy = proxyCA.client('front-proxy-client');
const hour = 3600_000;

const options: RequestHeaderOptions = {
  usernameHeaders: ['X-Remote-User', 'X-Other-User'],
  uidHeaders: ['X-Remote-Uid'],
  groupHeaders: ['X-Remote-Group', 'X-Other-Group'],
  extraHeaderPrefixes: ['X-Remote-Extra-', 'X-Other-Extra-'],
  clientCA: [proxyCA.certificate],
};

const identity: Array<[string, string]> = [['X-Remote-User', 'jane'], ['X-Remote-Group', 'dev']];

function user(r: AuthenticationResult) {
  assert.equal(r.outcome, 'authenticated', JSON.stringify(r));
  return r.outcome === 'authenticated' ? r.user : assert.fail();
}

test('headers are trusted only from a certificate of the request-header CA for client authentication', async () => {
  const auth = requestHeaderAuthenticator(options);
  assert.equal(user(await auth.authenticate(authRequest(identity, proxy.chain))).name, 'jane');
  // No certificate: not this method's request.
  const plain = authRequest(identity, []);
  assert.deepEqual(await auth.authenticate(plain), { outcome: 'skipped' });
  assert.equal(plain.headers['x-remote-user'], 'jane', 'left for stripRequestHeaders');
  // A certificate of another CA (even one the client CA trusts), a server-only or expired proxy
  // certificate: upstream's Verifier fails with Go's reason (the union still asks the other methods).
  const untrusted: Array<[X509Certificate[], RegExp]> = [
    [clientCA.client('front-proxy-client').chain, /^x509: certificate signed by unknown authority/],
    [proxyCA.client('front-proxy-client', [], { extKeyUsage: ['serverAuth'] }).chain, /^x509: certificate specifies an incompatible key usage$/],
    [proxyCA.client('front-proxy-client', [], { notBefore: new Date(Date.now() - 2 * hour), notAfter: new Date(Date.now() - hour) }).chain, /^x509: certificate has expired or is not yet valid/],
  ];
  for (const [chain, reason] of untrusted) {
    const req = authRequest(identity, chain);
    const r = await auth.authenticate(req);
    assert.equal(r.outcome, 'failed');
    assert.match(r.outcome === 'failed' ? r.reason : '', reason);
    assert.equal(req.headers['x-remote-user'], 'jane', 'left for stripRequestHeaders');
  }
  // Through an intermediate of the proxy CA.
  const viaIntermediate = proxyCA.intermediate({ commonName: 'proxy-issuer' }).client('front-proxy-client');
  assert.equal(user(await auth.authenticate(authRequest(identity, viaIntermediate.chain))).name, 'jane');
});

test('allowed names restrict the proxy certificate\'s common name', async () => {
  const auth = requestHeaderAuthenticator({ ...options, allowedNames: ['front-proxy-client', 'other-proxy'] });
  assert.equal(user(await auth.authenticate(authRequest(identity, proxy.chain))).name, 'jane');
  assert.equal(user(await auth.authenticate(authRequest(identity, proxyCA.client('other-proxy').chain))).name, 'jane');
  const req = authRequest(identity, proxyCA.client('someone-else').chain);
  assert.deepEqual(await auth.authenticate(req), { outcome: 'failed', reason: 'x509: subject with cn=someone-else is not in the allowed list' });
  assert.deepEqual(
    await auth.authenticate(authRequest(identity, proxyCA.issue({ organizations: ['x'] }).chain)),
    { outcome: 'failed', reason: 'x509: subject with cn= is not in the allowed list' },
    'no CN is not an allowed name',
  );
});

test('a trusted proxy without a user header is not this method', async () => {
  const auth = requestHeaderAuthenticator(options);
  assert.deepEqual(await auth.authenticate(authRequest([['X-Remote-Group', 'dev']], proxy.chain)), { outcome: 'skipped' });
  assert.deepEqual(await auth.authenticate(authRequest([['X-Remote-User', '']], proxy.chain)), { outcome: 'skipped' });
});

test('user, uid, groups and extra are read as upstream reads them', async () => {
  const auth = requestHeaderAuthenticator({ ...options, usernameHeaders: ['x-remote-user', 'X-Other-User'] });
  const u = user(
    await auth.authenticate(
      authRequest(
        [
          ['X-Remote-User', ''], // empty: the next header is asked
          ['X-OTHER-USER', 'first'],
          ['x-other-user', 'second'], // only the first value of a header counts
          ['X-Remote-Uid', 'uid-1'],
          ['X-Remote-Group', 'a, b'], // one value is one group, commas and all
          ['x-remote-group', 'c'],
          ['X-Remote-Group', ''],
          ['X-Other-Group', 'd'],
          ['X-Remote-Extra-Acme.com%2Fproject', 'p1'],
          ['x-remote-extra-acme.com%2fproject', 'p2'],
          ['X-Remote-Extra-Scopes', 'view'],
          ['X-Remote-Extra-Scopes', ''],
          ['X-Remote-Extra-Bad%zz', 'kept'],
          ['X-Other-Extra-%E2%9C%93', 'check'],
          ['Accept', 'application/json'],
        ],
        proxy.chain,
      ),
    ),
  );
  assert.equal(u.name, 'first');
  assert.equal(u.uid, 'uid-1');
  assert.deepEqual(u.groups, ['a, b', 'c', 'd']);
  assert.deepEqual(u.extra, { 'acme.com/project': ['p1', 'p2'], scopes: ['view', ''], 'bad%zz': ['kept'], '✓': ['check'] });
});

test('after success every proxy header is removed from headers and rawHeaders; others stay', async () => {
  const auth = requestHeaderAuthenticator(options);
  const req = authRequest(
    [
      ['X-Remote-User', 'jane'],
      ['X-Other-User', 'x'],
      ['X-Remote-Uid', 'u'],
      ['X-Remote-Group', 'dev'],
      ['X-Other-Group', 'ops'],
      ['X-Remote-Extra-Foo', 'bar'],
      ['x-other-extra-baz', 'qux'],
      ['Authorization', 'Bearer abc'],
      ['Accept', 'application/json'],
    ],
    proxy.chain,
  );
  user(await auth.authenticate(req));
  assert.deepEqual(req.rawHeaders, ['Authorization', 'Bearer abc', 'Accept', 'application/json']);
  assert.deepEqual(Object.keys(req.headers).sort(), ['accept', 'authorization']);
});

test('stripRequestHeaders removes the standard and the configured proxy headers', () => {
  const req = authRequest([
    ['X-Remote-User', 'admin'],
    ['X-Remote-Uid', '0'],
    ['X-Remote-Group', 'system:masters'],
    ['X-Remote-Extra-Scope', 's'],
    ['X-Proxy-User', 'admin'],
    ['X-Proxy-Extra-A', 'b'],
    ['Accept', '*/*'],
  ]);
  stripRequestHeaders(req, { usernameHeaders: ['X-Proxy-User'], extraHeaderPrefixes: ['x-proxy-extra-'] });
  assert.deepEqual(req.rawHeaders, ['Accept', '*/*']);
  assert.deepEqual(req.headers, { accept: '*/*' });
  const plain = authRequest([['X-Remote-User', 'admin'], ['X-Proxy-User', 'admin']]);
  stripRequestHeaders(plain);
  assert.deepEqual(plain.rawHeaders, ['X-Proxy-User', 'admin'], 'without options only the standard set');
});

test('blank header names are a configuration error', () => {
  assert.throws(() => requestHeaderAuthenticator({ ...options, groupHeaders: [' '] }), /^Error: empty header " "$/);
});

test('over real TLS: the proxy\'s headers name the user; without a trusted proxy certificate they are never read', async () => {
  const auth = requestHeaderAuthenticator({ ...options, allowedNames: ['front-proxy-client'] });
  const server = await startTLSServer([[clientCA.certificate], [proxyCA.certificate]], async (req, raw) => {
    const result = await auth.authenticate(req);
    stripRequestHeaders(req, options);
    return { result, remaining: raw.rawHeaders.filter((_, i) => i % 2 === 0).map((h) => h.toLowerCase()), user: raw.headers['x-remote-user'] ?? null };
  });
  try {
    const headers = { 'X-Remote-User': 'jane', 'X-Remote-Group': ['dev', 'ops'], 'X-Remote-Extra-Team': 'blue' };
    const asProxy = (await server.call({ cert: proxy, headers })) as { result: AuthenticationResult; remaining: string[]; user: string | null };
    assert.deepEqual(asProxy.result, { outcome: 'authenticated', user: { name: 'jane', groups: ['dev', 'ops'], extra: { team: ['blue'] } } });
    assert.ok(!asProxy.remaining.some((h) => h.startsWith('x-remote-')));
    assert.equal(asProxy.user, null);
    for (const [cert, outcome] of [[undefined, 'skipped'], [clientCA.client('front-proxy-client'), 'failed'], [proxyCA.client('not-allowed'), 'failed']] as const) {
      const r = (await server.call({ ...(cert ? { cert } : {}), headers })) as { result: AuthenticationResult; remaining: string[]; user: string | null };
      assert.equal(r.result.outcome, outcome);
      assert.equal(r.user, null, 'stripped, so nothing later trusts them');
      assert.ok(!r.remaining.some((h) => h.startsWith('x-remote-')));
    }
  } finally {
    await server.close();
  }
});
