import assert from 'node:assert/strict';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { test } from 'node:test';
import { createTestCA, issueLoopbackServerCert } from './pki.js';

test('the test CA issues leaves and intermediates that chain, with the names, usages and windows asked for', () => {
  const ca = createTestCA('root');
  const root = new X509Certificate(ca.cert);
  assert.ok(root.ca);
  const client = ca.issue({ commonName: 'jane', organizations: ['dev', 'ops'], notBefore: new Date(Date.now() - 7200_000), notAfter: new Date(Date.now() - 3600_000) });
  const leaf = new X509Certificate(client.cert);
  assert.ok(leaf.verify(root.publicKey) && leaf.checkIssued(root));
  assert.ok(!leaf.ca);
  assert.match(leaf.subject, /CN=jane/);
  assert.match(leaf.subject, /O=dev/);
  assert.ok(new Date(leaf.validTo).getTime() < Date.now(), 'expired as asked');
  assert.deepEqual(leaf.keyUsage, ['1.3.6.1.5.5.7.3.2']);
  assert.ok(leaf.checkPrivateKey(createPrivateKey(client.key)));
  const server = new X509Certificate(issueLoopbackServerCert(ca).cert);
  assert.equal(server.checkIP('127.0.0.1'), '127.0.0.1');
  assert.deepEqual(server.keyUsage, ['1.3.6.1.5.5.7.3.1']);
  const mid = ca.intermediate('mid');
  const midCert = new X509Certificate(mid.cert);
  assert.ok(midCert.ca && midCert.verify(root.publicKey));
  const deep = new X509Certificate(mid.issue({ commonName: 'deep' }).cert);
  assert.ok(deep.verify(midCert.publicKey) && !deep.verify(root.publicKey));
});
