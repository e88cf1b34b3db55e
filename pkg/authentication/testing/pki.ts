// A compact face of ca.ts for tests that only need PEM pairs: a CA issuing server and client
// certificates by common name, organizations, hosts, validity and usages. One implementation
// (ca.ts) makes every test certificate.
import { TestCA as CertificateAuthority, type ExtKeyUsage } from './ca.js';

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
  usages?: ExtKeyUsage[];
  /** Validity start; default one hour ago. */
  notBefore?: Date;
  /** Validity end; default one day from now. */
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

function wrap(ca: CertificateAuthority): TestCA {
  return {
    cert: ca.certPem,
    key: ca.keyPem,
    issue(o) {
      const hosts = o.hosts ?? [];
      const issued = ca.issue({
        commonName: o.commonName,
        ...(o.organizations ? { organizations: o.organizations } : {}),
        dnsNames: hosts.filter((h) => !isIP(h)),
        ipAddresses: hosts.filter(isIP),
        ...(o.notBefore ? { notBefore: o.notBefore } : {}),
        ...(o.notAfter ? { notAfter: o.notAfter } : {}),
        ...(o.isCA ? { isCA: true } : {}),
        freshKey: true,
      }, o.usages ?? [hosts.length > 0 ? 'serverAuth' : 'clientAuth']);
      return { cert: issued.certPem, key: issued.keyPem };
    },
    intermediate(commonName) {
      return wrap(ca.intermediate({ commonName }));
    },
  };
}

/** A self-signed root CA. */
export function createTestCA(commonName = 'test-ca'): TestCA {
  return wrap(CertificateAuthority.root({ commonName }));
}

/** A server certificate for 127.0.0.1 and localhost, the address test servers listen on. */
export function issueLoopbackServerCert(ca: TestCA, commonName = '127.0.0.1'): KeyPairPem {
  return ca.issue({ commonName, hosts: ['127.0.0.1', 'localhost'], usages: ['serverAuth'] });
}
