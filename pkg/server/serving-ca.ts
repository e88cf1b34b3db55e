// Which CA a client should trust to reach this server (what cluster-info publishes): the one that
// verifies the serving certificate. A self-signed serving certificate is its own CA; otherwise its
// issuer is looked for among the certificates after it in --tls-cert-file and in --client-ca-file
// (local PKIs and kubeadm sign both with one CA), followed up to a self-signed root so clients that
// insist on a full path (OpenSSL, Node) verify with it as well as Go does.
import { X509Certificate } from 'node:crypto';
import { pemBlocks } from '../util/certificates/pem.js';

export interface ServingCA {
  /** PEM bundle to publish as certificate-authority-data. */
  pem: string;
  /** False when nothing verified the serving certificate and the given chain is published as is. */
  verified: boolean;
}

/** The certificates of a PEM bundle, skipping blocks that do not parse. */
function certificates(pem: string): X509Certificate[] {
  const out: X509Certificate[] = [];
  for (const block of pemBlocks(pem)) {
    if (block.type !== 'CERTIFICATE') continue;
    try {
      out.push(new X509Certificate(block.bytes));
    } catch {
      // Not a certificate we can read: it cannot be the issuer either.
    }
  }
  return out;
}

/** Whether `issuer` issued `cert`: names (and key identifiers) match and the signature verifies with its key. */
function issuedBy(cert: X509Certificate, issuer: X509Certificate): boolean {
  try {
    return cert.checkIssued(issuer) && cert.verify(issuer.publicKey);
  } catch {
    return false;
  }
}

const toPem = (c: X509Certificate) => `${c.toString().trim()}\n`;

/**
 * The CA bundle that verifies the first certificate of `servingChainPem`, looking for issuers in
 * the rest of that chain and in `clientCAPem`; the serving chain itself (unverified) when no
 * issuer is found.
 */
export function servingCA(servingChainPem: string, clientCAPem = ''): ServingCA {
  const chain = certificates(servingChainPem);
  const leaf = chain[0];
  if (!leaf) return { pem: servingChainPem, verified: false };
  if (issuedBy(leaf, leaf)) return { pem: toPem(leaf), verified: true };
  const candidates = [...chain.slice(1), ...certificates(clientCAPem)];
  const path: X509Certificate[] = [];
  let current = leaf;
  for (;;) {
    const issuer = candidates.find((c) => !path.includes(c) && c !== current && issuedBy(current, c));
    if (!issuer) break;
    path.push(issuer);
    if (issuedBy(issuer, issuer)) break;
    current = issuer;
  }
  if (path.length === 0) return { pem: servingChainPem, verified: false };
  return { pem: path.map(toPem).join(''), verified: true };
}
