// The certificate controllers in-process against a real API server (RBAC, bootstrap tokens, and
// the signing CA as --client-ca-file), bound as kubeadm binds them: a bootstrap-token user's node
// client request is approved (nodeclient) and signed, and the certificate authenticates as the
// node; the node renews with that certificate (selfnodeclient); a denied request is never signed;
// a request breaking its signer's rules is Failed; lifetimes are the smaller of expirationSeconds
// and --cluster-signing-duration, backdated; the cleaner, its clock moved hours ahead, deletes
// what the table says and keeps the rest.
import assert from 'node:assert/strict';
import { generateKeyPairSync, X509Certificate, type KeyObject } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { defaultAuthenticationOptions } from '../../cmd/apiserver/app/authentication-options.js';
import { defaultAuthorizationOptions } from '../../pkg/authorization/modes.js';
import { createTestCA } from '../../pkg/authentication/testing/pki.js';
import { tempFiles } from '../../pkg/authentication/testing/signing-keys.js';
import { newCSRApprovingController } from '../../pkg/controller/csrapproving/controller.js';
import { newCSRCleanerController } from '../../pkg/controller/csrcleaner/controller.js';
import { newCSRSigningController } from '../../pkg/controller/csrsigning/controller.js';
import { createCSR } from '../../pkg/util/certificates/csr.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { domainOf, pollUntil, whoami } from './framework/authentication.js';
import type { Client, Response } from './framework/client.js';
import { runControllers, type RunningControllers } from './framework/in-process-controller.js';

const adminToken = 'orch-test-token';
const bootstrapToken = 'abcdef.0123456789abcdef';
const hour = 3600_000;
const min = 60_000;
const clientUsages = ['digital signature', 'key encipherment', 'client auth'];

interface CSRBody {
  metadata: { name: string; uid?: string; creationTimestamp?: string };
  spec: { request: string; signerName: string; usages: string[]; expirationSeconds?: number; username?: string; groups?: string[] };
  status?: { conditions?: { type: string; status: string; reason?: string; message?: string; lastUpdateTime?: string }[]; certificate?: string };
}

const ecKey = (): KeyObject => generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
const keyPem = (k: KeyObject) => k.export({ type: 'pkcs8', format: 'pem' }).toString();

describe('certificate signing request controllers', () => {
  const files = tempFiles('orch-csr-');
  const ca = createTestCA('cluster-signing-ca');
  let t: TestServer;
  let cm: RunningControllers;
  let admin: Client;
  let certs: string;

  before(async () => {
    const caFile = files.write('ca.crt', ca.cert);
    const caKeyFile = files.write('ca.key', ca.key);
    t = await startTestServer({
      authentication: {
        ...defaultAuthenticationOptions(),
        tokenAuthFile: files.write('tokens.csv', `${adminToken},controller-manager,1,"system:masters"\n`),
        enableBootstrapTokenAuth: true,
        clientCAFile: caFile,
      },
      authorization: { ...defaultAuthorizationOptions(), modes: ['RBAC'] },
    });
    admin = t.client.withToken(adminToken);
    const d = domainOf(t);
    certs = `/apis/${d.group('certificates')}/v1/certificatesigningrequests`;
    const rbac = `/apis/${d.group('rbac.authorization')}/v1/clusterrolebindings`;
    const bind = async (name: string, role: string, group: string) => {
      const r = await admin.post(rbac, {
        metadata: { name }, roleRef: { apiGroup: d.group('rbac.authorization'), kind: 'ClusterRole', name: role },
        subjects: [{ kind: 'Group', apiGroup: d.group('rbac.authorization'), name: group }],
      });
      assert.equal(r.status, 201, r.text);
    };
    // kubeadm's bindings: bootstrappers may ask for certificates and have node client requests
    // auto-approved; nodes may have their renewals auto-approved (and, here, ask for them).
    await bind('kubeadm:kubelet-bootstrap', 'system:node-bootstrapper', 'system:bootstrappers');
    await bind('kubeadm:node-autoapprove-bootstrap', `system:${d.group('certificates')}:certificatesigningrequests:nodeclient`, 'system:bootstrappers');
    await bind('kubeadm:node-autoapprove-certificate-rotation', `system:${d.group('certificates')}:certificatesigningrequests:selfnodeclient`, 'system:nodes');
    await bind('test:nodes-request-certificates', 'system:node-bootstrapper', 'system:nodes');
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    const [id, secret] = bootstrapToken.split('.') as [string, string];
    const r = await admin.post('/api/v1/namespaces/orch-system/secrets', {
      metadata: { name: `bootstrap-token-${id}` }, type: `bootstrap.${d.keyDomain}/token`,
      data: { 'token-id': b64(id), 'token-secret': b64(secret), 'usage-bootstrap-authentication': b64('true'), expiration: b64(new Date(Date.now() + 24 * hour).toISOString().replace(/\.\d{3}Z$/, 'Z')) },
    });
    assert.equal(r.status, 201, r.text);
    cm = await runControllers(t, [
      newCSRSigningController({
        signers: Object.fromEntries(['kubeletServing', 'kubeletClient', 'kubeAPIServerClient', 'legacyUnknown'].map((k) => [k, { certFile: caFile, keyFile: caKeyFile }])),
        durationMs: hour,
      }),
      newCSRApprovingController(),
    ]);
  });
  after(async () => {
    await cm?.stop();
    await t?.stop();
    files.remove();
  });

  const signer = (s: string) => domainOf(t).key(s);
  const create = async (as: Client, name: string, key: KeyObject, subject: { commonName: string; organizations?: string[]; dnsNames?: string[] }, signerName: string, usages: string[], expirationSeconds?: number): Promise<CSRBody> => {
    const r = await as.post(certs, {
      metadata: { name },
      spec: { request: Buffer.from(createCSR({ key, ...subject })).toString('base64'), signerName, usages, ...(expirationSeconds ? { expirationSeconds } : {}) },
    });
    assert.equal(r.status, 201, r.text);
    return r.body as CSRBody;
  };
  const get = async (name: string): Promise<CSRBody> => {
    const r = await admin.get(`${certs}/${name}`);
    assert.equal(r.status, 200, r.text);
    return r.body as CSRBody;
  };
  const setApproval = async (name: string, type: 'Approved' | 'Denied') => {
    const csr = await get(name);
    const r: Response = await admin.put(`${certs}/${name}/approval`, {
      ...csr, status: { ...csr.status, conditions: [...(csr.status?.conditions ?? []), { type, status: 'True', reason: 'ByTest', message: `${type} by the test` }] },
    });
    assert.equal(r.status, 200, r.text);
  };
  const issued = (name: string) => pollUntil(() => get(name), (c) => !!c.status?.certificate, `${name} to be issued`, 20_000);
  const certificateOf = (c: CSRBody) => new X509Certificate(Buffer.from(c.status!.certificate!, 'base64'));
  const caCert = new X509Certificate(ca.cert);

  test('a bootstrap-token node client request is approved via nodeclient, signed, and the certificate authenticates as the node; the node renews via selfnodeclient', async () => {
    const bootstrap = t.client.withToken(bootstrapToken);
    const key = ecKey();
    const created = await create(bootstrap, 'node-n1-bootstrap', key, { commonName: 'system:node:n1', organizations: ['system:nodes'] }, signer('kube-apiserver-client-kubelet'), clientUsages);
    assert.equal(created.spec.username, 'system:bootstrap:abcdef');
    const done = await issued('node-n1-bootstrap');
    const approved = done.status?.conditions?.find((c) => c.type === 'Approved');
    assert.deepEqual({ reason: approved?.reason, message: approved?.message }, { reason: 'AutoApproved', message: 'Auto approving kubelet client certificate after SubjectAccessReview.' });
    const cert = certificateOf(done);
    assert.ok(cert.verify(caCert.publicKey) && cert.checkIssued(caCert), 'chains to the signing CA');
    assert.equal(cert.subject, 'O=system:nodes\nCN=system:node:n1');
    assert.equal(cert.ca, false);
    const asNode = t.client.withCredentials({ tls: { cert: Buffer.from(done.status!.certificate!, 'base64').toString(), key: keyPem(key) } });
    const user = await whoami(t, asNode);
    assert.equal(user.username, 'system:node:n1');
    assert.ok(user.groups?.includes('system:nodes'), JSON.stringify(user.groups));

    // Renewal with its own certificate: the requester is the CN, so selfnodeclient is what approves.
    const renewed = await create(asNode, 'node-n1-renewal', ecKey(), { commonName: 'system:node:n1', organizations: ['system:nodes'] }, signer('kube-apiserver-client-kubelet'), ['digital signature', 'client auth']);
    assert.equal(renewed.spec.username, 'system:node:n1');
    const renewal = await issued('node-n1-renewal');
    assert.equal(renewal.status?.conditions?.find((c) => c.type === 'Approved')?.message, 'Auto approving self kubelet client certificate after SubjectAccessReview.');
    assert.equal(certificateOf(renewal).subject, 'O=system:nodes\nCN=system:node:n1');
  });

  test('a request that is not a node client request is left pending by the approver', async () => {
    // The same bootstrap user, but a serving certificate: nothing recognizes it.
    await create(t.client.withToken(bootstrapToken), 'not-node-client', ecKey(), { commonName: 'system:node:n2', organizations: ['system:nodes'], dnsNames: ['n2.example'] }, signer('kubelet-serving'), ['digital signature', 'server auth']);
    // Another request made afterwards gets approved: by then the first has been looked at.
    await create(t.client.withToken(bootstrapToken), 'node-n3', ecKey(), { commonName: 'system:node:n3', organizations: ['system:nodes'] }, signer('kube-apiserver-client-kubelet'), clientUsages);
    await issued('node-n3');
    const pending = await get('not-node-client');
    assert.deepEqual(pending.status?.conditions ?? [], []);
    assert.ok(!pending.status?.certificate);
  });

  test('a denied request is never signed; a request breaking its signer\'s rules gets Failed, not a certificate', async () => {
    await create(admin, 'denied-one', ecKey(), { commonName: 'someone' }, signer('kube-apiserver-client'), ['client auth']);
    await setApproval('denied-one', 'Denied');
    await create(admin, 'bad-usage', ecKey(), { commonName: 'someone' }, signer('kube-apiserver-client'), ['client auth', 'server auth']);
    await setApproval('bad-usage', 'Approved');
    await create(admin, 'serving-without-names', ecKey(), { commonName: 'system:node:n4', organizations: ['system:nodes'] }, signer('kubelet-serving'), ['digital signature', 'server auth']);
    await setApproval('serving-without-names', 'Approved');
    const failed = (name: string) => pollUntil(() => get(name), (c) => !!c.status?.conditions?.some((x) => x.type === 'Failed'), `${name} to fail`, 20_000);
    const f1 = (await failed('bad-usage')).status!;
    assert.deepEqual(f1.conditions!.filter((c) => c.type === 'Failed').map((c) => [c.status, c.reason, c.message]), [['True', 'SignerValidationFailure', 'invalid usage for client certificate: server auth']]);
    assert.ok(!f1.certificate);
    const f2 = (await failed('serving-without-names')).status!;
    assert.equal(f2.conditions!.find((c) => c.type === 'Failed')?.message, 'DNS or IP subjectAltName is required');
    assert.ok(!f2.certificate);
    // Approved after the denial was written and after the others: once it is signed, the denied one has long been seen.
    await create(admin, 'approved-after', ecKey(), { commonName: 'someone-else' }, signer('kube-apiserver-client'), ['client auth']);
    await setApproval('approved-after', 'Approved');
    await issued('approved-after');
    const denied = await get('denied-one');
    assert.ok(!denied.status?.certificate, 'the denied request has no certificate');
    assert.ok(!denied.status?.conditions?.some((c) => c.type === 'Failed' || c.type === 'Approved'));
  });

  test('lifetime: expirationSeconds 600 under a 1h duration is 10 minutes (backdated 5), 2h asked is 1h', async () => {
    await create(admin, 'ten-minutes', ecKey(), { commonName: 'short' }, signer('kube-apiserver-client'), ['client auth'], 600);
    await create(admin, 'two-hours', ecKey(), { commonName: 'long' }, signer('kube-apiserver-client'), ['client auth'], 7200);
    const start = Date.now();
    await setApproval('ten-minutes', 'Approved');
    await setApproval('two-hours', 'Approved');
    const short = certificateOf(await issued('ten-minutes'));
    const long = certificateOf(await issued('two-hours'));
    const end = Date.now();
    const from = (c: X509Certificate) => new Date(c.validFrom).getTime();
    const to = (c: X509Certificate) => new Date(c.validTo).getTime();
    // Signed between start and end (whole seconds): NotBefore is 5 minutes before, NotAfter the lifetime after.
    const within = (v: number, offset: number) => v >= Math.floor((start + offset) / 1000) * 1000 && v <= end + offset;
    assert.ok(within(from(short), -5 * min), `backdated: ${short.validFrom}`);
    assert.ok(within(to(short), 10 * min), `10 minutes: ${short.validTo}`);
    assert.equal(to(short) - from(short), 15 * min);
    assert.ok(within(to(long), hour), `capped at 1h: ${long.validTo}`);
    assert.equal(to(long) - from(long), hour + 5 * min);
  });

  test('the cleaner deletes what the table says when its clock is hours ahead, and keeps the rest', async () => {
    await create(admin, 'pending-fresh', ecKey(), { commonName: 'p' }, signer('kube-apiserver-client'), ['client auth']);
    await create(admin, 'other-signer-approved', ecKey(), { commonName: 'o' }, 'example.com/custom', ['client auth']);
    await setApproval('other-signer-approved', 'Approved');
    let offset = 2 * hour;
    const cleaner = await runControllers(t, [newCSRCleanerController({ now: () => new Date(Date.now() + offset), pollIntervalMs: 200 })]);
    try {
      const names = async () => ((await admin.get(certs)).body as { items: CSRBody[] }).items.map((c) => c.metadata.name).sort();
      // Two hours on: approved-and-issued, denied and failed ones go; pending and approved-but-unissued stay.
      const kept = ['not-node-client', 'other-signer-approved', 'pending-fresh'];
      await pollUntil(names, (n) => n.join() === kept.join(), 'issued, denied and failed requests to be deleted', 20_000);
      // A day on: the pending ones go too; the approved request no signer will issue stays (as upstream).
      offset = 25 * hour;
      await pollUntil(names, (n) => n.join() === 'other-signer-approved', 'pending requests to be deleted', 20_000);
      assert.ok(cleaner.logs.some((l) => l.includes('deleted a certificate signing request') && l.includes('it has been pending for more than 24h0m0s')), 'the operator reads why');
    } finally {
      await cleaner.stop();
    }
  });
});
