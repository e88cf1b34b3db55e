// Authentication through the real server (spec 5.1-5.9, 2.8, 2.12, 3.3): every method configured
// from the flags' options, with real credentials (certificates of test CAs, a token file, bootstrap
// token Secrets, TokenRequest tokens, ID tokens of a real OIDC provider, a real token webhook, an
// authenticating proxy's certificate), spoken to over HTTPS. Each identity is the one the server
// reports back through SelfSubjectReview; each refusal is a plain 401 that repeats the credential
// neither in the answer nor in the server's log. TokenReview is answered by the same authenticators.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { defaultAuthenticationOptions } from '../../cmd/apiserver/app/authentication-options.js';
import { TestCA } from '../../pkg/authentication/testing/ca.js';
import { generateTestKeyPair, tempFiles } from '../../pkg/authentication/testing/signing-keys.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { assertBadRequest } from './framework/assertions.js';
import {
  assertNotRepeated, assertUnauthorized, authenticationAPI, domainOf, issueToken, pemFragments, pollUntil, selfSubjectReview, tokenReview, whoami,
  type ReviewedUser,
} from './framework/authentication.js';
import type { Client, ClientCredentials } from './framework/client.js';
import { decodeJWT, hs256, resigned, unsigned } from './framework/forged-tokens.js';
import { startOIDCProvider, type OIDCProvider, type ProviderAlg } from './framework/oidc-provider.js';
import { startTokenWebhook, type TokenWebhook } from './framework/token-webhook.js';

const hour = 3600_000;
const ns = 'authn';
const saIssuer = 'https://sa-issuer.example.test';
const oidcClientID = 'orch-login';

const tokens = {
  admin: 'admin-token-5b8e21f0c94d',
  alice: 'alice-token-0c7d19a3e6f2',
};
// Quoted group lists, as operators write them (spec 5.2).
const tokenFile = [`${tokens.admin},admin,admin-uid,"system:masters,ops"`, `${tokens.alice},alice,alice-uid,"devs,ops"`].join('\n');

const clientCA = TestCA.root({ commonName: 'client-ca' });
// Same name, another key: only the signature tells them apart.
const impostorCA = TestCA.root({ commonName: 'client-ca' });
const proxyCA = TestCA.root({ commonName: 'front-proxy-ca' });
const proxy = proxyCA.client('front-proxy-client');
const saSigning = generateTestKeyPair('rsa');
const saVerifyOnly = generateTestKeyPair('P-256');

const b64 = (s: string) => Buffer.from(s).toString('base64');
const bootstrapSecret = (t: TestServer, id: string, data: Record<string, string>) => ({
  metadata: { name: `bootstrap-token-${id}` },
  type: domainOf(t).key('token', 'bootstrap'),
  data: Object.fromEntries(Object.entries({ 'token-id': id, 'token-secret': '0123456789abcdef', ...data }).map(([k, v]) => [k, b64(v)])),
});

describe('authentication through the real server', () => {
  const files = tempFiles('orch-authn-');
  let t: TestServer;
  /** anonymous-auth=false, a token file only. */
  let closed: TestServer;
  let oidc: OIDCProvider;
  let webhook: TokenWebhook;
  let admin: Client;

  before(async () => {
    [oidc, webhook] = await Promise.all([startOIDCProvider(), startTokenWebhook((n, c) => files.write(n, c))]);
    const base = defaultAuthenticationOptions();
    const tokenAuthFile = files.write('tokens.csv', tokenFile);
    [t, closed] = await Promise.all([
      startTestServer({
        authentication: {
          ...base,
          clientCAFile: files.write('client-ca.pem', clientCA.certPem),
          tokenAuthFile,
          enableBootstrapTokenAuth: true,
          serviceAccountIssuers: [saIssuer],
          serviceAccountKeyFiles: [files.write('sa.pub', saSigning.publicPem + saVerifyOnly.publicPem)],
          serviceAccountSigningKeyFile: files.write('sa.key', saSigning.privatePem),
          oidc: {
            ...base.oidc,
            issuerURL: oidc.issuer,
            clientID: oidcClientID,
            usernameClaim: 'preferred_username',
            usernamePrefix: 'oidc:',
            groupsClaim: 'groups',
            groupsPrefix: 'oidc:',
            requiredClaims: { tier: 'gold' },
            caFile: files.write('oidc-ca.pem', oidc.caPem),
            signingAlgs: ['RS256', 'ES256'],
          },
          webhookConfigFile: webhook.kubeconfigPath,
          requestHeader: {
            usernameHeaders: ['X-Remote-User'],
            groupHeaders: ['X-Remote-Group'],
            extraHeadersPrefix: ['X-Remote-Extra-'],
            clientCAFile: files.write('front-proxy-ca.pem', proxyCA.certPem),
            allowedNames: ['front-proxy-client'],
          },
        },
      }),
      startTestServer({ authentication: { ...base, anonymousAuth: false, tokenAuthFile } }),
    ]);
    admin = t.client.withToken(tokens.admin);
    assert.equal((await admin.post('/api/v1/namespaces', { metadata: { name: ns } })).status, 201);
    assert.equal((await admin.post(`/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: 'builder' } })).status, 201);
  });
  after(async () => {
    await Promise.all([t?.stop(), closed?.stop(), oidc?.close(), webhook?.close()]);
    files.remove();
  });

  const credentialIdKey = () => domainOf(t).key('credential-id', 'authentication');
  /** Polls until the server knows who `client` is (caches and the OIDC provider's keys load in the background). */
  const eventuallyWhoami = async (client: Client): Promise<ReviewedUser> => {
    const r = await pollUntil(() => selfSubjectReview(t, client), (r) => r.status === 201, 'the credential to be accepted');
    return r.body.status.userInfo as ReviewedUser;
  };
  const idToken = (claims: Record<string, unknown> = {}, alg: ProviderAlg = 'RS256') => {
    const now = Math.floor(Date.now() / 1000);
    const all: Record<string, unknown> = { iss: oidc.issuer, aud: oidcClientID, sub: 'u-1001', preferred_username: 'carol', groups: ['admins', 'dba'], tier: 'gold', iat: now, exp: now + 600, ...claims };
    for (const [k, v] of Object.entries(claims)) if (v === undefined) delete all[k];
    return oidc.sign(all, alg);
  };

  describe('each method names the user', () => {
    test('a client certificate: CN the user, each O a group, system:authenticated added', async () => {
      const cert = clientCA.client('jane', ['devs', 'ops']);
      const user = await whoami(t, t.client.withCredentials({ tls: { cert: cert.certPem, key: cert.keyPem } }));
      assert.equal(user.username, 'jane');
      assert.deepEqual(user.groups, ['devs', 'ops', 'system:authenticated']);
      assert.match(user.extra?.[credentialIdKey()]?.[0] ?? '', /^X509SHA256=[0-9a-f]{64}$/);
      // A certificate through an intermediate the client sends along.
      const viaIntermediate = clientCA.intermediate({ commonName: 'team-ca' }).client('joe');
      assert.equal((await whoami(t, t.client.withCredentials({ tls: { cert: viaIntermediate.chainPem, key: viaIntermediate.keyPem } }))).username, 'joe');
    });

    test('a static token file with quoted groups', async () => {
      assert.deepEqual(await whoami(t, t.client.withToken(tokens.alice)), { username: 'alice', uid: 'alice-uid', groups: ['devs', 'ops', 'system:authenticated'] });
      // The scheme is case-insensitive.
      assert.equal((await whoami(t, t.client.withCredentials({ headers: { Authorization: `bearer ${tokens.alice}` } }))).username, 'alice');
    });

    test('a bootstrap token of a Secret in orch-system with its extra groups', async () => {
      const r = await admin.post('/api/v1/namespaces/orch-system/secrets', bootstrapSecret(t, 'abcdef', {
        'usage-bootstrap-authentication': 'true',
        'auth-extra-groups': 'system:bootstrappers:worker,system:bootstrappers:edge',
        expiration: new Date(Date.now() + hour).toISOString().replace(/\.\d+Z$/, 'Z'),
      }));
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(await eventuallyWhoami(t.client.withToken('abcdef.0123456789abcdef')), {
        username: 'system:bootstrap:abcdef',
        // Sorted and de-duplicated, as upstream's GetGroups lists them.
        groups: ['system:bootstrappers', 'system:bootstrappers:edge', 'system:bootstrappers:worker', 'system:authenticated'],
      });
    });

    test('a service account token from TokenRequest, with audiences and a lifetime, or bound to a Secret', async () => {
      const sa = await admin.get(`/api/v1/namespaces/${ns}/serviceaccounts/builder`);
      const token = await issueToken(t, admin, ns, 'builder', { audiences: [saIssuer, 'vault'], expirationSeconds: 1200 });
      const { claims } = decodeJWT(token);
      assert.equal(Number(claims.exp) - Number(claims.iat), 1200);
      assert.deepEqual(claims.aud, [saIssuer, 'vault']);
      const user = await eventuallyWhoami(t.client.withToken(token));
      assert.deepEqual(user, {
        username: `system:serviceaccount:${ns}:builder`,
        uid: sa.body.metadata.uid,
        groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`, 'system:authenticated'],
        extra: { [credentialIdKey()]: [`JTI=${String(claims.jti)}`] },
      });

      const secret = await admin.post(`/api/v1/namespaces/${ns}/secrets`, { metadata: { name: 'builder-binding' }, stringData: { a: 'b' } });
      assert.equal(secret.status, 201, secret.text);
      const bound = await issueToken(t, admin, ns, 'builder', { boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'builder-binding', uid: secret.body.metadata.uid } });
      const priv = decodeJWT(bound).claims[domainOf(t).keyDomain] as Record<string, any>;
      assert.deepEqual(priv.secret, { name: 'builder-binding', uid: secret.body.metadata.uid });
      assert.equal((await eventuallyWhoami(t.client.withToken(bound))).username, `system:serviceaccount:${ns}:builder`);
    });

    test('an OIDC ID token signed with RSA or ECDSA, with claim prefixes and the required claim', async () => {
      for (const alg of ['RS256', 'ES256'] as const) {
        const user = await eventuallyWhoami(t.client.withToken(await idToken({ jti: `id-${alg}` }, alg)));
        assert.deepEqual(user, {
          username: 'oidc:carol',
          groups: ['oidc:admins', 'oidc:dba', 'system:authenticated'],
          extra: { [credentialIdKey()]: [`JTI=id-${alg}`] },
        }, alg);
      }
    });

    test('a token webhook, sent the TokenReview of spec 2.8 with the API server\'s client certificate', async () => {
      const token = 'webhook-token-8e4f0a61d2';
      webhook.answer(token, { authenticated: { username: 'wendy', uid: 'w-1', groups: ['hooked'], extra: { team: ['blue'] } } });
      assert.deepEqual(await whoami(t, t.client.withToken(token)), { username: 'wendy', uid: 'w-1', groups: ['hooked', 'system:authenticated'], extra: { team: ['blue'] } });
      const [call] = webhook.reviewsOf(token);
      assert.ok(call, 'the webhook was called');
      assert.equal(call.request.method, 'POST');
      assert.equal(call.request.url, '/authenticate');
      assert.match(String(call.request.headers['content-type']), /^application\/json/);
      assert.equal(call.request.clientCN, webhook.clientName);
      assert.equal(call.review.apiVersion, authenticationAPI(t));
      assert.equal(call.review.kind, 'TokenReview');
      assert.deepEqual(call.review.spec, { token, audiences: [saIssuer] }, 'the API server\'s audiences (--api-audiences defaults to the issuer)');
      // The answer is cached: a second request does not call again.
      await whoami(t, t.client.withToken(token));
      assert.equal(webhook.reviewsOf(token).length, 1);
    });

    test('an authenticating proxy: user, groups and extra from headers, trusted for its certificate only', async () => {
      const creds: ClientCredentials = {
        tls: { cert: proxy.certPem, key: proxy.keyPem },
        headers: {
          'X-Remote-User': 'proxied-user',
          'X-Remote-Group': ['g1', 'g2'],
          'X-Remote-Extra-Scopes': ['read', 'write'],
          'X-Remote-Extra-Acme.com%2Fproject': 'p1',
          // A bearer token beside the proxy's word: the proxy is asked first, and the header is dropped.
          Authorization: `Bearer ${tokens.alice}`,
        },
      };
      assert.deepEqual(await whoami(t, t.client.withCredentials(creds)), {
        username: 'proxied-user',
        groups: ['g1', 'g2', 'system:authenticated'],
        extra: { scopes: ['read', 'write'], 'acme.com/project': ['p1'] },
      });
      // A user's own certificate with proxy headers is that user: the headers are not the proxy's.
      const jane = clientCA.client('jane');
      const user = await whoami(t, t.client.withCredentials({ tls: { cert: jane.certPem, key: jane.keyPem }, headers: { 'X-Remote-User': 'mallory-asserted', 'X-Remote-Group': 'system:masters' } }));
      assert.equal(user.username, 'jane');
      assert.deepEqual(user.groups, ['system:authenticated']);
    });

    test('no credentials: system:anonymous in system:unauthenticated', async () => {
      assert.deepEqual(await whoami(t, t.client), { username: 'system:anonymous', groups: ['system:unauthenticated'] });
    });
  });

  test('every refused way in is a 401 that repeats the credential neither in the answer nor in the log', async () => {
    const now = Math.floor(Date.now() / 1000);
    const withCert = (c: { certPem: string; chainPem: string; keyPem: string }, headers: Record<string, string> = {}) => ({
      client: t.client.withCredentials({ tls: { cert: c.chainPem, key: c.keyPem }, headers }),
      secrets: pemFragments(c.certPem),
    });
    const withToken = (token: string, server = t) => ({ client: server.client.withToken(token), secrets: [token] });
    /** A token that worked, then stopped working after `revoke`. */
    const revoked = async (token: string, revoke: () => Promise<void>) => {
      await eventuallyWhoami(t.client.withToken(token));
      await revoke();
      // As upstream, a success is cached for 10 seconds: the token may work that long after it last did.
      await pollUntil(() => selfSubjectReview(t, t.client.withToken(token)), (r) => r.status === 401, 'the token to be refused', 25_000);
      return withToken(token);
    };
    const deleted = async (path: string) => assert.equal((await admin.delete(path)).status, 200);
    const saToken = await issueToken(t, admin, ns, 'builder');
    const oidcToken = await idToken();
    for (const id of ['nouse1', 'expird']) {
      const data: Record<string, string> = id === 'nouse1' ? {} : { 'usage-bootstrap-authentication': 'true', expiration: '2020-01-01T00:00:00Z' };
      assert.equal((await admin.post('/api/v1/namespaces/orch-system/secrets', bootstrapSecret(t, id, data))).status, 201);
    }
    const webhookToken = (name: string, behaviour: Parameters<TokenWebhook['answer']>[1]) => {
      const token = `webhook-${name}-3c9a7e5b10`;
      webhook.answer(token, behaviour);
      return withToken(token);
    };
    const asserted = 'mallory-asserted';

    interface Way {
      name: string;
      /** The client presenting the credential, and what must never be repeated. */
      prepare: () => Promise<{ client: Client; secrets: string[] }> | { client: Client; secrets: string[] };
      /** Not refused but served as anonymous (a credential no method reads). */
      anonymous?: true;
      server?: TestServer;
      /** What the operator reads in the log about it. */
      logged?: string;
    }
    const ways: Way[] = [
      { name: 'a certificate of another CA with the same name', prepare: () => withCert(impostorCA.client('eve', ['system:masters'])), logged: 'x509: certificate signed by unknown authority' },
      { name: 'an expired certificate', prepare: () => withCert(clientCA.client('jane', [], { notBefore: new Date(Date.now() - 2 * hour), notAfter: new Date(Date.now() - hour) })), logged: 'x509: certificate has expired or is not yet valid' },
      { name: 'a certificate not for client authentication', prepare: () => withCert(clientCA.client('jane', [], { extKeyUsage: ['serverAuth'] })), logged: 'x509: certificate specifies an incompatible key usage' },
      { name: 'an unknown static token', prepare: () => withToken('unknown-token-4f1e0d2c') },
      { name: 'a malformed token', prepare: () => withToken('not-a-jwt.%%%.!!!') },
      { name: 'a JWT whose claims are not JSON', prepare: () => withToken(`${b64('{"alg":"RS256"}')}.${Buffer.from('not json at all').toString('base64url')}.c2lnbmF0dXJl`) },
      { name: 'a service account token for another audience', prepare: async () => withToken(await issueToken(t, admin, ns, 'builder', { audiences: ['vault'] })), logged: 'token audiences' },
      { name: 'a service account token of another issuer', prepare: async () => withToken(await resigned(saToken, { iss: 'https://evil.example.test' }, saSigning.privateKey)) },
      { name: 'a service account token with alg none', prepare: () => withToken(unsigned(saToken)) },
      { name: 'a service account token HS256-signed with the public key', prepare: () => withToken(hs256(saToken, saSigning.publicPem)) },
      { name: 'a service account token signed by another key', prepare: async () => withToken(await resigned(saToken, {}, generateTestKeyPair('rsa').privateKey)) },
      { name: 'an expired service account token', prepare: async () => withToken(await resigned(saToken, { iat: now - 7200, nbf: now - 7200, exp: now - 3600 }, saSigning.privateKey)), logged: 'service account token has expired' },
      {
        name: 'the token of a deleted service account',
        prepare: async () => {
          assert.equal((await admin.post(`/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: 'doomed' } })).status, 201);
          return revoked(await issueToken(t, admin, ns, 'doomed'), () => deleted(`/api/v1/namespaces/${ns}/serviceaccounts/doomed`));
        },
      },
      {
        name: 'a token bound to a deleted Secret',
        prepare: async () => {
          const s = await admin.post(`/api/v1/namespaces/${ns}/secrets`, { metadata: { name: 'short-lived' } });
          const token = await issueToken(t, admin, ns, 'builder', { boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'short-lived', uid: s.body.metadata.uid } });
          return revoked(token, () => deleted(`/api/v1/namespaces/${ns}/secrets/short-lived`));
        },
      },
      { name: 'an ID token for another client', prepare: async () => withToken(await idToken({ aud: 'someone-else' })), logged: 'oidc: expected audience' },
      { name: 'an ID token of another issuer', prepare: async () => withToken(await idToken({ iss: 'https://127.0.0.1:1' })) },
      { name: 'an expired ID token', prepare: async () => withToken(await idToken({ iat: now - 7200, exp: now - 3600 })), logged: 'oidc: token is expired' },
      { name: 'an ID token with alg none', prepare: () => withToken(unsigned(oidcToken)) },
      { name: 'an ID token HS256-signed with the provider\'s public key', prepare: () => withToken(hs256(oidcToken, oidc.keys.RS256.publicPem)) },
      { name: 'an ID token without the required claim', prepare: async () => withToken(await idToken({ tier: undefined })), logged: 'required claim tier not present' },
      { name: 'a bootstrap token not marked for authentication', prepare: () => withToken('nouse1.0123456789abcdef') },
      { name: 'an expired bootstrap token', prepare: () => withToken('expird.0123456789abcdef') },
      { name: 'a bootstrap token with the wrong secret', prepare: () => withToken('abcdef.fedcba9876543210') },
      { name: 'a token the webhook refuses with an error', prepare: () => webhookToken('refused', { refused: 'the token was revoked' }), logged: 'the token was revoked' },
      { name: 'a webhook answering 503', prepare: () => webhookToken('unavailable', { status: 503 }), logged: 'the server is currently unable to handle the request' },
      { name: 'a webhook answering garbage', prepare: () => webhookToken('garbage', { garbage: '<html>maintenance</html>' }) },
      // Retried as upstream retries connection resets (five attempts over about four seconds).
      { name: 'a webhook resetting the connection', prepare: () => webhookToken('reset', { reset: true }) },
      {
        name: 'proxy headers without the proxy certificate',
        prepare: () => ({ client: t.client.withCredentials({ headers: { 'X-Remote-User': asserted, 'X-Remote-Group': 'system:masters' } }), secrets: [asserted] }),
        anonymous: true,
      },
      {
        name: 'a proxy certificate with a common name not allowed',
        prepare: () => {
          const way = withCert(proxyCA.client('not-the-proxy'), { 'X-Remote-User': asserted });
          return { ...way, secrets: [...way.secrets, asserted] };
        },
        // Upstream's verifier in front of the proxy's headers refuses the certificate (not merely ignores it).
        logged: 'x509: subject with cn=not-the-proxy is not in the allowed list',
      },
      { name: 'no credentials with anonymous requests off', prepare: () => ({ client: closed.client, secrets: [] }), server: closed },
      { name: 'an unknown token with anonymous requests off', prepare: () => withToken('unknown-token-9a8b7c6d', closed), server: closed },
    ];

    const outcomes = await Promise.allSettled(ways.map(async (way) => {
      const { client, secrets } = await way.prepare();
      const r = await selfSubjectReview(way.server ?? t, client);
      if (way.anonymous) {
        assert.equal(r.status, 201, `${way.name}: ${r.text}`);
        assert.deepEqual(r.body.status.userInfo, { username: 'system:anonymous', groups: ['system:unauthenticated'] }, way.name);
        assertNotRepeated(r.text, secrets, way.name);
      } else {
        assertUnauthorized(r, secrets, way.name);
      }
      return secrets;
    }));
    const failures = outcomes.flatMap((o, i) => (o.status === 'rejected' ? [`${ways[i]!.name}: ${(o.reason as Error).message}`] : []));
    assert.deepEqual(failures, []);

    for (const [i, way] of ways.entries()) {
      const server = way.server ?? t;
      const log = server.logs.join('');
      assertNotRepeated(log, (outcomes[i] as PromiseFulfilledResult<string[]>).value, `${way.name}: the log`);
      if (way.logged) assert.ok(log.includes(way.logged), `${way.name}: the log says ${JSON.stringify(way.logged)}`);
    }
    assert.equal(webhook.reviewsOf('webhook-reset-3c9a7e5b10').length, 5, 'a reset is retried');
  });

  describe('TokenReview answered by the configured token authenticators', () => {
    test('a valid token: authenticated, with the user and the audiences', async () => {
      const r = await tokenReview(t, admin, tokens.alice);
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.apiVersion, authenticationAPI(t));
      assert.deepEqual(r.body.status, {
        authenticated: true,
        user: { username: 'alice', uid: 'alice-uid', groups: ['devs', 'ops', 'system:authenticated'] },
        audiences: [saIssuer],
      });
      assert.ok(!r.text.includes(tokens.alice), 'the token is not echoed');
      const id = await tokenReview(t, admin, await idToken());
      assert.equal(id.body.status.user?.username, 'oidc:carol', id.text);
    });

    test('an invalid token: not authenticated, with the reason', async () => {
      const unknown = await tokenReview(t, admin, 'unknown-token-4f1e0d2c');
      assert.equal(unknown.status, 201, unknown.text);
      assert.deepEqual(unknown.body.status, { authenticated: false, error: 'invalid bearer token' });
      const expired = await tokenReview(t, admin, await idToken({ exp: Math.floor(Date.now() / 1000) - 60 }));
      assert.equal(expired.body.status.authenticated, false);
      assert.match(expired.body.status.error, /^oidc: verify token: oidc: token is expired/);
    });

    test('spec.audiences: the token is checked for them, and the answer names those it is valid for', async () => {
      const vault = await issueToken(t, admin, ns, 'builder', { audiences: ['vault', 'db'] });
      const r = await tokenReview(t, admin, vault, ['vault', 'other']);
      assert.equal(r.body.status.authenticated, true, r.text);
      assert.deepEqual(r.body.status.audiences, ['vault']);
      assert.deepEqual(r.body.spec.audiences, ['vault', 'other']);
      const forAPI = await tokenReview(t, admin, vault);
      assert.equal(forAPI.body.status.authenticated, false, 'not a token for the API server');
      assert.match(forAPI.body.status.error, /token audiences \["vault" "db"\] is invalid for the target audiences \["https:\/\/sa-issuer\.example\.test"\]/);
      // Tokens that carry no audience are the API server's only.
      const file = await tokenReview(t, admin, tokens.alice, ['vault']);
      assert.equal(file.body.status.authenticated, false, file.text);
    });

    test('an empty token is a 400', async () => {
      const r = await tokenReview(t, admin, '');
      assertBadRequest(r);
      assert.equal(r.body.message, 'token is required for TokenReview in authentication');
    });

    test('v1beta1 answers the same', async () => {
      const r = await tokenReview(t, admin, tokens.alice, undefined, 'v1beta1');
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.apiVersion, authenticationAPI(t, 'v1beta1'));
      assert.equal(r.body.status.authenticated, true);
      assert.equal(r.body.status.user.username, 'alice');
      const bad = await tokenReview(t, admin, 'unknown-token-4f1e0d2c', undefined, 'v1beta1');
      assert.deepEqual(bad.body.status, { authenticated: false, error: 'invalid bearer token' });
    });
  });
});
