// What the built-in signers put into a certificate besides the request's names (upstream's
// authority.PermissiveSigningPolicy and signer.duration): the key usages the request asked for,
// mapped as certificates.KeyUsagesFromStrings maps them, and the validity window — the lifetime is
// the smaller of spec.expirationSeconds and --cluster-signing-duration, the start is backdated so
// clocks running a little behind accept the certificate at once, and no certificate outlives its CA.

/** keyUsage bits as RFC 5280 and Go number them (bit 0 digitalSignature ... bit 8 decipherOnly). */
export const keyUsageBit = {
  digitalSignature: 0,
  contentCommitment: 1,
  keyEncipherment: 2,
  dataEncipherment: 3,
  keyAgreement: 4,
  certSign: 5,
  crlSign: 6,
  encipherOnly: 7,
  decipherOnly: 8,
} as const;

const keyUsages: Readonly<Record<string, number>> = {
  'signing': keyUsageBit.digitalSignature,
  'digital signature': keyUsageBit.digitalSignature,
  'content commitment': keyUsageBit.contentCommitment,
  'key encipherment': keyUsageBit.keyEncipherment,
  'key agreement': keyUsageBit.keyAgreement,
  'data encipherment': keyUsageBit.dataEncipherment,
  'cert sign': keyUsageBit.certSign,
  'crl sign': keyUsageBit.crlSign,
  'encipher only': keyUsageBit.encipherOnly,
  'decipher only': keyUsageBit.decipherOnly,
};

/**
 * Extended key usage OIDs, listed in the order of Go's ExtKeyUsage constants: upstream sorts the
 * extension's OIDs by that order, so we do too.
 */
const extKeyUsageOrder: readonly (readonly [string, string])[] = [
  ['any', '2.5.29.37.0'],
  ['server auth', '1.3.6.1.5.5.7.3.1'],
  ['client auth', '1.3.6.1.5.5.7.3.2'],
  ['code signing', '1.3.6.1.5.5.7.3.3'],
  ['email protection', '1.3.6.1.5.5.7.3.4'],
  ['s/mime', '1.3.6.1.5.5.7.3.4'],
  ['ipsec end system', '1.3.6.1.5.5.7.3.5'],
  ['ipsec tunnel', '1.3.6.1.5.5.7.3.6'],
  ['ipsec user', '1.3.6.1.5.5.7.3.7'],
  ['timestamping', '1.3.6.1.5.5.7.3.8'],
  ['ocsp signing', '1.3.6.1.5.5.7.3.9'],
  ['microsoft sgc', '1.3.6.1.4.1.311.10.3.3'],
  ['netscape sgc', '2.16.840.1.113730.4.1'],
];

export interface CertificateUsages {
  /** The keyUsage bit mask; 0 leaves the extension out. */
  keyUsage: number;
  /** Extended key usage OIDs without duplicates, in Go's order; empty leaves the extension out. */
  extKeyUsages: string[];
}

/** The key usages of `usages` (spec.usages); throws `unrecognized usage values: [...]` as upstream. */
export function keyUsagesFromStrings(usages: readonly string[]): CertificateUsages {
  let keyUsage = 0;
  const ext = new Set<string>();
  const unrecognized: string[] = [];
  for (const u of usages) {
    const bit = keyUsages[u];
    if (bit !== undefined) {
      keyUsage |= 1 << bit;
      continue;
    }
    const e = extKeyUsageOrder.find(([name]) => name === u);
    if (e) ext.add(e[1]);
    else unrecognized.push(u);
  }
  // Go's %q of a []string: each quoted, space separated, in brackets.
  if (unrecognized.length > 0) throw new Error(`unrecognized usage values: [${unrecognized.map((u) => JSON.stringify(u)).join(' ')}]`);
  const order = [...new Set(extKeyUsageOrder.map(([, oid]) => oid))];
  return { keyUsage, extKeyUsages: order.filter((oid) => ext.has(oid)) };
}

/** Upstream's fixed backdate: less than the 10 minute minimum lifetime, so a certificate is never born expired. */
export const backdateMs = 5 * 60_000;
/** Below this lifetime the end is not backdated (5 minutes is about 1% of 8 hours). */
export const shortLifetimeMs = 8 * 3600_000;
/** The least lifetime a signer grants: twice the backdate. */
export const minimumLifetimeMs = 10 * 60_000;

/**
 * The lifetime of a certificate for a request with `expirationSeconds` (undefined when unset) under
 * a --cluster-signing-duration of `maxMs`: the request's when shorter, never below 10 minutes.
 */
export function certificateLifetimeMs(expirationSeconds: number | undefined, maxMs: number): number {
  if (expirationSeconds === undefined || expirationSeconds === null) return maxMs;
  const requested = expirationSeconds * 1000;
  if (requested > maxMs) return maxMs;
  if (requested < minimumLifetimeMs) return minimumLifetimeMs;
  return requested;
}

/** Go's `%v` of a time.Time in UTC: `2006-01-02 15:04:05.999999999 +0000 UTC`. */
function goTime(d: Date): string {
  const iso = d.toISOString();
  const ms = iso.slice(20, 23).replace(/0+$/, '');
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${ms ? `.${ms}` : ''} +0000 UTC`;
}

export interface Validity {
  notBefore: Date;
  notAfter: Date;
}

/**
 * The validity of a certificate of lifetime `ttlMs` issued at `now` by a CA valid until
 * `signerNotAfter` (PermissiveSigningPolicy with upstream's Backdate and Short): NotBefore is
 * backdated; a long-lived certificate's NotAfter is backdated by as much so its lifetime stays
 * `ttlMs`, a short-lived one keeps the full lifetime from now; NotAfter never passes the CA's.
 * Throws when the CA has expired.
 */
export function certificateValidity(now: Date, ttlMs: number, signerNotAfter: Date): Validity {
  const notBefore = new Date(now.getTime() - backdateMs);
  let notAfter = ttlMs < shortLifetimeMs ? new Date(now.getTime() + ttlMs) : new Date(now.getTime() + ttlMs - backdateMs);
  if (!(notAfter.getTime() < signerNotAfter.getTime())) notAfter = new Date(signerNotAfter.getTime());
  if (!(notBefore.getTime() < signerNotAfter.getTime())) throw new Error(`the signer has expired: NotAfter=${goTime(signerNotAfter)}`);
  if (!(now.getTime() < signerNotAfter.getTime())) throw new Error(`refusing to sign a certificate that expired in the past: NotAfter=${goTime(signerNotAfter)}`);
  return { notBefore, notAfter };
}
