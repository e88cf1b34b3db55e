import assert from 'node:assert/strict';
import { createHmac, type KeyObject } from 'node:crypto';
import { test } from 'node:test';
import { CompactSign } from 'jose';
import { apiDomain, defaultApiDomain } from '../../../api/domain.js';
import type { AuthenticationResult } from '../authenticator.js';
import { generateTestKeyPair, type TestKeyPair } from '../testing/signing-keys.js';
import { serviceAccountTokenAuthenticator, type ServiceAccountTokenAuthenticatorOptions } from './authenticator.js';
import type { ObjectMetaLike, SecretLike, ServiceAccountLike, ServiceAccountTokenGetter } from './getter.js';
import { ServiceAccountTokenIssuer, type BoundObject } from './issuer.js';
import { keyIdFromPublicKey, type PublicKey } from './keys.js';
import { LegacyTokenGenerator } from './legacy.js';

const rsa = generateTestKeyPair('rsa');
const p256 = generateTestKeyPair('P-256');
const p384 = generateTestKeyPair('P-384');
const stranger = generateTestKeyPair('rsa');
const trusted: PublicKey[] = [rsa, p256, p384].map((p) => ({ keyId: keyIdFromPublicKey(p.publicKey), key: p.publicKey }));

const iss = 'https://orch.example.com';
const now = Date.UTC(2026, 3, 1, 10, 0, 0);
const sec = Math.floor(now / 1000);
const saUID = 'sa-uid-1';

interface World {
  serviceAccounts: Record<string, ServiceAccountLike>;
  secrets: Record<string, SecretLike>;
  pods: Record<string, ObjectMetaLike>;
}

function world(): World {
  return {
    serviceAccounts: { 'ci/builder': { metadata: { name: 'builder', namespace: 'ci', uid: saUID } } },
    secrets: { 'ci/bound-secret': { metadata: { uid: 'secret-uid' } } },
    pods: { 'ci/web-0': { metadata: { uid: 'pod-uid' } } },
  };
}

function getterOf(w: World): ServiceAccountTokenGetter {
  return {
    getServiceAccount: (ns, name) => w.serviceAccounts[`${ns}/${name}`],
    getSecret: async (ns, name) => w.secrets[`${ns}/${name}`],
    getPod: (ns, name) => w.pods[`${ns}/${name}`],
  };
}

function authn(w: World = world(), o: Partial<ServiceAccountTokenAuthenticatorOptions> = {}) {
  return serviceAccountTokenAuthenticator({
    domain: defaultApiDomain,
    issuers: [iss, 'https://old-issuer.example.com'],
    keys: trusted,
    apiAudiences: [iss],
    getter: getterOf(w),
    now: () => now,
    ...o,
  });
}

async function issue(pair: TestKeyPair = rsa, req: { audiences?: string[]; boundObject?: BoundObject; at?: number; expirationSeconds?: number; issuer?: string } = {}) {
  const issuer = new ServiceAccountTokenIssuer({ domain: defaultApiDomain, issuer: req.issuer ?? iss, signingKey: pair.privateKey, apiAudiences: [iss], newUUID: () => 'jti-1' });
  const out = await issuer.issue({ namespace: 'ci', serviceAccount: { name: 'builder', uid: saUID }, now: req.at ?? now, ...req });
  return out.token;
}

/** A token with exactly this header and these claims, signed by `key` (or unsigned for alg none). */
async function craft(header: Record<string, unknown>, claims: Record<string, unknown>, key?: KeyObject | Uint8Array): Promise<string> {
  const payload = Buffer.from(JSON.stringify(claims));
  if (!key) return `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${payload.toString('base64url')}.`;
  return new CompactSign(payload).setProtectedHeader(header as { alg: string }).sign(key);
}

function boundClaims(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    iss,
    sub: 'system:serviceaccount:ci:builder',
    aud: [iss],
    iat: sec,
    nbf: sec,
    exp: sec + 3600,
    'orch.io': { namespace: 'ci', serviceaccount: { name: 'builder', uid: saUID } },
    ...extra,
  };
}

const kid = (p: TestKeyPair) => keyIdFromPublicKey(p.publicKey);

function reasonOf(r: AuthenticationResult): string {
  assert.equal(r.outcome, 'failed', JSON.stringify(r));
  return (r as { reason: string }).reason;
}

test('a bound token of each key type authenticates as its service account', async () => {
  for (const pair of [rsa, p256, p384]) {
    const r = await authn().authenticateToken(await issue(pair), [iss]);
    assert.deepEqual(r, {
      outcome: 'authenticated',
      user: {
        name: 'system:serviceaccount:ci:builder',
        uid: saUID,
        groups: ['system:serviceaccounts', 'system:serviceaccounts:ci'],
        extra: { 'authentication.orch.io/credential-id': ['JTI=jti-1'] },
      },
      audiences: [iss],
    }, pair.kind);
  }
});

test('a pod-bound token carries the pod and node as extra', async () => {
  const token = await issue(rsa, { boundObject: { kind: 'Pod', name: 'web-0', uid: 'pod-uid', node: { name: 'node-1', uid: 'node-uid' } } });
  const r = await authn().authenticateToken(token, [iss]);
  assert.ok(r.outcome === 'authenticated', JSON.stringify(r));
  assert.deepEqual(r.user.extra, {
    'authentication.orch.io/pod-name': ['web-0'],
    'authentication.orch.io/pod-uid': ['pod-uid'],
    'authentication.orch.io/credential-id': ['JTI=jti-1'],
    'authentication.orch.io/node-name': ['node-1'],
    'authentication.orch.io/node-uid': ['node-uid'],
  });
});

test('tokens that are not ours are not ours: other issuers, other shapes', async () => {
  const a = authn();
  const notOurs = [
    '',
    'opaque-static-token',
    'abcdef.0123456789abcdef',
    'a.b.c',
    await issue(rsa, { issuer: 'https://someone-else.example.com' }),
    await craft({ alg: 'RS256', kid: kid(rsa) }, boundClaims({ iss: 'https://someone-else.example.com' }), rsa.privateKey),
    await craft({ alg: 'RS256' }, boundClaims({ iss: undefined }), rsa.privateKey),
    // The JSON serialization is not read.
    JSON.stringify({ payload: Buffer.from(JSON.stringify({ iss })).toString('base64url'), signatures: [] }),
  ];
  for (const token of notOurs) assert.deepEqual(await a.authenticateToken(token, [iss]), { outcome: 'skipped' }, token.slice(0, 60));
});

test('alg none and HMAC tokens are never accepted, even an HS256 token keyed with the public key', async () => {
  const a = authn();
  const none = await craft({ alg: 'none', kid: kid(rsa) }, boundClaims());
  assert.deepEqual(await a.authenticateToken(none, [iss]), { outcome: 'skipped' });
  for (const alg of ['HS256', 'HS384', 'HS512']) {
    // The classic confusion attack: the verifier's public key bytes used as the HMAC secret.
    for (const secret of [Buffer.from(rsa.publicPem), rsa.publicKey.export({ type: 'spki', format: 'der' })]) {
      const token = await craft({ alg, kid: kid(rsa) }, boundClaims(), new Uint8Array(secret));
      const r = await a.authenticateToken(token, [iss]);
      assert.notEqual(r.outcome, 'authenticated', alg);
      assert.deepEqual(r, { outcome: 'skipped' }, alg);
    }
  }
  // Hand-made HS256 with a matching MAC over header.payload: still not ours.
  const h = Buffer.from(JSON.stringify({ alg: 'HS256' })).toString('base64url');
  const p = Buffer.from(JSON.stringify(boundClaims())).toString('base64url');
  const mac = createHmac('sha256', rsa.publicPem).update(`${h}.${p}`).digest('base64url');
  assert.deepEqual(await a.authenticateToken(`${h}.${p}.${mac}`, [iss]), { outcome: 'skipped' });
});

test('a token signed by another key fails, whatever its kid says', async () => {
  const a = authn();
  // Its own kid names no trusted key.
  assert.equal(reasonOf(await a.authenticateToken(await issue(stranger), [iss])), 'invalid signature, no keys found');
  // A trusted key's kid does not make the signature good.
  const forged = await craft({ alg: 'RS256', kid: kid(rsa) }, boundClaims(), stranger.privateKey);
  assert.equal(reasonOf(await a.authenticateToken(forged, [iss])), 'error in cryptographic primitive');
  // Without a kid every key is tried, and all fail.
  const noKid = await craft({ alg: 'RS256' }, boundClaims(), stranger.privateKey);
  assert.equal(reasonOf(await a.authenticateToken(noKid, [iss])), '[error in cryptographic primitive, unknown/unsupported algorithm]');
  // A tampered payload fails the signature.
  const good = await issue(rsa);
  const [h, , s] = good.split('.');
  const tampered = `${h}.${Buffer.from(JSON.stringify(boundClaims({ sub: 'system:serviceaccount:ci:admin' }))).toString('base64url')}.${s}`;
  assert.equal(reasonOf(await a.authenticateToken(tampered, [iss])), 'error in cryptographic primitive');
});

test('without a kid every configured key is tried, so rotation works', async () => {
  const token = await craft({ alg: 'ES384' }, boundClaims(), p384.privateKey);
  assert.equal((await authn().authenticateToken(token, [iss])).outcome, 'authenticated');
  // ES256 claimed over a P-384 key does not verify.
  const wrongCurve = await craft({ alg: 'ES384', kid: kid(p256) }, boundClaims(), p384.privateKey);
  assert.equal(reasonOf(await authn().authenticateToken(wrongCurve, [iss])), 'error in cryptographic primitive');
});

test('the token must be meant for one of the requested audiences', async () => {
  const a = authn();
  const forVault = await issue(rsa, { audiences: ['vault'] });
  assert.equal(reasonOf(await a.authenticateToken(forVault, [iss])), 'token audiences ["vault"] is invalid for the target audiences ["https://orch.example.com"]');
  const r = await a.authenticateToken(forVault, ['vault', 'other']);
  assert.ok(r.outcome === 'authenticated');
  assert.deepEqual(r.audiences, ['vault']);
  // No requested audiences means the API server's own.
  assert.equal((await a.authenticateToken(await issue(rsa), [])).outcome, 'authenticated');
  assert.equal(reasonOf(await a.authenticateToken(forVault, [])), 'token audiences ["vault"] is invalid for the target audiences ["https://orch.example.com"]');
});

test('expiry and not-before are judged with a minute of leeway', async () => {
  const a = authn();
  const expired = await issue(rsa, { at: now - 3661_000 });
  assert.equal(reasonOf(await a.authenticateToken(expired, [iss])), 'service account token has expired');
  const justExpired = await issue(rsa, { at: now - 3659_000 });
  assert.equal((await a.authenticateToken(justExpired, [iss])).outcome, 'authenticated');
  const future = await issue(rsa, { at: now + 61_000 });
  assert.equal(reasonOf(await a.authenticateToken(future, [iss])), 'service account token is not valid yet');
  assert.equal((await a.authenticateToken(await issue(rsa, { at: now + 59_000 }), [iss])).outcome, 'authenticated');
  const issuedLater = await craft({ alg: 'RS256', kid: kid(rsa) }, boundClaims({ nbf: undefined, iat: sec + 120 }), rsa.privateKey);
  assert.equal(reasonOf(await a.authenticateToken(issuedLater, [iss])), 'service account token is issued in the future');
});

test('tokens of deleted or replaced accounts stop working', async () => {
  const token = await issue(rsa);
  const gone = world();
  delete gone.serviceAccounts['ci/builder'];
  assert.equal(reasonOf(await authn(gone).authenticateToken(token, [iss])), 'serviceaccounts "builder" not found');

  const replaced = world();
  replaced.serviceAccounts['ci/builder'] = { metadata: { uid: 'sa-uid-2' } };
  assert.equal(reasonOf(await authn(replaced).authenticateToken(token, [iss])), 'service account UID (sa-uid-2) does not match claim (sa-uid-1)');

  const deleting = world();
  deleting.serviceAccounts['ci/builder'] = { metadata: { uid: saUID, deletionTimestamp: '2026-04-01T09:58:59Z' } };
  assert.equal(reasonOf(await authn(deleting).authenticateToken(token, [iss])), 'service account ci/builder has been deleted');
  // Deleted less than the leeway ago: still accepted.
  deleting.serviceAccounts['ci/builder'] = { metadata: { uid: saUID, deletionTimestamp: '2026-04-01T09:59:30Z' } };
  assert.equal((await authn(deleting).authenticateToken(token, [iss])).outcome, 'authenticated');

  const broken = authn(world(), {
    getter: { ...getterOf(world()), getServiceAccount: () => Promise.reject(new Error('cache not synced')) },
  });
  assert.equal(reasonOf(await broken.authenticateToken(token, [iss])), 'cache not synced');
});

test('tokens bound to a Secret or Pod die with it', async () => {
  const toSecret = await issue(rsa, { boundObject: { kind: 'Secret', name: 'bound-secret', uid: 'secret-uid' } });
  const toPod = await issue(rsa, { boundObject: { kind: 'Pod', name: 'web-0', uid: 'pod-uid' } });
  assert.equal((await authn().authenticateToken(toSecret, [iss])).outcome, 'authenticated');
  assert.equal((await authn().authenticateToken(toPod, [iss])).outcome, 'authenticated');

  const w = world();
  delete w.secrets['ci/bound-secret'];
  delete w.pods['ci/web-0'];
  assert.equal(reasonOf(await authn(w).authenticateToken(toSecret, [iss])), 'service account token has been invalidated');
  assert.equal(reasonOf(await authn(w).authenticateToken(toPod, [iss])), 'service account token has been invalidated');

  const recreated = world();
  recreated.secrets['ci/bound-secret'] = { metadata: { uid: 'secret-uid-2' } };
  recreated.pods['ci/web-0'] = { metadata: { uid: 'pod-uid-2' } };
  assert.equal(reasonOf(await authn(recreated).authenticateToken(toSecret, [iss])), 'secret UID (secret-uid-2) does not match service account secret ref claim (secret-uid)');
  assert.equal(reasonOf(await authn(recreated).authenticateToken(toPod, [iss])), 'pod UID (pod-uid-2) does not match service account pod ref claim (pod-uid)');

  const terminating = world();
  terminating.secrets['ci/bound-secret'] = { metadata: { uid: 'secret-uid', deletionTimestamp: '2026-04-01T09:00:00Z' } };
  terminating.pods['ci/web-0'] = { metadata: { uid: 'pod-uid', deletionTimestamp: '2026-04-01T09:00:00Z' } };
  assert.equal(reasonOf(await authn(terminating).authenticateToken(toSecret, [iss])), 'service account token has been invalidated');
  assert.equal(reasonOf(await authn(terminating).authenticateToken(toPod, [iss])), 'service account token has been invalidated');
});

test('bound tokens are checked against the cluster even with --service-account-lookup=false', async () => {
  const w = world();
  delete w.serviceAccounts['ci/builder'];
  assert.equal(reasonOf(await authn(w, { lookup: false }).authenticateToken(await issue(rsa), [iss])), 'serviceaccounts "builder" not found');
});

test('every --service-account-issuer is accepted; tokens of the first and later ones alike', async () => {
  const old = await issue(p256, { issuer: 'https://old-issuer.example.com' });
  assert.equal((await authn().authenticateToken(old, [iss])).outcome, 'authenticated');
});

test('claims of the wrong type make the token unreadable', async () => {
  for (const extra of [{ aud: 5 }, { exp: '2026' }, { sub: ['x'] }, { 'orch.io': 'ci' }, { 'orch.io': { namespace: 'ci', serviceaccount: { name: 7 } } }]) {
    const token = await craft({ alg: 'RS256', kid: kid(rsa) }, boundClaims(extra), rsa.privateKey);
    const r = await authn().authenticateToken(token, [iss]);
    assert.equal(r.outcome, 'failed', JSON.stringify(extra));
  }
  // A single audience as a string is fine.
  assert.equal((await authn().authenticateToken(await craft({ alg: 'RS256', kid: kid(rsa) }, boundClaims({ aud: iss }), rsa.privateKey), [iss])).outcome, 'authenticated');
});

test('reasons never contain the token', async () => {
  const tokens = [await issue(stranger), await issue(rsa, { audiences: ['vault'] }), await issue(rsa, { at: now - 10_000_000 })];
  for (const token of tokens) {
    const reason = reasonOf(await authn().authenticateToken(token, [iss]));
    for (const part of token.split('.')) assert.ok(!reason.includes(part), reason);
  }
});

function legacyWorld(token: string, secret: Partial<SecretLike['metadata']> = {}): World {
  const w = world();
  w.secrets['ci/builder-token-abc'] = {
    metadata: { name: 'builder-token-abc', uid: 'legacy-secret-uid', ...secret },
    data: { token: Buffer.from(token).toString('base64') },
  };
  return w;
}

test('legacy Secret tokens authenticate while their Secret holds them and the account lives', async () => {
  const token = await new LegacyTokenGenerator(defaultApiDomain, rsa.privateKey).generate({ namespace: 'ci', name: 'builder', uid: saUID }, 'builder-token-abc');
  const r = await authn(legacyWorld(token)).authenticateToken(token, [iss]);
  assert.deepEqual(r, {
    outcome: 'authenticated',
    user: { name: 'system:serviceaccount:ci:builder', uid: saUID, groups: ['system:serviceaccounts', 'system:serviceaccounts:ci'], extra: {} },
    audiences: [iss],
  });

  // Legacy tokens are the API server's only.
  assert.equal(reasonOf(await authn(legacyWorld(token)).authenticateToken(token, ['vault'])), 'token audiences ["https://orch.example.com"] is invalid for the target audiences ["vault"]');

  const other = await new LegacyTokenGenerator(defaultApiDomain, rsa.privateKey).generate({ namespace: 'ci', name: 'builder', uid: saUID }, 'builder-token-abc');
  const rotated = legacyWorld(`${other}x`);
  assert.equal(reasonOf(await authn(rotated).authenticateToken(token, [iss])), "Token does not match server's copy");

  const noSecret = world();
  assert.equal(reasonOf(await authn(noSecret).authenticateToken(token, [iss])), 'Token has been invalidated');
  assert.equal(reasonOf(await authn(legacyWorld(token, { deletionTimestamp: '2026-04-01T09:59:59Z' })).authenticateToken(token, [iss])), 'Token has been invalidated');

  const replaced = legacyWorld(token);
  replaced.serviceAccounts['ci/builder'] = { metadata: { uid: 'sa-uid-2' } };
  assert.equal(reasonOf(await authn(replaced).authenticateToken(token, [iss])), 'ServiceAccount UID (sa-uid-2) does not match claim (sa-uid-1)');
  const deleting = legacyWorld(token);
  deleting.serviceAccounts['ci/builder'] = { metadata: { uid: saUID, deletionTimestamp: '2026-04-01T09:59:59Z' } };
  assert.equal(reasonOf(await authn(deleting).authenticateToken(token, [iss])), 'ServiceAccount ci/builder has been deleted');
  const noAccount = legacyWorld(token);
  delete noAccount.serviceAccounts['ci/builder'];
  assert.equal(reasonOf(await authn(noAccount).authenticateToken(token, [iss])), 'serviceaccounts "builder" not found');

  const marked = legacyWorld(token, { labels: { 'orch.io/legacy-token-invalid-since': '2026-01-01' } });
  assert.match(reasonOf(await authn(marked).authenticateToken(token, [iss])), /^the token in secret ci\/builder-token-abc for service account ci\/builder has been marked invalid\./);

  // Without lookup, a deleted Secret does not matter.
  assert.equal((await authn(world(), { lookup: false }).authenticateToken(token, [iss])).outcome, 'authenticated');
});

test('legacy tokens need all their claims and a matching subject', async () => {
  const base = {
    iss: 'orch/serviceaccount',
    sub: 'system:serviceaccount:ci:builder',
    'orch.io/serviceaccount/namespace': 'ci',
    'orch.io/serviceaccount/secret.name': 'builder-token-abc',
    'orch.io/serviceaccount/service-account.name': 'builder',
    'orch.io/serviceaccount/service-account.uid': saUID,
  };
  const cases: [Record<string, unknown>, string][] = [
    [{ sub: undefined }, 'sub claim is missing'],
    [{ 'orch.io/serviceaccount/namespace': undefined }, 'namespace claim is missing'],
    [{ 'orch.io/serviceaccount/secret.name': undefined }, 'secretName claim is missing'],
    [{ 'orch.io/serviceaccount/service-account.name': undefined }, 'serviceAccountName claim is missing'],
    [{ 'orch.io/serviceaccount/service-account.uid': undefined }, 'serviceAccountUID claim is missing'],
    [{ sub: 'system:serviceaccount:other:builder' }, 'sub claim is invalid'],
    [{ sub: 'jane' }, 'sub claim is invalid'],
  ];
  for (const [change, reason] of cases) {
    const token = await craft({ alg: 'RS256', kid: kid(rsa) }, { ...base, ...change }, rsa.privateKey);
    assert.equal(reasonOf(await authn(legacyWorld(token), { lookup: false }).authenticateToken(token, [iss])), reason);
  }
  // Upstream's legacy issuer is not ours, and ours is not upstream's.
  const upstream = await new LegacyTokenGenerator(apiDomain('k8s.io'), rsa.privateKey).generate({ namespace: 'ci', name: 'builder', uid: saUID }, 'builder-token-abc');
  assert.deepEqual(await authn(legacyWorld(upstream)).authenticateToken(upstream, [iss]), { outcome: 'skipped' });
  assert.equal((await authn(legacyWorld(upstream), { domain: apiDomain('k8s.io') }).authenticateToken(upstream, [iss])).outcome, 'authenticated');
});
