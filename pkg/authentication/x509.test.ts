import assert from 'node:assert/strict';
import { createHash, X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { test } from 'node:test';
import { apiDomain, defaultApiDomain } from '../../api/domain.js';
import type { AuthenticationRequest, AuthenticationResult } from './authenticator.js';
import { TestCA } from './testing/ca.js';
import { startTLSServer } from './testing/tls-server.js';
import { ClientCertificateVerifier, loadCABundle, parseCABundle, tlsClientCAs, x509Authenticator } from './x509.js';

const root = TestCA.root({ commonName: 'client-ca' });
const otherRoot = TestCA.root({ commonName: 'client-ca' }); // same name, different key
const unrelatedRoot = TestCA.root({ commonName: 'someone-else' });
const hour = 3600_000;

function req(chain: X509Certificate[]): AuthenticationRequest {
  return { headers: {}, rawHeaders: [], peerCertificates: chain };
}

function reason(r: AuthenticationResult): string {
  assert.equal(r.outcome, 'failed', JSON.stringify(r));
  return (r as { reason: string }).reason;
}

test('no client certificate is not this method', async () => {
  const auth = x509Authenticator({ clientCA: [root.certificate], domain: defaultApiDomain });
  assert.deepEqual(await auth.authenticate(req([])), { outcome: 'skipped' });
});

test('a certificate of the client CA names the user: CN the name, each O a group, the UID attribute the uid', async () => {
  const auth = x509Authenticator({ clientCA: [root.certificate], domain: defaultApiDomain });
  const jane = root.client('jane', ['dev', 'ops'], { uids: ['u-123'] });
  const r = await auth.authenticate(req(jane.chain));
  assert.equal(r.outcome, 'authenticated');
  if (r.outcome !== 'authenticated') return;
  assert.equal(r.user.name, 'jane');
  assert.equal(r.user.uid, 'u-123');
  assert.deepEqual(r.user.groups, ['dev', 'ops']);
  const id = 'X509SHA256=' + createHash('sha256').update(jane.certificate.raw).digest('hex');
  assert.deepEqual(r.user.extra, { 'authentication.orch.io/credential-id': [id] });

  const k8s = x509Authenticator({ clientCA: [root.certificate], domain: apiDomain('k8s.io') });
  const r2 = await k8s.authenticate(req(root.client('joe').chain));
  assert.equal(r2.outcome, 'authenticated');
  if (r2.outcome === 'authenticated') {
    assert.deepEqual(Object.keys(r2.user.extra), ['authentication.kubernetes.io/credential-id']);
    assert.equal(r2.user.uid, undefined);
    assert.deepEqual(r2.user.groups, []);
  }
});

test('a certificate without a common name is not this method; several UIDs are an error', async () => {
  const auth = x509Authenticator({ clientCA: [root.certificate], domain: defaultApiDomain });
  assert.deepEqual(await auth.authenticate(req(root.issue({ organizations: ['dev'] }).chain)), { outcome: 'skipped' });
  assert.equal(reason(await auth.authenticate(req(root.client('x', [], { uids: ['a', 'b'] }).chain))), 'expected 1 UID, but found multiple: [a b]');
  assert.equal(reason(await auth.authenticate(req(root.client('x', [], { uids: [''] }).chain))), 'UID cannot be an empty string');
});

test('a certificate of another CA fails with upstream\'s unknown authority message and the certificate identifier', async () => {
  const auth = x509Authenticator({ clientCA: [root.certificate], domain: defaultApiDomain });
  const mallory = otherRoot.client('admin', ['system:masters']);
  assert.match(
    reason(await auth.authenticate(req(mallory.chain))),
    /^verifying certificate SN=\d+, SKID=([0-9A-F]{2}:)+[0-9A-F]{2}, AKID=([0-9A-F]{2}:)+[0-9A-F]{2} failed: x509: certificate signed by unknown authority \(possibly because of "crypto\/rsa: verification error" while trying to verify candidate authority certificate "client-ca"\)$/,
  );
  assert.match(reason(await auth.authenticate(req(unrelatedRoot.client('admin').chain))), / failed: x509: certificate signed by unknown authority$/);
});

test('an expired or not yet valid certificate fails with the times, as Go words it', async () => {
  const now = new Date('2030-01-02T03:04:05.678Z');
  const auth = x509Authenticator({ clientCA: [root.certificate], domain: defaultApiDomain, now: () => now });
  const expired = root.client('old', [], { notBefore: new Date('2029-01-01T00:00:00Z'), notAfter: new Date('2030-01-01T00:00:00Z') });
  assert.match(reason(await auth.authenticate(req(expired.chain))), / failed: x509: certificate has expired or is not yet valid: current time 2030-01-02T03:04:05Z is after 2030-01-01T00:00:00Z$/);
  const future = root.client('new', [], { notBefore: new Date('2030-02-01T00:00:00Z'), notAfter: new Date('2031-01-01T00:00:00Z') });
  assert.match(reason(await auth.authenticate(req(future.chain))), / failed: x509: certificate has expired or is not yet valid: current time 2030-01-02T03:04:05Z is before 2030-02-01T00:00:00Z$/);
  // With the real clock the root (valid for a day) does not cover 2030, so the fixed clock also proves
  // the leaf is checked before the chain.
  const live = x509Authenticator({ clientCA: [root.certificate], domain: defaultApiDomain });
  const justExpired = root.client('old', [], { notBefore: new Date(Date.now() - 2 * hour), notAfter: new Date(Date.now() - 1000) });
  assert.match(reason(await live.authenticate(req(justExpired.chain))), /x509: certificate has expired or is not yet valid: current time .* is after /);
});

test('extended key usage must allow client authentication on every certificate that restricts it', async () => {
  const auth = x509Authenticator({ clientCA: [root.certificate], domain: defaultApiDomain });
  const serverOnly = root.client('srv', [], { extKeyUsage: ['serverAuth'] });
  assert.match(reason(await auth.authenticate(req(serverOnly.chain))), / failed: x509: certificate specifies an incompatible key usage$/);
  for (const extKeyUsage of [null, ['any' as const], ['serverAuth' as const, 'clientAuth' as const]]) {
    const r = await auth.authenticate(req(root.client('ok', [], { extKeyUsage }).chain));
    assert.equal(r.outcome, 'authenticated', `extKeyUsage ${JSON.stringify(extKeyUsage)}`);
  }
  const serverIntermediate = root.intermediate({ commonName: 'servers-only', extKeyUsage: ['serverAuth'] });
  assert.match(reason(await auth.authenticate(req(serverIntermediate.client('x').chain))), /incompatible key usage$/);
});

test('chains through presented intermediates to a root of the bundle', async () => {
  const intermediate = root.intermediate({ commonName: 'team-ca' });
  const second = intermediate.intermediate({ commonName: 'sub-team-ca' });
  const auth = x509Authenticator({ clientCA: [root.certificate], domain: defaultApiDomain });
  const alice = second.client('alice', ['team']);
  assert.equal(alice.chain.length, 3);
  const r = await auth.authenticate(req(alice.chain));
  assert.equal(r.outcome, 'authenticated');
  // Intermediates presented out of order still chain; a missing one does not.
  assert.equal((await auth.authenticate(req([alice.certificate, intermediate.certificate, second.certificate]))).outcome, 'authenticated');
  assert.match(reason(await auth.authenticate(req([alice.certificate, intermediate.certificate]))), /x509: certificate signed by unknown authority$/);
  assert.match(reason(await auth.authenticate(req([alice.certificate]))), /x509: certificate signed by unknown authority$/);
  // An intermediate in the bundle is a root of its own.
  const byIntermediate = x509Authenticator({ clientCA: [second.certificate], domain: defaultApiDomain });
  assert.equal((await byIntermediate.authenticate(req([alice.certificate]))).outcome, 'authenticated');
  // An intermediate of another root does not lead to ours.
  const foreign = otherRoot.intermediate({ commonName: 'team-ca' });
  assert.match(reason(await auth.authenticate(req(foreign.client('eve').chain))), /x509: certificate signed by unknown authority \(possibly because of "crypto\/rsa: verification error" while trying to verify candidate authority certificate "client-ca"\)$/);
});

test('issuers must be CAs, valid now, and within their path length', async () => {
  const auth = x509Authenticator({ clientCA: [root.certificate], domain: defaultApiDomain });
  const notCA = root.intermediate({ commonName: 'not-a-ca', isCA: false });
  assert.match(reason(await auth.authenticate(req(notCA.client('x').chain))), /unknown authority \(possibly because of "x509: invalid signature: parent certificate cannot sign this kind of certificate" while trying to verify candidate authority certificate "not-a-ca"\)$/);
  const noCertSign = root.intermediate({ commonName: 'no-cert-sign', withoutCertSign: true });
  assert.match(reason(await auth.authenticate(req(noCertSign.client('x').chain))), /parent certificate cannot sign this kind of certificate/);
  const expired = root.intermediate({ commonName: 'expired-ca', notBefore: new Date(Date.now() - 2 * hour), notAfter: new Date(Date.now() - hour) });
  // An issuer that signed but is not valid now is the answer itself, as in Go.
  assert.match(reason(await auth.authenticate(req(expired.client('x').chain))), / failed: x509: certificate has expired or is not yet valid: current time \S+ is after \S+$/);
  const leafOnly = root.intermediate({ commonName: 'path-zero', pathLen: 0 });
  assert.equal((await auth.authenticate(req(leafOnly.client('x').chain))).outcome, 'authenticated');
  const tooDeep = leafOnly.intermediate({ commonName: 'below-path-zero' });
  assert.match(reason(await auth.authenticate(req(tooDeep.client('x').chain))), / failed: x509: too many intermediates for path length constraint$/);
  // A root that is not a CA signs nothing either.
  const plainRoot = TestCA.root({ commonName: 'plain', isCA: false });
  const byPlain = x509Authenticator({ clientCA: [plainRoot.certificate], domain: defaultApiDomain });
  assert.match(reason(await byPlain.authenticate(req(plainRoot.client('x').chain))), /parent certificate cannot sign this kind of certificate/);
});

test('a bundle of several CAs accepts each; the verifier is exported for reuse', async () => {
  const bundle = parseCABundle(root.certPem + '\n# comment\n' + unrelatedRoot.certPem);
  assert.equal(bundle.length, 2);
  const auth = x509Authenticator({ clientCA: bundle, domain: defaultApiDomain });
  assert.equal((await auth.authenticate(req(root.client('a').chain))).outcome, 'authenticated');
  assert.equal((await auth.authenticate(req(unrelatedRoot.client('b').chain))).outcome, 'authenticated');
  assert.equal((await auth.authenticate(req(otherRoot.client('c').chain))).outcome, 'failed');
  const verifier = new ClientCertificateVerifier({ roots: bundle });
  const v = verifier.verify(unrelatedRoot.client('b').chain);
  assert.equal(v.ok, true);
  if (v.ok) assert.equal(v.chains[0]!.at(-1)!.fingerprint256, unrelatedRoot.certificate.fingerprint256);
  assert.throws(() => parseCABundle('not a pem'), /data does not contain any valid RSA or ECDSA certificates/);
  const dir = mkdtempSync(join(tmpdir(), 'x509-test-'));
  try {
    writeFileSync(join(dir, 'ca.crt'), root.certPem + unrelatedRoot.certPem);
    assert.equal(loadCABundle(join(dir, 'ca.crt')).certificates.length, 2);
    writeFileSync(join(dir, 'empty.crt'), '');
    assert.throws(() => loadCABundle(join(dir, 'empty.crt')), /^Error: error creating pool from .*empty\.crt: data does not contain any valid RSA or ECDSA certificates$/);
    assert.throws(() => loadCABundle(join(dir, 'missing.crt')), /^Error: error reading .*missing\.crt: /);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('over a real TLS handshake: the server requests a certificate, reads the presented chain, and verifies it', async () => {
  const proxyCA = TestCA.root({ commonName: 'proxy-ca' });
  const intermediate = root.intermediate({ commonName: 'issuing-ca' });
  assert.equal(tlsClientCAs([root.certificate], [proxyCA.certificate, root.certificate], undefined).length, 2, 'each CA once');
  const auth = x509Authenticator({ clientCA: [root.certificate], domain: defaultApiDomain });
  const server = await startTLSServer([[root.certificate], [proxyCA.certificate]], async (r) => ({ presented: r.peerCertificates.length, result: await auth.authenticate(r) }));
  const call = (cert?: { chainPem: string; keyPem: string }) => server.call(cert ? { cert } : {}) as Promise<{ presented: number; result: AuthenticationResult }>;
  try {
    const bob = intermediate.client('bob', ['builders']);
    const withChain = await call(bob);
    assert.ok(withChain.presented >= 2, 'the intermediate the client sent reaches the authenticator');
    assert.equal(withChain.result.outcome, 'authenticated');
    if (withChain.result.outcome === 'authenticated') assert.deepEqual([withChain.result.user.name, withChain.result.user.groups], ['bob', ['builders']]);
    assert.deepEqual(await call(), { presented: 0, result: { outcome: 'skipped' } });
    const stranger = await call(otherRoot.client('admin', ['system:masters']));
    assert.equal(stranger.result.outcome, 'failed', 'the handshake accepts any certificate; authentication refuses it');
  } finally {
    await server.close();
  }
});

test('over real TLS with session resumption: a resumed session still verifies through the intermediate', async () => {
  const intermediate = root.intermediate({ commonName: 'resumption-ca' });
  const carol = intermediate.client('carol');
  const auth = x509Authenticator({ clientCA: [root.certificate], domain: defaultApiDomain });
  const server = await startTLSServer([[root.certificate]], async (r, raw) => ({
    reused: (raw.socket as TLSSocket).isSessionReused(),
    outcome: (await auth.authenticate(r)).outcome,
  }));
  const agent = new Agent({ keepAlive: false, maxCachedSessions: 10 });
  try {
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push((await server.call({ cert: carol, agent })) as { reused: boolean; outcome: string });
    assert.ok(answers.some((a) => a.reused), `the client resumed a session: ${JSON.stringify(answers)}`);
    assert.deepEqual(answers.map((a) => a.outcome), ['authenticated', 'authenticated', 'authenticated']);
  } finally {
    agent.destroy();
    await server.close();
  }
});
