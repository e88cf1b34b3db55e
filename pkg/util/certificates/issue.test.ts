import assert from 'node:assert/strict';
import { createPublicKey, generateKeyPairSync, X509Certificate, type KeyObject } from 'node:crypto';
import { test } from 'node:test';
import forge from 'node-forge';
import { issueCertificate, requestSubjectAndKey } from './issue.js';
import { createCSR, type CreateCSROptions } from './csr.js';
import { keyIdentifier, loadSigningAuthority, type SigningAuthority } from './signing-authority.js';
import { certificateValidity } from './signing-policy.js';

type KeyKind = 'rsa' | 'p256' | 'p384' | 'ed25519';
type RequestOptions = Omit<CreateCSROptions, 'key'>;

function generateKey(kind: KeyKind): KeyObject {
  switch (kind) {
    case 'rsa': return generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    case 'p256': return generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
    case 'p384': return generateKeyPairSync('ec', { namedCurve: 'secp384r1' }).privateKey;
    case 'ed25519': return generateKeyPairSync('ed25519').privateKey;
  }
}
const buildCertificateRequest = (key: KeyObject, opts: RequestOptions) => createCSR({ key, ...opts });

const pemBody = (pem: string) => Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');

/** A self-signed CA of `kind`, issued by issueCertificate itself (the test only needs its key and name). */
function selfSignedCA(kind: KeyKind): { authority: SigningAuthority; key: KeyObject } {
  const key = generateKey(kind);
  const { rawSubject, rawPublicKey } = requestSubjectAndKey(pemBody(buildCertificateRequest(key, { commonName: `ca-${kind}` })));
  const provisional: SigningAuthority = {
    certificate: undefined as unknown as X509Certificate, privateKey: key, rawSubject, keyId: keyIdentifier(rawPublicKey), notAfter: new Date(Date.now() + 86400_000),
  };
  const now = new Date();
  const pem = issueCertificate(provisional, { rawSubject, rawPublicKey, dnsNames: [], emailAddresses: [], ipAddresses: [], uris: [] }, ['cert sign'], { notBefore: new Date(now.getTime() - 3600_000), notAfter: new Date(now.getTime() + 86400_000) });
  const keyPem = key.export({ type: 'pkcs8', format: 'pem' }).toString();
  return { authority: loadSigningAuthority(pem, keyPem), key };
}

function issue(ca: SigningAuthority, kind: KeyKind, opts: RequestOptions, usages: string[], ttlMs = 3600_000) {
  const key = generateKey(kind);
  const csr = pemBody(buildCertificateRequest(key, opts));
  const pem = issueCertificate(ca, {
    ...requestSubjectAndKey(csr), dnsNames: opts.dnsNames ?? [], emailAddresses: opts.emailAddresses ?? [], ipAddresses: opts.ipAddresses ?? [], uris: opts.uris ?? [],
  }, usages, certificateValidity(new Date(), ttlMs, ca.notAfter));
  return { cert: new X509Certificate(pem), key, pem };
}

test('any CA key signs any request key; the certificate carries the request subject, key and names', () => {
  for (const caKind of ['rsa', 'p256', 'p384', 'ed25519'] as const) {
    const { authority } = selfSignedCA(caKind);
    for (const reqKind of ['rsa', 'p256', 'ed25519'] as const) {
      const { cert, key } = issue(authority, reqKind, { commonName: 'system:node:n1', organizations: ['system:nodes'], dnsNames: ['n1.example'], ipAddresses: ['10.0.0.7', '::1'], emailAddresses: ['a@b.c'], uris: ['spiffe://x/y'] }, ['digital signature', 'server auth']);
      const what = `${caKind} CA, ${reqKind} request`;
      assert.ok(cert.verify(authority.certificate.publicKey), what);
      assert.equal(cert.issuer, authority.certificate.subject, what);
      assert.equal(cert.subject, 'O=system:nodes\nCN=system:node:n1', what);
      assert.ok(createPublicKey(key).export({ type: 'spki', format: 'der' }).equals(cert.publicKey.export({ type: 'spki', format: 'der' })), what);
      assert.equal(cert.subjectAltName, 'DNS:n1.example, email:a@b.c, IP Address:10.0.0.7, IP Address:0:0:0:0:0:0:0:1, URI:spiffe://x/y', what);
      assert.equal(cert.ca, false, what);
    }
  }
});

test('extensions: key usage, extended key usage, CA false, key identifiers linking to the CA', () => {
  const { authority } = selfSignedCA('p256');
  const { cert } = issue(authority, 'rsa', { commonName: 'u', organizations: ['g'] }, ['client auth', 'key encipherment', 'digital signature']);
  assert.deepEqual(cert.keyUsage, ['1.3.6.1.5.5.7.3.2']);
  const tbs = (forge.asn1.fromDer as unknown as (b: string, o: object) => forge.asn1.Asn1)(cert.raw.toString('binary'), { decodeBitStrings: false });
  const der = Buffer.from(forge.asn1.toDer(tbs).getBytes(), 'binary').toString('hex');
  // keyUsage critical, digitalSignature|keyEncipherment: 03 02 05 a0
  assert.match(der, /0603551d0f0101ff0404030205a0/);
  // basicConstraints critical, empty sequence (CA false)
  assert.match(der, /0603551d130101ff04023000/);
  // the authority key identifier is the CA's subject key identifier
  assert.ok(der.includes(`0603551d23041830168014${authority.keyId.toString('hex')}`));
  assert.ok(der.includes('0603551d0e'), 'subject key identifier');
  assert.equal(cert.subjectAltName, undefined, 'no names, no SAN extension');
});

test('serials are random and positive', () => {
  const { authority } = selfSignedCA('p256');
  const serials = new Set<string>();
  for (let i = 0; i < 20; i++) {
    const { cert } = issue(authority, 'p256', { commonName: 'x' }, ['client auth']);
    assert.ok(parseInt(cert.serialNumber.slice(0, 2), 16) < 0x80 || cert.serialNumber.length % 2 === 0);
    serials.add(cert.serialNumber);
  }
  assert.equal(serials.size, 20);
});

test('validity is the policy window, to the second', () => {
  const { authority } = selfSignedCA('rsa');
  const before = Math.floor(Date.now() / 1000) * 1000;
  const { cert } = issue(authority, 'p256', { commonName: 'x' }, ['client auth'], 600_000);
  const after = Date.now();
  const from = new Date(cert.validFrom).getTime();
  const to = new Date(cert.validTo).getTime();
  assert.ok(from >= before - 300_000 && from <= after - 300_000, 'backdated 5 minutes');
  assert.equal(to - from, 900_000, '10 minutes from now, the start 5 minutes back');
});

test('unknown usages and broken CA pairs are refused', () => {
  const { authority } = selfSignedCA('p256');
  assert.throws(() => issue(authority, 'p256', { commonName: 'x' }, ['client auth', 'bogus']), { message: 'unrecognized usage values: ["bogus"]' });
  const other = selfSignedCA('p256');
  const certPem = authority.certificate.toString();
  assert.throws(() => loadSigningAuthority(certPem, other.key.export({ type: 'pkcs8', format: 'pem' }).toString()), /private key does not match public key/);
  assert.throws(() => loadSigningAuthority(certPem + certPem, other.key.export({ type: 'pkcs8', format: 'pem' }).toString()), /expected 1 certificate, found 2/);
  assert.throws(() => loadSigningAuthority(certPem, 'nonsense'), /unable to parse the private key/);
});
