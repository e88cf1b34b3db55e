// A CA a built-in signer issues with (upstream's signer caProvider): one PEM certificate and the
// PEM private key belonging to it, RSA, ECDSA or Ed25519. node:crypto reads the key (node-forge
// cannot hold EC keys); the few certificate fields signing needs (raw subject, key identifier,
// NotAfter) come from the DER through node-forge's ASN.1 reader.
import { createHash, createPrivateKey, createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';
import forge from 'node-forge';
import { asn1Bytes, asn1Children, asn1Der, parseDer } from './asn1.js';
import { pemCertificates } from './pem.js';

export interface SigningAuthority {
  certificate: X509Certificate;
  privateKey: KeyObject;
  /** DER of the CA's subject: every certificate it issues names it as issuer. */
  rawSubject: Buffer;
  /** The CA's subject key identifier (its own extension, else the SHA-1 of its public key bits): issued certificates' authority key identifier. */
  keyId: Buffer;
  notAfter: Date;
}

/** RFC 5280 4.2.1.2 method 1: SHA-1 of the BIT STRING of a SubjectPublicKeyInfo (without its unused-bits octet). */
export function keyIdentifier(spkiDer: Buffer): Buffer {
  const [, bits] = asn1Children(parseDer(spkiDer), 'malformed public key');
  if (!bits) throw new Error('malformed public key');
  return createHash('sha1').update(asn1Bytes(bits, 'malformed public key').subarray(1)).digest();
}

const subjectKeyIdOid = '2.5.29.14';

/** The CA of `certPem` (exactly one certificate) and `keyPem`; throws when either is unreadable or they do not belong together. */
export function loadSigningAuthority(certPem: string, keyPem: string): SigningAuthority {
  const certificates = pemCertificates(certPem);
  if (certificates.length !== 1) throw new Error(`expected 1 certificate, found ${certificates.length}`);
  const certificate = certificates[0]!;
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(keyPem);
  } catch (e) {
    throw new Error(`unable to parse the private key: ${(e as Error).message}`);
  }
  if (!['rsa', 'ec', 'ed25519'].includes(privateKey.asymmetricKeyType ?? '')) throw new Error(`unsupported private key type ${privateKey.asymmetricKeyType}`);
  const spki = (k: KeyObject) => k.export({ type: 'spki', format: 'der' });
  if (!spki(createPublicKey(privateKey)).equals(spki(certificate.publicKey))) throw new Error('tls: private key does not match public key');

  const parts = asn1Children(asn1Children(parseDer(certificate.raw), 'malformed certificate')[0]!, 'malformed certificate');
  const offset = parts[0]?.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC && parts[0].type === 0 ? 1 : 0;
  const subject = parts[offset + 4];
  const spkiNode = parts[offset + 5];
  if (!subject || !spkiNode) throw new Error('malformed certificate');
  let keyId: Buffer | undefined;
  const extensions = parts.slice(offset + 6).find((p) => p.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC && p.type === 3);
  for (const ext of extensions ? asn1Children(asn1Children(extensions, 'malformed certificate')[0]!, 'malformed certificate') : []) {
    const items = asn1Children(ext, 'malformed certificate');
    if (forge.asn1.derToOid(items[0]!.value as string) !== subjectKeyIdOid) continue;
    keyId = asn1Bytes(parseDer(asn1Bytes(items[items.length - 1]!, 'malformed certificate')), 'malformed certificate');
  }
  return {
    certificate,
    privateKey,
    rawSubject: asn1Der(subject),
    keyId: keyId && keyId.length > 0 ? keyId : keyIdentifier(asn1Der(spkiNode)),
    notAfter: new Date(certificate.validTo),
  };
}
