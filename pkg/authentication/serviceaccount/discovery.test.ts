import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { test } from 'node:test';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { defaultApiDomain } from '../../../api/domain.js';
import { generateTestKeyPair } from '../testing/signing-keys.js';
import { JWKSPath, OpenIDConfigPath, openIDMetadata, type OpenIDMetadataOptions } from './discovery.js';
import { ServiceAccountTokenIssuer } from './issuer.js';
import { keyIdFromPublicKey, type PublicKey } from './keys.js';

const rsa = generateTestKeyPair('rsa');
const p256 = generateTestKeyPair('P-256');
const p521 = generateTestKeyPair('P-521');
const keys: PublicKey[] = [p256, rsa, p521].map((p) => ({ keyId: keyIdFromPublicKey(p.publicKey), key: p.publicKey }));
const issuer = 'https://orch.example.com';

function metadata(o: Partial<OpenIDMetadataOptions> = {}) {
  return openIDMetadata({ issuer, externalAddress: '10.0.0.1:6443', keys, ...o });
}

test('the provider configuration names the issuer, the key set and the algorithms of the keys', () => {
  assert.equal(OpenIDConfigPath, '/.well-known/openid-configuration');
  assert.equal(JWKSPath, '/openid/v1/jwks');
  const { configuration } = metadata();
  assert.deepEqual(configuration, {
    issuer,
    jwks_uri: 'https://10.0.0.1:6443/openid/v1/jwks',
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['ES256', 'ES512', 'RS256'],
  });
  assert.deepEqual(Object.keys(configuration), ['issuer', 'jwks_uri', 'response_types_supported', 'subject_types_supported', 'id_token_signing_alg_values_supported']);
  assert.equal(metadata({ jwksUri: 'https://keys.example.com/jwks' }).configuration.jwks_uri, 'https://keys.example.com/jwks');
});

test('the key set holds each public key as a JWK with kid, use and alg, and nothing private', () => {
  const { keySet } = metadata();
  assert.equal(keySet.keys.length, 3);
  const [ec, r, big] = keySet.keys;
  assert.deepEqual(Object.keys(ec!), ['use', 'kty', 'kid', 'crv', 'alg', 'x', 'y']);
  assert.deepEqual({ ...ec, x: undefined, y: undefined }, { use: 'sig', kty: 'EC', kid: keys[0]!.keyId, crv: 'P-256', alg: 'ES256', x: undefined, y: undefined });
  assert.deepEqual(Object.keys(r!), ['use', 'kty', 'kid', 'alg', 'n', 'e']);
  assert.equal(r!.e, 'AQAB');
  assert.equal(r!.kid, keys[1]!.keyId);
  assert.equal(big!.crv, 'P-521');
  // Coordinates are padded to the curve size (66 bytes for P-521).
  assert.equal(Buffer.from(big!.x!, 'base64url').length, 66);
  for (const k of keySet.keys) assert.ok(!('d' in k) && !('p' in k));
});

test('a relying party can verify issued tokens with the published key set alone', async () => {
  const jwks = createLocalJWKSet(JSON.parse(JSON.stringify(metadata().keySet)));
  for (const pair of [rsa, p256, p521]) {
    const t = await new ServiceAccountTokenIssuer({ domain: defaultApiDomain, issuer, signingKey: pair.privateKey, apiAudiences: ['sts.example.com'] }).issue({
      namespace: 'ci',
      serviceAccount: { name: 'builder', uid: 'u' },
    });
    const { payload } = await jwtVerify(t.token, jwks, { issuer, audience: 'sts.example.com' });
    assert.equal(payload.sub, 'system:serviceaccount:ci:builder');
  }
});

test('the documents are not served for issuers that are not https URLs, or without keys', () => {
  const cases: [Partial<OpenIDMetadataOptions>, string][] = [
    [{ issuer: '' }, 'empty issuer URL'],
    [{ issuer: 'orch' }, 'issuer URL must use https scheme, got: orch'],
    [{ issuer: 'http://orch.example.com' }, 'issuer URL must use https scheme, got: http://orch.example.com'],
    [{ issuer: 'https://orch.example.com/?a=b' }, 'issuer URL may not include a query, got: https://orch.example.com/?a=b'],
    [{ issuer: 'https://orch.example.com/#f' }, 'issuer URL may not include a fragment, got: https://orch.example.com/#f'],
    [{ externalAddress: undefined }, 'either the JWKS URI or the default external address, or both, must be set'],
    [{ jwksUri: 'http://keys.example.com/jwks' }, 'jwksURI requires https scheme, parsed as: http://keys.example.com/jwks'],
    [{ externalAddress: 'https://10.0.0.1' }, 'attempted to build jwks_uri from external address https://10.0.0.1, but could not construct a valid URL'],
    [{ keys: [] }, 'no keys provided for validating keyset'],
  ];
  for (const [o, message] of cases) assert.throws(() => metadata(o), { message }, message);
  const p224 = generateKeyPairSync('ec', { namedCurve: 'secp224r1' }).publicKey;
  assert.throws(() => metadata({ keys: [...keys, { keyId: 'x', key: p224 }] }), { message: 'error constructing JWK for key #3: unknown private key curve, must be 256, 384, or 521' });
  // A path on the issuer is fine.
  assert.equal(metadata({ issuer: 'https://orch.example.com/clusters/a' }).configuration.issuer, 'https://orch.example.com/clusters/a');
});
