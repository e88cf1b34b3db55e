// Builds PEM PKCS#10 certificate requests with node:crypto keys of any type (RSA, ECDSA, Ed25519):
// what a node joining the cluster sends, and what tests send. node-forge writes the ASN.1 (its own
// CSR builder holds only RSA keys); node:crypto signs.
import { createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import forge from 'node-forge';
import ipaddr from 'ipaddr.js';

const { asn1 } = forge;
const T = asn1.Type;
const U = asn1.Class.UNIVERSAL;
const CTX = asn1.Class.CONTEXT_SPECIFIC;

export interface RequestOptions {
  commonName?: string;
  /** Subject O attributes, in order. */
  organizations?: string[];
  dnsNames?: string[];
  ipAddresses?: string[];
  emailAddresses?: string[];
  uris?: string[];
}

export type KeyKind = 'rsa' | 'p256' | 'p384' | 'ed25519';

/** A fresh private key of `kind` (RSA 2048). */
export function generateKey(kind: KeyKind): KeyObject {
  switch (kind) {
    case 'rsa': return generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    case 'p256': return generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
    case 'p384': return generateKeyPairSync('ec', { namedCurve: 'secp384r1' }).privateKey;
    case 'ed25519': return generateKeyPairSync('ed25519').privateKey;
  }
}

const oid = (o: string) => asn1.create(U, T.OID, false, asn1.oidToDer(o).getBytes());
const utf8 = (s: string) => asn1.create(U, T.UTF8, false, forge.util.encodeUtf8(s));
const raw = (der: Buffer) => (asn1.fromDer as unknown as (b: string, o: object) => forge.asn1.Asn1)(der.toString('binary'), { decodeBitStrings: false });

/** The PEM request for `opts`, signed with `key`. */
export function buildCertificateRequest(key: KeyObject, opts: RequestOptions): string {
  const rdns: forge.asn1.Asn1[] = [];
  for (const o of opts.organizations ?? []) rdns.push(asn1.create(U, T.SET, true, [asn1.create(U, T.SEQUENCE, true, [oid('2.5.4.10'), utf8(o)])]));
  if (opts.commonName !== undefined) rdns.push(asn1.create(U, T.SET, true, [asn1.create(U, T.SEQUENCE, true, [oid('2.5.4.3'), utf8(opts.commonName)])]));
  const names = [
    ...(opts.dnsNames ?? []).map((n) => asn1.create(CTX, 2, false, n)),
    ...(opts.emailAddresses ?? []).map((n) => asn1.create(CTX, 1, false, n)),
    ...(opts.ipAddresses ?? []).map((ip) => asn1.create(CTX, 7, false, Buffer.from(ipaddr.process(ip).toByteArray()).toString('binary'))),
    ...(opts.uris ?? []).map((n) => asn1.create(CTX, 6, false, n)),
  ];
  const attributes: forge.asn1.Asn1[] = [];
  if (names.length > 0) {
    const san = asn1.create(U, T.SEQUENCE, true, [oid('2.5.29.17'), asn1.create(U, T.OCTETSTRING, false, asn1.toDer(asn1.create(U, T.SEQUENCE, true, names)).getBytes())]);
    // The extensionRequest attribute (PKCS#9) carries the SANs.
    attributes.push(asn1.create(U, T.SEQUENCE, true, [oid('1.2.840.113549.1.9.14'), asn1.create(U, T.SET, true, [asn1.create(U, T.SEQUENCE, true, [san])])]));
  }
  if (!['rsa', 'ec', 'ed25519'].includes(key.asymmetricKeyType ?? '')) throw new Error(`unsupported key type ${key.asymmetricKeyType}`);
  const spki = createPublicKey(key).export({ type: 'spki', format: 'der' });
  const info = asn1.create(U, T.SEQUENCE, true, [
    asn1.create(U, T.INTEGER, false, '\x00'),
    asn1.create(U, T.SEQUENCE, true, rdns),
    raw(spki),
    asn1.create(CTX, 0, true, attributes),
  ]);
  const infoDer = Buffer.from(asn1.toDer(info).getBytes(), 'binary');
  let algOid: string;
  let hash: string | null;
  if (key.asymmetricKeyType === 'rsa') [algOid, hash] = ['1.2.840.113549.1.1.11', 'sha256'];
  else if (key.asymmetricKeyType === 'ed25519') [algOid, hash] = ['1.3.101.112', null];
  else if (key.asymmetricKeyDetails?.namedCurve === 'secp384r1') [algOid, hash] = ['1.2.840.10045.4.3.3', 'sha384'];
  else [algOid, hash] = ['1.2.840.10045.4.3.2', 'sha256'];
  const signature = sign(hash, infoDer, key);
  const algId = asn1.create(U, T.SEQUENCE, true, [oid(algOid), ...(key.asymmetricKeyType === 'rsa' ? [asn1.create(U, T.NULL, false, '')] : [])]);
  const csr = asn1.create(U, T.SEQUENCE, true, [raw(infoDer), algId, asn1.create(U, T.BITSTRING, false, '\x00' + signature.toString('binary'))]);
  const b64 = Buffer.from(asn1.toDer(csr).getBytes(), 'binary').toString('base64');
  return `-----BEGIN CERTIFICATE REQUEST-----\n${b64.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE REQUEST-----\n`;
}
