// Reading PEM text as Go's encoding/pem and client-go's cert helpers do: the one PEM reader of the
// certificate requests, issued certificates, CA bundles and service account keys.
import { X509Certificate } from 'node:crypto';

const pemBlock = /-----BEGIN ([^\r\n]*?)-----\r?\n([\s\S]*?)-----END \1-----/g;

export interface PEMBlock {
  type: string;
  /** Whether the block carries RFC 1421 headers (`Proc-Type: ...`). */
  hasHeaders: boolean;
  bytes: Buffer;
}

/**
 * The PEM blocks of `pem` in order, as repeated calls of Go's pem.Decode find them: text between
 * blocks is skipped, and so is a block whose body does not decode.
 */
export function* pemBlocks(pem: string): Generator<PEMBlock> {
  for (const m of pem.matchAll(pemBlock)) {
    let body = m[2]!;
    let hasHeaders = false;
    // RFC 1421 headers end at the first blank line.
    if (/^[^\r\n]*:/.test(body)) {
      const end = body.search(/\r?\n\r?\n/);
      if (end < 0) continue;
      body = body.slice(end).trim();
      hasHeaders = true;
    }
    const compact = body.replace(/[ \t\r\n]/g, '');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 !== 0) continue;
    yield { type: m[1]!, hasHeaders, bytes: Buffer.from(compact, 'base64') };
  }
}

/** The first PEM block of `pem`, as Go's pem.Decode finds it, or undefined. */
export function firstPEMBlock(pem: string): PEMBlock | undefined {
  for (const b of pemBlocks(pem)) return b;
  return undefined;
}

/**
 * The certificates of a PEM bundle, as client-go's cert.ParseCertsPEM reads them: CERTIFICATE
 * blocks without headers, in order; other blocks are passed over; a block that does not parse throws.
 */
export function pemCertificates(pem: string): X509Certificate[] {
  const out: X509Certificate[] = [];
  for (const b of pemBlocks(pem)) if (b.type === 'CERTIFICATE' && !b.hasHeaders) out.push(new X509Certificate(b.bytes));
  return out;
}
