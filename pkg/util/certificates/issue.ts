// Issues an X.509 v3 certificate for a certificate request, as upstream's authority.Sign with the
// PermissiveSigningPolicy: the request's subject, public key and SANs; the usages the CSR object
// asks for; a random 128-bit serial; basicConstraints CA:false; the subject and authority key
// identifiers; the validity the policy computed. Every extension the request itself carried is
// dropped. The TBSCertificate is built with node-forge's ASN.1 (the request's public key and
// subject are embedded as their DER, so any key type works) and signed with node:crypto.
import { randomBytes, sign } from 'node:crypto';
import forge from 'node-forge';
import ipaddr from 'ipaddr.js';
import { asn1Children, asn1Der, parseDer } from './asn1.js';
import { keyIdentifier, type SigningAuthority } from './signing-authority.js';
import { keyUsagesFromStrings, type Validity } from './signing-policy.js';

const { asn1 } = forge;
const T = asn1.Type;
const UNIVERSAL = asn1.Class.UNIVERSAL;
const CONTEXT = asn1.Class.CONTEXT_SPECIFIC;

/** What the certificate copies of a request. */
export interface RequestToSign {
  /** DER of the request's subject Name, copied unchanged. */
  rawSubject: Buffer;
  /** DER of the request's SubjectPublicKeyInfo, copied unchanged. */
  rawPublicKey: Buffer;
  dnsNames: readonly string[];
  emailAddresses: readonly string[];
  /** IP SANs in text form. */
  ipAddresses: readonly string[];
  uris: readonly string[];
}

/** The subject and public key of a DER PKCS#10 request (CertificationRequestInfo's second and third fields). */
export function requestSubjectAndKey(csrDer: Buffer): { rawSubject: Buffer; rawPublicKey: Buffer } {
  const info = asn1Children(asn1Children(parseDer(csrDer), 'malformed certificate request')[0]!, 'malformed certificate request');
  const [, subject, spki] = info;
  if (!subject || !spki) throw new Error('malformed certificate request');
  return { rawSubject: asn1Der(subject), rawPublicKey: asn1Der(spki) };
}

const oids = {
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  basicConstraints: '2.5.29.19',
  subjectKeyId: '2.5.29.14',
  authorityKeyId: '2.5.29.35',
  subjectAltName: '2.5.29.17',
  sha256WithRSA: '1.2.840.113549.1.1.11',
  ecdsaWithSHA256: '1.2.840.10045.4.3.2',
  ecdsaWithSHA384: '1.2.840.10045.4.3.3',
  ecdsaWithSHA512: '1.2.840.10045.4.3.4',
  ed25519: '1.3.101.112',
};

const node = (tagClass: forge.asn1.Class, type: number, constructed: boolean, value: string | forge.asn1.Asn1[]) => asn1.create(tagClass, type, constructed, value);
const seq = (items: forge.asn1.Asn1[]) => node(UNIVERSAL, T.SEQUENCE, true, items);
const oid = (o: string) => node(UNIVERSAL, T.OID, false, asn1.oidToDer(o).getBytes());
const octets = (b: Buffer) => node(UNIVERSAL, T.OCTETSTRING, false, b.toString('binary'));
/** An already encoded element, re-read so forge can nest it (checked to re-encode to the same bytes). */
function embedded(der: Buffer, what: string): forge.asn1.Asn1 {
  const n = parseDer(der);
  if (!asn1Der(n).equals(der)) throw new Error(`${what} is not in DER`);
  return n;
}

/** Go's choice of signature algorithm for a CA key: SHA-256 for RSA, the curve's hash for ECDSA, pure Ed25519. */
function signatureAlgorithm(ca: SigningAuthority): { oid: string; hash: string | null; nullParams: boolean } {
  const key = ca.privateKey;
  switch (key.asymmetricKeyType) {
    case 'rsa': return { oid: oids.sha256WithRSA, hash: 'sha256', nullParams: true };
    case 'ed25519': return { oid: oids.ed25519, hash: null, nullParams: false };
    case 'ec': {
      const curve = key.asymmetricKeyDetails?.namedCurve;
      if (curve === 'secp384r1') return { oid: oids.ecdsaWithSHA384, hash: 'sha384', nullParams: false };
      if (curve === 'secp521r1') return { oid: oids.ecdsaWithSHA512, hash: 'sha512', nullParams: false };
      return { oid: oids.ecdsaWithSHA256, hash: 'sha256', nullParams: false };
    }
    default: throw new Error(`unsupported CA key type ${key.asymmetricKeyType}`);
  }
}

/** Go's encoding of a time in a certificate: UTCTime for the years 1950 to 2049, GeneralizedTime otherwise (whole seconds). */
function certTime(d: Date): forge.asn1.Asn1 {
  const y = d.getUTCFullYear();
  if (y >= 1950 && y < 2050) return node(UNIVERSAL, T.UTCTIME, false, asn1.dateToUtcTime(d));
  const iso = d.toISOString();
  return node(UNIVERSAL, T.GENERALIZEDTIME, false, `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`);
}

/** A positive INTEGER of a random value below 2^128, as upstream's serials. */
function serialNumber(): forge.asn1.Asn1 {
  let b = randomBytes(16);
  let i = 0;
  while (i < b.length - 1 && b[i] === 0) i++;
  b = b.subarray(i);
  if (b[0]! & 0x80) b = Buffer.concat([Buffer.from([0]), b]);
  return node(UNIVERSAL, T.INTEGER, false, b.toString('binary'));
}

/** The keyUsage BIT STRING as Go writes it: bit 0 is the high bit of the first octet, trailing zero bits unused. */
function keyUsageBits(mask: number): Buffer {
  const reverse = (b: number) => { let r = 0; for (let i = 0; i < 8; i++) if (b & (1 << i)) r |= 0x80 >> i; return r; };
  const bytes = [reverse(mask & 0xff), reverse((mask >> 8) & 0xff)];
  const octetsUsed = bytes[1] !== 0 ? 2 : 1;
  const last = bytes[octetsUsed - 1]!;
  let unused = 0;
  while (unused < 8 && !(last & (1 << unused))) unused++;
  if (unused === 8) unused = 0;
  return Buffer.from([unused, ...bytes.slice(0, octetsUsed)]);
}

function extension(id: string, critical: boolean, value: forge.asn1.Asn1): forge.asn1.Asn1 {
  return seq([oid(id), ...(critical ? [node(UNIVERSAL, T.BOOLEAN, false, '\xff')] : []), octets(asn1Der(value))]);
}

function ipBytes(ip: string): Buffer {
  return Buffer.from(ipaddr.process(ip).toByteArray());
}

/**
 * Signs a certificate for `req` with `ca`, carrying `usages` (CSR spec.usages) and `validity`;
 * answers the PEM. Throws (upstream's messages) on an unrecognized usage.
 */
export function issueCertificate(ca: SigningAuthority, req: RequestToSign, usages: readonly string[], validity: Validity): string {
  const { keyUsage, extKeyUsages } = keyUsagesFromStrings(usages);
  const alg = signatureAlgorithm(ca);
  const algId = seq([oid(alg.oid), ...(alg.nullParams ? [node(UNIVERSAL, T.NULL, false, '')] : [])]);

  // Extensions in the order Go's x509.CreateCertificate writes them.
  const exts: forge.asn1.Asn1[] = [];
  if (keyUsage !== 0) exts.push(extension(oids.keyUsage, true, node(UNIVERSAL, T.BITSTRING, false, keyUsageBits(keyUsage).toString('binary'))));
  if (extKeyUsages.length > 0) exts.push(extension(oids.extKeyUsage, false, seq(extKeyUsages.map(oid))));
  exts.push(extension(oids.basicConstraints, true, seq([])));
  exts.push(extension(oids.subjectKeyId, false, octets(keyIdentifier(req.rawPublicKey))));
  exts.push(extension(oids.authorityKeyId, false, seq([node(CONTEXT, 0, false, ca.keyId.toString('binary'))])));
  const sans = [
    ...req.dnsNames.map((n) => node(CONTEXT, 2, false, Buffer.from(n, 'utf8').toString('binary'))),
    ...req.emailAddresses.map((e) => node(CONTEXT, 1, false, Buffer.from(e, 'utf8').toString('binary'))),
    ...req.ipAddresses.map((ip) => node(CONTEXT, 7, false, ipBytes(ip).toString('binary'))),
    ...req.uris.map((u) => node(CONTEXT, 6, false, Buffer.from(u, 'utf8').toString('binary'))),
  ];
  // RFC 5280 4.2.1.6: with an empty subject the names live only here, so the extension is critical.
  const emptySubject = asn1Children(parseDer(req.rawSubject), 'malformed subject').length === 0;
  if (sans.length > 0) exts.push(extension(oids.subjectAltName, emptySubject, seq(sans)));

  const tbs = seq([
    node(CONTEXT, 0, true, [node(UNIVERSAL, T.INTEGER, false, '\x02')]),
    serialNumber(),
    algId,
    embedded(ca.rawSubject, 'the CA subject'),
    seq([certTime(validity.notBefore), certTime(validity.notAfter)]),
    embedded(req.rawSubject, 'the request subject'),
    embedded(req.rawPublicKey, 'the request public key'),
    node(CONTEXT, 3, true, [seq(exts)]),
  ]);
  const tbsDer = asn1Der(tbs);
  const signature = sign(alg.hash, tbsDer, ca.privateKey);
  const cert = seq([
    embedded(tbsDer, 'the certificate'),
    seq([oid(alg.oid), ...(alg.nullParams ? [node(UNIVERSAL, T.NULL, false, '')] : [])]),
    node(UNIVERSAL, T.BITSTRING, false, Buffer.concat([Buffer.from([0]), signature]).toString('binary')),
  ]);
  const b64 = asn1Der(cert).toString('base64');
  return `-----BEGIN CERTIFICATE-----\n${b64.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
}
