// The per-signer CA flags of the BUILT controller-manager binary: each built-in signer signs with
// the pair named for it (--cluster-signing-kube-apiserver-client-*, --cluster-signing-kubelet-client-*),
// and a signer left without a pair leaves its requests alone.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { defaultAuthenticationOptions } from '../../cmd/apiserver/app/authentication-options.js';
import { createTestCA } from '../../pkg/authentication/testing/pki.js';
import { tempFiles } from '../../pkg/authentication/testing/signing-keys.js';
import { defaultAuthorizationOptions } from '../../pkg/authorization/modes.js';
import { createCSR } from '../../pkg/util/certificates/csr.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { domainOf, pollUntil } from './framework/authentication.js';
import type { Client } from './framework/client.js';
import { writeKubeconfig } from './framework/kubeconfig.js';
import { terminate } from './framework/process.js';

const repo = resolve(import.meta.dirname, '../../../..');
const managerJs = join(repo, '_output/dist/cmd/controller-manager/main.js');
const adminToken = 'signing-flags-admin';

describe('per-signer CA flags of the controller manager binary', () => {
  const files = tempFiles('orch-csr-flags-');
  const clientCA = createTestCA('kube-apiserver-client-ca');
  const kubeletCA = createTestCA('kubelet-client-ca');
  let t: TestServer;
  let admin: Client;
  let manager: ChildProcess;
  let certs: string;

  before(async () => {
    t = await startTestServer({
      authentication: { ...defaultAuthenticationOptions(), tokenAuthFile: files.write('tokens.csv', `${adminToken},admin,1,"system:masters"\n`) },
      authorization: { ...defaultAuthorizationOptions(), modes: ['RBAC'] },
    });
    admin = t.client.withToken(adminToken);
    certs = `/apis/${domainOf(t).group('certificates')}/v1/certificatesigningrequests`;
    const kc = writeKubeconfig(t, adminToken);
    manager = spawn(process.execPath, [managerJs, '--kubeconfig', kc.path, '--secure-port', '0', '--bind-address', '127.0.0.1',
      '--cert-dir', files.dir, '--leader-elect=false', '--controllers', 'csrsigning',
      '--cluster-signing-kube-apiserver-client-cert-file', files.write('client-ca.crt', clientCA.cert),
      '--cluster-signing-kube-apiserver-client-key-file', files.write('client-ca.key', clientCA.key),
      '--cluster-signing-kubelet-client-cert-file', files.write('kubelet-ca.crt', kubeletCA.cert),
      '--cluster-signing-kubelet-client-key-file', files.write('kubelet-ca.key', kubeletCA.key)], { stdio: 'ignore' });
  });
  after(async () => {
    await terminate(manager);
    await t?.stop();
    files.remove();
  });

  const approved = async (name: string, signer: string, commonName: string, organizations: string[]) => {
    const key = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
    const created = await admin.post(certs, {
      metadata: { name },
      spec: { request: Buffer.from(createCSR({ key, commonName, organizations })).toString('base64'), signerName: domainOf(t).key(signer), usages: ['digital signature', 'client auth'] },
    });
    assert.equal(created.status, 201, created.text);
    const r = await admin.put(`${certs}/${name}/approval`, {
      ...created.body, status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Test', message: 'approved by the test' }] },
    });
    assert.equal(r.status, 200, r.text);
  };
  const issued = async (name: string) => {
    const csr = await pollUntil(() => admin.get(`${certs}/${name}`), (r) => !!r.body.status?.certificate, `the certificate of ${name}`, 30_000);
    return new X509Certificate(Buffer.from(csr.body.status.certificate, 'base64'));
  };

  test('each signer signs with its own pair; a signer without one leaves its requests pending', async () => {
    await approved('client', 'kube-apiserver-client', 'alice', ['team']);
    await approved('kubelet', 'kube-apiserver-client-kubelet', 'system:node:n1', ['system:nodes']);
    await approved('serving', 'kubelet-serving', 'system:node:n1', ['system:nodes']);
    assert.ok((await issued('client')).checkIssued(new X509Certificate(clientCA.cert)), 'kube-apiserver-client signs with its own CA');
    assert.ok((await issued('kubelet')).checkIssued(new X509Certificate(kubeletCA.cert)), 'kube-apiserver-client-kubelet signs with its own CA');
    // Both others are issued by now; the kubelet-serving signer, given no pair, has not touched its request.
    const serving = await admin.get(`${certs}/serving`);
    assert.equal(serving.body.status.certificate, undefined);
    assert.ok(!(serving.body.status.conditions as { type: string }[]).some((c) => c.type === 'Failed'));
  });
});
