// The serviceaccount-token controller in-process against a real API server that verifies service
// account tokens with the matching public key (--service-account-key-file, lookup on): a legacy
// token Secret gets a token that authenticates as its account, the root CA and the namespace; a
// Secret naming a missing account is deleted; deleting an account deletes its token Secrets (and
// its token stops working); deleting a token Secret drops it from the account's `secrets`.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SecretKeys, secretTypes, serviceAccountAnnotations } from '../../api/core/v1/secret.js';
import { defaultAuthenticationOptions } from '../../cmd/apiserver/app/authentication-options.js';
import { isNotFound, type KubeObject } from '../../pkg/client/index.js';
import { generateTestKeyPair, tempFiles } from '../../pkg/authentication/testing/signing-keys.js';
import { newServiceAccountTokenController } from '../../pkg/controller/serviceaccounttoken/tokens-controller.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { domainOf, pollUntil, whoami } from './framework/authentication.js';
import { runControllers, type RunningControllers } from './framework/in-process-controller.js';

type Secret = KubeObject & { type?: string; data?: Record<string, string> };
type Account = KubeObject & { secrets?: { name?: string }[] };
const ns = 'default';
const decode = (s: Secret, k: string) => Buffer.from(s.data?.[k] ?? '', 'base64').toString();

describe('serviceaccount-token controller', () => {
  const files = tempFiles('orch-sat-');
  const signing = generateTestKeyPair('P-256');
  const serverKey = generateTestKeyPair('rsa');
  let t: TestServer;
  let cm: RunningControllers;

  before(async () => {
    t = await startTestServer({
      authentication: {
        ...defaultAuthenticationOptions(),
        // The in-process controllers use orch-test-token.
        tokenAuthFile: files.write('tokens.csv', 'orch-test-token,controller-manager,1,"system:masters"\n'),
        serviceAccountIssuers: ['https://issuer.example.test'],
        // The server's own signing key (TokenRequest) is another: legacy tokens verify by the key file alone.
        serviceAccountSigningKeyFile: files.write('server.key', serverKey.pkcs8Pem),
        serviceAccountKeyFiles: [files.write('sa.pub', signing.publicPem + serverKey.publicPem)],
        serviceAccountLookup: true,
      },
    });
    cm = await runControllers(t, [newServiceAccountTokenController({ privateKeyPem: signing.privatePem })], {}, { rootCA: t.server.cert.cert });
  });
  after(async () => {
    await cm?.stop();
    await t?.stop();
    files.remove();
  });

  const d = () => domainOf(t);
  const secrets = () => cm.client.resource<Secret>('', 'v1', 'secrets').namespace(ns);
  const accounts = () => cm.client.resource<Account>('', 'v1', 'serviceaccounts').namespace(ns);
  const tokenSecret = (name: string, account: string): Secret => ({
    metadata: { name, annotations: { [serviceAccountAnnotations(d()).name]: account } }, type: secretTypes(d()).serviceAccountToken,
  });
  const gone = (get: () => Promise<unknown>) => get().then(() => false, (e) => { if (isNotFound(e)) return true; throw e; });

  test('a token Secret is filled: its token authenticates as the account; ca.crt and namespace', async () => {
    const sa = await accounts().create({ metadata: { name: 'robot' } });
    await secrets().create(tokenSecret('robot-token', 'robot'));
    const filled = await pollUntil(() => secrets().get('robot-token'), (s) => !!s.data?.[SecretKeys.serviceAccountToken], 'the token to be filled', 15_000);
    assert.equal(decode(filled, 'ca.crt'), t.server.cert.cert);
    assert.equal(decode(filled, 'namespace'), ns);
    assert.equal(filled.metadata.annotations?.[serviceAccountAnnotations(d()).uid], sa.metadata.uid);
    const token = decode(filled, SecretKeys.serviceAccountToken);
    const user = await whoami(t, t.client.withToken(token));
    assert.equal(user.username, `system:serviceaccount:${ns}:robot`);
    assert.equal(user.uid, sa.metadata.uid);
    assert.deepEqual([...(user.groups ?? [])].sort(), ['system:authenticated', 'system:serviceaccounts', `system:serviceaccounts:${ns}`]);
    // Converged: a token once filled is kept.
    const again = await secrets().get('robot-token');
    assert.equal(decode(again, SecretKeys.serviceAccountToken), token);
    assert.ok(!cm.logs.some((l) => l.includes(token)), 'the token is never logged');

    // The account goes: its token Secret goes, and the token stops authenticating.
    await accounts().delete('robot');
    await pollUntil(() => gone(() => secrets().get('robot-token')), (v) => v, 'the token secret of the deleted account to go', 15_000);
    // As upstream, its last success is cached for 10 seconds.
    await pollUntil(() => t.client.withToken(token).get(`/api/v1/namespaces/${ns}/secrets`), (r) => r.status === 401, 'the token to stop working', 25_000);
  });

  test('a token Secret naming a missing account is deleted', async () => {
    await secrets().create(tokenSecret('orphan-token', 'nobody'));
    await pollUntil(() => gone(() => secrets().get('orphan-token')), (v) => v, 'the orphan token secret to go', 15_000);
    // Other Secrets are none of its business.
    await secrets().create({ metadata: { name: 'plain', annotations: { [serviceAccountAnnotations(d()).name]: 'nobody' } }, type: 'Opaque', data: {} });
    await secrets().create(tokenSecret('later-token', 'later'));
    await pollUntil(() => gone(() => secrets().get('later-token')), (v) => v, 'a later orphan to go', 15_000);
    assert.equal(await gone(() => secrets().get('plain')), false);
  });

  test('a deleted token Secret is dropped from the account\'s secrets', async () => {
    await accounts().create({ metadata: { name: 'lister' }, secrets: [{ name: 'lister-token' }, { name: 'other' }] } as Account);
    await secrets().create(tokenSecret('lister-token', 'lister'));
    await pollUntil(() => secrets().get('lister-token'), (s) => !!s.data?.[SecretKeys.serviceAccountToken], 'the token to be filled', 15_000);
    await secrets().delete('lister-token');
    const sa = await pollUntil(() => accounts().get('lister'), (a) => (a.secrets ?? []).length === 1, 'the reference to go', 15_000);
    assert.deepEqual(sa.secrets, [{ name: 'other' }]);
  });
});
