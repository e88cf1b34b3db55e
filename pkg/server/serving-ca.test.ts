import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { TestCA } from '../authentication/testing/ca.js';
import { servingCA } from './serving-ca.js';
import { ensureSelfSignedCert } from './serving-cert.js';

const subjects = (pem: string) => (pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []).map((b) => new X509Certificate(b).subject);

test('a self-signed serving certificate is its own CA', () => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-serving-ca-'));
  try {
    const c = ensureSelfSignedCert({ certDir: dir, hosts: ['127.0.0.1'] });
    const ca = servingCA(c.cert);
    assert.equal(ca.verified, true);
    assert.equal(new X509Certificate(ca.pem).fingerprint256, new X509Certificate(c.cert).fingerprint256);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the issuer is found after the leaf in the serving chain or in the client CA bundle', () => {
  const root = TestCA.root({ commonName: 'cluster-ca' });
  const other = TestCA.root({ commonName: 'other-ca' });
  const leaf = root.server(['127.0.0.1']);
  assert.deepEqual(subjects(servingCA(leaf.certPem + root.certPem).pem), ['CN=cluster-ca']);
  const fromClientCA = servingCA(leaf.certPem, other.certPem + root.certPem);
  assert.equal(fromClientCA.verified, true);
  assert.deepEqual(subjects(fromClientCA.pem), ['CN=cluster-ca']);
});

test('an intermediate issuer is followed up to its root', () => {
  const root = TestCA.root({ commonName: 'root-ca' });
  const mid = root.intermediate({ commonName: 'mid-ca' });
  const leaf = mid.server(['127.0.0.1']);
  const ca = servingCA(leaf.chainPem, root.certPem);
  assert.equal(ca.verified, true);
  assert.deepEqual(subjects(ca.pem), ['CN=mid-ca', 'CN=root-ca']);
  // Without the root the intermediate alone is what verifies it.
  assert.deepEqual(subjects(servingCA(leaf.chainPem).pem), ['CN=mid-ca']);
});

test('nothing verifies it: the given chain, marked unverified', () => {
  const root = TestCA.root({ commonName: 'cluster-ca' });
  const other = TestCA.root({ commonName: 'other-ca' });
  const leaf = root.server(['127.0.0.1']);
  const ca = servingCA(leaf.certPem, other.certPem);
  assert.equal(ca.verified, false);
  assert.equal(ca.pem, leaf.certPem);
});
