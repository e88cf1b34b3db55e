// Test certificate authorities: a CA that issues server and client certificates with chosen
// names, validity windows and key usages, so authentication tests run TLS exactly as production
// does (real keys, real signatures) without files checked into the repository.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import forge from 'node-forge';

export interface KeyPairPem {
  /** PEM certificate. */
  cert: string;
  /** PEM private key (PKCS#1 RSA). */
  key: string;
}

export interface IssueOptions {
  /** Subject common name. */
  commonName: string;
  /** Subject organizations (x509 groups). */
  organizations?: string[];
  /** DNS names and IP addresses for the subject alternative name extension. */
  hosts?: string[];
  /** Extended key usages; defaults to serverAuth when hosts are given, clientAuth otherwise. */
  usages?: Array<'serverAuth' | 'clientAuth'>;
  /** Validity start; default one hour ago. */
  notBefore?: Date;
  /** Validity end; default one year from now. */
  notAfter?: Date;
  /** Issue an intermediate CA instead of a leaf. */
  isCA?: boolean;
}

export interface TestCA extends KeyPairPem {
  /** Issues a certificate signed by this CA. */
  issue(opts: IssueOptions): KeyPairPem;
  /** Issues an intermediate CA signed by this CA; it can issue further certificates. */
  intermediate(commonName: string): TestCA;
}

const isIP = (h: string) => /^\d+\.\d+\.\d+\.\d+$/.test(h) || h.includes(':');

function newKey(): { pem: string; forgePriv: forge.pki.rsa.PrivateKey; forgePub: forge.pki.rsa.PublicKey } {
  // node:crypto makes the key (fast, native); forge only builds and signs the certificate.
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  return {
    pem,
    forgePriv: forge.pki.privateKeyFromPem(pem),
    forgePub: forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString()),
  };
}

function subject(cn: string, orgs: string[] = []): forge.pki.CertificateField[] {
  const utf8 = forge.asn1.Type.UTF8 as unknown as forge.asn1.Class;
  return [
    ...orgs.map((o) => ({ name: 'organizationName', value: o, valueTagClass: utf8 })),
    { name: 'commonName', value: cn, valueTagClass: utf8 },
  ];
}

function build(
  signer: { priv: forge.pki.rsa.PrivateKey; subject: forge.pki.CertificateField[] } | undefined,
  opts: IssueOptions,
): { certPem: string; keyPem: string; priv: forge.pki.rsa.PrivateKey; subject: forge.pki.CertificateField[] } {
  const k = newKey();
  const cert = forge.pki.createCertificate();
  cert.publicKey = k.forgePub;
  cert.serialNumber = '01' + randomBytes(15).toString('hex');
  const now = Date.now();
  cert.validity.notBefore = opts.notBefore ?? new Date(now - 3600_000);
  cert.validity.notAfter = opts.notAfter ?? new Date(now + 365 * 24 * 3600_000);
  const subj = subject(opts.commonName, opts.organizations);
  cert.setSubject(subj);
  cert.setIssuer(signer ? signer.subject : subj);
  const exts: object[] = [];
  if (opts.isCA) {
    exts.push({ name: 'basicConstraints', cA: true, critical: true });
    exts.push({ name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true });
  } else {
    exts.push({ name: 'basicConstraints', cA: false, critical: true });
    exts.push({ name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true });
    const usages = opts.usages ?? (opts.hosts?.length ? ['serverAuth'] : ['clientAuth']);
    if (usages.length) exts.push({ name: 'extKeyUsage', serverAuth: usages.includes('serverAuth'), clientAuth: usages.includes('clientAuth') });
    if (opts.hosts?.length) {
      exts.push({ name: 'subjectAltName', altNames: opts.hosts.map((h) => (isIP(h) ? { type: 7, ip: h } : { type: 2, value: h })) });
    }
  }
  cert.setExtensions(exts);
  cert.sign(signer ? signer.priv : k.forgePriv, forge.md.sha256.create());
  return { certPem: forge.pki.certificateToPem(cert), keyPem: k.pem, priv: k.forgePriv, subject: subj };
}

function wrap(made: { certPem: string; keyPem: string; priv: forge.pki.rsa.PrivateKey; subject: forge.pki.CertificateField[] }): TestCA {
  const signer = { priv: made.priv, subject: made.subject };
  return {
    cert: made.certPem,
    key: made.keyPem,
    issue(opts) {
      const leaf = build(signer, opts);
      return { cert: leaf.certPem, key: leaf.keyPem };
    },
    intermediate(commonName) {
      return wrap(build(signer, { commonName, isCA: true }));
    },
  };
}

/** A self-signed root CA. */
export function createTestCA(commonName = 'test-ca'): TestCA {
  return wrap(build(undefined, { commonName, isCA: true }));
}

/** A server certificate for 127.0.0.1 and localhost, the address test servers listen on. */
export function issueLoopbackServerCert(ca: TestCA, commonName = '127.0.0.1'): KeyPairPem {
  return ca.issue({ commonName, hosts: ['127.0.0.1', 'localhost'], usages: ['serverAuth'] });
}
