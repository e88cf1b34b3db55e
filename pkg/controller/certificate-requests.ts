// What the certificate controllers (csrsigning, csrapproving, csrcleaner) share about
// CertificateSigningRequests: the object as they read it, its conditions (upstream's
// GetCertApprovalCondition, IsCertificateRequestApproved, HasTrueCondition) and the bytes fields,
// which JSON carries base64-encoded.
import type { CertificateSigningRequest, CertificateSigningRequestCondition } from '../../api/certificates/v1/certificate-signing-request.js';
import type { ApiDomain } from '../../api/domain.js';
import { BucketRateLimiter, ItemExponentialFailureRateLimiter, MaxOfRateLimiter } from '../client/rate-limiters.js';
import { RateLimitingQueue } from '../client/rate-limiting-queue.js';
import type { KubeObject } from '../client/resource-client.js';

export type CSRCondition = CertificateSigningRequestCondition;

/** A CertificateSigningRequest as the controllers read and write it (spec.request and status.certificate are base64 of PEM in JSON). */
export type CSR = CertificateSigningRequest & KubeObject;

export const csrResource = (d: ApiDomain) => ({ group: d.group('certificates'), version: 'v1', resource: 'certificatesigningrequests' });

/** Whether an Approved and whether a Denied condition is present (upstream does not look at their status, which validation pins to True). */
export function approvalState(csr: CSR): { approved: boolean; denied: boolean } {
  let approved = false;
  let denied = false;
  for (const c of csr.status?.conditions ?? []) {
    if (c.type === 'Approved') approved = true;
    if (c.type === 'Denied') denied = true;
  }
  return { approved, denied };
}

/** Approved and not denied: what a signer may act on. */
export function isApproved(csr: CSR): boolean {
  const { approved, denied } = approvalState(csr);
  return approved && !denied;
}

export function hasTrueCondition(csr: CSR, type: string): boolean {
  return (csr.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');
}

/** The PEM of spec.request. */
export function requestPem(csr: CSR): string {
  return Buffer.from(csr.spec?.request ?? '', 'base64').toString('latin1');
}

/** Whether status.certificate holds anything. */
export function isIssued(csr: CSR): boolean {
  return (csr.status?.certificate ?? '').length > 0;
}

/** Now as the API writes a metav1.Time (whole seconds). */
export function metaNow(now: Date = new Date()): string {
  return now.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The queue of the certificate controllers as upstream's: 200 ms doubling to 1000 s per request, 10 qps (burst 100) overall. */
export function certificateQueue(): RateLimitingQueue<string> {
  return new RateLimitingQueue<string>(new MaxOfRateLimiter<string>(new ItemExponentialFailureRateLimiter(200, 1_000_000), new BucketRateLimiter(10, 100)));
}
