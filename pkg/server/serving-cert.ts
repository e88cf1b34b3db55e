// The serving certificate: the operator's files when given, otherwise a self-signed certificate
// kept in --cert-dir (made once, reused while it still covers the server's names).
import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type Forge from 'node-forge';

/**
 * node-forge, loaded only to make a certificate: a server started with its own pair, or with the
 * pair an earlier start generated, never loads it (the main thread of `--workers` is several MiB
 * smaller for it).
 */
const loadForge = () => createRequire(import.meta.url)('node-forge') as typeof Forge;

export interface ServingCert {
  cert: string;
  key: string;
  certFile: string;
  keyFile: string;
}

export interface SelfSignedOptions {
  certDir: string;
  /** Host names and IP addresses the certificate must cover. */
  hosts: string[];
}

const isIP = (h: string) => /^\d+\.\d+\.\d+\.\d+$/.test(h) || h.includes(':');

/** Reads a certificate and key pair given with --tls-cert-file and --tls-private-key-file. */
export function loadServingCert(certFile: string, keyFile: string): ServingCert {
  return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8'), certFile, keyFile };
}

function covers(certPem: string, hosts: string[]): boolean {
  try {
    const cert = new X509Certificate(certPem);
    if (new Date(cert.validTo).getTime() < Date.now() + 24 * 3600 * 1000) return false;
    return hosts.every((h) => (isIP(h) ? cert.checkIP(h) !== undefined : cert.checkHost(h) !== undefined));
  } catch {
    return false;
  }
}

/** Returns the self-signed pair in certDir, generating it when missing or not covering `hosts`. */
export function ensureSelfSignedCert(opts: SelfSignedOptions): ServingCert & { generated: boolean } {
  const certFile = join(opts.certDir, 'apiserver.crt');
  const keyFile = join(opts.certDir, 'apiserver.key');
  const hosts = [...new Set(['localhost', '127.0.0.1', ...opts.hosts].filter((h) => h && h !== '0.0.0.0' && h !== '::'))];
  if (existsSync(certFile) && existsSync(keyFile)) {
    const cert = readFileSync(certFile, 'utf8');
    if (covers(cert, hosts)) return { cert, key: readFileSync(keyFile, 'utf8'), certFile, keyFile, generated: false };
  }
  const forge = loadForge();
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyPem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const pub = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  const priv = forge.pki.privateKeyFromPem(keyPem);
  const cert = forge.pki.createCertificate();
  cert.publicKey = pub;
  cert.serialNumber = '01' + forge.util.bytesToHex(forge.random.getBytesSync(15));
  const now = new Date();
  cert.validity.notBefore = new Date(now.getTime() - 3600 * 1000);
  cert.validity.notAfter = new Date(now.getTime() + 365 * 24 * 3600 * 1000);
  // UTF8String, as upstream: Go clients reject '@' in forge's default PrintableString.
  const subject = [{ name: 'commonName', value: `${hostname()}@${Math.floor(now.getTime() / 1000)}`, valueTagClass: forge.asn1.Type.UTF8 as unknown as Forge.asn1.Class }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, keyCertSign: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: hosts.map((h) => (isIP(h) ? { type: 7, ip: h } : { type: 2, value: h })),
    },
  ]);
  cert.sign(priv, forge.md.sha256.create());
  const certPem = forge.pki.certificateToPem(cert);
  mkdirSync(opts.certDir, { recursive: true, mode: 0o700 });
  writeFileSync(certFile, certPem, { mode: 0o644 });
  writeFileSync(keyFile, keyPem, { mode: 0o600 });
  return { cert: certPem, key: keyPem, certFile, keyFile, generated: true };
}
