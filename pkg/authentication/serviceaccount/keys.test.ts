import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { after, test } from 'node:test';
import forge from 'node-forge';
import { generateTestKeyPair, tempFiles } from '../testing/signing-keys.js';
import {
  isValidServiceAccountKeyFile,
  keyIdFromPublicKey,
  loadPublicKeys,
  parsePrivateKeyPEM,
  parsePublicKeysPEM,
  privateKeyFromFile,
  publicKeysFromFile,
  serviceAccountKeyFiles,
  signingAlgorithm,
} from './keys.js';

const rsa = generateTestKeyPair('rsa');
const p256 = generateTestKeyPair('P-256');
const p384 = generateTestKeyPair('P-384');
const p521 = generateTestKeyPair('P-521');
const files = tempFiles();
after(() => files.remove());

/** The key id computed straight from the PEM text of the public key, independently of node's export. */
function kidFromPem(publicPem: string): string {
  const der = Buffer.from(publicPem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
  return createHash('sha256').update(der).digest('base64url');
}

function selfSignedRsaCertificate(): string {
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(rsa.publicPem);
  cert.serialNumber = '01';
  cert.validity.notBefore = new Date();
  cert.validity.notAfter = new Date(Date.now() + 3600_000);
  cert.setSubject([{ name: 'commonName', value: 'sa-signer' }]);
  cert.setIssuer([{ name: 'commonName', value: 'sa-signer' }]);
  cert.sign(forge.pki.privateKeyFromPem(rsa.privatePem), forge.md.sha256.create());
  return forge.pki.certificateToPem(cert);
}

test('private and public RSA and ECDSA keys of every accepted encoding yield the same public key and key id', () => {
  for (const pair of [rsa, p256, p384, p521]) {
    const expected = kidFromPem(pair.publicPem);
    const encodings = [pair.privatePem, pair.publicPem];
    if (pair.kind === 'rsa') encodings.push(pair.pkcs8Pem, selfSignedRsaCertificate());
    for (const pem of encodings) {
      const keys = parsePublicKeysPEM(pem);
      assert.equal(keys.length, 1, `${pair.kind}: ${pem.split('\n')[0]}`);
      assert.equal(keys[0]!.type, 'public');
      assert.equal(keyIdFromPublicKey(keys[0]!), expected, `${pair.kind}: ${pem.split('\n')[0]}`);
    }
    assert.equal(keyIdFromPublicKey(pair.privateKey), expected);
  }
});

test('the block type line does not matter, only the content (as Go reads PEM)', () => {
  const relabelled = rsa.publicPem.replaceAll('PUBLIC KEY', 'WHATEVER');
  assert.equal(keyIdFromPublicKey(parsePublicKeysPEM(relabelled)[0]!), kidFromPem(rsa.publicPem));
});

test('a file may hold several keys; other blocks and text between them are passed over', () => {
  const bundle = ['# service account keys', rsa.publicPem, '-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----', p256.privatePem, 'trailing text', p384.publicPem].join('\n');
  const keys = parsePublicKeysPEM(bundle);
  assert.deepEqual(keys.map(keyIdFromPublicKey), [rsa, p256, p384].map((p) => kidFromPem(p.publicPem)));
});

/** The PKIX form of a P-256 key with its point compressed, which Go's parser refuses. */
function compressedP256Pem(): string {
  const der = p256.publicKey.export({ type: 'spki', format: 'der' });
  const algId = der.subarray(2, 23);
  const x = der.subarray(27, 59);
  const yOdd = der[90]! & 1;
  const compressed = Buffer.concat([Buffer.from([0x30, 0x39]), algId, Buffer.from([0x03, 0x22, 0x00, 0x02 + yOdd]), x]);
  return `-----BEGIN PUBLIC KEY-----\n${compressed.toString('base64')}\n-----END PUBLIC KEY-----\n`;
}

test('what upstream does not read yields no key', () => {
  const ed = generateKeyPairSync('ed25519');
  const k1 = generateKeyPairSync('ec', { namedCurve: 'secp256k1' });
  const refused = [
    '',
    'not a key',
    ed.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    ed.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    k1.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    k1.privateKey.export({ type: 'sec1', format: 'pem' }).toString(),
    // keyutil reads EC private keys as SEC1 only.
    p256.pkcs8Pem,
    // PKCS#1 RSA public keys are not PKIX.
    rsa.publicKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
    rsa.publicPem.replace(/\n[A-Za-z0-9+/]{8}/, '\n!!!!!!!!'),
    compressedP256Pem(),
  ];
  for (const pem of refused) {
    assert.throws(() => parsePublicKeysPEM(pem), { message: 'data does not contain any valid RSA or ECDSA public keys' }, pem.slice(0, 40));
  }
});

test('key files are loaded in order with their ids; problems name the file, never its content', () => {
  const a = files.write('a.pem', rsa.privatePem);
  const b = files.write('b.pem', `${p256.publicPem}${p384.privatePem}`);
  const loaded = loadPublicKeys([a, b]);
  assert.deepEqual(loaded.map((k) => k.keyId), [rsa, p256, p384].map((p) => kidFromPem(p.publicPem)));
  assert.equal(publicKeysFromFile(b).length, 2);

  const bad = files.write('bad.pem', 'secret-looking-content');
  assert.throws(() => loadPublicKeys([a, bad]), (e: Error) => e.message === `error reading public key file ${bad}: data does not contain any valid RSA or ECDSA public keys`);
  assert.throws(() => loadPublicKeys([`${files.dir}/missing.pem`]), /ENOENT/);
  assert.equal(isValidServiceAccountKeyFile(a), true);
  assert.equal(isValidServiceAccountKeyFile(bad), false);
  assert.equal(isValidServiceAccountKeyFile(`${files.dir}/missing.pem`), false);
});

test('without key files the TLS serving key is used, when it is a usable key and no signing key is set', () => {
  const tls = files.write('tls.key', p256.privatePem);
  const notKey = files.write('tls-bad.key', 'nope');
  assert.deepEqual(serviceAccountKeyFiles({ keyFiles: ['/k.pem'], tlsPrivateKeyFile: tls }), { files: ['/k.pem'] });
  assert.deepEqual(serviceAccountKeyFiles({ keyFiles: [], tlsPrivateKeyFile: tls }), { files: [tls] });
  assert.deepEqual(serviceAccountKeyFiles({ keyFiles: [], signingKeyFile: '/s.pem', tlsPrivateKeyFile: tls }), { files: [] });
  assert.deepEqual(serviceAccountKeyFiles({ keyFiles: [] }), { files: [] });
  assert.deepEqual(serviceAccountKeyFiles({ keyFiles: [], tlsPrivateKeyFile: notKey }), {
    files: [],
    warning: 'No TLS key provided, service account token authentication disabled',
  });
});

test('signing keys are read by block type: PKCS#1, SEC1 and PKCS#8', () => {
  for (const pem of [rsa.privatePem, rsa.pkcs8Pem, p256.privatePem, p256.pkcs8Pem, p521.pkcs8Pem]) {
    const key = parsePrivateKeyPEM(pem);
    assert.equal(key.type, 'private');
  }
  assert.equal(keyIdFromPublicKey(parsePrivateKeyPEM(p384.pkcs8Pem)), kidFromPem(p384.publicPem));
  // A PKCS#8 body under an EC label is not SEC1, and public keys do not sign.
  assert.throws(() => parsePrivateKeyPEM(p256.pkcs8Pem.replaceAll('PRIVATE KEY', 'EC PRIVATE KEY')), /does not contain a valid RSA or ECDSA private key/);
  assert.throws(() => parsePrivateKeyPEM(rsa.publicPem), /does not contain a valid RSA or ECDSA private key/);
  const path = files.write('signing.pem', 'garbage');
  assert.throws(() => privateKeyFromFile(path), (e: Error) => e.message === `error reading private key file ${path}: data does not contain a valid RSA or ECDSA private key`);
});

test('the algorithm follows the key: RS256 for RSA, ES256/384/512 by curve', () => {
  assert.equal(signingAlgorithm(rsa.privateKey), 'RS256');
  assert.equal(signingAlgorithm(rsa.publicKey), 'RS256');
  assert.equal(signingAlgorithm(p256.publicKey), 'ES256');
  assert.equal(signingAlgorithm(p384.privateKey), 'ES384');
  assert.equal(signingAlgorithm(p521.publicKey), 'ES512');
  const p224 = generateKeyPairSync('ec', { namedCurve: 'secp224r1' });
  assert.throws(() => signingAlgorithm(p224.publicKey), { message: 'unknown private key curve, must be 256, 384, or 521' });
  // P-224 keys load (Go parses them) but nothing signs or verifies with them.
  assert.equal(parsePublicKeysPEM(p224.publicKey.export({ type: 'spki', format: 'pem' }).toString()).length, 1);
});
