import { Type, type Static } from '@sinclair/typebox';
import { bytes, field, int32, list, mapOf, object, opt, str, stringList } from '../../schema.js';
import { time } from '../../meta/v1/primitives.js';
import { topLevel } from '../../meta/v1/types.js';

const P = 'io.orch.api.certificates.v1';

/** The key usages a request may ask for, as upstream's KeyUsage constants spell them. */
export const keyUsages = [
  'signing', 'digital signature', 'content commitment', 'key encipherment', 'key agreement', 'data encipherment',
  'cert sign', 'crl sign', 'encipher only', 'decipher only', 'any', 'server auth', 'client auth', 'code signing',
  'email protection', 's/mime', 'ipsec end system', 'ipsec tunnel', 'ipsec user', 'timestamping', 'ocsp signing',
  'microsoft sgc', 'netscape sgc',
] as const;

/** The condition types upstream gives meaning to. */
export const CSRConditionTypes = { approved: 'Approved', denied: 'Denied', failed: 'Failed' } as const;

export const CertificateSigningRequestSpec = object(`${P}.CertificateSigningRequestSpec`, {
  request: opt(bytes(1, {
    'x-orch-emit': 'always',
    description: 'The PKCS#10 certificate request in a "CERTIFICATE REQUEST" PEM block (base64-encoded once more in JSON). Cannot be changed.',
  })),
  signerName: opt(str(7, {
    'x-orch-emit': 'always',
    description: 'The signer asked to issue the certificate, a qualified name such as <domain>/kube-apiserver-client. Cannot be changed.',
  })),
  expirationSeconds: opt(int32(8, {
    'x-orch-emit': 'pointer',
    description: 'The validity the requester asks for, in seconds (at least 600); the signer may issue a shorter or longer one. Cannot be changed.',
  })),
  usages: opt(list(5, Type.String(), { listType: 'atomic' }, {
    description: 'The key usages asked for in the issued certificate, such as "digital signature", "key encipherment" and "client auth". Cannot be changed.',
  })),
  username: opt(str(2, { description: 'The user who created the request; set by the server. Cannot be changed.' })),
  uid: opt(str(3, { description: 'The uid of the user who created the request; set by the server. Cannot be changed.' })),
  groups: opt(stringList(4, { listType: 'atomic' }, {
    description: 'The groups of the user who created the request; set by the server. Cannot be changed.',
  })),
  extra: opt(mapOf(6, Type.Array(Type.String()), {
    description: 'Extra attributes of the user who created the request; set by the server. Cannot be changed.',
  })),
}, { description: 'The certificate asked for: the PKCS#10 request, the signer, and who asked.' });
export type CertificateSigningRequestSpec = Static<typeof CertificateSigningRequestSpec>;

export const CertificateSigningRequestCondition = object(`${P}.CertificateSigningRequestCondition`, {
  type: opt(str(1, {
    'x-orch-emit': 'always',
    description: 'Type of the condition: Approved, Denied and Failed are known; others may be added.',
  })),
  status: opt(str(6, {
    'x-orch-emit': 'always',
    description: 'True, False or Unknown; Approved, Denied and Failed conditions may only be True.',
  })),
  reason: opt(str(2, { description: 'Machine-readable reason for the condition.' })),
  message: opt(str(3, { description: 'Human-readable details about the condition.' })),
  lastUpdateTime: opt(time(4, { 'x-orch-emit': 'always', description: 'When the condition was last written.' })),
  lastTransitionTime: opt(time(5, {
    'x-orch-emit': 'always',
    description: 'When the condition last changed status; set by the server when left empty.',
  })),
}, { description: 'One condition of a certificate signing request, such as its approval.' });
export type CertificateSigningRequestCondition = Static<typeof CertificateSigningRequestCondition>;

export const CertificateSigningRequestStatus = object(`${P}.CertificateSigningRequestStatus`, {
  conditions: opt(list(1, CertificateSigningRequestCondition, { listType: 'map', mapKeys: ['type'] }, {
    description: 'The approval (Approved or Denied) and other conditions of the request; set through the approval and status sub-resources.',
  })),
  certificate: opt(bytes(2, {
    description: 'The issued certificate and its chain as PEM CERTIFICATE blocks (base64-encoded once more in JSON), written by the signer; cannot change once set.',
  })),
}, { description: 'The approval and the outcome of a certificate signing request.' });
export type CertificateSigningRequestStatus = Static<typeof CertificateSigningRequestStatus>;

export const CertificateSigningRequest = topLevel(`${P}.CertificateSigningRequest`, {
  spec: opt(field(2, CertificateSigningRequestSpec, { 'x-orch-emit': 'always', description: 'The certificate asked for and who asked.' })),
  status: opt(field(3, CertificateSigningRequestStatus, {
    'x-orch-emit': 'always',
    description: 'Whether the request is approved or denied, and the issued certificate.',
  })),
}, {
  description: 'A request for a certificate from a signer, which issues it after the request is approved.',
});
export type CertificateSigningRequest = Static<typeof CertificateSigningRequest>;
