import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type JWK, type JWTPayload } from 'jose';
import { defaultApiDomain } from '../../../api/domain.js';
import type { AuthenticationResult } from '../authenticator.js';
import { eventually } from '../../util/testing/eventually.js';
import { startTestHttpsServer, sendJSON, type TestHttpsServer } from '../testing/https-server.js';
import { createTestCA, issueLoopbackServerCert, type TestCA } from '../testing/pki.js';
import { OIDCAuthenticator } from './authenticator.js';
import type { OIDCOptions } from './options.js';

type SigningKey = { kid: string; alg: string; privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey']; jwk: JWK; publicPem: string };

async function newKey(alg: 'RS256' | 'ES256' | 'PS256', kid: string = randomUUID()): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  return { kid, alg, privateKey, jwk, publicPem: await exportSPKI(publicKey) };
}

/** An OIDC provider on a real HTTPS server: discovery plus a JWKS whose contents tests change. */
class Provider {
  keys: JWK[] = [];
  discoveryStatus = 200;
  discoveryIssuer?: string;
  constructor(readonly server: TestHttpsServer) {
    server.setHandler((req, res) => {
      if (req.url === '/.well-known/openid-configuration') {
        if (this.discoveryStatus !== 200) return sendJSON(res, this.discoveryStatus, { error: 'unavailable' });
        return sendJSON(res, 200, { issuer: this.discoveryIssuer ?? this.issuer, jwks_uri: `${this.issuer}/keys`, id_token_signing_alg_values_supported: ['RS256'] });
      }
      if (req.url === '/keys') return sendJSON(res, 200, { keys: this.keys });
      sendJSON(res, 404, {});
    });
  }
  get issuer(): string {
    return this.server.url;
  }
  jwksFetches(): number {
    return this.server.requests.filter((r) => r.url === '/keys').length;
  }
  discoveryFetches(): number {
    return this.server.requests.filter((r) => r.url === '/.well-known/openid-configuration').length;
  }
}

async function sign(key: SigningKey, claims: JWTPayload, header: Record<string, unknown> = {}): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT', ...header }).sign(key.privateKey);
}

function unsigned(claims: JWTPayload): string {
  const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${enc({ alg: 'none', typ: 'JWT' })}.${enc(claims)}.`;
}

function assertFailed(r: AuthenticationResult, pattern: RegExp): void {
  assert.equal(r.outcome, 'failed', JSON.stringify(r));
  if (r.outcome === 'failed') assert.match(r.reason, pattern);
}

function assertUser(r: AuthenticationResult): { name: string; groups: string[]; extra: Record<string, string[]> } {
  assert.equal(r.outcome, 'authenticated', JSON.stringify(r));
  if (r.outcome !== 'authenticated') throw new Error('unreachable');
  return r.user;
}

describe('OIDC token authenticator against a real HTTPS provider', () => {
  let dir: string;
  let ca: TestCA;
  let caFile: string;
  let provider: Provider;
  let rsa: SigningKey;
  let ec: SigningKey;
  let clock = Date.now();
  const now = () => clock;
  const sec = () => Math.floor(clock / 1000);
  const open: OIDCAuthenticator[] = [];

  const claims = (extra: JWTPayload = {}): JWTPayload => ({ iss: provider.issuer, aud: 'orch', sub: 'jane', iat: sec(), exp: sec() + 600, ...extra });

  async function authenticator(opts: Partial<OIDCOptions> = {}, wait = true): Promise<OIDCAuthenticator> {
    const a = new OIDCAuthenticator({ issuerURL: provider.issuer, clientID: 'orch', caFile, domain: defaultApiDomain, now, initRetryIntervalMs: 20, ...opts });
    open.push(a);
    if (wait) await eventually(() => a.healthCheck() === undefined, 'the authenticator to initialize');
    return a;
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'oidc-test-'));
    ca = createTestCA('oidc-test-ca');
    caFile = join(dir, 'ca.crt');
    writeFileSync(caFile, ca.cert);
    const serving = issueLoopbackServerCert(ca);
    provider = new Provider(await startTestHttpsServer({ ...serving, handler: () => undefined }));
    rsa = await newKey('RS256');
    ec = await newKey('ES256');
    provider.keys = [rsa.jwk, ec.jwk];
  });

  after(async () => {
    for (const a of open) a.close();
    await provider.server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a valid RS256 token names the user, prefixed by the issuer for claims other than email', async () => {
    const a = await authenticator({ groupsClaim: 'groups' });
    const user = assertUser(await a.authenticateToken(await sign(rsa, claims({ groups: ['dev', 'ops'], jti: 'abc-1' })), []));
    assert.equal(user.name, `${provider.issuer}#jane`);
    assert.deepEqual(user.groups, ['dev', 'ops']);
    assert.deepEqual(user.extra, { 'authentication.orch.io/credential-id': ['JTI=abc-1'] });
  });

  test('audience may be a string or an array containing the client id; any other audience fails', async () => {
    const a = await authenticator();
    assertUser(await a.authenticateToken(await sign(rsa, claims({ aud: ['other', 'orch'] })), []));
    assertFailed(await a.authenticateToken(await sign(rsa, claims({ aud: 'other' })), []), /^oidc: verify token: oidc: expected audience "orch" got \["other"\]$/);
    assertFailed(await a.authenticateToken(await sign(rsa, claims({ aud: undefined })), []), /expected audience "orch" got \[\]/);
  });

  test('a token of another issuer, or something that is not a JWT, is skipped for other authenticators', async () => {
    const a = await authenticator();
    assert.deepEqual(await a.authenticateToken(await sign(rsa, claims({ iss: 'https://elsewhere.example' })), []), { outcome: 'skipped' });
    assert.deepEqual(await a.authenticateToken(await sign(rsa, claims({ iss: undefined })), []), { outcome: 'skipped' });
    for (const t of ['abcdef', 'a.b', 'x.!!!.y', `{"iss":"${provider.issuer}"}`, `e30.${Buffer.from('[1]').toString('base64url')}.e30`, '']) {
      assert.deepEqual(await a.authenticateToken(t, []), { outcome: 'skipped' }, t);
    }
  });

  test('expired tokens fail; not-before is honoured with one minute of leeway, as go-oidc does', async () => {
    const a = await authenticator();
    assertFailed(await a.authenticateToken(await sign(rsa, claims({ exp: sec() - 1 })), []), /^oidc: verify token: oidc: token is expired \(Token Expiry: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+0000 UTC\)$/);
    assertFailed(await a.authenticateToken(await sign(rsa, claims({ exp: undefined })), []), /token is expired \(Token Expiry: 0001-01-01/);
    assertFailed(await a.authenticateToken(await sign(rsa, claims({ nbf: sec() + 120 })), []), /current time .* before the nbf \(not before\) time/);
    assertUser(await a.authenticateToken(await sign(rsa, claims({ nbf: sec() + 30 })), []));
    assertFailed(await a.authenticateToken(await sign(rsa, claims({ iat: 'yesterday' as unknown as number })), []), /cannot unmarshal string into Go struct field idToken.iat/);
  });

  test('alg none, HMAC keyed with the public key, and disallowed algorithms are refused', async () => {
    const a = await authenticator();
    assertFailed(await a.authenticateToken(unsigned(claims()), []), /^oidc: verify token: oidc: id token signed with unsupported algorithm, expected \["RS256"\] got "none"$/);
    const hs = await new SignJWT(claims()).setProtectedHeader({ alg: 'HS256', kid: rsa.kid }).sign(new TextEncoder().encode(rsa.publicPem));
    assertFailed(await a.authenticateToken(hs, []), /unsupported algorithm, expected \["RS256"\] got "HS256"/);
    assertFailed(await a.authenticateToken(await sign(ec, claims()), []), /unsupported algorithm, expected \["RS256"\] got "ES256"/);
    for (const alg of ['none', 'HS256', 'HS512']) {
      assert.throws(() => new OIDCAuthenticator({ issuerURL: provider.issuer, clientID: 'orch', domain: defaultApiDomain, signingAlgs: ['RS256', alg] }), /oidc: unsupported signing alg/);
    }
  });

  test('ECDSA tokens verify when ES256 is allowed; a tampered payload does not', async () => {
    const a = await authenticator({ signingAlgs: ['ES256', 'RS256'] });
    const token = await sign(ec, claims());
    assertUser(await a.authenticateToken(token, []));
    const [h, , s] = token.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify(claims({ sub: 'admin' }))).toString('base64url')}.${s}`;
    assertFailed(await a.authenticateToken(forged, []), /^oidc: verify token: failed to verify signature: failed to verify id token signature$/);
    // An RSA key's id with an ES256 header: the key cannot verify it.
    assertFailed(await a.authenticateToken(await sign(ec, claims(), { kid: rsa.kid }), []), /failed to verify signature/);
  });

  test('an unknown key id fetches the key set once, then fails; again soon after, it does not fetch', async () => {
    const a = await authenticator();
    const stranger = await newKey('RS256', 'not-published');
    clock += 11_000;
    const before = provider.jwksFetches();
    assertFailed(await a.authenticateToken(await sign(stranger, claims()), []), /failed to verify id token signature/);
    assert.equal(provider.jwksFetches(), before + 1);
    assertFailed(await a.authenticateToken(await sign(stranger, claims()), []), /failed to verify id token signature/);
    assert.equal(provider.jwksFetches(), before + 1, 'a second unknown kid within the interval does not fetch');
  });

  test('a flood of tokens with random key ids costs at most one fetch per interval', async () => {
    const a = await authenticator();
    const stranger = await newKey('RS256');
    clock += 11_000;
    const before = provider.jwksFetches();
    const concurrent = await Promise.all(Array.from({ length: 40 }, async () => a.authenticateToken(await sign(stranger, claims(), { kid: randomUUID() }), [])));
    for (const r of concurrent) assertFailed(r, /failed to verify/);
    for (let i = 0; i < 40; i++) assertFailed(await a.authenticateToken(await sign(stranger, claims(), { kid: randomUUID() }), []), /failed to verify/);
    assert.ok(provider.jwksFetches() - before <= 1, `fetched ${provider.jwksFetches() - before} times`);
    // Valid tokens keep working throughout.
    assertUser(await a.authenticateToken(await sign(rsa, claims()), []));
  });

  test('key rotation: a new key id is fetched on first use; background refresh drops retired keys', async () => {
    const a = await authenticator({ keyRefreshIntervalMs: 30 });
    const next = await newKey('RS256');
    provider.keys = [rsa.jwk, ec.jwk, next.jwk];
    clock += 11_000;
    assertUser(await a.authenticateToken(await sign(next, claims()), []));
    const fetches = provider.jwksFetches();
    await eventually(() => provider.jwksFetches() >= fetches + 2, 'background key refreshes');
    provider.keys = [next.jwk, ec.jwk];
    const retiredToken = await sign(rsa, claims());
    await eventually(async () => (await a.authenticateToken(retiredToken, [])).outcome === 'failed', 'the retired key to stop verifying');
    assertUser(await a.authenticateToken(await sign(next, claims()), []));
    provider.keys = [rsa.jwk, ec.jwk];
  });

  test('until discovery succeeds, our tokens fail as not initialized; other issuers are still skipped', async () => {
    provider.discoveryStatus = 503;
    try {
      const a = await authenticator({}, false);
      await eventually(() => provider.discoveryFetches() >= 2, 'discovery to be retried');
      await eventually(() => /not healthy: oidc: failed to query provider discovery: .*503/.test(a.healthCheck() ?? ''), 'the failure to be reported');
      assertFailed(await a.authenticateToken(await sign(rsa, claims()), []), /^oidc: authenticator not initialized$/);
      assert.equal((await a.authenticateToken(await sign(rsa, claims({ iss: 'https://other.example' })), [])).outcome, 'skipped');
      provider.discoveryStatus = 200;
      await eventually(() => a.healthCheck() === undefined, 'initialization after the provider recovers');
      assertUser(await a.authenticateToken(await sign(rsa, claims()), []));
    } finally {
      provider.discoveryStatus = 200;
    }
  });

  test('a discovery document naming another issuer never initializes', async () => {
    provider.discoveryIssuer = 'https://impostor.example';
    try {
      const a = await authenticator({}, false);
      await eventually(() => /issuer did not match the issuer returned by provider/.test(a.healthCheck() ?? ''), 'the issuer mismatch to be reported');
      assertFailed(await a.authenticateToken(await sign(rsa, claims()), []), /not initialized/);
    } finally {
      provider.discoveryIssuer = undefined;
    }
  });

  test('a provider certificate from another CA is not trusted', async () => {
    const otherCA = createTestCA('other-ca');
    const otherFile = join(dir, 'other.crt');
    writeFileSync(otherFile, otherCA.cert);
    const a = await authenticator({ caFile: otherFile }, false);
    await eventually(() => /certificate/.test(a.healthCheck() ?? ''), 'the TLS failure to be reported');
    assertFailed(await a.authenticateToken(await sign(rsa, claims()), []), /not initialized/);
  });

  test('required claims must be present, strings, and equal', async () => {
    const a = await authenticator({ requiredClaims: { hd: 'example.com', tier: 'gold' } });
    assertUser(await a.authenticateToken(await sign(rsa, claims({ hd: 'example.com', tier: 'gold' })), []));
    assertFailed(await a.authenticateToken(await sign(rsa, claims({ hd: 'example.com' })), []), /^oidc: required claim tier not present in ID token$/);
    assertFailed(await a.authenticateToken(await sign(rsa, claims({ hd: 'evil.com', tier: 'gold' })), []), /^oidc: required claim hd value does not match. Got = evil.com, want = example.com$/);
    assertFailed(await a.authenticateToken(await sign(rsa, claims({ hd: 'example.com', tier: 3 })), []), /^oidc: parse claim tier: json: cannot unmarshal number into Go value of type string$/);
  });

  test('username and group prefixes, and "-" to disable the default prefix', async () => {
    const plain = await authenticator({ usernamePrefix: '-' });
    assert.equal(assertUser(await plain.authenticateToken(await sign(rsa, claims()), [])).name, 'jane');
    const custom = await authenticator({ usernamePrefix: 'oidc:', groupsClaim: 'roles', groupsPrefix: 'oidc:' });
    const u = assertUser(await custom.authenticateToken(await sign(rsa, claims({ roles: 'admin' })), []));
    assert.equal(u.name, 'oidc:jane');
    assert.deepEqual(u.groups, ['oidc:admin'], 'a single string is one group');
    assert.deepEqual(assertUser(await custom.authenticateToken(await sign(rsa, claims()), [])).groups, [], 'no groups claim, no groups');
    assertFailed(await custom.authenticateToken(await sign(rsa, claims({ roles: [1, 2] })), []), /^oidc: parse groups claim "roles": json: cannot unmarshal array into Go value of type string$/);
    const byName = await authenticator({ usernameClaim: 'preferred_username' });
    assert.equal(assertUser(await byName.authenticateToken(await sign(rsa, claims({ preferred_username: 'jd' })), [])).name, `${provider.issuer}#jd`);
    assertFailed(await byName.authenticateToken(await sign(rsa, claims()), []), /^oidc: parse username claims "preferred_username": claim not present$/);
    assertFailed(await byName.authenticateToken(await sign(rsa, claims({ preferred_username: 42 })), []), /cannot unmarshal number into Go value of type string/);
  });

  test('with the email claim: no default prefix, and email_verified must be true when present', async () => {
    const a = await authenticator({ usernameClaim: 'email' });
    assert.equal(assertUser(await a.authenticateToken(await sign(rsa, claims({ email: 'jane@example.com' })), [])).name, 'jane@example.com');
    assert.equal(assertUser(await a.authenticateToken(await sign(rsa, claims({ email: 'jane@example.com', email_verified: true })), [])).name, 'jane@example.com');
    assertFailed(await a.authenticateToken(await sign(rsa, claims({ email: 'jane@example.com', email_verified: false })), []), /^oidc: email not verified$/);
    assertFailed(await a.authenticateToken(await sign(rsa, claims({ email: 'jane@example.com', email_verified: 'true' })), []), /^oidc: parse 'email_verified' claim: json: cannot unmarshal string into Go value of type bool$/);
  });

  test('no failure reason ever contains the token', async () => {
    const a = await authenticator();
    const tokens = [await sign(rsa, claims({ exp: sec() - 10 })), await sign(rsa, claims({ aud: 'x' })), unsigned(claims()), await sign(rsa, claims({ sub: 7 as unknown as string }))];
    for (const t of tokens) {
      const r = await a.authenticateToken(t, []);
      assert.equal(r.outcome, 'failed');
      if (r.outcome === 'failed') {
        assert.ok(!r.reason.includes(t) && !r.reason.includes(t.split('.')[2] || '\u0000'), r.reason);
      }
    }
  });
});
