// The credentials of the local control plane (`make run`), made once with node-forge and kept in
// the directory given: a client CA, the admin's client certificate in system:masters, the controller
// manager's client certificate (CN system:kube-controller-manager), the service
// account signing key pair, and a static token file. Existing files are kept, so tokens and
// kubeconfigs stay valid across restarts.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import forge from 'node-forge';

const dir = process.argv[2];
if (!dir) {
  process.stderr.write('usage: local-pki <directory>\n');
  process.exit(2);
}
mkdirSync(dir, { recursive: true, mode: 0o700 });
const file = (name: string) => join(dir, name);

function rsaKey(): { pem: string; forgeKey: forge.pki.rsa.PrivateKey; publicPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  return { pem, forgeKey: forge.pki.privateKeyFromPem(pem), publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}

function subject(cn: string, orgs: string[] = []): forge.pki.CertificateField[] {
  const utf8 = forge.asn1.Type.UTF8 as unknown as forge.asn1.Class;
  return [...orgs.map((o) => ({ name: 'organizationName', value: o, valueTagClass: utf8 })), { name: 'commonName', value: cn, valueTagClass: utf8 }];
}

function certificate(opts: {
  subject: forge.pki.CertificateField[]; issuer: forge.pki.CertificateField[]; publicPem: string; signer: forge.pki.rsa.PrivateKey;
  ca: boolean; years: number;
}): string {
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(opts.publicPem);
  cert.serialNumber = '01' + forge.util.bytesToHex(forge.random.getBytesSync(15));
  const now = Date.now();
  cert.validity.notBefore = new Date(now - 3600 * 1000);
  cert.validity.notAfter = new Date(now + opts.years * 365 * 24 * 3600 * 1000);
  cert.setSubject(opts.subject);
  cert.setIssuer(opts.issuer);
  cert.setExtensions(opts.ca
    ? [{ name: 'basicConstraints', cA: true, critical: true }, { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true }]
    : [{ name: 'basicConstraints', cA: false, critical: true }, { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true }, { name: 'extKeyUsage', clientAuth: true }]);
  cert.sign(opts.signer, forge.md.sha256.create());
  return forge.pki.certificateToPem(cert);
}

/** A root CA kept as `<name>.crt` and `<name>.key`, made once. */
function rootCA(name: string, cn: string): { cert: forge.pki.Certificate; key: forge.pki.rsa.PrivateKey } {
  if (!existsSync(file(`${name}.crt`)) || !existsSync(file(`${name}.key`))) {
    const key = rsaKey();
    const subj = subject(cn);
    writeFileSync(file(`${name}.key`), key.pem, { mode: 0o600 });
    writeFileSync(file(`${name}.crt`), certificate({ subject: subj, issuer: subj, publicPem: key.publicPem, signer: key.forgeKey, ca: true, years: 10 }));
  }
  return { cert: forge.pki.certificateFromPem(readFileSync(file(`${name}.crt`), 'utf8')), key: forge.pki.privateKeyFromPem(readFileSync(file(`${name}.key`), 'utf8')) };
}

// The client CA (--client-ca-file); later signers of the controller manager reuse it.
const ca = rootCA('ca', 'orch-local-ca');
// The front-proxy CA (--requestheader-client-ca-file), apart from the client CA as upstream advises:
// a certificate it signs vouches for the X-Remote-* headers sent to aggregated API servers.
const frontProxyCA = rootCA('front-proxy-ca', 'orch-front-proxy-ca');

/** A client certificate signed by `issuer` (the client CA by default), for a user in the given groups. */
function clientCert(name: string, cn: string, orgs: string[], issuer = ca): void {
  if (existsSync(file(`${name}.crt`)) && existsSync(file(`${name}.key`))) return;
  const key = rsaKey();
  writeFileSync(file(`${name}.key`), key.pem, { mode: 0o600 });
  writeFileSync(file(`${name}.crt`), certificate({ subject: subject(cn, orgs), issuer: issuer.cert.subject.attributes as forge.pki.CertificateField[], publicPem: key.publicPem, signer: issuer.key, ca: false, years: 1 }));
}
clientCert('admin', 'orch-admin', ['system:masters']);
// The API server's front-proxy identity (--proxy-client-cert-file) towards aggregated API servers.
clientCert('front-proxy-client', 'front-proxy-client', [], frontProxyCA);
// The controller manager's own identity, bound by the bootstrap RBAC policy (system:kube-controller-manager).
clientCert('controller-manager', 'system:kube-controller-manager', []);

// The service account token signing key pair (--service-account-signing-key-file / --service-account-key-file).
if (!existsSync(file('sa.key')) || !existsSync(file('sa.pub'))) {
  const key = rsaKey();
  writeFileSync(file('sa.key'), key.pem, { mode: 0o600 });
  writeFileSync(file('sa.pub'), key.publicPem);
}

// A static token for the admin (--token-auth-file): token, user, uid, groups.
if (!existsSync(file('tokens.csv'))) {
  const token = randomBytes(24).toString('base64url');
  writeFileSync(file('tokens.csv'), `${token},orch-admin,orch-admin,"system:masters"\n`, { mode: 0o600 });
}
