// CertificateSigningRequests on a real server with RBAC: who asked is the server's to say, bad
// requests are refused with upstream's causes, approval and signing need the approve and sign
// verbs on the signer (or its domain's wildcard), conditions and certificates keep their rules,
// and stock kubectl approves, denies and lists requests. The server speaks upstream's group names
// (--api-domain k8s.io) so that kubectl's typed certificates client finds the API.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { apiDomain } from '../../api/domain.js';
import { defaultAuthenticationOptions } from '../../cmd/apiserver/app/authentication-options.js';
import { TestCA } from '../../pkg/authentication/testing/ca.js';
import { defaultAuthorizationOptions } from '../../pkg/authorization/modes.js';
import { createCSR } from '../../pkg/util/certificates/csr.js';
import { Client as ApiClient, type KubeObject } from '../../pkg/client/index.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { assertStatus } from './framework/assertions.js';
import { pollUntil } from './framework/authentication.js';
import type { Client, Response } from './framework/client.js';
import { writeKubeconfig } from './framework/kubeconfig.js';
import { Kubectl } from './framework/kubectl.js';

const d = apiDomain('k8s.io');
const certs = d.group('certificates');
const rbac = d.group('rbac.authorization');
const base = `/apis/${certs}/v1/certificatesigningrequests`;
const key = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
const b64 = (s: string) => Buffer.from(s).toString('base64');
const pemRequest = (organizations: string[] = ['dev']) => createCSR({ key, commonName: 'alice', organizations });

const csr = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: `${certs}/v1`, kind: 'CertificateSigningRequest', metadata: { name },
  spec: { request: b64(pemRequest()), signerName: 'example.com/widgets', usages: ['digital signature', 'client auth'], ...spec },
});

const causes = (r: Response) => (r.body.details?.causes ?? []).map((c: { field: string; reason: string; message: string }) => `${c.reason} ${c.field}: ${c.message}`);

describe('CertificateSigningRequests with RBAC', () => {
  let t: TestServer;
  let dir: string;
  let admin: Client;
  let alice: Client;

  const clusterRole = (name: string, rules: unknown[]) => ({ apiVersion: `${rbac}/v1`, kind: 'ClusterRole', metadata: { name }, rules });
  const bindUser = (role: string, user: string) => ({
    apiVersion: `${rbac}/v1`, kind: 'ClusterRoleBinding', metadata: { name: `${role}-${user}` },
    roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: role }, subjects: [{ apiGroup: rbac, kind: 'User', name: user }],
  });
  async function grant(user: string, role: string, rules: unknown[]): Promise<void> {
    const r1 = await admin.post(`/apis/${rbac}/v1/clusterroles`, clusterRole(role, rules));
    assert.equal(r1.status, 201, r1.text);
    const r2 = await admin.post(`/apis/${rbac}/v1/clusterrolebindings`, bindUser(role, user));
    assert.equal(r2.status, 201, r2.text);
  }
  /** Waits until the authorizer sees a grant: `probe` stops answering 403. */
  const untilAllowed = (probe: () => Promise<Response>, what: string) => pollUntil(probe, (r) => r.status !== 403, what);

  const approvalOf = (obj: Record<string, any>, conditions: unknown[]) => ({ ...obj, status: { ...(obj.status ?? {}), conditions } });
  const approved = { type: 'Approved', status: 'True', reason: 'TestApproved', message: 'ok' };
  const denied = { type: 'Denied', status: 'True', reason: 'TestDenied', message: 'no' };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'orch-csr-'));
    writeFileSync(join(dir, 'tokens.csv'), [
      'admin-token,admin,1,"system:masters"',
      'alice-token,alice,alice-uid,"dev,qa"',
      'ann-token,ann,3',
      'wes-token,wes,4',
      'sam-token,sam,5',
    ].join('\n') + '\n');
    t = await startTestServer({
      apiDomain: 'k8s.io',
      authentication: { ...defaultAuthenticationOptions(), tokenAuthFile: join(dir, 'tokens.csv') },
      authorization: { ...defaultAuthorizationOptions(), modes: ['RBAC'] },
    });
    admin = t.client.withToken('admin-token');
    alice = t.client.withToken('alice-token');
    await pollUntil(() => t.client.get('/readyz'), (r) => r.status === 200, 'the bootstrap policy');
    // The bootstrap role for requesting certificates.
    const r = await admin.post(`/apis/${rbac}/v1/clusterrolebindings`, bindUser('system:node-bootstrapper', 'alice'));
    assert.equal(r.status, 201, r.text);
  });
  after(async () => {
    await t?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the requester is the authenticated user, whatever the client says, and an update cannot change it', async () => {
    const lying = csr('alice-1', { username: 'admin', uid: 'forged', groups: ['system:masters'], extra: { scope: ['all'] } });
    const created = await untilAllowed(() => alice.post(base, lying), 'alice may create requests');
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.spec.username, 'alice');
    assert.equal(created.body.spec.uid, 'alice-uid');
    assert.deepEqual(created.body.spec.groups, ['dev', 'qa', 'system:authenticated']);
    assert.equal(created.body.spec.extra, undefined);
    assert.deepEqual(created.body.status, {});
    // A pre-approved request is not a thing: the status sent is dropped.
    const preApproved = await alice.post(base, { ...csr('alice-2'), status: { conditions: [approved] } });
    assert.equal(preApproved.status, 201, preApproved.text);
    assert.deepEqual(preApproved.body.status, {});
    // The main resource changes only metadata.
    const current = created.body;
    const put = await admin.put(`${base}/alice-1`, {
      ...current, metadata: { ...current.metadata, labels: { team: 'dev' } },
      spec: { ...current.spec, username: 'admin', groups: ['system:masters'], signerName: 'example.com/other' },
      status: { conditions: [approved] },
    });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(put.body.metadata.labels, { team: 'dev' });
    assert.deepEqual(put.body.spec, current.spec);
    assert.deepEqual(put.body.status, {});
    const listed = await admin.get(`${base}?fieldSelector=spec.signerName=example.com/widgets`);
    assert.deepEqual(listed.body.items.map((i: { metadata: { name: string } }) => i.metadata.name).sort(), ['alice-1', 'alice-2']);
  });

  test('bad requests are 422 with upstream\'s causes', async () => {
    const invalid = async (name: string, spec: Record<string, unknown>) => {
      const r = await admin.post(base, csr(name, spec));
      assertStatus(r, 422, 'Invalid', name);
      assert.match(r.body.message, new RegExp(`^CertificateSigningRequest\\.${certs.replaceAll('.', '\\.')} "${name}" is invalid: `));
      return causes(r);
    };
    assert.deepEqual(await invalid('garbage', { request: b64('not a request') }),
      [`FieldValueInvalid spec.request: Invalid value: []byte{${[...Buffer.from('not a request')].map((b) => `0x${b.toString(16)}`).join(', ')}}: PEM block type must be CERTIFICATE REQUEST`]);
    const der = Buffer.from(pemRequest().split('\n').filter((l) => l && !l.startsWith('-----')).join(''), 'base64');
    der[der.indexOf(Buffer.from('alice')) + 4] = 'x'.charCodeAt(0);
    const forged = `-----BEGIN CERTIFICATE REQUEST-----\n${der.toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`;
    const sig = await invalid('forged', { request: b64(forged) });
    assert.equal(sig.length, 1);
    assert.match(sig[0]!, /^FieldValueInvalid spec\.request: Invalid value: \[\]byte\{0x2d, .*\}: x509: ECDSA verification failure$/);
    assert.deepEqual(await invalid('no-signer', { signerName: undefined }), ['FieldValueRequired spec.signerName: Required value']);
    assert.deepEqual(await invalid('legacy', { signerName: d.key('legacy-unknown') }),
      [`FieldValueInvalid spec.signerName: Invalid value: "${d.key('legacy-unknown')}": the legacy signerName is not allowed via this API version`]);
    assert.deepEqual(await invalid('short', { expirationSeconds: 300 }),
      ['FieldValueInvalid spec.expirationSeconds: Invalid value: 300: may not specify a duration less than 600 seconds (10 minutes)']);
    const usage = await invalid('usage', { usages: ['client auth', 'time travel'] });
    assert.equal(usage.length, 1);
    assert.match(usage[0]!, /^FieldValueNotSupported spec\.usages\[1\]: Unsupported value: "time travel": supported values: "any", "cert sign", /);
  });

  test('approval needs approve on the signer, by name or by the domain wildcard', async () => {
    await admin.post(base, csr('ann-1'));
    // ann may write approvals but not yet approve for any signer.
    await grant('ann', 'csr-approval-writer', [
      { apiGroups: [certs], resources: ['certificatesigningrequests'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: [certs], resources: ['certificatesigningrequests/approval'], verbs: ['update'] },
    ]);
    const ann = t.client.withToken('ann-token');
    const current = (await pollUntil(() => ann.get(`${base}/ann-1`), (r) => r.status === 200, 'ann may read requests')).body;
    const refused = await pollUntil(() => ann.put(`${base}/ann-1/approval`, approvalOf(current, [approved])),
      (r) => r.status === 403 && /approve requests/.test(r.body.message), 'ann may write approvals');
    assertStatus(refused, 403, 'Forbidden');
    assert.equal(refused.body.message,
      `certificatesigningrequests.${certs} "ann-1" is forbidden: user not permitted to approve requests with signerName "example.com/widgets"`);
    await grant('ann', 'widgets-approver', [{ apiGroups: [certs], resources: ['signers'], resourceNames: ['example.com/widgets'], verbs: ['approve'] }]);
    const ok = await untilAllowed(() => ann.put(`${base}/ann-1/approval`, approvalOf(current, [approved])), 'ann may approve widgets');
    assert.equal(ok.status, 200, ok.text);
    const cond = ok.body.status.conditions[0];
    assert.equal(cond.type, 'Approved');
    assert.ok(cond.lastUpdateTime && cond.lastTransitionTime, 'the server stamps the condition');
    assert.equal(ok.body.spec.username, current.spec.username);

    // wes may approve anything of example.com through the wildcard.
    await admin.post(base, csr('wes-1', { signerName: 'example.com/gadgets' }));
    await grant('wes', 'example-approver', [
      { apiGroups: [certs], resources: ['certificatesigningrequests'], verbs: ['get'] },
      { apiGroups: [certs], resources: ['certificatesigningrequests/approval'], verbs: ['update'] },
      { apiGroups: [certs], resources: ['signers'], resourceNames: ['example.com/*'], verbs: ['approve'] },
    ]);
    const wes = t.client.withToken('wes-token');
    const wesCsr = (await pollUntil(() => wes.get(`${base}/wes-1`), (r) => r.status === 200, 'wes may read')).body;
    const byWildcard = await untilAllowed(() => wes.put(`${base}/wes-1/approval`, approvalOf(wesCsr, [denied])), 'wes may approve example.com/*');
    assert.equal(byWildcard.status, 200, byWildcard.text);
    assert.equal(byWildcard.body.status.conditions[0].type, 'Denied');
  });

  test('condition rules: Approved and Denied exclusive, Approved never removed; the approval takes only conditions', async () => {
    await admin.post(base, csr('rules-1'));
    const current = (await admin.get(`${base}/rules-1`)).body;
    const both = await admin.put(`${base}/rules-1/approval`, approvalOf(current, [approved, denied]));
    assertStatus(both, 422, 'Invalid');
    assert.deepEqual(causes(both), ['FieldValueInvalid status.conditions[1].type: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive']);
    const ok = await admin.put(`${base}/rules-1/approval`, { ...approvalOf(current, [approved]), spec: { ...current.spec, signerName: 'example.com/x' } });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.spec.signerName, 'example.com/widgets', 'the approval does not change the spec');
    const removed = await admin.put(`${base}/rules-1/approval`, approvalOf(ok.body, []));
    assertStatus(removed, 422, 'Invalid');
    assert.deepEqual(causes(removed), ['FieldValueForbidden status.conditions: Forbidden: updates may not remove a condition of type "Approved"']);
    // /status cannot approve or deny: an Approved condition it drops is kept.
    const viaStatus = await admin.put(`${base}/rules-1/status`, approvalOf(ok.body, [{ type: 'Failed', status: 'True', reason: 'Oops' }]));
    assert.equal(viaStatus.status, 200, viaStatus.text);
    assert.deepEqual(viaStatus.body.status.conditions.map((c: { type: string }) => c.type), ['Approved', 'Failed']);
    assert.equal((await admin.get(`${base}/rules-1/approval`)).status, 200, 'the approval sub-resource is readable');
  });

  test('writing the certificate through /status needs sign on the signer', async () => {
    await admin.post(base, csr('sam-1'));
    const current = (await admin.get(`${base}/sam-1`)).body;
    const approvedCsr = (await admin.put(`${base}/sam-1/approval`, approvalOf(current, [approved]))).body;
    await grant('sam', 'csr-status-writer', [
      { apiGroups: [certs], resources: ['certificatesigningrequests'], verbs: ['get'] },
      { apiGroups: [certs], resources: ['certificatesigningrequests/status'], verbs: ['update'] },
    ]);
    const sam = t.client.withToken('sam-token');
    const certPem = TestCA.root().client('alice').certPem;
    const issued = { ...approvedCsr, status: { ...approvedCsr.status, certificate: b64(certPem) } };
    const refused = await pollUntil(() => sam.put(`${base}/sam-1/status`, issued), (r) => r.status === 403 && /sign requests/.test(r.body.message), 'sam may write status');
    assert.equal(refused.body.message, `certificatesigningrequests.${certs} "sam-1" is forbidden: user not permitted to sign requests with signerName "example.com/widgets"`);
    // A status write that leaves the certificate alone needs no sign permission.
    const failed = { ...approvedCsr, status: { ...approvedCsr.status, conditions: [...approvedCsr.status.conditions, { type: 'Failed', status: 'True', reason: 'NotYet' }] } };
    const other = await sam.put(`${base}/sam-1/status`, failed);
    assert.equal(other.status, 200, other.text);
    await grant('sam', 'widgets-signer', [{ apiGroups: [certs], resources: ['signers'], resourceNames: ['example.com/widgets'], verbs: ['sign'] }]);
    const ok = await untilAllowed(() => sam.put(`${base}/sam-1/status`, { ...other.body, status: { ...other.body.status, certificate: b64(certPem) } }), 'sam may sign');
    assert.equal(ok.status, 200, ok.text);
    assert.equal(Buffer.from(ok.body.status.certificate, 'base64').toString(), certPem);
    // Not a certificate, or a changed one: refused.
    const junk = await admin.put(`${base}/sam-1/status`, { ...ok.body, status: { ...ok.body.status, certificate: b64('junk') } });
    assertStatus(junk, 422, 'Invalid');
    assert.deepEqual(causes(junk), [
      'FieldValueInvalid status.certificate: Invalid value: "<certificate data>": must contain at least one CERTIFICATE PEM block',
      'FieldValueForbidden status.certificate: Forbidden: updates may not modify existing certificate content',
    ]);
  });

  test('CertificateSubjectRestriction refuses system:masters through the kube-apiserver-client signer', async () => {
    const signer = d.key('kube-apiserver-client');
    const r = await admin.post(base, csr('masters', { signerName: signer, request: b64(pemRequest(['system:masters'])) }));
    assertStatus(r, 403, 'Forbidden');
    assert.equal(r.body.message, `certificatesigningrequests.${certs} "masters" is forbidden: use of ${signer} signer with system:masters group is not allowed`);
    const fine = await admin.post(base, csr('not-masters', { signerName: signer }));
    assert.equal(fine.status, 201, fine.text);
  });

  test('pkg/client approves through updateApproval and signs through updateStatus (JSON and protobuf)', async () => {
    for (const format of ['json', 'protobuf'] as const) {
      const c = new ApiClient({ server: `https://127.0.0.1:${t.server.port}`, caData: t.server.cert.cert, bearerToken: 'admin-token', qps: -1 }, { format });
      try {
        const csrs = c.resource(certs, 'v1', 'certificatesigningrequests');
        const created = await csrs.create(csr(`client-${format}`) as unknown as KubeObject) as Record<string, any>;
        const approvedCsr = await csrs.updateApproval({ ...created, status: { conditions: [approved] } } as unknown as KubeObject) as Record<string, any>;
        assert.equal(approvedCsr.status.conditions[0].type, 'Approved', format);
        const certPem = TestCA.root().client('alice').certPem;
        const issued = await csrs.updateStatus({ ...approvedCsr, status: { ...approvedCsr.status, certificate: b64(certPem) } } as unknown as KubeObject) as Record<string, any>;
        assert.equal(Buffer.from(issued.status.certificate, 'base64').toString(), certPem, format);
        const patched = await csrs.patch(`client-${format}`, 'merge', { status: { conditions: [approved, { type: 'Failed', status: 'True', reason: 'X' }] } }, { subresource: 'approval' }) as Record<string, any>;
        assert.deepEqual(patched.status.conditions.map((x: { type: string }) => x.type), ['Approved', 'Failed'], format);
      } finally {
        c.close();
      }
    }
  });

  test('kubectl certificate approve and deny, and kubectl get csr', async () => {
    const kubectl = new Kubectl(writeKubeconfig(t, 'admin-token'));
    await admin.post(base, csr('kubectl-a', { expirationSeconds: 3600 }));
    await admin.post(base, csr('kubectl-d'));
    await kubectl.ok(['certificate', 'approve', 'kubectl-a']);
    await kubectl.ok(['certificate', 'deny', 'kubectl-d']);
    const a = (await admin.get(`${base}/kubectl-a`)).body;
    assert.equal(a.status.conditions[0].type, 'Approved');
    assert.equal(a.status.conditions[0].reason, 'KubectlApprove');
    assert.equal((await admin.get(`${base}/kubectl-d`)).body.status.conditions[0].type, 'Denied');
    const table = await kubectl.ok(['get', 'csr', 'kubectl-a', 'kubectl-d', 'sam-1', 'alice-2']);
    const lines = table.stdout.trim().split('\n').map((l) => l.trim().split(/\s{2,}/));
    assert.deepEqual(lines[0], ['NAME', 'AGE', 'SIGNERNAME', 'REQUESTOR', 'REQUESTEDDURATION', 'CONDITION']);
    const row = (name: string) => lines.find((l) => l[0] === name)!;
    assert.deepEqual([row('kubectl-a')[2], row('kubectl-a')[3], row('kubectl-a')[4], row('kubectl-a')[5]], ['example.com/widgets', 'admin', '60m', 'Approved']);
    assert.deepEqual(row('kubectl-d').slice(4), ['<none>', 'Denied']);
    assert.deepEqual(row('sam-1').slice(5), ['Approved,Failed,Issued']);
    assert.deepEqual(row('alice-2').slice(3), ['alice', '<none>', 'Pending']);
  });
});
