// TLS bootstrapping end to end, every part a real process or server: the API server on a real
// etcd (RBAC, bootstrap token authentication, the signing CA as --client-ca-file), the BUILT
// controller manager binary running csrapproving, csrsigning, tokencleaner and bootstrapsigner
// as the manager's own user, and the BUILT join command, which downloads cluster-info
// anonymously, verifies it with the token, has its node client request approved and signed, and
// writes a kubeconfig that the real kubectl uses as system:node:<name>, with what the Node
// authorizer lets a kubelet do (--authorization-mode=Node,RBAC, as kubeadm runs). Also: a CA that matches no
// pin, a cluster-info tampered with by a man in the middle, and an expired token are refused; the
// token cleaner deletes the expired token and its signature goes with it.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse as parseYAML } from 'yaml';
import { ClusterInfo } from '../../api/core/v1/bootstrap-token.js';
import { defaultAdmissionOptions } from '../../cmd/apiserver/app/admission-options.js';
import { defaultAuthenticationOptions } from '../../cmd/apiserver/app/authentication-options.js';
import { caCertHash } from '../../cmd/join/app/discovery.js';
import { pemCertificates as certificatesOf } from '../../pkg/util/certificates/pem.js';
import { defaultAuthorizationOptions } from '../../pkg/authorization/modes.js';
import { createTestCA, issueLoopbackServerCert } from '../../pkg/authentication/testing/pki.js';
import { tempFiles } from '../../pkg/authentication/testing/signing-keys.js';
import { Client as OrchClient } from '../../pkg/client/index.js';
import { ensureDefaultServiceAccount, startTestServer, type TestServer } from './framework/apiserver.js';
import { domainOf, pollUntil } from './framework/authentication.js';
import type { Client } from './framework/client.js';
import { writeKubeconfig } from './framework/kubeconfig.js';
import { Kubectl } from './framework/kubectl.js';
import { run, terminate } from './framework/process.js';

const repo = resolve(import.meta.dirname, '../../../..');
const joinJs = join(repo, '_output/dist/cmd/join/main.js');
const managerJs = join(repo, '_output/dist/cmd/controller-manager/main.js');
const adminToken = 'join-admin-token';
const managerToken = 'join-manager-token';
const b64 = (s: string) => Buffer.from(s).toString('base64');
const rfc3339 = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

describe('joining a machine with a bootstrap token (TLS bootstrapping end to end)', () => {
  const files = tempFiles('orch-join-');
  const ca = createTestCA('cluster-signing-ca');
  let t: TestServer;
  let admin: Client;
  let manager: ChildProcess;
  let managerLog = '';
  let server: string;

  const secrets = '/api/v1/namespaces/orch-system/secrets';
  const clusterInfoPath = `/api/v1/namespaces/${ClusterInfo.namespace}/configmaps/${ClusterInfo.name}`;
  const createToken = async (id: string, secret: string, extra: Record<string, string> = {}) => {
    const d = domainOf(t);
    const r = await admin.post(secrets, {
      metadata: { name: `bootstrap-token-${id}` }, type: `bootstrap.${d.keyDomain}/token`,
      data: Object.fromEntries(Object.entries({
        'token-id': id, 'token-secret': secret, 'usage-bootstrap-authentication': 'true', 'usage-bootstrap-signing': 'true',
        'auth-extra-groups': 'system:bootstrappers:worker', ...extra,
      }).map(([k, v]) => [k, b64(v)])),
    });
    assert.equal(r.status, 201, r.text);
  };
  const clusterInfo = async () => {
    const r = await admin.get(clusterInfoPath);
    assert.equal(r.status, 200, r.text);
    return r.body as { data: Record<string, string> };
  };
  const pin = async () => {
    const kc = parseYAML((await clusterInfo()).data[ClusterInfo.kubeconfigKey]!) as { clusters: { cluster: Record<string, string> }[] };
    return caCertHash(certificatesOf(Buffer.from(kc.clusters[0]!.cluster['certificate-authority-data']!, 'base64').toString())[0]!);
  };
  const joinCmd = (endpoint: string, token: string, node: string, extra: string[]) =>
    run(process.execPath, [joinJs, endpoint, '--token', token, '--node-name', node, '--kubeconfig', join(files.dir, node, 'kubelet.conf'), '--api-domain', 'k8s.io', ...extra], { timeoutMs: 90_000 });

  before(async () => {
    const caFile = files.write('ca.crt', ca.cert);
    const caKeyFile = files.write('ca.key', ca.key);
    t = await startTestServer({
      apiDomain: 'k8s.io', // so that the real kubectl's typed clients (auth whoami) find their groups
      authentication: {
        ...defaultAuthenticationOptions(),
        tokenAuthFile: files.write('tokens.csv', `${adminToken},admin,1,"system:masters"\n${managerToken},system:kube-controller-manager,2\n`),
        enableBootstrapTokenAuth: true,
        clientCAFile: caFile,
      },
      authorization: { ...defaultAuthorizationOptions(), modes: ['Node', 'RBAC'] },
      admission: { ...defaultAdmissionOptions(), plugins: { enable: ['NodeRestriction'] } },
    });
    admin = t.client.withToken(adminToken);
    server = `127.0.0.1:${t.server.port}`;
    const d = domainOf(t);
    const rbac = d.group('rbac.authorization');
    // kubeadm's bindings: bootstrappers ask for node client certificates and have them approved.
    for (const [name, role] of [['kubeadm:kubelet-bootstrap', 'system:node-bootstrapper'],
      ['kubeadm:node-autoapprove-bootstrap', `system:${d.group('certificates')}:certificatesigningrequests:nodeclient`]]) {
      const r = await admin.post(`/apis/${rbac}/v1/clusterrolebindings`, {
        metadata: { name }, roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: role },
        subjects: [{ kind: 'Group', apiGroup: rbac, name: 'system:bootstrappers' }],
      });
      assert.equal(r.status, 201, r.text);
    }
    const kc = writeKubeconfig(t, managerToken);
    manager = spawn(process.execPath, [managerJs, '--kubeconfig', kc.path, '--secure-port', '0', '--bind-address', '127.0.0.1',
      '--cert-dir', files.dir, '--api-domain', 'k8s.io', '--leader-elect=false',
      '--controllers', '*,tokencleaner,bootstrapsigner', '--cluster-signing-cert-file', caFile, '--cluster-signing-key-file', caKeyFile,
      '--cluster-signing-duration', '2h', '--v', '2'], { stdio: ['ignore', 'ignore', 'pipe'] });
    manager.stderr!.on('data', (c: Buffer) => (managerLog += c.toString()));
  });
  after(async () => {
    await terminate(manager);
    await t?.stop();
    files.remove();
  });

  test('a new machine joins with its token and then authenticates as system:node:<name>', async () => {
    const token = 'abcdef.0123456789abcdef';
    await createToken('abcdef', '0123456789abcdef');
    await pollUntil(clusterInfo, (cm) => `${ClusterInfo.signatureKeyPrefix}abcdef` in cm.data, 'the bootstrap signer to sign cluster-info for the token', 30_000);
    const r = await joinCmd(server, token, 'worker-1', ['--discovery-token-ca-cert-hash', await pin(), '--timeout', '60s']);
    assert.equal(r.code, 0, r.describe());
    assert.match(r.stdout, /joined the cluster as system:node:worker-1/);
    assert.ok(!r.stdout.includes(token) && !r.stderr.includes('0123456789abcdef'), 'the token secret is never printed');
    assert.ok(!managerLog.includes('0123456789abcdef'), 'nor logged by the controllers');

    // The certificate: issued by the signing CA for the node, for at most --cluster-signing-duration.
    const kubeconfigPath = join(files.dir, 'worker-1', 'kubelet.conf');
    const written = parseYAML(readFileSync(kubeconfigPath, 'utf8')) as { users: { user: Record<string, string> }[] };
    const cert = new X509Certificate(Buffer.from(written.users[0]!.user['client-certificate-data']!, 'base64'));
    assert.ok(cert.checkIssued(new X509Certificate(ca.cert)) && cert.verify(new X509Certificate(ca.cert).publicKey), 'signed by the cluster signing CA');
    assert.match(cert.subject, /CN=system:node:worker-1/);
    assert.match(cert.subject, /O=system:nodes/);
    const lifetime = Date.parse(cert.validTo) - Date.parse(cert.validFrom);
    assert.ok(lifetime <= 2 * 3600_000 + 5 * 60_000 + 1000, `lifetime within --cluster-signing-duration and the backdate: ${cert.validFrom} .. ${cert.validTo}`);

    // The request is the bootstrap identity's, and approved by the approver after its review.
    const csrs = await admin.get(`/apis/${domainOf(t).group('certificates')}/v1/certificatesigningrequests`);
    const csr = (csrs.body.items as { spec: { username: string; groups: string[] }; status: { conditions: { type: string; reason: string }[] } }[])
      .find((c) => c.spec.username === 'system:bootstrap:abcdef');
    assert.ok(csr, 'the request was made as the bootstrap token user');
    assert.ok(csr.spec.groups.includes('system:bootstrappers:worker'));
    assert.equal(csr.status.conditions.find((c) => c.type === 'Approved')?.reason, 'AutoApproved');

    // Our client library and the real kubectl both authenticate with the written kubeconfig.
    const { client } = OrchClient.fromKubeconfig(kubeconfigPath, { domain: 'k8s.io' });
    try {
      const review = (await client.request('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' })) as { status: { userInfo: { username: string; groups: string[] } } };
      assert.equal(review.status.userInfo.username, 'system:node:worker-1');
      assert.ok(review.status.userInfo.groups.includes('system:nodes'));
    } finally {
      client.close();
    }
    const kubectl = new Kubectl({ dir: join(files.dir, 'worker-1'), path: kubeconfigPath, server: `https://${server}`, context: 'default-context', remove: () => undefined });
    const whoami = await kubectl.ok(['auth', 'whoami', '-o', 'json']);
    const user = JSON.parse(whoami.stdout) as { status: { userInfo: { username: string; groups: string[] } } };
    assert.equal(user.status.userInfo.username, 'system:node:worker-1');
    assert.ok(user.status.userInfo.groups.includes('system:nodes'));

    // What a kubelet does with it: register its Node, list nodes and the pods bound to it; and no
    // more: no secret of a pod that is not its own.
    await kubectl.ok(['create', '-f', '-'], { input: JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'worker-1' } }) });
    assert.match((await kubectl.ok(['get', 'nodes', '-o', 'name'])).stdout, /node\/worker-1/);
    assert.equal((await admin.post('/api/v1/namespaces/default/secrets', { metadata: { name: 'not-for-nodes' }, stringData: { k: 'v' } })).status, 201);
    await ensureDefaultServiceAccount(admin, 'default');
    assert.equal((await admin.post('/api/v1/namespaces/default/pods', { metadata: { name: 'on-worker' }, spec: {
      nodeName: 'worker-1', containers: [{ name: 'c', image: 'busybox' }],
    } })).status, 201);
    assert.equal((await kubectl.ok(['get', 'pods', '--all-namespaces', '--field-selector', 'spec.nodeName=worker-1', '-o', 'name'])).stdout.trim(), 'pod/on-worker');
    const secret = await kubectl.run(['get', 'secret', 'not-for-nodes', '-n', 'default']);
    assert.notEqual(secret.code, 0, secret.describe());
    assert.match(secret.stderr, /secrets "not-for-nodes" is forbidden: User "system:node:worker-1" cannot get resource "secrets" in API group "" in the namespace "default": no relationship found between node 'worker-1' and this object/);
  });

  test('a CA that matches no pin is refused before anything is requested', async () => {
    const r = await joinCmd(server, 'abcdef.0123456789abcdef', 'worker-pin', ['--discovery-token-ca-cert-hash', `sha256:${'0'.repeat(64)}`, '--timeout', '30s']);
    assert.equal(r.code, 1, r.describe());
    assert.match(r.stderr, /cluster CA found in cluster-info ConfigMap is invalid: none of the public keys/);
  });

  test('a cluster-info tampered with on the way is refused: its signature does not verify', async () => {
    // A man in the middle serves the real signature beside a kubeconfig naming its own CA.
    const real = await clusterInfo();
    const attacker = createTestCA('attacker-ca');
    const forged = (parseYAML(real.data[ClusterInfo.kubeconfigKey]!) as { clusters: { cluster: Record<string, string> }[] });
    forged.clusters[0]!.cluster['certificate-authority-data'] = b64(attacker.cert);
    const { stringify } = await import('yaml');
    const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: ClusterInfo.name, namespace: ClusterInfo.namespace }, data: { ...real.data, [ClusterInfo.kubeconfigKey]: stringify(forged) } });
    const serving = issueLoopbackServerCert(attacker);
    const mitm: Server = createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
      if (req.url?.startsWith(clusterInfoPath)) res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => mitm.listen(0, '127.0.0.1', r));
    try {
      const r = await joinCmd(`127.0.0.1:${(mitm.address() as AddressInfo).port}`, 'abcdef.0123456789abcdef', 'worker-mitm', ['--discovery-token-unsafe-skip-ca-verification', '--timeout', '30s']);
      assert.equal(r.code, 1, r.describe());
      assert.match(r.stderr, /failed to verify JWS signature of received cluster info object, can't trust this API Server/);
    } finally {
      mitm.close();
    }
  });

  test('an expired token is cleaned, its signature goes with it, and a join with it fails', async () => {
    await createToken('zyxwvu', 'zyxwvu9876543210', { expiration: rfc3339(Date.now() + 4000) });
    await pollUntil(clusterInfo, (cm) => `${ClusterInfo.signatureKeyPrefix}zyxwvu` in cm.data, 'the token to be signed for while it is valid', 30_000);
    await pollUntil(() => admin.get(`${secrets}/bootstrap-token-zyxwvu`), (r) => r.status === 404, 'the token cleaner to delete the expired token', 30_000);
    await pollUntil(clusterInfo, (cm) => !(`${ClusterInfo.signatureKeyPrefix}zyxwvu` in cm.data), 'its signature to go', 30_000);
    const refused = await t.client.withToken('zyxwvu.zyxwvu9876543210').get('/api/v1/namespaces/default/configmaps');
    assert.equal(refused.status, 401);
    const r = await joinCmd(server, 'zyxwvu.zyxwvu9876543210', 'worker-expired', ['--discovery-token-ca-cert-hash', await pin(), '--timeout', '3s']);
    assert.equal(r.code, 1, r.describe());
    assert.match(r.stderr, /token id \\"zyxwvu\\" is invalid for this cluster or it has expired/);
  });
});
