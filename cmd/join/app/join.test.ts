import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestCA } from '../../../pkg/authentication/testing/pki.js';
import { kubeconfigYAML } from '../../../pkg/util/kubeconfig/write.js';
import { pemCertificates as certificatesOf } from '../../../pkg/util/certificates/pem.js';
import { caCertHash, matchesPins, readClusterKubeconfig } from './discovery.js';
import { serverURL, validateOptions, type JoinOptions } from './options.js';

const base: JoinOptions = {
  server: 'https://10.0.0.1:6443', token: 'abcdef.0123456789abcdef', caCertHashes: [], unsafeSkipCAVerification: true,
  nodeName: 'worker-1', kubeconfig: '/tmp/k', timeoutMs: 1000, apiDomain: 'orch.io', verbosity: 0,
};

test('the endpoint is host:port or an https URL', () => {
  assert.equal(serverURL('10.0.0.1:6443'), 'https://10.0.0.1:6443');
  assert.equal(serverURL('https://api.example:6443/ignored'), 'https://api.example:6443');
  assert.equal(serverURL('[::1]:6443'), 'https://[::1]:6443');
  assert.throws(() => serverURL('http://10.0.0.1:6443'), /must use https/);
});

test('options are refused without repeating the token', () => {
  assert.deepEqual(validateOptions(base), []);
  const bad = validateOptions({ ...base, token: 'ABCDEF.secretsecretsecret', unsafeSkipCAVerification: false, caCertHashes: ['md5:00'], nodeName: 'Bad_Name' });
  assert.deepEqual(bad.map((e) => e.split(':')[0]), ['--token', '--discovery-token-ca-cert-hash', '--node-name']);
  assert.ok(!bad.join('\n').includes('secretsecretsecret'));
  assert.match(validateOptions({ ...base, unsafeSkipCAVerification: false })[0]!, /--discovery-token-ca-cert-hash is required/);
});

test("cluster-info's CA is read and checked against kubeadm-style pins", () => {
  const ca = createTestCA('cluster-ca');
  const other = createTestCA('other-ca');
  const info = readClusterKubeconfig(kubeconfigYAML({ server: 'https://10.0.0.1:6443', caPEM: ca.cert }));
  assert.equal(info.server, 'https://10.0.0.1:6443');
  const pin = caCertHash(certificatesOf(ca.cert)[0]!);
  assert.match(pin, /^sha256:[0-9a-f]{64}$/);
  assert.ok(matchesPins(info.caPEM, [pin.toUpperCase().replace('SHA256', 'sha256')]));
  assert.ok(!matchesPins(info.caPEM, [caCertHash(certificatesOf(other.cert)[0]!)]));
  assert.throws(() => readClusterKubeconfig('clusters: []'), /no cluster with certificate-authority-data/);
  assert.throws(() => readClusterKubeconfig(': : :'), /could not be parsed|no cluster/);
});
