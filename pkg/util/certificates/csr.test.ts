import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import forge from 'node-forge';
import { createCSR, parseAndVerifyCSR, parseCSR, type CertificateRequest } from './csr.js';

// Made with `openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -subj '/O=system:nodes/O=a\,b/CN=system:node:n1'
// -addext 'subjectAltName=DNS:n1.example,IP:10.0.0.1,IP:2001:db8::1,email:a@b.c,URI:spiffe://x/y'`.
const opensslEC = `-----BEGIN CERTIFICATE REQUEST-----
MIIBTjCB9QIBADA+MRUwEwYDVQQKDAxzeXN0ZW06bm9kZXMxDDAKBgNVBAoMA2Es
YjEXMBUGA1UEAwwOc3lzdGVtOm5vZGU6bjEwWTATBgcqhkjOPQIBBggqhkjOPQMB
BwNCAAQsiZ2iFUHx+xPsPBI4lgxkYuP2SAJ+0oL3LoxWX+P5HvdAAX/dGEdAn8sR
dieEUctYe2Yq6/e5rx/B8wH0mD2goFUwUwYJKoZIhvcNAQkOMUYwRDBCBgNVHREE
OzA5ggpuMS5leGFtcGxlhwQKAAABhxAgAQ24AAAAAAAAAAAAAAABgQVhQGIuY4YM
c3BpZmZlOi8veC95MAoGCCqGSM49BAMCA0gAMEUCIQDXFHFxtObuAhqUaQTIGgao
vkPirwDs88GwsqcG8FRJnQIgAq+CKOs0eRdgZOJIfur0T2nWR6QCWWz5cibkRyta
Fjs=
-----END CERTIFICATE REQUEST-----
`;

// openssl req -new -newkey rsa:2048 -sha384 -subj '/CN=rsa-user/O=team'
const opensslRSA384 = `-----BEGIN CERTIFICATE REQUEST-----
MIICZzCCAU8CAQAwIjERMA8GA1UEAwwIcnNhLXVzZXIxDTALBgNVBAoMBHRlYW0w
ggEiMA0GCSqGSIb3DQEBAQUAA4IBDwAwggEKAoIBAQDBHA6UZh6R7rHTzIoSJkmA
A1Ac+VSrjDIPwNNlc32fd7+vA0P+Ls50Vr1sYtuw7bp+SPa5jzGa1MOT23m3a3lR
BhRayKds8ccql6Svvvs/n9oa1yOFzeWc6+xjPIRZQ+lnrt8+qnFZBdD6rCbZrFut
jIqb2ghEUNDl0b65/JeP0dT2Ufwo1Fh+BsPotjN5Ihx0erk+EwaCADcxyYoG6cU0
wfL3IAQO+dT8ransHSjWiwsXlEIJnbYJzCbD/oY1b3ONMOgq/k49iLnMw4x2OOxY
rJelulhMss3Wl/RgF2rjCTIQ/BEoFG09t3eqPy4Tqx0MvI9NWmxCcMkufti/LQ69
AgMBAAGgADANBgkqhkiG9w0BAQwFAAOCAQEAb1lggKzo4dzejNe9AF6wQvIIFswa
SSg7135HU66ndUdkU5r7oJs6k8qeTpxm943UfbQ8XZ8UjMhaUiwgoj0q4QFUOwlS
VUIc0sSo3+IoEZ7+DkGM7TaxaZQe68JJXoPlUeK/GHeTGQ2Be1vq+45ZdSiTWcaN
OjQRJ1gPXrF7aP/PEeTrQl8OincB+hQmGSPTeiD0ZwX+pupUeQ9TSQGGV6AyHWK/
YoIvJiAlGtqHD3sORElle/WRk+WQJ4AzUkdTZvungebKckPD6wjk9/svA59qCw8L
NHBrg0xiE7ypEE8layyp/fBbMk+v/ez8SHdTZYCx/3IOfRT+uEVPteOqzg==
-----END CERTIFICATE REQUEST-----
`;

function mustParse(pem: string | Buffer): CertificateRequest {
  const r = parseCSR(pem);
  if (!r.ok) assert.fail(r.error);
  return r.csr;
}

function pemOf(der: Buffer): string {
  return `-----BEGIN CERTIFICATE REQUEST-----\n${der.toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`;
}

test('a request made by openssl: subject, key, SANs, signature', () => {
  const csr = mustParse(opensslEC);
  assert.equal(csr.subject.commonName, 'system:node:n1');
  assert.deepEqual(csr.subject.organizations, ['system:nodes', 'a,b']);
  assert.equal(csr.subject.string, 'CN=system:node:n1,O=system:nodes+O=a\\,b');
  assert.equal(csr.publicKeyAlgorithm, 'ECDSA');
  assert.equal(csr.publicKey?.asymmetricKeyType, 'ec');
  assert.equal(csr.signatureAlgorithm, 'ECDSA-SHA256');
  assert.deepEqual(csr.dnsNames, ['n1.example']);
  assert.deepEqual(csr.ipAddresses, ['10.0.0.1', '2001:db8::1']);
  assert.deepEqual(csr.emailAddresses, ['a@b.c']);
  assert.deepEqual(csr.uris, ['spiffe://x/y']);
  assert.equal(csr.signatureError, undefined);
  assert.equal(csr.version, 0);

  const rsa = mustParse(Buffer.from(opensslRSA384));
  assert.equal(rsa.publicKeyAlgorithm, 'RSA');
  assert.equal(rsa.signatureAlgorithm, 'SHA384-RSA');
  assert.equal(rsa.subject.string, 'CN=rsa-user,O=team');
  assert.equal(rsa.signatureError, undefined);
  assert.ok(parseAndVerifyCSR(opensslRSA384).ok);
});

const keys = {
  rsa: () => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey,
  p256: () => generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey,
  p384: () => generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey,
  ed25519: () => generateKeyPairSync('ed25519').privateKey,
};

test('createCSR round-trips through parseCSR for every key type, and openssl verifies it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'csr-'));
  const expected = { rsa: ['RSA', 'SHA256-RSA'], p256: ['ECDSA', 'ECDSA-SHA256'], p384: ['ECDSA', 'ECDSA-SHA384'], ed25519: ['Ed25519', 'Ed25519'] };
  for (const [name, make] of Object.entries(keys)) {
    const key = make();
    const pem = createCSR({
      key,
      commonName: 'system:node:worker-1',
      organizations: ['system:nodes', 'zé team'],
      dnsNames: ['worker-1', 'worker-1.example'],
      ipAddresses: ['192.168.0.7', '::ffff:10.1.2.3', 'fd00::0:1'],
      emailAddresses: ['ops@example.com'],
      uris: ['spiffe://cluster/ns/x'],
    });
    const csr = mustParse(pem);
    assert.equal(csr.signatureError, undefined, name);
    assert.deepEqual([csr.publicKeyAlgorithm, csr.signatureAlgorithm], expected[name as keyof typeof expected], name);
    assert.equal(csr.subject.commonName, 'system:node:worker-1');
    assert.deepEqual(csr.subject.organizations, ['system:nodes', 'zé team']);
    assert.deepEqual(csr.dnsNames, ['worker-1', 'worker-1.example']);
    assert.deepEqual(csr.ipAddresses, ['192.168.0.7', '10.1.2.3', 'fd00::1']);
    assert.deepEqual(csr.emailAddresses, ['ops@example.com']);
    assert.deepEqual(csr.uris, ['spiffe://cluster/ns/x']);
    assert.deepEqual(csr.publicKeyDer, Buffer.from(csr.publicKey!.export({ type: 'spki', format: 'der' })));
    const file = join(dir, `${name}.pem`);
    writeFileSync(file, pem);
    // openssl is the independent judge of the encoding and the signature.
    const out = execFileSync('openssl', ['req', '-in', file, '-noout', '-verify'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    assert.match(out + '', /verify OK|^$/i);
  }
});

test('a minimal request: no subject, no SANs', () => {
  const csr = mustParse(createCSR({ key: keys.p256() }));
  assert.equal(csr.subject.commonName, '');
  assert.deepEqual(csr.subject.organizations, []);
  assert.equal(csr.subject.string, '');
  assert.deepEqual(csr.dnsNames, []);
  assert.equal(csr.signatureError, undefined);
});

test('a tampered request parses but its signature does not verify', () => {
  for (const [name, make] of Object.entries(keys)) {
    const pem = createCSR({ key: make(), commonName: 'alice' });
    const der = Buffer.from(pem.split('\n').filter((l) => !l.startsWith('-----')).join(''), 'base64');
    // Change the common name in the signed part: 'alice' -> 'alicf'.
    const at = der.indexOf(Buffer.from('alice'));
    der[at + 4] = 'f'.charCodeAt(0);
    const csr = mustParse(pemOf(der));
    assert.equal(csr.subject.commonName, 'alicf');
    const want = { rsa: 'crypto/rsa: verification error', p256: 'x509: ECDSA verification failure', p384: 'x509: ECDSA verification failure', ed25519: 'x509: Ed25519 verification failure' }[name];
    assert.equal(csr.signatureError, want, name);
    assert.deepEqual(parseAndVerifyCSR(pemOf(der)), { ok: false, error: want });
  }
});

test('a request carrying the signature of another key does not verify', () => {
  const derOf = (pem: string) => Buffer.from(pem.split('\n').filter((l) => l && !l.startsWith('-----')).join(''), 'base64');
  const a = forge.asn1.fromDer(derOf(createCSR({ key: keys.p256(), commonName: 'x' })).toString('binary'));
  const b = forge.asn1.fromDer(derOf(createCSR({ key: keys.p256(), commonName: 'x' })).toString('binary'));
  (a.value as forge.asn1.Asn1[])[2] = (b.value as forge.asn1.Asn1[])[2]!;
  const grafted = mustParse(pemOf(Buffer.from(forge.asn1.toDer(a).getBytes(), 'binary')));
  assert.equal(grafted.signatureError, 'x509: ECDSA verification failure');
  // An RSA signature algorithm over an EC key.
  const c = forge.asn1.fromDer(derOf(createCSR({ key: keys.p256(), commonName: 'x' })).toString('binary'));
  const r = forge.asn1.fromDer(derOf(opensslRSA384).toString('binary'));
  (c.value as forge.asn1.Asn1[])[1] = (r.value as forge.asn1.Asn1[])[1]!;
  assert.equal(
    mustParse(pemOf(Buffer.from(forge.asn1.toDer(c).getBytes(), 'binary'))).signatureError,
    'x509: signature algorithm specifies an RSA public key, but have public key of type *ecdsa.PublicKey',
  );
});

test('what upstream ParseCSR refuses', () => {
  const pemType = 'PEM block type must be CERTIFICATE REQUEST';
  assert.deepEqual(parseCSR(''), { ok: false, error: pemType });
  assert.deepEqual(parseCSR('not pem at all'), { ok: false, error: pemType });
  assert.deepEqual(parseCSR(opensslEC.replaceAll('CERTIFICATE REQUEST', 'CERTIFICATE')), { ok: false, error: pemType });
  // Only the first block counts: a certificate first, then a request, is refused.
  assert.deepEqual(parseCSR(opensslEC.replaceAll('CERTIFICATE REQUEST', 'CERTIFICATE') + opensslEC), { ok: false, error: pemType });
  // Text around the block is ignored, as pem.Decode does.
  assert.ok(parseCSR('leading text\n' + opensslEC + 'trailing text').ok);
  // A block that is not DER PKCS#10.
  const junk = parseCSR(pemOf(Buffer.from('hello world')));
  assert.equal(junk.ok, false);
  assert.match((junk as { error: string }).error, /^(asn1|x509): /);
  // Trailing bytes after the DER.
  const der = Buffer.from(opensslEC.split('\n').filter((l) => l && !l.startsWith('-----')).join(''), 'base64');
  assert.deepEqual(parseCSR(pemOf(Buffer.concat([der, Buffer.from([0, 0])]))), { ok: false, error: 'asn1: syntax error: trailing data' });
  // Truncated DER.
  assert.equal(parseCSR(pemOf(der.subarray(0, der.length - 10))).ok, false);
  // Random bytes never throw.
  for (let i = 0; i < 200; i++) {
    const b = Buffer.from(der);
    b[Math.floor(Math.random() * b.length)] ^= 1 << Math.floor(Math.random() * 8);
    const r = parseCSR(pemOf(b));
    if (r.ok) assert.ok(r.csr.signatureError === undefined || typeof r.csr.signatureError === 'string');
    else assert.equal(typeof r.error, 'string');
  }
});
