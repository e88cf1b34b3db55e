// Which certificate signing requests the cleaner deletes (upstream's cleaner.go; spec 3.2): with
// automatic creation and approval they only pile up otherwise.
//   approved and issued, Approved condition last updated more than 1 hour ago
//   denied, Denied condition last updated more than 1 hour ago
//   failed, Failed condition last updated more than 1 hour ago
//   pending (no condition at all) and created more than 24 hours ago
//   approved and issued, and the certificate has expired
// An approved request that was never issued stays (as upstream: its signer may still act on it).
import { X509Certificate } from 'node:crypto';
import { firstPEMBlock } from '../../util/certificates/pem.js';
import type { CSR } from '../certificate-requests.js';

export const approvedExpirationMs = 3600_000;
export const deniedExpirationMs = 3600_000;
export const failedExpirationMs = 3600_000;
export const pendingExpirationMs = 24 * 3600_000;

/** Upstream's isOlderThan: a set time more than `ms` before `now`. */
function olderThan(t: string | undefined, ms: number, now: Date): boolean {
  if (!t) return false;
  const at = Date.parse(t);
  return Number.isFinite(at) && now.getTime() - at > ms;
}

/** The NotAfter of the first certificate of status.certificate (base64 of PEM); throws upstream's errors when it is not one. */
function certificateNotAfter(certificate: string): Date {
  const block = firstPEMBlock(Buffer.from(certificate, 'base64').toString('latin1'));
  if (!block) throw new Error('expected the certificate associated with the CSR to be PEM encoded');
  try {
    return new Date(new X509Certificate(block.bytes).validTo);
  } catch (e) {
    throw new Error(`unable to parse certificate data: ${(e as Error).message}`);
  }
}

/**
 * Why `csr` is to be deleted at `now` (a sentence for the operator's log), or undefined to keep
 * it. Throws when an issued certificate cannot be read (the request is then kept).
 */
export function cleanupReason(csr: CSR, now: Date): string | undefined {
  const conditions = csr.status?.conditions ?? [];
  const issued = (csr.status?.certificate ?? '').length > 0;
  const expired = issued && now.getTime() > certificateNotAfter(csr.status!.certificate!).getTime();
  for (const c of conditions) {
    if (c.type === 'Approved' && issued && olderThan(c.lastUpdateTime, approvedExpirationMs, now)) return 'it was approved and issued more than 1h0m0s ago';
  }
  for (const c of conditions) {
    if (c.type === 'Denied' && olderThan(c.lastUpdateTime, deniedExpirationMs, now)) return 'it was denied more than 1h0m0s ago';
  }
  for (const c of conditions) {
    if (c.type === 'Failed' && olderThan(c.lastUpdateTime, failedExpirationMs, now)) return 'it failed more than 1h0m0s ago';
  }
  if (conditions.length === 0 && olderThan(csr.metadata.creationTimestamp, pendingExpirationMs, now)) return 'it has been pending for more than 24h0m0s';
  if (expired && conditions.some((c) => c.type === 'Approved')) return 'its certificate has expired';
  return undefined;
}
