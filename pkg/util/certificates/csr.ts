// PKCS#10 certificate signing requests: parse the PEM a CertificateSigningRequest carries (what
// upstream's certificates.ParseCSR accepts: the first PEM block, which must be a CERTIFICATE
// REQUEST), read the subject, the public key and the extension-request subject alternative names,
// and check the self-signature; and build one, for clients and tests.
//
// node-forge cannot hold EC or Ed25519 keys, so forge is used only for its ASN.1 reader and writer
// and node:crypto does the cryptography (public keys from the SubjectPublicKeyInfo DER, verify,
// sign). Parsing never throws: a bad request is a value, as the validation that reports it wants.
import { createPublicKey, sign as cryptoSign, verify as cryptoVerify, constants, type KeyObject } from 'node:crypto';
import forge from 'node-forge';
import { asn1Children, asn1Der, asn1String, asn1Value, MalformedDER, parseDer } from './asn1.js';
import { firstPEMBlock } from './pem.js';
import ipaddr from 'ipaddr.js';

/** One attribute of a distinguished name, in the order the request lists them. */
export interface NameAttribute {
  oid: string;
  /** The value as text, or undefined when it is not one of the ASN.1 string types. */
  value: string | undefined;
  /** DER of the value, for attributes printed as `oid=#hex`. */
  der: Buffer;
}

export interface Subject {
  /** The last CN attribute, as Go's pkix.Name keeps it; '' without one. */
  commonName: string;
  /** Every O attribute, in order (upstream maps each to a group). */
  organizations: string[];
  /** Every attribute, in order. */
  names: NameAttribute[];
  /** The subject as Go's pkix.Name.String() prints it (`CN=node,O=system:nodes`), for messages. */
  string: string;
}

/** Public key algorithms by the names Go's x509.PublicKeyAlgorithm prints. */
export type PublicKeyAlgorithm = 'RSA' | 'ECDSA' | 'Ed25519' | 'DSA' | 'X25519' | 'unknown';

export interface CertificateRequest {
  /** DER of the whole request. */
  raw: Buffer;
  /** DER of the signed part (certificationRequestInfo). */
  rawTBS: Buffer;
  version: number;
  subject: Subject;
  /** DER of the SubjectPublicKeyInfo. */
  publicKeyDer: Buffer;
  publicKeyAlgorithm: PublicKeyAlgorithm;
  /** The public key, when node:crypto knows its algorithm. */
  publicKey: KeyObject | undefined;
  /** The signature algorithm as Go prints it (`SHA256-RSA`, `ECDSA-SHA256`, `Ed25519`), or its OID. */
  signatureAlgorithm: string;
  signature: Buffer;
  /** Subject alternative names from the extension request. */
  dnsNames: string[];
  emailAddresses: string[];
  /** IP addresses as Go's net.IP.String() prints them. */
  ipAddresses: string[];
  uris: string[];
  /** Every requested extension. */
  extensions: { oid: string; critical: boolean; value: Buffer }[];
  /** undefined when the self-signature verifies, else Go's CheckSignature error text. */
  signatureError: string | undefined;
}

export type ParseCSRResult = { ok: true; csr: CertificateRequest } | { ok: false; error: string };

export const csrOids = {
  commonName: '2.5.4.3',
  serialNumber: '2.5.4.5',
  country: '2.5.4.6',
  locality: '2.5.4.7',
  province: '2.5.4.8',
  street: '2.5.4.9',
  organization: '2.5.4.10',
  organizationalUnit: '2.5.4.11',
  postalCode: '2.5.4.17',
  extensionRequest: '1.2.840.113549.1.9.14',
  subjectAltName: '2.5.29.17',
  rsaEncryption: '1.2.840.113549.1.1.1',
  ecPublicKey: '1.2.840.10045.2.1',
  ed25519: '1.3.101.112',
  x25519: '1.3.101.110',
  dsa: '1.2.840.10040.4.1',
} as const;

interface SignatureAlgorithm {
  name: string;
  key: PublicKeyAlgorithm;
  /** node:crypto digest; null for Ed25519 (which hashes itself). */
  hash: string | null;
  pss?: boolean;
  /** Go refuses to verify with these even for requests. */
  insecure?: boolean;
}

// The signature algorithms Go's x509 knows, keyed by OID. CheckSignature allows SHA-1 for requests.
const signatureAlgorithms: Record<string, SignatureAlgorithm> = {
  '1.2.840.113549.1.1.4': { name: 'MD5-RSA', key: 'RSA', hash: 'md5', insecure: true },
  '1.2.840.113549.1.1.5': { name: 'SHA1-RSA', key: 'RSA', hash: 'sha1' },
  '1.2.840.113549.1.1.11': { name: 'SHA256-RSA', key: 'RSA', hash: 'sha256' },
  '1.2.840.113549.1.1.12': { name: 'SHA384-RSA', key: 'RSA', hash: 'sha384' },
  '1.2.840.113549.1.1.13': { name: 'SHA512-RSA', key: 'RSA', hash: 'sha512' },
  '1.2.840.113549.1.1.10': { name: 'SHA256-RSAPSS', key: 'RSA', hash: null, pss: true },
  '1.2.840.10045.4.1': { name: 'ECDSA-SHA1', key: 'ECDSA', hash: 'sha1' },
  '1.2.840.10045.4.3.2': { name: 'ECDSA-SHA256', key: 'ECDSA', hash: 'sha256' },
  '1.2.840.10045.4.3.3': { name: 'ECDSA-SHA384', key: 'ECDSA', hash: 'sha384' },
  '1.2.840.10045.4.3.4': { name: 'ECDSA-SHA512', key: 'ECDSA', hash: 'sha512' },
  '1.3.101.112': { name: 'Ed25519', key: 'Ed25519', hash: null },
};

const pssHashes: Record<string, { hash: string; name: string; saltLength: number }> = {
  '2.16.840.1.101.3.4.2.1': { hash: 'sha256', name: 'SHA256-RSAPSS', saltLength: 32 },
  '2.16.840.1.101.3.4.2.2': { hash: 'sha384', name: 'SHA384-RSAPSS', saltLength: 48 },
  '2.16.840.1.101.3.4.2.3': { hash: 'sha512', name: 'SHA512-RSAPSS', saltLength: 64 },
};

const T = forge.asn1.Type;
const C = forge.asn1.Class;

const Malformed = MalformedDER;
const malformedRequest = 'x509: malformed certificate request';
const children = (node: forge.asn1.Asn1 | undefined, what = malformedRequest) => asn1Children(node, what);
const bytesOf = (node: forge.asn1.Asn1 | undefined, what = malformedRequest) => asn1Value(node, what);
const derOf = asn1Der;
const fromDer = parseDer;

function derToOid(node: forge.asn1.Asn1 | undefined): string {
  if (!node || node.type !== T.OID) throw new Malformed('x509: malformed certificate request');
  return forge.asn1.derToOid(bytesOf(node));
}

function integer(node: forge.asn1.Asn1 | undefined): number {
  if (!node || node.type !== T.INTEGER) throw new Malformed('x509: malformed certificate request');
  const b = bytesOf(node);
  if (b.length > 6) throw new Malformed('asn1: structure error: integer too large');
  let n = 0;
  for (let i = 0; i < b.length; i++) n = n * 256 + b.charCodeAt(i);
  if (b.length > 0 && b.charCodeAt(0) & 0x80) n -= 2 ** (8 * b.length);
  return n;
}

const attributeTypeNames: Record<string, string> = {
  '2.5.4.6': 'C',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '2.5.4.3': 'CN',
  '2.5.4.5': 'SERIALNUMBER',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.9': 'STREET',
  '2.5.4.17': 'POSTALCODE',
};

function escapeValue(v: string): string {
  const chars = [...v];
  return chars
    .map((c, k) => {
      let escape = false;
      if (',+"\\<>;'.includes(c)) escape = true;
      else if (c === ' ') escape = k === 0 || k === chars.length - 1;
      else if (c === '#') escape = k === 0;
      return escape ? '\\' + c : c;
    })
    .join('');
}

function atvString(a: NameAttribute): string {
  const name = attributeTypeNames[a.oid];
  if (!name || a.value === undefined) return `${a.oid}=#${a.der.toString('hex')}`;
  return `${name}=${escapeValue(a.value)}`;
}

// Go's pkix.Name.String(): attributes it does not parse into named fields first (so they print
// last), then the named fields in its fixed order (multi-valued ones as one `+`-joined RDN), the
// whole sequence printed from its end.
function subjectString(names: NameAttribute[]): string {
  const named = new Set(['2.5.4.3', '2.5.4.5', '2.5.4.6', '2.5.4.7', '2.5.4.8', '2.5.4.9', '2.5.4.10', '2.5.4.11', '2.5.4.17']);
  const rdns: NameAttribute[][] = [];
  for (const a of names) if (!named.has(a.oid) || a.value === undefined) rdns.push([a]);
  const valued = (oid: string) => names.filter((a) => a.oid === oid && a.value !== undefined);
  const last = (oid: string) => valued(oid).slice(-1);
  for (const group of [
    valued(csrOids.country),
    valued(csrOids.province),
    valued(csrOids.locality),
    valued(csrOids.street),
    valued(csrOids.postalCode),
    valued(csrOids.organization),
    valued(csrOids.organizationalUnit),
    last(csrOids.commonName),
    last(csrOids.serialNumber),
  ]) {
    if (group.length > 0) rdns.push(group);
  }
  return rdns
    .reverse()
    .map((rdn) => rdn.map(atvString).join('+'))
    .join(',');
}

function parseSubject(name: forge.asn1.Asn1): Subject {
  const names: NameAttribute[] = [];
  if (name.type !== T.SEQUENCE) throw new Malformed('x509: invalid subject');
  for (const rdn of children(name)) {
    if (rdn.type !== T.SET) throw new Malformed('x509: invalid RDNSequence');
    for (const atv of children(rdn)) {
      const [type, value] = children(atv);
      if (!type || !value) throw new Malformed('x509: invalid RDNSequence: invalid attribute');
      names.push({ oid: derToOid(type), value: asn1String(value), der: derOf(value) });
    }
  }
  let commonName = '';
  for (const a of names) if (a.oid === csrOids.commonName && a.value !== undefined) commonName = a.value;
  const organizations = names.filter((a) => a.oid === csrOids.organization && a.value !== undefined).map((a) => a.value!);
  return { commonName, organizations, names, string: subjectString(names) };
}

function goIPString(bytes: Buffer): string {
  if (bytes.length === 4) return [...bytes].join('.');
  const v6 = ipaddr.fromByteArray([...bytes]) as ipaddr.IPv6;
  // Go prints an IPv4-mapped IPv6 address as the IPv4 address.
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  return v6.toRFC5952String();
}

function isIA5(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

function parseSAN(value: forge.asn1.Asn1, out: CertificateRequest): void {
  if (value.type !== T.SEQUENCE) throw new Malformed('x509: invalid subject alternative names');
  for (const gn of children(value, 'x509: invalid subject alternative names')) {
    if (gn.tagClass !== C.CONTEXT_SPECIFIC) continue;
    if (typeof gn.value !== 'string') continue;
    const text = gn.value;
    switch (gn.type as number) {
      case 1:
        if (!isIA5(text)) throw new Malformed('x509: SAN rfc822Name is malformed');
        out.emailAddresses.push(text);
        break;
      case 2:
        if (!isIA5(text)) throw new Malformed('x509: SAN dNSName is malformed');
        out.dnsNames.push(text);
        break;
      case 6: {
        if (!isIA5(text)) throw new Malformed('x509: SAN uniformResourceIdentifier is malformed');
        try {
          new URL(text);
        } catch {
          throw new Malformed(`x509: cannot parse URI "${text}": invalid URI`);
        }
        out.uris.push(text);
        break;
      }
      case 7: {
        const bytes = Buffer.from(text, 'binary');
        if (bytes.length !== 4 && bytes.length !== 16) throw new Malformed(`x509: cannot parse IP address of length ${bytes.length}`);
        out.ipAddresses.push(goIPString(bytes));
        break;
      }
    }
  }
}

function keyAlgorithm(oid: string): PublicKeyAlgorithm {
  switch (oid) {
    case csrOids.rsaEncryption:
      return 'RSA';
    case csrOids.ecPublicKey:
      return 'ECDSA';
    case csrOids.ed25519:
      return 'Ed25519';
    case csrOids.x25519:
      return 'X25519';
    case csrOids.dsa:
      return 'DSA';
    default:
      return 'unknown';
  }
}

const goKeyTypes: Record<PublicKeyAlgorithm, string> = {
  RSA: '*rsa.PublicKey',
  ECDSA: '*ecdsa.PublicKey',
  Ed25519: 'ed25519.PublicKey',
  DSA: '*dsa.PublicKey',
  X25519: '*ecdh.PublicKey',
  unknown: '<nil>',
};

function resolveSignatureAlgorithm(algId: forge.asn1.Asn1): { oid: string; alg: SignatureAlgorithm | undefined; saltLength?: number } {
  const parts = children(algId);
  const oid = derToOid(parts[0]);
  const alg = signatureAlgorithms[oid];
  if (!alg?.pss) return { oid, alg };
  // RSASSA-PSS: Go accepts only SHA-256/384/512 with MGF1 of the same hash and salt = hash size.
  try {
    const params = children(parts[1]);
    const hashField = params.find((p) => p.tagClass === C.CONTEXT_SPECIFIC && p.type === 0);
    const hashOid = derToOid(children(children(hashField)[0])[0]);
    const h = pssHashes[hashOid];
    if (!h) return { oid, alg: undefined };
    return { oid, alg: { ...alg, name: h.name, hash: h.hash }, saltLength: h.saltLength };
  } catch {
    return { oid, alg: undefined };
  }
}

function checkSignature(csr: CertificateRequest, alg: SignatureAlgorithm | undefined, saltLength: number | undefined): string | undefined {
  if (!alg) return 'x509: cannot verify signature: algorithm unimplemented';
  if (alg.insecure) return `x509: cannot verify signature: insecure algorithm ${alg.name}`;
  if (alg.key !== csr.publicKeyAlgorithm || !csr.publicKey) {
    if (!csr.publicKey) return 'x509: cannot verify signature: algorithm unimplemented';
    return `x509: signature algorithm specifies an ${alg.key} public key, but have public key of type ${goKeyTypes[csr.publicKeyAlgorithm]}`;
  }
  try {
    switch (alg.key) {
      case 'RSA': {
        const key = alg.pss ? { key: csr.publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: saltLength! } : csr.publicKey;
        return cryptoVerify(alg.hash!, csr.rawTBS, key, csr.signature) ? undefined : 'crypto/rsa: verification error';
      }
      case 'ECDSA':
        return cryptoVerify(alg.hash!, csr.rawTBS, { key: csr.publicKey, dsaEncoding: 'der' }, csr.signature)
          ? undefined
          : 'x509: ECDSA verification failure';
      case 'Ed25519':
        return cryptoVerify(null, csr.rawTBS, csr.publicKey, csr.signature) ? undefined : 'x509: Ed25519 verification failure';
      default:
        return 'x509: cannot verify signature: algorithm unimplemented';
    }
  } catch {
    return alg.key === 'RSA' ? 'crypto/rsa: verification error' : `x509: ${alg.key} verification failure`;
  }
}

/** Parses DER PKCS#10, as Go's x509.ParseCertificateRequest. */
export function parseCSRDer(der: Buffer): ParseCSRResult {
  let root: forge.asn1.Asn1;
  try {
    root = parseDer(der, { allowTrailing: true });
  } catch {
    return { ok: false, error: 'asn1: syntax error: data truncated' };
  }
  try {
    if (derOf(root).length !== der.length) return { ok: false, error: 'asn1: syntax error: trailing data' };
    const [info, sigAlg, sigBits] = children(root);
    if (!info || !sigAlg || !sigBits || info.type !== T.SEQUENCE || sigBits.type !== T.BITSTRING) {
      throw new Malformed('asn1: structure error: tags don\'t match');
    }
    const infoParts = children(info);
    const [version, subject, spki] = infoParts;
    if (!version || !subject || !spki) throw new Malformed('asn1: structure error: tags don\'t match');
    const spkiParts = children(spki);
    const keyOid = derToOid(children(spkiParts[0])[0]);
    const algorithm = keyAlgorithm(keyOid);
    const publicKeyDer = derOf(spki);
    let publicKey: KeyObject | undefined;
    if (algorithm !== 'unknown') {
      try {
        publicKey = createPublicKey({ key: publicKeyDer, format: 'der', type: 'spki' });
      } catch {
        const names: Record<string, string> = { RSA: 'RSA', ECDSA: 'ECDSA', Ed25519: 'Ed25519', DSA: 'DSA', X25519: 'X25519' };
        throw new Malformed(`x509: invalid ${names[algorithm]} public key`);
      }
    }
    const sigBytes = bytesOf(sigBits);
    const { oid: sigOid, alg, saltLength } = resolveSignatureAlgorithm(sigAlg);
    const csr: CertificateRequest = {
      raw: Buffer.from(der),
      rawTBS: derOf(info),
      version: integer(version),
      subject: parseSubject(subject),
      publicKeyDer,
      publicKeyAlgorithm: algorithm,
      publicKey,
      signatureAlgorithm: alg?.name ?? sigOid,
      // The first octet of a BIT STRING counts its unused bits.
      signature: Buffer.from(sigBytes.slice(1), 'binary'),
      dnsNames: [],
      emailAddresses: [],
      ipAddresses: [],
      uris: [],
      extensions: [],
      signatureError: undefined,
    };
    const attributes = infoParts.slice(3).find((p) => p.tagClass === C.CONTEXT_SPECIFIC && p.type === 0);
    for (const attr of attributes ? children(attributes) : []) {
      const [type, values] = children(attr);
      if (derToOid(type) !== csrOids.extensionRequest) continue;
      for (const extensions of children(values)) {
        for (const ext of children(extensions)) {
          const items = children(ext);
          const oid = derToOid(items[0]);
          const critical = items.length === 3 && items[1]!.type === T.BOOLEAN && bytesOf(items[1]) !== '\x00';
          const valueNode = items[items.length - 1];
          if (!valueNode || valueNode.type !== T.OCTETSTRING) throw new Malformed('x509: malformed extension');
          const value = Buffer.from(bytesOf(valueNode), 'binary');
          csr.extensions.push({ oid, critical, value });
          if (oid === csrOids.subjectAltName) parseSAN(fromDer(value.toString('binary')), csr);
        }
      }
    }
    csr.signatureError = checkSignature(csr, alg, saltLength);
    return { ok: true, csr };
  } catch (err) {
    if (err instanceof Malformed) return { ok: false, error: err.message };
    return { ok: false, error: 'x509: malformed certificate request' };
  }
}

/**
 * Parses PEM as upstream's certificates.ParseCSR: the first PEM block must be a CERTIFICATE
 * REQUEST holding DER PKCS#10. The signature is checked (see `signatureError`) but a bad one is
 * not a parse error, as in Go, where CheckSignature is a separate step.
 */
export function parseCSR(pem: Buffer | Uint8Array | string): ParseCSRResult {
  const text = typeof pem === 'string' ? pem : Buffer.from(pem).toString('latin1');
  const block = firstPEMBlock(text);
  if (!block || block.type !== 'CERTIFICATE REQUEST') return { ok: false, error: 'PEM block type must be CERTIFICATE REQUEST' };
  return parseCSRDer(block.bytes);
}

/**
 * What upstream's validation asks of spec.request: it parses and its self-signature verifies.
 * Returns the request, or the error text upstream puts in the `spec.request` cause.
 */
export function parseAndVerifyCSR(pem: Buffer | Uint8Array | string): ParseCSRResult {
  const parsed = parseCSR(pem);
  if (!parsed.ok) return parsed;
  if (parsed.csr.signatureError !== undefined) return { ok: false, error: parsed.csr.signatureError };
  return parsed;
}

// ---- building requests ----

export interface CreateCSROptions {
  /** The private key that signs the request; its public half goes in the request. RSA, EC (P-256/P-384/P-521) or Ed25519. */
  key: KeyObject;
  commonName?: string;
  organizations?: string[];
  dnsNames?: string[];
  ipAddresses?: string[];
  emailAddresses?: string[];
  uris?: string[];
}

function oidNode(oid: string): forge.asn1.Asn1 {
  return forge.asn1.create(C.UNIVERSAL, T.OID, false, forge.asn1.oidToDer(oid).getBytes());
}

// Go marshals a Go string as a PrintableString when it can, else as a UTF8String.
function nameValue(v: string): forge.asn1.Asn1 {
  const printable = /^[A-Za-z0-9 '()+,\-./:=?*&]*$/.test(v);
  return printable
    ? forge.asn1.create(C.UNIVERSAL, T.PRINTABLESTRING, false, v)
    : forge.asn1.create(C.UNIVERSAL, T.UTF8, false, Buffer.from(v, 'utf8').toString('binary'));
}

function rdn(oid: string, values: string[]): forge.asn1.Asn1 {
  return forge.asn1.create(
    C.UNIVERSAL,
    T.SET,
    true,
    values.map((v) => forge.asn1.create(C.UNIVERSAL, T.SEQUENCE, true, [oidNode(oid), nameValue(v)])),
  );
}

function ipBytes(ip: string): string {
  const addr = ipaddr.parse(ip);
  return Buffer.from(addr.toByteArray()).toString('binary');
}

function signingAlgorithm(key: KeyObject): { oid: string; hash: string | null; params: boolean } {
  switch (key.asymmetricKeyType) {
    case 'rsa':
      return { oid: '1.2.840.113549.1.1.11', hash: 'sha256', params: true };
    case 'ec': {
      const curve = key.asymmetricKeyDetails?.namedCurve;
      // Go picks the hash by curve size.
      if (curve === 'secp384r1') return { oid: '1.2.840.10045.4.3.3', hash: 'sha384', params: false };
      if (curve === 'secp521r1') return { oid: '1.2.840.10045.4.3.4', hash: 'sha512', params: false };
      return { oid: '1.2.840.10045.4.3.2', hash: 'sha256', params: false };
    }
    case 'ed25519':
      return { oid: '1.3.101.112', hash: null, params: false };
    default:
      throw new Error(`createCSR: unsupported key type ${key.asymmetricKeyType}`);
  }
}

/** A PEM PKCS#10 request signed by `key`, as Go's x509.CreateCertificateRequest writes one. */
export function createCSR(opts: CreateCSROptions): string {
  const { key } = opts;
  const a = forge.asn1;
  const spki = createPublicKey(key).export({ type: 'spki', format: 'der' });
  const rdns: forge.asn1.Asn1[] = [];
  if (opts.organizations?.length) rdns.push(rdn(csrOids.organization, opts.organizations));
  if (opts.commonName) rdns.push(rdn(csrOids.commonName, [opts.commonName]));
  const sans: forge.asn1.Asn1[] = [
    ...(opts.dnsNames ?? []).map((n) => a.create(C.CONTEXT_SPECIFIC, 2, false, n)),
    ...(opts.emailAddresses ?? []).map((n) => a.create(C.CONTEXT_SPECIFIC, 1, false, n)),
    ...(opts.ipAddresses ?? []).map((n) => a.create(C.CONTEXT_SPECIFIC, 7, false, ipBytes(n))),
    ...(opts.uris ?? []).map((n) => a.create(C.CONTEXT_SPECIFIC, 6, false, n)),
  ];
  const attributes: forge.asn1.Asn1[] = [];
  if (sans.length > 0) {
    const sanDer = a.toDer(a.create(C.UNIVERSAL, T.SEQUENCE, true, sans)).getBytes();
    const ext = a.create(C.UNIVERSAL, T.SEQUENCE, true, [oidNode(csrOids.subjectAltName), a.create(C.UNIVERSAL, T.OCTETSTRING, false, sanDer)]);
    attributes.push(
      a.create(C.UNIVERSAL, T.SEQUENCE, true, [
        oidNode(csrOids.extensionRequest),
        a.create(C.UNIVERSAL, T.SET, true, [a.create(C.UNIVERSAL, T.SEQUENCE, true, [ext])]),
      ]),
    );
  }
  const info = a.create(C.UNIVERSAL, T.SEQUENCE, true, [
    a.create(C.UNIVERSAL, T.INTEGER, false, '\x00'),
    a.create(C.UNIVERSAL, T.SEQUENCE, true, rdns),
    fromDer(spki.toString('binary')),
    a.create(C.CONTEXT_SPECIFIC, 0, true, attributes),
  ]);
  const tbs = Buffer.from(a.toDer(info).getBytes(), 'binary');
  const alg = signingAlgorithm(key);
  const signature = key.asymmetricKeyType === 'ec' ? cryptoSign(alg.hash, tbs, { key, dsaEncoding: 'der' }) : cryptoSign(alg.hash, tbs, key);
  const algId = a.create(C.UNIVERSAL, T.SEQUENCE, true, alg.params ? [oidNode(alg.oid), a.create(C.UNIVERSAL, T.NULL, false, '')] : [oidNode(alg.oid)]);
  const csr = a.create(C.UNIVERSAL, T.SEQUENCE, true, [
    info,
    algId,
    a.create(C.UNIVERSAL, T.BITSTRING, false, '\x00' + signature.toString('binary')),
  ]);
  const der = Buffer.from(a.toDer(csr).getBytes(), 'binary');
  const body = der.toString('base64').replace(/.{1,64}/g, '$&\n');
  return `-----BEGIN CERTIFICATE REQUEST-----\n${body}-----END CERTIFICATE REQUEST-----\n`;
}
