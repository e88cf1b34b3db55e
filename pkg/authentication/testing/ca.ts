// Real certificate authorities for tests: a root, intermediates below it, and server and client
// certificates with the names, validity windows and key usages a test chooses. Keys come from
// node:crypto (fast), certificates are built and signed with node-forge.
import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import forge from 'node-forge';

export type ExtKeyUsage = 'serverAuth' | 'clientAuth' | 'any';

export interface IssueOptions {
  commonName?: string;
  /** Subject O attributes, in order (upstream maps each to a group). */
  organizations?: string[];
  /** Subject UID attributes (upstream maps one to the user's uid). */
  uids?: string[];
  /** Default: an hour ago. */
  notBefore?: Date;
  /** Default: a day from now. */
  notAfter?: Date;
  /** The extended key usages; `null` leaves the extension out. Default: clientAuth for clients, serverAuth for servers. */
  extKeyUsage?: ExtKeyUsage[] | null;
  dnsNames?: string[];
  ipAddresses?: string[];
  /** Make a CA certificate (basicConstraints cA, keyCertSign). */
  isCA?: boolean;
  /** basicConstraints pathLenConstraint of a CA. */
  pathLen?: number;
  /** Leave basicConstraints out entirely (a v3 certificate that may not sign). */
  omitBasicConstraints?: boolean;
  /** Leave keyCertSign out of a CA's key usage. */
  withoutCertSign?: boolean;
  /** Give a leaf its own key; by default leaves share one (they never sign, and RSA keys are slow to make). */
  freshKey?: boolean;
}

export interface IssuedCertificate {
  certPem: string;
  keyPem: string;
  certificate: X509Certificate;
  /** The certificate, then the intermediates up to (not including) the root: what a TLS peer sends. */
  chain: X509Certificate[];
  /** `chain` as one PEM bundle, for a TLS `cert` option. */
  chainPem: string;
}

function newKey(): { keyPem: string; privateKey: forge.pki.rsa.PrivateKey; publicKey: forge.pki.rsa.PublicKey } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyPem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  return {
    keyPem,
    privateKey: forge.pki.privateKeyFromPem(keyPem),
    publicKey: forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString()),
  };
}

let sharedLeafKey: ReturnType<typeof newKey> | undefined;

function leafKey(fresh: boolean | undefined): ReturnType<typeof newKey> {
  if (fresh) return newKey();
  return (sharedLeafKey ??= newKey());
}

const utf8 = forge.asn1.Type.UTF8 as unknown as forge.asn1.Class;

function subjectOf(o: IssueOptions): forge.pki.CertificateField[] {
  const attrs: forge.pki.CertificateField[] = [];
  for (const org of o.organizations ?? []) attrs.push({ shortName: 'O', value: org, valueTagClass: utf8 });
  for (const uid of o.uids ?? []) attrs.push({ type: '0.9.2342.19200300.100.1.1', value: uid, valueTagClass: utf8 });
  if (o.commonName !== undefined) attrs.push({ shortName: 'CN', value: o.commonName, valueTagClass: utf8 });
  return attrs;
}

let serial = 0;

function build(
  o: IssueOptions,
  key: ReturnType<typeof newKey>,
  issuer: { cert: forge.pki.Certificate; key: forge.pki.rsa.PrivateKey } | undefined,
  defaultUsage: ExtKeyUsage[] | null,
): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = key.publicKey;
  cert.serialNumber = (0x100000 + ++serial).toString(16) + forge.util.bytesToHex(forge.random.getBytesSync(8));
  const now = Date.now();
  cert.validity.notBefore = o.notBefore ?? new Date(now - 3600_000);
  cert.validity.notAfter = o.notAfter ?? new Date(now + 24 * 3600_000);
  cert.setSubject(subjectOf(o));
  cert.setIssuer(issuer ? issuer.cert.subject.attributes : subjectOf(o));
  const extensions: object[] = [];
  if (!o.omitBasicConstraints) {
    extensions.push(o.isCA ? { name: 'basicConstraints', cA: true, critical: true, ...(o.pathLen !== undefined ? { pathLenConstraint: o.pathLen } : {}) } : { name: 'basicConstraints', cA: false, critical: true });
  }
  extensions.push(
    o.isCA
      ? { name: 'keyUsage', critical: true, digitalSignature: true, keyCertSign: !o.withoutCertSign, cRLSign: true }
      : { name: 'keyUsage', critical: true, digitalSignature: true, keyEncipherment: true },
  );
  const usage = o.extKeyUsage === undefined ? defaultUsage : o.extKeyUsage;
  if (usage) {
    const eku: Record<string, unknown> = { name: 'extKeyUsage' };
    for (const u of usage) {
      if (u === 'any') eku['2.5.29.37.0'] = true;
      else eku[u] = true;
    }
    extensions.push(eku);
  }
  extensions.push({ name: 'subjectKeyIdentifier' });
  if (issuer) extensions.push({ name: 'authorityKeyIdentifier', keyIdentifier: issuer.cert.generateSubjectKeyIdentifier().getBytes() });
  const altNames = [...(o.dnsNames ?? []).map((value) => ({ type: 2, value })), ...(o.ipAddresses ?? []).map((ip) => ({ type: 7, ip }))];
  if (altNames.length) extensions.push({ name: 'subjectAltName', altNames });
  cert.setExtensions(extensions);
  cert.sign(issuer ? issuer.key : key.privateKey, forge.md.sha256.create());
  return cert;
}

/** A certificate authority (a root, or an intermediate below another TestCA) that issues certificates. */
export class TestCA {
  readonly certPem: string;
  readonly keyPem: string;
  readonly certificate: X509Certificate;
  /** This CA's certificate and the intermediates above it, excluding the root. Empty for a root. */
  readonly intermediates: X509Certificate[];

  private constructor(
    private readonly cert: forge.pki.Certificate,
    private readonly key: forge.pki.rsa.PrivateKey,
    keyPem: string,
    parent: TestCA | undefined,
  ) {
    this.certPem = forge.pki.certificateToPem(cert);
    this.keyPem = keyPem;
    this.certificate = new X509Certificate(this.certPem);
    this.intermediates = parent ? [this.certificate, ...parent.intermediates] : [];
  }

  /** A self-signed root. */
  static root(o: IssueOptions = {}): TestCA {
    const key = newKey();
    const cert = build({ commonName: 'test-root-ca', isCA: true, ...o }, key, undefined, null);
    return new TestCA(cert, key.privateKey, key.keyPem, undefined);
  }

  /** A CA whose certificate this CA signs. */
  intermediate(o: IssueOptions = {}): TestCA {
    const key = newKey();
    const cert = build({ commonName: 'test-intermediate-ca', isCA: true, ...o }, key, { cert: this.cert, key: this.key }, null);
    return new TestCA(cert, key.privateKey, key.keyPem, this);
  }

  /** A certificate signed by this CA; defaults make a client certificate. */
  issue(o: IssueOptions = {}, defaultUsage: ExtKeyUsage[] | null = ['clientAuth']): IssuedCertificate {
    const key = leafKey(o.freshKey || o.isCA);
    const cert = build(o, key, { cert: this.cert, key: this.key }, defaultUsage);
    const certPem = forge.pki.certificateToPem(cert);
    const certificate = new X509Certificate(certPem);
    const chain = [certificate, ...this.intermediates];
    return { certPem, keyPem: key.keyPem, certificate, chain, chainPem: chain.map((c) => c.toString()).join('') };
  }

  /** A client certificate: CN is the user, each organization a group. */
  client(commonName: string, organizations: string[] = [], o: IssueOptions = {}): IssuedCertificate {
    return this.issue({ commonName, organizations, ...o }, ['clientAuth']);
  }

  /** A server certificate for the given host names and IP addresses. */
  server(hosts: string[] = ['localhost', '127.0.0.1'], o: IssueOptions = {}): IssuedCertificate {
    const ipAddresses = hosts.filter((h) => /^[\d.]+$/.test(h) || h.includes(':'));
    const dnsNames = hosts.filter((h) => !ipAddresses.includes(h));
    return this.issue({ commonName: hosts[0] ?? 'server', dnsNames, ipAddresses, ...o }, ['serverAuth']);
  }
}
