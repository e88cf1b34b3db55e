import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { test } from 'node:test';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { apiDomain, defaultApiDomain } from '../../../api/domain.js';
import { isStatusError } from '../../runtime/errors.js';
import { generateTestKeyPair } from '../testing/signing-keys.js';
import { ExpirationExtensionSeconds, ServiceAccountTokenIssuer, tokenRequestErrors, type TokenIssuerOptions } from './issuer.js';
import { keyIdFromPublicKey } from './keys.js';
import { LegacyTokenGenerator } from './legacy.js';

const rsa = generateTestKeyPair('rsa');
const p256 = generateTestKeyPair('P-256');
const p384 = generateTestKeyPair('P-384');
const issuerUrl = 'https://orch.example.com';
const now = Date.UTC(2026, 0, 1, 12, 0, 0, 700);
const nowSeconds = Math.floor(now / 1000);
const sa = { name: 'builder', uid: '11111111-2222-3333-4444-555555555555' };

function issuer(o: Partial<TokenIssuerOptions> = {}) {
  return new ServiceAccountTokenIssuer({ domain: defaultApiDomain, issuer: issuerUrl, signingKey: rsa.privateKey, apiAudiences: [issuerUrl], ...o });
}

/** Verified independently of our verifier: jose against the public key, RS/ES only. */
async function claimsOf(token: string, publicKey = rsa.publicKey) {
  const { payload, protectedHeader } = await jwtVerify(token, publicKey, { algorithms: ['RS256', 'ES256', 'ES384'], currentDate: new Date(now) });
  return { payload: payload as Record<string, unknown>, header: protectedHeader };
}

test('a token carries iss, sub, aud, exp, iat, nbf, jti and the private claim, signed under the key id', async () => {
  const out = await issuer({ newUUID: () => 'the-jti' }).issue({ namespace: 'ci', serviceAccount: sa, audiences: ['vault', 'api'], expirationSeconds: 1800, now });
  const { payload, header } = await claimsOf(out.token);
  assert.deepEqual(header, { alg: 'RS256', kid: keyIdFromPublicKey(rsa.publicKey) });
  assert.deepEqual(payload, {
    aud: ['vault', 'api'],
    exp: nowSeconds + 1800,
    iat: nowSeconds,
    iss: issuerUrl,
    jti: 'the-jti',
    nbf: nowSeconds,
    'orch.io': { namespace: 'ci', serviceaccount: { name: 'builder', uid: sa.uid } },
    sub: 'system:serviceaccount:ci:builder',
  });
  // Claims come out in go-jose's order: sorted.
  const raw = JSON.parse(Buffer.from(out.token.split('.')[1]!, 'base64url').toString()) as object;
  assert.deepEqual(Object.keys(raw), ['aud', 'exp', 'iat', 'iss', 'jti', 'nbf', 'orch.io', 'sub']);
  assert.equal(out.expirationTimestamp, '2026-01-01T12:30:00Z');
  assert.deepEqual(out.audiences, ['vault', 'api']);
  assert.equal(out.expirationSeconds, 1800);
  assert.deepEqual(out.warnings, []);
});

test('defaults: one hour, the API server audiences, a random jti per token', async () => {
  const i = issuer({ apiAudiences: ['https://a', 'https://b'] });
  const one = await i.issue({ namespace: 'ci', serviceAccount: sa, now });
  const two = await i.issue({ namespace: 'ci', serviceAccount: sa, audiences: [], now });
  const a = (await claimsOf(one.token)).payload;
  const b = (await claimsOf(two.token)).payload;
  assert.equal((a['exp'] as number) - (a['iat'] as number), 3600);
  assert.deepEqual(a['aud'], ['https://a', 'https://b']);
  assert.deepEqual(one.audiences, ['https://a', 'https://b']);
  assert.match(a['jti'] as string, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.notEqual(a['jti'], b['jti']);
  assert.equal(one.expirationTimestamp, '2026-01-01T13:00:00Z');
});

test('lifetimes under ten minutes or over 2^32 seconds are 422 Invalid, worded as upstream', async () => {
  await assert.rejects(issuer().issue({ namespace: 'ci', serviceAccount: sa, expirationSeconds: 599, now }), (e: unknown) => {
    assert.ok(isStatusError(e));
    assert.equal(e.code, 422);
    assert.equal(e.message, 'TokenRequest.authentication.orch.io "" is invalid: spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes');
    return true;
  });
  assert.deepEqual(tokenRequestErrors(600), []);
  assert.deepEqual(tokenRequestErrors(2 ** 32), []);
  assert.equal(tokenRequestErrors(2 ** 32 + 1)[0]!.detail, 'may not specify a duration larger than 2^32 seconds');
  await assert.rejects(issuer({ domain: apiDomain('k8s.io') }).issue({ namespace: 'ci', serviceAccount: sa, expirationSeconds: 0, now }), /TokenRequest\.authentication\.k8s\.io "" is invalid/);
});

test('a request over --service-account-max-token-expiration is shortened to it, with a warning', async () => {
  const out = await issuer({ maxExpirationSeconds: 7200 }).issue({ namespace: 'ci', serviceAccount: sa, expirationSeconds: 86400, now });
  const { payload } = await claimsOf(out.token);
  assert.equal(payload['exp'], nowSeconds + 7200);
  assert.equal(out.expirationSeconds, 7200);
  assert.deepEqual(out.warnings, ['requested expiration of 86400 seconds shortened to 7200 seconds']);
  const under = await issuer({ maxExpirationSeconds: 7200 }).issue({ namespace: 'ci', serviceAccount: sa, expirationSeconds: 7200, now });
  assert.deepEqual(under.warnings, []);
});

test('projected pod tokens of 3607 seconds for the API server live a year, warning after 3607 seconds', async () => {
  const pod = { kind: 'Pod' as const, name: 'web-0', uid: 'pod-uid', node: { name: 'node-1', uid: 'node-uid' } };
  const out = await issuer({ maxExpirationSeconds: 7200 }).issue({ namespace: 'ci', serviceAccount: sa, expirationSeconds: 3607, boundObject: pod, now });
  const { payload } = await claimsOf(out.token);
  assert.equal(payload['exp'], nowSeconds + ExpirationExtensionSeconds);
  assert.deepEqual(payload['orch.io'], {
    namespace: 'ci',
    node: { name: 'node-1', uid: 'node-uid' },
    pod: { name: 'web-0', uid: 'pod-uid' },
    serviceaccount: { name: 'builder', uid: sa.uid },
    warnafter: nowSeconds + 3607,
  });
  // The status still reports what was asked for.
  assert.equal(out.expirationSeconds, 3607);
  assert.equal(out.expirationTimestamp, '2026-01-01T13:00:07Z');

  const exp = async (o: Partial<TokenIssuerOptions>, req: object) =>
    (await claimsOf((await issuer(o).issue({ namespace: 'ci', serviceAccount: sa, expirationSeconds: 3607, now, ...req })).token)).payload['exp'];
  assert.equal(await exp({ extendExpiration: false }, { boundObject: pod }), nowSeconds + 3607, 'extension off');
  assert.equal(await exp({}, { boundObject: pod, audiences: ['vault'] }), nowSeconds + 3607, 'not for other audiences');
  assert.equal(await exp({}, {}), nowSeconds + 3607, 'not for unbound tokens');
  assert.equal(await exp({}, { boundObject: { kind: 'Secret', name: 's', uid: 'u' } }), nowSeconds + 3607, 'not for secret-bound tokens');
  assert.equal(await exp({ maxExtendedExpirationSeconds: 86400 }, { boundObject: pod }), nowSeconds + 86400, 'extension length is an option');
  assert.equal(await exp({ maxExpirationSeconds: 3600 }, { boundObject: pod }), nowSeconds + 3600, 'a cap below 3607 prevents it');
});

test('secret-bound tokens name the Secret; node information without a uid is kept as a name', async () => {
  const s = await issuer().issue({ namespace: 'ci', serviceAccount: sa, boundObject: { kind: 'Secret', name: 'sa-token', uid: 'secret-uid' }, now });
  assert.deepEqual((await claimsOf(s.token)).payload['orch.io'], {
    namespace: 'ci',
    secret: { name: 'sa-token', uid: 'secret-uid' },
    serviceaccount: { name: 'builder', uid: sa.uid },
  });
  const p = await issuer().issue({ namespace: 'ci', serviceAccount: sa, boundObject: { kind: 'Pod', name: 'p', uid: 'pu', node: { name: 'gone-node' } }, now });
  assert.deepEqual(((await claimsOf(p.token)).payload['orch.io'] as Record<string, unknown>)['node'], { name: 'gone-node' });
});

test('ECDSA keys sign with the algorithm of their curve; the claim follows the domain', async () => {
  for (const [pair, alg] of [[p256, 'ES256'], [p384, 'ES384']] as const) {
    const out = await issuer({ signingKey: pair.privateKey }).issue({ namespace: 'ci', serviceAccount: sa, now });
    assert.deepEqual(decodeProtectedHeader(out.token), { alg, kid: keyIdFromPublicKey(pair.publicKey) });
    await claimsOf(out.token, pair.publicKey);
  }
  const k8s = await issuer({ domain: apiDomain('k8s.io') }).issue({ namespace: 'ci', serviceAccount: sa, now });
  assert.ok('kubernetes.io' in (await claimsOf(k8s.token)).payload);
});

test('keys that cannot sign are refused up front', () => {
  assert.throws(() => issuer({ signingKey: generateKeyPairSync('ed25519').privateKey }), /could not generate signer for private key: unknown key type ed25519/);
  assert.throws(() => issuer({ signingKey: generateKeyPairSync('ec', { namedCurve: 'secp224r1' }).privateKey }), {
    message: 'could not generate signer for ECDSA keypair: unknown private key curve, must be 256, 384, or 521',
  });
  assert.throws(() => issuer({ signingKey: rsa.publicKey }), /private key is needed/);
});

test('legacy tokens for Secrets: the legacy issuer and claims in the domain, no audience, no expiry', async () => {
  const token = await new LegacyTokenGenerator(defaultApiDomain, p256.privateKey).generate({ namespace: 'ci', name: 'builder', uid: sa.uid }, 'builder-token-x7');
  const { payload, protectedHeader } = await jwtVerify(token, p256.publicKey, { algorithms: ['ES256'] });
  assert.deepEqual(protectedHeader, { alg: 'ES256', kid: keyIdFromPublicKey(p256.publicKey) });
  assert.deepEqual(payload, {
    iss: 'orch/serviceaccount',
    'orch.io/serviceaccount/namespace': 'ci',
    'orch.io/serviceaccount/secret.name': 'builder-token-x7',
    'orch.io/serviceaccount/service-account.name': 'builder',
    'orch.io/serviceaccount/service-account.uid': sa.uid,
    sub: 'system:serviceaccount:ci:builder',
  });
  const upstream = await new LegacyTokenGenerator(apiDomain('k8s.io'), rsa.privateKey).generate({ namespace: 'ci', name: 'b', uid: 'u' }, 's');
  const claims = (await jwtVerify(upstream, rsa.publicKey)).payload;
  assert.equal(claims.iss, 'kubernetes/serviceaccount');
  assert.equal(claims['kubernetes.io/serviceaccount/secret.name'], 's');
});
