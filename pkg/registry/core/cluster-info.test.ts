import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from 'yaml';
import { clusterInfoKubeconfig, serverURL } from './cluster-info.js';

test('serverURL brackets IPv6 addresses', () => {
  assert.equal(serverURL('10.0.0.5', 6443), 'https://10.0.0.5:6443');
  assert.equal(serverURL('fd00::1', 6443), 'https://[fd00::1]:6443');
  assert.equal(serverURL('::1', 443), 'https://[::1]:443');
});

test('the kubeconfig is a v1 Config with one cluster named "" as kubeadm writes it', () => {
  const ca = '-----BEGIN CERTIFICATE-----\n' + 'A'.repeat(1200) + '\n-----END CERTIFICATE-----\n';
  const text = clusterInfoKubeconfig('https://10.0.0.5:6443', ca);
  assert.deepEqual(parse(text), {
    apiVersion: 'v1',
    clusters: [{ cluster: { 'certificate-authority-data': Buffer.from(ca).toString('base64'), server: 'https://10.0.0.5:6443' }, name: '' }],
    contexts: null,
    'current-context': '',
    kind: 'Config',
    preferences: {},
    users: null,
  });
  assert.match(text, /^    certificate-authority-data: \S+$/m, 'the base64 stays on one line');
  assert.match(text, /^  name: ""$/m);
});
