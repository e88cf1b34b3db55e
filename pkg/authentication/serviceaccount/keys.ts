// Service account keys as kube-apiserver loads them (client-go util/keyutil, pkg/serviceaccount):
// the verification keys of --service-account-key-file (public halves of RSA and ECDSA keys found
// in any PEM block: PKCS#1 and PKCS#8 RSA private keys, SEC1 EC private keys, PKIX public keys and
// certificates), the signing key of --service-account-signing-key-file, the key id upstream puts
// in `kid` and the algorithm it signs with.
import { createHash, createPrivateKey, createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';
import { pemBlocks } from '../../util/certificates/pem.js';
import { readFileSync } from 'node:fs';

/** A verification key and its id (base64url of the SHA-256 of its PKIX DER). */
export interface PublicKey {
  keyId: string;
  key: KeyObject;
}

export type SigningAlgorithm = 'RS256' | 'ES256' | 'ES384' | 'ES512';

/** The curves Go's crypto/x509 parses, by OpenSSL name; P-224 parses but nothing signs with it. */
const curves: Record<string, SigningAlgorithm | undefined> = { prime256v1: 'ES256', secp384r1: 'ES384', secp521r1: 'ES512', secp224r1: undefined };

interface DerElement {
  tag: number;
  body: number;
  end: number;
}

/** The `index`-th element inside the outer SEQUENCE of `der`, or undefined. */
function innerElement(der: Buffer, index: number): DerElement | undefined {
  const header = (at: number): DerElement | undefined => {
    if (at + 2 > der.length) return undefined;
    const tag = der[at]!;
    let len = der[at + 1]!;
    let body = at + 2;
    if (len & 0x80) {
      const n = len & 0x7f;
      if (n === 0 || n > 4 || body + n > der.length) return undefined;
      len = 0;
      for (let i = 0; i < n; i++) len = len * 256 + der[body + i]!;
      body += n;
    }
    return body + len <= der.length ? { tag, body, end: body + len } : undefined;
  };
  const outer = header(0);
  if (!outer || outer.tag !== 0x30) return undefined;
  let at = outer.body;
  for (let i = 0; i < index; i++) {
    const el = header(at);
    if (!el) return undefined;
    at = el.end;
  }
  return at < outer.end ? header(at) : undefined;
}

function innerTag(der: Buffer, index: number): number {
  return innerElement(der, index)?.tag ?? -1;
}

// The ASN.1 shape of a DER private key: PKCS#1 RSAPrivateKey {INTEGER, INTEGER, ...}, SEC1
// ECPrivateKey {INTEGER, OCTET STRING, ...}, PKCS#8 PrivateKeyInfo {INTEGER, SEQUENCE, ...}.
// OpenSSL would read any of them whatever format is named; Go reads only the one it asks for.
type PrivateShape = 'pkcs1' | 'sec1' | 'pkcs8' | undefined;
function privateShape(der: Buffer): PrivateShape {
  if (innerTag(der, 0) !== 0x02) return undefined;
  switch (innerTag(der, 1)) {
    case 0x02:
      return 'pkcs1';
    case 0x04:
      return 'sec1';
    case 0x30:
      return 'pkcs8';
    default:
      return undefined;
  }
}

function tryKey<T>(make: () => T): T | undefined {
  try {
    return make();
  } catch {
    return undefined;
  }
}

function supportedCurve(key: KeyObject): boolean {
  return key.asymmetricKeyType === 'ec' && (key.asymmetricKeyDetails?.namedCurve ?? '') in curves;
}

/** An EC public key as Go accepts it: a named curve it knows and an uncompressed point (BIT STRING 00 04 ...). */
function goPublicEC(key: KeyObject, spki: Buffer): boolean {
  if (!supportedCurve(key)) return false;
  const point = innerElement(spki, 1);
  return point !== undefined && point.tag === 0x03 && spki[point.body] === 0x00 && spki[point.body + 1] === 0x04;
}

function privateKeyOf(der: Buffer, type: 'pkcs1' | 'sec1' | 'pkcs8'): KeyObject | undefined {
  return tryKey(() => createPrivateKey({ key: der, format: 'der', type }));
}

/** The key of a PKIX SubjectPublicKeyInfo, else of a certificate, with the SPKI it came in. */
function pkixOrCertificateKey(der: Buffer): { key: KeyObject; spki: Buffer } | undefined {
  const pkix = tryKey(() => createPublicKey({ key: der, format: 'der', type: 'spki' }));
  if (pkix) return { key: pkix, spki: der };
  const cert = tryKey(() => new X509Certificate(der).publicKey);
  return cert && { key: cert, spki: cert.export({ type: 'spki', format: 'der' }) };
}

/** The public key in one DER block, tried in keyutil's order: RSA private, RSA public, EC private, EC public. */
function publicKeyOf(der: Buffer): KeyObject | undefined {
  const shape = privateShape(der);
  if (shape === 'pkcs1' || shape === 'pkcs8') {
    const k = privateKeyOf(der, shape);
    if (k?.asymmetricKeyType === 'rsa') return createPublicKey(k);
  }
  const pub = pkixOrCertificateKey(der);
  if (pub?.key.asymmetricKeyType === 'rsa') return pub.key;
  if (shape === 'sec1') {
    const k = privateKeyOf(der, 'sec1');
    if (k && supportedCurve(k)) return createPublicKey(k);
  }
  if (pub && goPublicEC(pub.key, pub.spki)) return pub.key;
  return undefined;
}

/**
 * The public keys in PEM data (keyutil.ParsePublicKeysPEM): every block holding an RSA or ECDSA
 * key, private or public or in a certificate, whatever the block's type line says. PKCS#8 EC
 * private keys are not among them, as upstream. Throws when there is none.
 */
export function parsePublicKeysPEM(data: string | Buffer): KeyObject[] {
  const keys: KeyObject[] = [];
  for (const block of pemBlocks(data.toString())) {
    const key = publicKeyOf(block.bytes);
    if (key) keys.push(key);
  }
  if (keys.length === 0) throw new Error('data does not contain any valid RSA or ECDSA public keys');
  return keys;
}

/** The public keys in a file (keyutil.PublicKeysFromFile); throws naming the file, never its content. */
export function publicKeysFromFile(file: string): KeyObject[] {
  const data = readFileSync(file);
  try {
    return parsePublicKeysPEM(data);
  } catch (e) {
    throw new Error(`error reading public key file ${file}: ${(e as Error).message}`);
  }
}

/** Whether a file holds at least one usable verification key (upstream IsValidServiceAccountKeyFile). */
export function isValidServiceAccountKeyFile(file: string): boolean {
  return tryKey(() => publicKeysFromFile(file)) !== undefined;
}

/** base64url of the SHA-256 of the key's PKIX DER: the `kid` of tokens and JWKs it signs or verifies. */
export function keyIdFromPublicKey(key: KeyObject): string {
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  return createHash('sha256').update(pub.export({ type: 'spki', format: 'der' })).digest('base64url');
}

/**
 * The verification keys of --service-account-key-file (repeatable), each file holding one or more
 * keys, in order and with their key ids. Throws on an unreadable file or one without keys.
 */
export function loadPublicKeys(files: readonly string[]): PublicKey[] {
  return files.flatMap((file) => publicKeysFromFile(file).map((key) => ({ keyId: keyIdFromPublicKey(key), key })));
}

export interface KeyFileOptions {
  /** --service-account-key-file (repeatable); no default. */
  keyFiles: readonly string[];
  /** --service-account-signing-key-file; no default. */
  signingKeyFile?: string;
  /** --tls-private-key-file, the fallback when no key file is given. */
  tlsPrivateKeyFile?: string;
}

/**
 * The files to verify with: the key files, or, when none is given and no signing key file is,
 * the TLS serving key if it holds a usable key (otherwise `warning` says authentication with
 * service account tokens is off, in upstream's words).
 */
export function serviceAccountKeyFiles(o: KeyFileOptions): { files: string[]; warning?: string } {
  if (o.keyFiles.length > 0 || o.signingKeyFile || !o.tlsPrivateKeyFile) return { files: [...o.keyFiles] };
  if (isValidServiceAccountKeyFile(o.tlsPrivateKeyFile)) return { files: [o.tlsPrivateKeyFile] };
  return { files: [], warning: 'No TLS key provided, service account token authentication disabled' };
}

/**
 * The first RSA or ECDSA private key in PEM data (keyutil.ParsePrivateKeyPEM): `RSA PRIVATE KEY`
 * blocks as PKCS#1, `EC PRIVATE KEY` as SEC1, `PRIVATE KEY` as PKCS#8. Throws when there is none.
 */
export function parsePrivateKeyPEM(data: string | Buffer): KeyObject {
  for (const block of pemBlocks(data.toString())) {
    const shape = privateShape(block.bytes);
    let key: KeyObject | undefined;
    if (block.type === 'RSA PRIVATE KEY' && shape === 'pkcs1') key = privateKeyOf(block.bytes, 'pkcs1');
    else if (block.type === 'EC PRIVATE KEY' && shape === 'sec1') key = privateKeyOf(block.bytes, 'sec1');
    else if (block.type === 'PRIVATE KEY' && shape === 'pkcs8') key = privateKeyOf(block.bytes, 'pkcs8');
    // Go's PKCS#8 parser also returns Ed25519 keys; the signer refuses them with a clear message.
    if (key && (key.asymmetricKeyType === 'rsa' || supportedCurve(key) || key.asymmetricKeyType === 'ed25519')) return key;
  }
  throw new Error('data does not contain a valid RSA or ECDSA private key');
}

/** The private key in a file (keyutil.PrivateKeyFromFile); throws naming the file, never its content. */
export function privateKeyFromFile(file: string): KeyObject {
  const data = readFileSync(file);
  try {
    return parsePrivateKeyPEM(data);
  } catch (e) {
    throw new Error(`error reading private key file ${file}: ${(e as Error).message}`);
  }
}

/**
 * The algorithm upstream signs with and advertises for a key: RS256 for RSA, ES256/384/512 by
 * curve. Throws for other keys, with upstream's words.
 */
export function signingAlgorithm(key: KeyObject): SigningAlgorithm {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec') {
    const alg = curves[key.asymmetricKeyDetails?.namedCurve ?? ''];
    if (alg) return alg;
    throw new Error('unknown private key curve, must be 256, 384, or 521');
  }
  throw new Error(`unknown key type ${key.asymmetricKeyType ?? key.type}, must be an RSA or ECDSA key`);
}
