// Bootstrap tokens end to end on a real API server (--enable-bootstrap-token-auth, RBAC) with the
// tokencleaner and bootstrapsigner controllers in-process (spec 2.12, 3.3, 5.4): expired token
// Secrets are deleted and their tokens refused; the API server publishes cluster-info, readable
// anonymously (and nothing else in orch-public), naming the server and a CA that verifies it; the
// signer keeps one detached JWS per signing token, verifiable with the full token only, and takes
// it away when the token goes, expires or stops signing; it re-signs a changed kubeconfig.
import assert from 'node:assert/strict';
import { createHmac, X509Certificate } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { parse } from 'yaml';
import { defaultAuthenticationOptions } from '../../cmd/apiserver/app/authentication-options.js';
import { defaultAuthorizationOptions } from '../../pkg/authorization/modes.js';
import { tempFiles } from '../../pkg/authentication/testing/signing-keys.js';
import { TestCA } from '../../pkg/authentication/testing/ca.js';
import { eventually } from '../../pkg/util/testing/eventually.js';
import { Client as PkgClient, isNotFound, type KubeObject } from '../../pkg/client/index.js';
import { bootstrapSignerController } from '../../pkg/controller/bootstrapsigner/controller.js';
import { tokenCleanerController } from '../../pkg/controller/tokencleaner/controller.js';
import { verifyDetached } from '../../pkg/util/bootstrap/jws.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { assertStatus } from './framework/assertions.js';
import { pollUntil, selfSubjectReview, whoami } from './framework/authentication.js';
import { Client } from './framework/client.js';
import { runControllers, type RunningControllers } from './framework/in-process-controller.js';
import { writeKubeconfig, type Kubeconfig } from './framework/kubeconfig.js';

type Secret = KubeObject & { type?: string; data?: Record<string, string> };
type ConfigMap = KubeObject & { data?: Record<string, string> };

const systemNs = 'orch-system';
const publicNs = 'orch-public';
const sigKey = (id: string) => `jws-kubeconfig-${id}`;
const b64 = (s: string) => Buffer.from(s).toString('base64');
const rfc3339 = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

interface Token { id: string; secret: string }
const token = (id: string, secret: string): Token => ({ id, secret });
const full = (t: Token) => `${t.id}.${t.secret}`;

describe('bootstrap tokens: tokencleaner, bootstrapsigner and cluster-info', () => {
  const files = tempFiles('orch-bootstrap-');
  let t: TestServer;
  let cm: RunningControllers;
  let admin: PkgClient;
  let adminKubeconfig: Kubeconfig | undefined;
  /** The cleaner's and the signer's clocks: the real one shifted by these (tests move them). */
  let cleanerSkewMs = 0;
  let signerSkewMs = 0;
  const secrets: string[] = [];

  before(async () => {
    t = await startTestServer({
      authentication: {
        ...defaultAuthenticationOptions(),
        enableBootstrapTokenAuth: true,
        // The in-process controllers use orch-test-token, as the manager's own user (the bootstrap
        // policy must let it do their work); the test acts as an admin.
        tokenAuthFile: files.write('tokens.csv', 'orch-test-token,system:kube-controller-manager,1\nadmin-token,admin,2,"system:masters"\n'),
      },
      authorization: { ...defaultAuthorizationOptions(), modes: ['RBAC'] },
    });
    await eventually(async () => (await t.client.get('/readyz')).status === 200, 'the server to be ready (bootstrap policy, cluster-info)', 30_000);
    adminKubeconfig = writeKubeconfig(t, 'admin-token');
    admin = PkgClient.fromKubeconfig(adminKubeconfig.path).client;
    cm = await runControllers(t, [
      tokenCleanerController({ now: () => Date.now() + cleanerSkewMs }),
      bootstrapSignerController({ now: () => Date.now() + signerSkewMs }),
    ]);
  });
  after(async () => {
    await cm?.stop();
    admin?.close();
    adminKubeconfig?.remove();
    if (t) {
      // No token secret ever reaches a log line.
      for (const s of secrets) {
        assert.ok(!t.logs.some((l) => l.includes(s)), 'the API server never logs a token secret');
        assert.ok(!(cm?.logs ?? []).some((l) => l.includes(s)), 'the controllers never log a token secret');
      }
    }
    await t?.stop();
    files.remove();
  });

  const secretsClient = () => admin.resource<Secret>('', 'v1', 'secrets').namespace(systemNs);
  const configMaps = () => admin.resource<ConfigMap>('', 'v1', 'configmaps').namespace(publicNs);
  const createToken = async (tk: Token, data: Record<string, string>) => {
    secrets.push(tk.secret);
    return secretsClient().create({
      metadata: { name: `bootstrap-token-${tk.id}` },
      type: 'bootstrap.orch.io/token',
      data: Object.fromEntries(Object.entries({ 'token-id': tk.id, 'token-secret': tk.secret, ...data }).map(([k, v]) => [k, b64(v)])),
    });
  };
  const gone = (name: string) => secretsClient().get(name).then(() => false, (e) => { if (isNotFound(e)) return true; throw e; });
  /** What a request with the token gets: 201 for a token that authenticates, 401 otherwise. */
  const status = async (tk: Token) => (await selfSubjectReview(t, t.client.withToken(full(tk)))).status;
  /** cluster-info as an anonymous client reads it. */
  const clusterInfo = async (): Promise<Record<string, string>> => {
    const r = await t.client.get(`/api/v1/namespaces/${publicNs}/configmaps/cluster-info`);
    assert.equal(r.status, 200, r.text);
    return r.body.data ?? {};
  };
  /** Whether the cleaner has looked at the token and found it not yet expired. */
  const cleanerLooked = (tk: Token) => cm.logs.some((l) => l.includes('not expired yet') && l.includes(`bootstrap-token-${tk.id}`));
  const signatureOf = async (tk: Token) => (await clusterInfo())[sigKey(tk.id)];

  test('an expired token Secret is deleted by the token cleaner; its token is refused before and after', async () => {
    const tk = token('expird', 'a1b2c3d4e5f6a7b8');
    // While valid, the token authenticates as system:bootstrap:<id>.
    await createToken(tk, { expiration: rfc3339(Date.now() + 3_600_000), 'usage-bootstrap-authentication': 'true' });
    await eventually(async () => (await whoami(t, t.client.withToken(full(tk)))).username === `system:bootstrap:${tk.id}`, 'the valid token to authenticate');
    // Expired: refused (the authenticator checks the time) once the 10-second cache of its last
    // success runs out, as upstream; then deleted by the cleaner.
    const current = await secretsClient().get(`bootstrap-token-${tk.id}`);
    await secretsClient().update({ ...current, data: { ...current.data, expiration: b64(rfc3339(Date.now() - 60_000)) } });
    await pollUntil(() => status(tk), (s) => s === 401, 'the expired token to be refused', 25_000);
    await pollUntil(() => gone(`bootstrap-token-${tk.id}`), (g) => g, 'the expired token secret to be deleted', 15_000);
    assert.equal(await status(tk), 401);
    assert.ok(cm.logs.some((l) => l.includes('deleted an expired bootstrap token secret') && l.includes(`bootstrap-token-${tk.id}`)), 'the deletion is logged');
  });

  test('a token expiring in a few seconds is deleted once it has expired, not before', async () => {
    const tk = token('soonxx', 'b1b2b3b4b5b6b7b8');
    const expiresAt = Math.floor(Date.now() / 1000) * 1000 + 4000;
    await createToken(tk, { expiration: rfc3339(expiresAt), 'usage-bootstrap-authentication': 'true' });
    await pollUntil(async () => cleanerLooked(tk), (v) => v, 'the cleaner to look at the new token', 10_000);
    if (Date.now() < expiresAt - 500) assert.equal(await gone(`bootstrap-token-${tk.id}`), false, 'kept while it is valid');
    await pollUntil(() => gone(`bootstrap-token-${tk.id}`), (g) => g, 'the token secret to be deleted after it expired', 20_000);
    assert.ok(Date.now() >= expiresAt, 'deleted only after its expiration');
    assert.equal(await status(tk), 401);
  });

  test('the cleaner reads its injected clock: a token valid for a year is deleted when the clock moves past it', async () => {
    const tk = token('yearxx', 'c1c2c3c4c5c6c7c8');
    const created = await createToken(tk, { expiration: rfc3339(Date.now() + 365 * 24 * 3_600_000) });
    // Looked at (on creation), kept.
    await pollUntil(async () => cleanerLooked(tk), (v) => v, 'the cleaner to look at the new token', 10_000);
    assert.equal(await gone(`bootstrap-token-${tk.id}`), false);
    cleanerSkewMs = 2 * 365 * 24 * 3_600_000;
    try {
      await secretsClient().update({ ...created, metadata: { ...created.metadata, labels: { touched: 'yes' } } });
      await pollUntil(() => gone(`bootstrap-token-${tk.id}`), (g) => g, 'the token secret to be deleted on the moved clock', 15_000);
    } finally {
      cleanerSkewMs = 0;
    }
  });

  test('cluster-info is readable anonymously and names this server and a CA that verifies it; nothing else in orch-public is', async () => {
    const data = await clusterInfo();
    const kubeconfig = parse(data.kubeconfig!);
    assert.equal(kubeconfig.kind, 'Config');
    assert.equal(kubeconfig.apiVersion, 'v1');
    assert.equal(kubeconfig.clusters.length, 1);
    assert.equal(kubeconfig.clusters[0].name, '');
    const { server, 'certificate-authority-data': caData } = kubeconfig.clusters[0].cluster;
    assert.equal(server, `https://127.0.0.1:${t.server.port}`);
    // A client trusting only that CA reaches the server with full verification.
    const joiner = new Client(server, Buffer.from(caData, 'base64').toString());
    assert.equal((await joiner.get('/version')).status, 200);
    assert.equal((await joiner.get(`/api/v1/namespaces/${publicNs}/configmaps/cluster-info`)).status, 200);

    await configMaps().create({ metadata: { name: 'other' }, data: { a: 'b' } });
    assertStatus(await t.client.get(`/api/v1/namespaces/${publicNs}/configmaps/other`), 403, 'Forbidden');
    assertStatus(await t.client.get(`/api/v1/namespaces/${publicNs}/configmaps`), 403, 'Forbidden');
    assertStatus(await t.client.get(`/api/v1/namespaces/${publicNs}/secrets`), 403, 'Forbidden');
    assertStatus(await t.client.get(`/api/v1/namespaces/${publicNs}/configmaps?watch=true&fieldSelector=metadata.name%3Dcluster-info`), 403, 'Forbidden');
    const put = await t.client.put(`/api/v1/namespaces/${publicNs}/configmaps/cluster-info`, { metadata: { name: 'cluster-info' }, data: {} });
    assertStatus(put, 403, 'Forbidden');
    assertStatus(await t.client.get(`/api/v1/namespaces/default/configmaps/cluster-info`), 403, 'Forbidden');
  });

  test('the signer signs with the full token: the signature verifies with it, not with the secret alone nor for another payload', async () => {
    const tk = token('signaa', 'd1d2d3d4d5d6d7d8');
    await createToken(tk, { 'usage-bootstrap-signing': 'true', description: 'signs cluster-info' });
    const data = await pollUntil(clusterInfo, (d) => !!d[sigKey(tk.id)], 'the signature to appear', 15_000);
    const sig = data[sigKey(tk.id)]!;
    const kubeconfig = data.kubeconfig!;
    assert.match(sig, /^[\w-]+\.\.[\w-]+$/, 'a detached compact JWS');
    assert.deepEqual(JSON.parse(Buffer.from(sig.split('.')[0]!, 'base64url').toString()), { alg: 'HS256', kid: tk.id });
    assert.deepEqual(await verifyDetached(sig, kubeconfig, { tokenId: tk.id, tokenSecret: tk.secret }), { valid: true });
    // Tampered: the payload changed by one byte.
    assert.equal((await verifyDetached(sig, kubeconfig.replace('https://', 'https://x'), { tokenId: tk.id, tokenSecret: tk.secret })).valid, false);
    // Upstream's key (the secret alone) does not make this signature.
    const [header, , mac] = sig.split('.');
    const upstream = createHmac('sha256', tk.secret).update(`${header}.${Buffer.from(kubeconfig).toString('base64url')}`).digest('base64url');
    assert.notEqual(mac, upstream);
    const ours = createHmac('sha256', full(tk)).update(`${header}.${Buffer.from(kubeconfig).toString('base64url')}`).digest('base64url');
    assert.equal(mac, ours);
    // A token that may not sign (no usage-bootstrap-signing) gets no signature.
    const other = token('nosign', 'e1e2e3e4e5e6e7e8');
    await createToken(other, { 'usage-bootstrap-authentication': 'true' });

    // Deleted: its signature goes.
    await secretsClient().delete(`bootstrap-token-${tk.id}`);
    const after = await pollUntil(clusterInfo, (d) => !(sigKey(tk.id) in d), 'the signature of the deleted token to go', 15_000);
    assert.ok(!(sigKey(other.id) in after));
    assert.equal(after.kubeconfig, kubeconfig, 'kubeconfig stays');
  });

  test('the signature goes when the token expires (the signer\'s own doing) and when signing is turned off', async () => {
    // The cleaner's clock is an hour behind here, so only the signer can take the signature away.
    cleanerSkewMs = -3_600_000;
    try {
      const tk = token('expsig', 'f1f2f3f4f5f6f7f8');
      const expiresAt = Math.floor(Date.now() / 1000) * 1000 + 4000;
      await createToken(tk, { 'usage-bootstrap-signing': 'true', expiration: rfc3339(expiresAt) });
      await pollUntil(() => signatureOf(tk), (s) => !!s, 'the signature of the expiring token to appear', 10_000);
      await pollUntil(() => signatureOf(tk), (s) => s === undefined, 'the signature of the expired token to go', 20_000);
      assert.ok(Date.now() >= expiresAt, 'removed only once expired');
      assert.equal(await gone(`bootstrap-token-${tk.id}`), false, 'the Secret is still there: the signer removed the signature on its own');
      await secretsClient().delete(`bootstrap-token-${tk.id}`);
    } finally {
      cleanerSkewMs = 0;
    }

    const tk = token('toggle', 'a9a8a7a6a5a4a3a2');
    const created = await createToken(tk, { 'usage-bootstrap-signing': 'true' });
    await pollUntil(() => signatureOf(tk), (s) => !!s, 'the signature to appear', 15_000);
    await secretsClient().update({ ...created, data: { ...created.data, 'usage-bootstrap-signing': b64('false') } });
    await pollUntil(() => signatureOf(tk), (s) => s === undefined, 'the signature to go once signing is off', 15_000);
    await secretsClient().delete(`bootstrap-token-${tk.id}`);
  });

  test('a changed kubeconfig is re-signed; foreign and wrong jws keys are removed; an unchanged one is not rewritten', async () => {
    const tk = token('resign', 'b9b8b7b6b5b4b3b2');
    await createToken(tk, { 'usage-bootstrap-signing': 'true' });
    const first = await pollUntil(clusterInfo, (d) => !!d[sigKey(tk.id)], 'the signature to appear', 15_000);
    const original = first.kubeconfig!;
    const changed = original.replace(/server: \S+/, 'server: https://10.9.8.7:6443');
    const live = await configMaps().get('cluster-info');
    await configMaps().update({ ...live, data: { ...live.data, kubeconfig: changed, [sigKey('zzzzzz')]: 'forged..sig', [sigKey(tk.id)]: 'wrong..sig' } });
    const resigned = await pollUntil(clusterInfo, (d) => d.kubeconfig === changed && d[sigKey(tk.id)] !== first[sigKey(tk.id)] && d[sigKey(tk.id)] !== 'wrong..sig' && !(sigKey('zzzzzz') in d), 'the new kubeconfig to be re-signed and the stray keys to go', 15_000);
    assert.deepEqual(await verifyDetached(resigned[sigKey(tk.id)]!, changed, { tokenId: tk.id, tokenSecret: tk.secret }), { valid: true });
    assert.equal((await verifyDetached(resigned[sigKey(tk.id)]!, original, { tokenId: tk.id, tokenSecret: tk.secret })).valid, false);
    // Converged: a look that finds nothing to change (poked by a token that may not sign) writes nothing.
    const rv = (await configMaps().get('cluster-info')).metadata.resourceVersion;
    const seen = cm.logs.filter((l) => l.includes('cluster-info signatures are current')).length;
    await createToken(token('poke00', 'c9c8c7c6c5c4c3c2'), { 'usage-bootstrap-authentication': 'true' });
    await pollUntil(async () => cm.logs.filter((l) => l.includes('cluster-info signatures are current')).length, (n) => n > seen, 'the signer to look again', 10_000);
    assert.equal((await configMaps().get('cluster-info')).metadata.resourceVersion, rv, 'an unchanged cluster-info is not rewritten');

    // A restart of the API server puts its kubeconfig back and keeps the signer's keys; the signer re-signs.
    await t.restart();
    const restored = await pollUntil(async () => (await configMaps().get('cluster-info')).data ?? {}, (d) => d.kubeconfig === original, 'the API server to restore kubeconfig', 30_000);
    assert.ok(sigKey(tk.id) in restored, 'the restart leaves the jws keys');
    const final = await pollUntil(clusterInfo, (d) => d.kubeconfig === original && d[sigKey(tk.id)] === first[sigKey(tk.id)], 'the restored kubeconfig to be re-signed', 15_000);
    assert.deepEqual(await verifyDetached(final[sigKey(tk.id)]!, original, { tokenId: tk.id, tokenSecret: tk.secret }), { valid: true });
  });
});

describe('cluster-info with a CA-signed serving certificate (kubeadm\'s PKI)', () => {
  const files = tempFiles('orch-cluster-info-');
  const root = TestCA.root({ commonName: 'cluster-ca' });
  const serving = root.server(['127.0.0.1', 'localhost']);
  let t: TestServer;

  before(async () => {
    // The serving certificate alone in --tls-cert-file; its CA is the --client-ca-file, as kubeadm sets them up.
    t = await startTestServer({
      tlsCertFile: files.write('apiserver.crt', serving.certPem),
      tlsPrivateKeyFile: files.write('apiserver.key', serving.keyPem),
      // With --tls-private-key-file the server verifies service account tokens with that key, which needs an issuer.
      authentication: { ...defaultAuthenticationOptions(), clientCAFile: files.write('ca.crt', root.certPem), serviceAccountIssuers: ['https://issuer.example.test'] },
      authorization: { ...defaultAuthorizationOptions(), modes: ['RBAC'] },
    }, { trustedCA: root.certPem });
  });
  after(async () => {
    await t?.stop();
    files.remove();
  });

  test('the CA published is the issuer from --client-ca-file, and it verifies the server', async () => {
    const r = await pollUntil(() => t.client.get(`/api/v1/namespaces/${publicNs}/configmaps/cluster-info`), (x) => x.status === 200, 'cluster-info', 15_000);
    const cluster = parse(r.body.data.kubeconfig).clusters[0].cluster;
    assert.equal(cluster.server, `https://127.0.0.1:${t.server.port}`);
    const ca = Buffer.from(cluster['certificate-authority-data'], 'base64').toString();
    assert.equal(new X509Certificate(ca).fingerprint256, root.certificate.fingerprint256, 'the root, not the serving certificate');
    assert.equal((await new Client(cluster.server, ca).get('/version')).status, 200);
    assert.ok(!t.logs.some((l) => l.includes('verifies the serving certificate')), 'no warning');
  });
});
