// certificates.<domain>/v1: certificate signing requests.
import { ageColumn, humanDuration, nameColumn } from '../../printer-column.js';
import type { ApiDomain } from '../../domain.js';
import { defineKind, type GroupVersionRegistration } from '../../registration.js';
import { CertificateSigningRequest, CSRConditionTypes } from './certificate-signing-request.js';

/** The group of certificate signing requests, e.g. certificates.orch.io. */
export const certificatesGroup = (d: ApiDomain): string => d.group('certificates');

/** Upstream's well-known signer names, in the platform's domain. */
export function signerNames(d: ApiDomain) {
  return {
    kubeAPIServerClient: d.key('kube-apiserver-client'),
    kubeAPIServerClientKubelet: d.key('kube-apiserver-client-kubelet'),
    kubeletServing: d.key('kubelet-serving'),
    legacyUnknown: d.key('legacy-unknown'),
  } as const;
}

/**
 * The Condition column as upstream prints it: Denied, else Approved, else Pending; then ",Failed"
 * with a Failed condition and ",Issued" once a certificate is there (the condition status is not
 * looked at, as upstream does not).
 */
export function csrConditionSummary(csr: CertificateSigningRequest): string {
  const types = new Set((csr.status?.conditions ?? []).map((c) => c.type));
  let s = types.has(CSRConditionTypes.denied) ? 'Denied' : types.has(CSRConditionTypes.approved) ? 'Approved' : 'Pending';
  if (types.has(CSRConditionTypes.failed)) s += ',Failed';
  if ((csr.status?.certificate ?? '').length > 0) s += ',Issued';
  return s;
}

export const certificatesV1 = (d: ApiDomain): GroupVersionRegistration => ({
  group: certificatesGroup(d),
  version: 'v1',
  stability: 'stable',
  kinds: [
    defineKind({
      kind: 'CertificateSigningRequest', resource: 'certificatesigningrequests', singular: 'certificatesigningrequest',
      namespaced: false, shortNames: ['csr'], subresources: ['status', 'approval'],
      schema: CertificateSigningRequest,
      printerColumns: [
        nameColumn,
        ageColumn,
        { name: 'SignerName', type: 'string', description: 'The signer asked to issue the certificate.', priority: 0, cell: (c) => c.spec?.signerName || '<none>' },
        { name: 'Requestor', type: 'string', description: 'The user who created the request.', priority: 0, cell: (c) => c.spec?.username ?? '' },
        {
          name: 'RequestedDuration', type: 'string', description: 'The validity the requester asked for.', priority: 0,
          cell: (c) => (c.spec?.expirationSeconds === undefined ? '<none>' : humanDuration(c.spec.expirationSeconds * 1000)),
        },
        { name: 'Condition', type: 'string', description: 'Whether the request is approved, denied, failed and issued.', priority: 0, cell: (c) => csrConditionSummary(c) },
      ],
    }),
  ],
});
