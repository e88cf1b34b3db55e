// The fields of an X.509 certificate that chain verification and user mapping need and node:crypto
// does not expose (the raw issuer and subject names, every subject attribute in order, path length,
// key usage bits, key identifiers, the version), read from the DER with node-forge's ASN.1 reader.
// Forge's certificate parser is not used: it refuses every key that is not RSA.
import { createHash, type X509Certificate } from 'node:crypto';
import forge from 'node-forge';
import { asn1Children, asn1String, asn1Value, parseDer } from '../util/certificates/asn1.js';

/** One attribute of a distinguished name, in the order the certificate lists them. */
export interface NameAttribute {
  oid: string;
  /** The value as text, or undefined when it is not one of the ASN.1 string types. */
  value: string | undefined;
}

export interface CertificateFields {
  /** 1 for v1, 3 for v3. */
  version: number;
  /** The serial number, in decimal (as Go's `%d` prints a big.Int). */
  serial: string;
  /** DER of the issuer and subject names; certificates chain where one's issuer is the other's subject. */
  rawIssuer: string;
  rawSubject: string;
  subject: NameAttribute[];
  notBefore: Date;
  notAfter: Date;
  /** Whether a basicConstraints extension is present, its cA flag, and its path length (-1 when absent). */
  basicConstraintsValid: boolean;
  isCA: boolean;
  maxPathLen: number;
  /** keyUsage bits as Go numbers them (bit 0 digitalSignature ... bit 5 keyCertSign); 0 without the extension. */
  keyUsage: number;
  /** Extended key usage OIDs; empty without the extension. */
  extKeyUsage: string[];
  subjectKeyId: Buffer;
  authorityKeyId: Buffer;
  /** SHA-256 of the DER of the subject public key info: with rawSubject, identifies the certificate's key. */
  publicKeyId: string;
}

export const oids = {
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  /** The LDAP `UID` attribute, from which upstream reads a user's uid. */
  userId: '0.9.2342.19200300.100.1.1',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  subjectKeyId: '2.5.29.14',
  authorityKeyId: '2.5.29.35',
  anyExtendedKeyUsage: '2.5.29.37.0',
  clientAuth: '1.3.6.1.5.5.7.3.2',
  serverAuth: '1.3.6.1.5.5.7.3.1',
} as const;

export const keyUsageCertSign = 1 << 5;

const T = forge.asn1.Type;
const C = forge.asn1.Class;

const malformed = 'x509: malformed certificate';
const children = (node: forge.asn1.Asn1) => asn1Children(node, malformed);
const bytesOf = (node: forge.asn1.Asn1) => asn1Value(node, malformed);
const derOf = (node: forge.asn1.Asn1) => forge.asn1.toDer(node).getBytes();

function bigIntFromBytes(bytes: string): bigint {
  if (bytes.length === 0) return 0n;
  let n = BigInt('0x' + Buffer.from(bytes, 'binary').toString('hex'));
  if (bytes.charCodeAt(0) & 0x80) n -= 1n << BigInt(bytes.length * 8);
  return n;
}

function nameAttributes(name: forge.asn1.Asn1): NameAttribute[] {
  const out: NameAttribute[] = [];
  for (const rdn of children(name)) {
    for (const atv of children(rdn)) {
      const [type, value] = children(atv);
      if (!type || !value) throw new Error('x509: malformed certificate');
      out.push({ oid: forge.asn1.derToOid(bytesOf(type)), value: asn1String(value) });
    }
  }
  return out;
}

function time(node: forge.asn1.Asn1): Date {
  const v = bytesOf(node);
  return node.type === T.UTCTIME ? forge.asn1.utcTimeToDate(v) : forge.asn1.generalizedTimeToDate(v);
}

const cache = new WeakMap<X509Certificate, CertificateFields>();

/** The fields of `cert`, parsed once per certificate object. Throws on malformed DER. */
export function certificateFields(cert: X509Certificate): CertificateFields {
  const cached = cache.get(cert);
  if (cached) return cached;
  const root = parseDer(cert.raw.toString('binary'));
  const tbs = children(root)[0];
  if (!tbs) throw new Error('x509: malformed certificate');
  const parts = children(tbs);
  let i = 0;
  let version = 1;
  if (parts[0] && parts[0].tagClass === C.CONTEXT_SPECIFIC && parts[0].type === 0) {
    version = Number(bigIntFromBytes(bytesOf(children(parts[0])[0]!))) + 1;
    i = 1;
  }
  const [serial, , issuer, validity, subject, spki] = parts.slice(i, i + 6);
  if (!serial || !issuer || !validity || !subject || !spki) throw new Error('x509: malformed certificate');
  const [notBefore, notAfter] = children(validity);
  const fields: CertificateFields = {
    version,
    serial: bigIntFromBytes(bytesOf(serial)).toString(),
    rawIssuer: derOf(issuer),
    rawSubject: derOf(subject),
    subject: nameAttributes(subject),
    notBefore: time(notBefore!),
    notAfter: time(notAfter!),
    basicConstraintsValid: false,
    isCA: false,
    maxPathLen: -1,
    keyUsage: 0,
    extKeyUsage: [],
    subjectKeyId: Buffer.alloc(0),
    authorityKeyId: Buffer.alloc(0),
    publicKeyId: createHash('sha256').update(Buffer.from(derOf(spki), 'binary')).digest('hex'),
  };
  const extensions = parts.slice(i + 6).find((p) => p.tagClass === C.CONTEXT_SPECIFIC && p.type === 3);
  for (const ext of extensions ? children(children(extensions)[0]!) : []) {
    const items = children(ext);
    const oid = forge.asn1.derToOid(bytesOf(items[0]!));
    const value = parseDer(bytesOf(items[items.length - 1]!));
    switch (oid) {
      case oids.basicConstraints: {
        fields.basicConstraintsValid = true;
        for (const item of children(value)) {
          if (item.type === T.BOOLEAN) fields.isCA = bytesOf(item) !== '\x00';
          else if (item.type === T.INTEGER) fields.maxPathLen = Number(bigIntFromBytes(bytesOf(item)));
        }
        break;
      }
      case oids.keyUsage: {
        const bits = bytesOf(value).slice(1); // the first octet counts the unused bits
        let usage = 0;
        for (let bit = 0; bit < Math.min(bits.length * 8, 9); bit++) {
          if (bits.charCodeAt(bit >> 3) & (0x80 >> (bit & 7))) usage |= 1 << bit;
        }
        fields.keyUsage = usage;
        break;
      }
      case oids.extKeyUsage:
        fields.extKeyUsage = children(value).map((o) => forge.asn1.derToOid(bytesOf(o)));
        break;
      case oids.subjectKeyId:
        fields.subjectKeyId = Buffer.from(bytesOf(value), 'binary');
        break;
      case oids.authorityKeyId: {
        const keyId = children(value).find((p) => p.tagClass === C.CONTEXT_SPECIFIC && p.type === 0);
        if (keyId) fields.authorityKeyId = Buffer.from(bytesOf(keyId), 'binary');
        break;
      }
    }
  }
  cache.set(cert, fields);
  return fields;
}

/** The subject's common name: the last CN attribute, as Go's pkix.Name keeps it; '' without one. */
export function commonName(fields: CertificateFields): string {
  let cn = '';
  for (const a of fields.subject) if (a.oid === oids.commonName && a.value !== undefined) cn = a.value;
  return cn;
}

/** Every organization (O) of the subject, in order. */
export function organizations(fields: CertificateFields): string[] {
  return fields.subject.filter((a) => a.oid === oids.organization && a.value !== undefined).map((a) => a.value!);
}
