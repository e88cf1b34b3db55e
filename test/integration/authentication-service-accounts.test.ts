// Service account tokens through the real server: the TokenRequest rules (lifetimes, the maximum
// of --service-account-max-token-expiration, missing accounts, bound Secrets, dry run), the
// issuer's OIDC discovery documents that let others verify the tokens, and the stock kubectl
// (`create token`, `auth whoami`) against a server speaking upstream's group names with anonymous
// requests off and a static token in the kubeconfig.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { defaultAuthenticationOptions } from '../../cmd/apiserver/app/authentication-options.js';
import { generateTestKeyPair, tempFiles } from '../../pkg/authentication/testing/signing-keys.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { freePort } from './framework/etcd.js';
import { assertStatus } from './framework/assertions.js';
import { assertUnauthorized, issueToken, pollUntil, requestToken, whoami } from './framework/authentication.js';
import type { Client } from './framework/client.js';
import { decodeJWT, resigned } from './framework/forged-tokens.js';
import { writeKubeconfig, type Kubeconfig } from './framework/kubeconfig.js';
import { Kubectl } from './framework/kubectl.js';

const issuer = 'https://sa-issuer.example.test';
const adminToken = 'admin-token-e21b7f9c04a3';
const ns = 'default';

describe('service account tokens', () => {
  const files = tempFiles('orch-sa-');
  const signing = generateTestKeyPair('rsa');
  // A verification-only key (e.g. of an issuer instance being retired): its tokens are accepted too.
  const retired = generateTestKeyPair('P-256');
  let t: TestServer;
  let admin: Client;
  let kc: Kubeconfig;
  let kubectl: Kubectl;

  before(async () => {
    t = await startTestServer({
      // A port known before start: the default JWKS URI of the discovery document names it.
      securePort: await freePort(),
      apiDomain: 'k8s.io',
      authentication: {
        ...defaultAuthenticationOptions(),
        anonymousAuth: false,
        tokenAuthFile: files.write('tokens.csv', `${adminToken},admin,admin-uid,"system:masters,ops"\n`),
        serviceAccountIssuers: [issuer],
        serviceAccountKeyFiles: [files.write('sa.pub', signing.publicPem + retired.publicPem)],
        serviceAccountSigningKeyFile: files.write('sa.key', signing.pkcs8Pem),
        serviceAccountMaxTokenExpirationMs: 2 * 3600_000,
      },
    });
    admin = t.client.withToken(adminToken);
    for (const name of ['robot', 'cli-robot']) {
      const r = await admin.post(`/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name } });
      assert.equal(r.status, 201, r.text);
    }
    kc = writeKubeconfig(t, adminToken);
    kubectl = new Kubectl(kc);
  });
  after(async () => {
    kc?.remove();
    await t?.stop();
    files.remove();
  });

  describe('TokenRequest', () => {
    test('a pod gets its projected token volume from the ServiceAccount plug-in; a token bound to it names it and dies with it', async () => {
      const created = await admin.post(`/api/v1/namespaces/${ns}/pods`, {
        metadata: { name: 'token-pod' },
        spec: { serviceAccountName: 'robot', containers: [{ name: 'app', image: 'registry.example/app:1' }] },
      });
      assert.equal(created.status, 201, created.text);
      const pod = created.body;
      const volume = pod.spec.volumes.find((v: { name: string }) => v.name.startsWith('kube-api-access-'));
      assert.match(volume.name, /^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      assert.deepEqual(volume.projected, {
        defaultMode: 420,
        sources: [
          { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
          { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
          { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
        ],
      });
      assert.deepEqual(pod.spec.containers[0].volumeMounts, [{ name: volume.name, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }]);

      // What the kubelet asks for the volume's token source.
      const ref = { kind: 'Pod', apiVersion: 'v1', name: 'token-pod', uid: pod.metadata.uid };
      const token = await issueToken(t, admin, ns, 'robot', { expirationSeconds: 3607, boundObjectRef: ref });
      const priv = decodeJWT(token).claims['kubernetes.io'] as Record<string, any>;
      assert.deepEqual(priv.pod, { name: 'token-pod', uid: pod.metadata.uid });
      const user = await whoami(t, t.client.withToken(token));
      assert.equal(user.username, `system:serviceaccount:${ns}:robot`);
      assert.deepEqual(user.extra?.['authentication.kubernetes.io/pod-name'], ['token-pod']);
      assert.deepEqual(user.extra?.['authentication.kubernetes.io/pod-uid'], [pod.metadata.uid]);

      const other = await requestToken(t, admin, ns, 'cli-robot', { boundObjectRef: ref });
      assertStatus(other, 400, 'BadRequest');
      assert.equal(other.body.message, 'cannot bind token for serviceaccount "cli-robot" to pod running with different serviceaccount name.');

      assert.equal((await admin.delete(`/api/v1/namespaces/${ns}/pods/token-pod`)).status, 200);
      await pollUntil(() => t.client.withToken(token).get('/api/v1/namespaces'), (r) => r.status === 401, 'the pod-bound token to stop working', 25_000); // success cached 10s, as upstream
    });

    test('without expirationSeconds a token lives an hour, for the API server\'s audiences', async () => {
      const before = Math.floor(Date.now() / 1000);
      const r = await requestToken(t, admin, ns, 'robot');
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.kind, 'TokenRequest');
      assert.equal(r.body.spec.expirationSeconds, 3600);
      assert.deepEqual(r.body.spec.audiences, [issuer]);
      const { claims } = decodeJWT(r.body.status.token);
      assert.equal(Number(claims.exp) - Number(claims.iat), 3600);
      assert.ok(Number(claims.iat) >= before);
      assert.equal(Date.parse(r.body.status.expirationTimestamp) / 1000, claims.exp);
      assert.equal((await whoami(t, t.client.withToken(r.body.status.token))).username, `system:serviceaccount:${ns}:robot`);
    });

    test('less than ten minutes is refused with 422; ten minutes is fine', async () => {
      const short = await requestToken(t, admin, ns, 'robot', { expirationSeconds: 599 });
      assertStatus(short, 422, 'Invalid');
      assert.deepEqual(short.body.details.causes.map((c: { field: string }) => c.field), ['spec.expirationSeconds']);
      assert.match(short.body.message, /may not specify a duration less than 10 minutes/);
      assert.equal((await requestToken(t, admin, ns, 'robot', { expirationSeconds: 600 })).status, 201);
    });

    test('more than --service-account-max-token-expiration is shortened to it, with a warning', async () => {
      const r = await requestToken(t, admin, ns, 'robot', { expirationSeconds: 10_800 });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.spec.expirationSeconds, 7200);
      assert.equal(r.headers.warning, '299 - "requested expiration of 10800 seconds shortened to 7200 seconds"');
      const { claims } = decodeJWT(r.body.status.token);
      assert.equal(Number(claims.exp) - Number(claims.iat), 7200);
    });

    test('a missing service account is 404', async () => {
      const r = await requestToken(t, admin, ns, 'nobody');
      assertStatus(r, 404, 'NotFound');
      assert.equal(r.body.message, 'serviceaccounts "nobody" not found');
    });

    test('a bound Secret of another uid is 409; a missing one 404', async () => {
      const s = await admin.post(`/api/v1/namespaces/${ns}/secrets`, { metadata: { name: 'binding' } });
      assert.equal(s.status, 201, s.text);
      const ref = { kind: 'Secret', apiVersion: 'v1', name: 'binding' };
      const stale = await requestToken(t, admin, ns, 'robot', { boundObjectRef: { ...ref, uid: '00000000-0000-0000-0000-000000000000' } });
      assertStatus(stale, 409, 'Conflict');
      assert.match(stale.body.message, /does not match the UID in record/);
      assertStatus(await requestToken(t, admin, ns, 'robot', { boundObjectRef: { ...ref, name: 'gone' } }), 404, 'NotFound');
      assert.equal((await requestToken(t, admin, ns, 'robot', { boundObjectRef: { ...ref, uid: s.body.metadata.uid } })).status, 201);
    });

    test('a dry run answers without a token', async () => {
      const r = await requestToken(t, admin, ns, 'robot', { expirationSeconds: 1200 }, '?dryRun=All');
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.kind, 'TokenRequest');
      assert.equal(r.body.status?.token ?? '', '');
    });
  });

  describe('the issuer\'s discovery documents', () => {
    test('the provider configuration and key set, and a TokenRequest token verifies against them with jose', async () => {
      assertUnauthorized(await t.client.get('/.well-known/openid-configuration'), [], 'without credentials (anonymous requests are off)');
      const config = await admin.get('/.well-known/openid-configuration');
      assert.equal(config.status, 200, config.text);
      assert.match(String(config.headers['content-type']), /^application\/json/);
      assert.equal(config.headers['cache-control'], 'public, max-age=3600');
      assert.deepEqual(config.body, {
        issuer,
        jwks_uri: `https://127.0.0.1:${t.server.port}/openid/v1/jwks`,
        response_types_supported: ['id_token'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['ES256', 'RS256'],
      });

      const jwks = await admin.get('/openid/v1/jwks');
      assert.equal(jwks.status, 200, jwks.text);
      assert.match(String(jwks.headers['content-type']), /^application\/jwk-set\+json/);
      const keys = jwks.body.keys as Array<Record<string, string>>;
      assert.deepEqual(keys.map((k) => [k.kty, k.alg, k.use]).sort(), [['EC', 'ES256', 'sig'], ['RSA', 'RS256', 'sig']]);
      assert.ok(keys.every((k) => !('d' in k)), 'public keys only');

      const token = await issueToken(t, admin, ns, 'robot', { audiences: ['vault'] });
      const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet(jwks.body as JSONWebKeySet), { issuer, audience: 'vault' });
      assert.equal(payload.sub, `system:serviceaccount:${ns}:robot`);
      assert.equal(protectedHeader.alg, 'RS256');
      assert.ok(keys.some((k) => k.kid === protectedHeader.kid), 'the token names a served key');
      await assert.rejects(jwtVerify(token, createLocalJWKSet(jwks.body as JSONWebKeySet), { issuer, audience: issuer }), /aud/);

      // The verification-only key of the key file is served too, and tokens it signed are accepted.
      const ec = keys.find((k) => k.kty === 'EC')!;
      const forAPI = await issueToken(t, admin, ns, 'robot');
      const byRetired = await resigned(forAPI, {}, retired.privateKey, { alg: 'ES256', kid: ec.kid });
      assert.equal((await whoami(t, t.client.withToken(byRetired))).username, `system:serviceaccount:${ns}:robot`);
    });
  });

  describe('kubectl', () => {
    test('kubectl auth whoami with the kubeconfig\'s static token', async () => {
      const r = await kubectl.ok(['auth', 'whoami', '-o', 'json']);
      const review = JSON.parse(r.stdout);
      assert.equal(review.kind, 'SelfSubjectReview');
      assert.deepEqual(review.status.userInfo, { username: 'admin', uid: 'admin-uid', groups: ['system:masters', 'ops', 'system:authenticated'] });
    });

    test('kubectl create token, and that token used by kubectl and over HTTPS', async () => {
      const r = await kubectl.ok(['create', 'token', 'cli-robot', '-n', ns, '--duration', '20m', '--audience', issuer, '--audience', 'vault']);
      const token = r.stdout.trim();
      const { claims } = decodeJWT(token);
      assert.equal(Number(claims.exp) - Number(claims.iat), 1200);
      assert.deepEqual(claims.aud, [issuer, 'vault']);
      const user = `system:serviceaccount:${ns}:cli-robot`;
      assert.equal((await whoami(t, t.client.withToken(token))).username, user);
      const who = await kubectl.ok(['--token', token, 'auth', 'whoami', '-o', 'json']);
      assert.equal(JSON.parse(who.stdout).status.userInfo.username, user);
      // Too short a duration: kubectl shows the server's refusal.
      const short = await kubectl.run(['create', 'token', 'cli-robot', '-n', ns, '--duration', '5m']);
      assert.notEqual(short.code, 0, short.describe());
      assert.match(short.stderr, /may not specify a duration less than 10 minutes/);
    });

    test('kubectl with an unknown token is refused', async () => {
      const r = await kubectl.run(['--token', 'unknown-token-1a2b3c4d', 'auth', 'whoami']);
      assert.notEqual(r.code, 0, r.describe());
      assert.match(r.stderr, /Unauthorized|must be logged in/);
    });
  });
});
