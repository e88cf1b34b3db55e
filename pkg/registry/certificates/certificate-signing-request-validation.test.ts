import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { CertificateSigningRequest } from '../../../api/certificates/v1/certificate-signing-request.js';
import { defaultApiDomain } from '../../../api/domain.js';
import { TestCA } from '../../authentication/testing/ca.js';
import { errorMessage } from '../../runtime/field-errors.js';
import { createCSR } from '../../util/certificates/csr.js';
import { createErrors, summary, updateErrors, type KindUnderTest } from '../testing/kind-check.js';
import { certificateSigningRequestValidation, certificateProblem, validateSignerName } from './certificate-signing-request-validation.js';
import { Path } from '../../runtime/field-errors.js';

const validation = certificateSigningRequestValidation(defaultApiDomain);
const kind: KindUnderTest<CertificateSigningRequest> = { schema: CertificateSigningRequest, validation };
const key = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
const pem = createCSR({ key, commonName: 'jane', organizations: ['dev'] });
const b64 = (s: string) => Buffer.from(s).toString('base64');
const ca = TestCA.root();
const certPem = ca.client('jane').certPem;

const csr = (spec: Record<string, unknown> = {}, status?: Record<string, unknown>) => ({
  apiVersion: 'certificates.orch.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'jane' },
  spec: { request: b64(pem), signerName: 'orch.io/kube-apiserver-client', usages: ['digital signature', 'client auth'], username: 'jane', ...spec },
  ...(status ? { status } : {}),
});
const cond = (type: string, status = 'True') => ({ type, status });
const messages = (errs: ReturnType<typeof createErrors>) => errs.map(errorMessage);

test('a valid request is accepted', () => {
  assert.deepEqual(createErrors(kind, csr()), []);
  assert.deepEqual(createErrors(kind, csr({ expirationSeconds: 600, signerName: 'example.com/my-signer.v2' })), []);
});

test('the request must be a CERTIFICATE REQUEST whose signature verifies; the cause shows the bytes as Go does', () => {
  assert.deepEqual(messages(createErrors(kind, csr({ request: b64('hi') }))), ['spec.request: Invalid value: []byte{0x68, 0x69}: PEM block type must be CERTIFICATE REQUEST']);
  assert.deepEqual(messages(createErrors(kind, csr({ request: undefined }))), ['spec.request: Invalid value: []byte(nil): PEM block type must be CERTIFICATE REQUEST']);
  // Swap the signed common name: the signature no longer verifies.
  const der = Buffer.from(pem.split('\n').filter((l) => l && !l.startsWith('-----')).join(''), 'base64');
  der[der.indexOf(Buffer.from('jane')) + 3] = 'f'.charCodeAt(0);
  const forged = `-----BEGIN CERTIFICATE REQUEST-----\n${der.toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`;
  const errs = createErrors(kind, csr({ request: b64(forged) }));
  assert.deepEqual(summary(errs), ['FieldValueInvalid spec.request']);
  assert.match(errorMessage(errs[0]!), /^spec\.request: Invalid value: \[\]byte\{0x2d, 0x2d, .*\}: x509: ECDSA verification failure$/);
});

test('signerName: required, qualified, not the legacy signer on create', () => {
  assert.deepEqual(messages(createErrors(kind, csr({ signerName: undefined }))), ['spec.signerName: Required value']);
  assert.deepEqual(messages(createErrors(kind, csr({ signerName: 'orch.io/legacy-unknown' }))),
    ['spec.signerName: Invalid value: "orch.io/legacy-unknown": the legacy signerName is not allowed via this API version']);
  assert.deepEqual(messages(createErrors(kind, csr({ signerName: 'no-slash' }))),
    ['spec.signerName: Invalid value: "no-slash": must be a fully qualified domain and path of the form \'example.com/signer-name\'']);
  assert.deepEqual(messages(createErrors(kind, csr({ signerName: 'a/b/c' }))),
    ['spec.signerName: Invalid value: "a/b/c": must be a fully qualified domain and path of the form \'example.com/signer-name\'']);
  assert.deepEqual(messages(createErrors(kind, csr({ signerName: 'example/signer' }))),
    ['spec.signerName: Invalid value: "example": should be a domain with at least two segments separated by dots']);
  assert.deepEqual(summary(validateSignerName(Path.root('s'), 'Example.com/signer')), ['FieldValueInvalid s']);
  assert.match(errorMessage(validateSignerName(Path.root('s'), 'Example.com/signer')[0]!), /^s: Invalid value: "Example.com": validating label "Example": a lowercase RFC 1123 label/);
  assert.deepEqual(summary(validateSignerName(Path.root('s'), 'example.com/Bad_Path')), ['FieldValueInvalid s']);
  assert.deepEqual(summary(validateSignerName(Path.root('s'), `example.com/${'a'.repeat(250)}`)), ['FieldValueTooLong s']);
});

test('expirationSeconds is at least 600', () => {
  assert.deepEqual(messages(createErrors(kind, csr({ expirationSeconds: 599 }))),
    ['spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 600 seconds (10 minutes)']);
});

test('usages: required, known, distinct', () => {
  assert.deepEqual(messages(createErrors(kind, csr({ usages: [] }))), ['spec.usages: Required value']);
  const unknown = createErrors(kind, csr({ usages: ['client auth', 'flying'] }));
  assert.deepEqual(summary(unknown), ['FieldValueNotSupported spec.usages[1]']);
  assert.match(errorMessage(unknown[0]!), /^spec\.usages\[1\]: Unsupported value: "flying": supported values: "any", "cert sign", "client auth", "code signing", /);
  assert.deepEqual(messages(createErrors(kind, csr({ usages: ['client auth', 'client auth'] }))), ['spec.usages[1]: Duplicate value: "client auth"']);
});

test('conditions: Approved/Denied/Failed only True, Approved and Denied exclusive, no duplicate or empty types', () => {
  const upd = (conditions: unknown[]) => updateErrors(kind, csr({}, { conditions }), csr());
  assert.deepEqual(upd([cond('Approved'), cond('Failed')]), []);
  assert.deepEqual(upd([cond('Custom', 'Unknown')]), []);
  assert.deepEqual(messages(upd([cond('Approved', 'False')])), ['status.conditions[0].status: Unsupported value: "False": supported values: "True"']);
  assert.deepEqual(messages(upd([cond('Custom', 'Maybe')])), ['status.conditions[0].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"']);
  assert.deepEqual(messages(upd([{ type: 'Custom' }])), ['status.conditions[0].status: Required value']);
  assert.deepEqual(messages(upd([cond('Approved'), cond('Denied')])),
    ['status.conditions[1].type: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive']);
  assert.deepEqual(messages(upd([cond('Failed'), cond('Failed')])), ['status.conditions[1].type: Duplicate value: "Failed"']);
  assert.deepEqual(messages(upd([cond('')])), ['status.conditions[0].type: Required value']);
});

test('updates may not remove an Approved, Denied or Failed condition; old problems are tolerated (ratcheting)', () => {
  const approved = csr({}, { conditions: [cond('Approved')] });
  assert.deepEqual(messages(updateErrors(kind, csr(), approved)), ['status.conditions: Forbidden: updates may not remove a condition of type "Approved"']);
  const both = csr({}, { conditions: [cond('Approved'), cond('Denied')] });
  assert.deepEqual(updateErrors(kind, both, both), []);
  const legacy = csr({ signerName: 'orch.io/legacy-unknown', usages: ['bogus', 'bogus'] });
  assert.deepEqual(updateErrors(kind, legacy, legacy), []);
});

test('certificate: PEM CERTIFICATE blocks that parse, never changed once set', () => {
  assert.equal(certificateProblem(Buffer.from(certPem)), undefined);
  assert.equal(certificateProblem(Buffer.from(certPem + certPem)), undefined);
  assert.equal(certificateProblem(Buffer.from('junk')), 'must contain at least one CERTIFICATE PEM block');
  assert.equal(certificateProblem(Buffer.from(pem)), 'only CERTIFICATE PEM blocks are allowed, found "CERTIFICATE REQUEST"');
  assert.equal(certificateProblem(Buffer.from('-----BEGIN CERTIFICATE-----\nProc-Type: 4,ENCRYPTED\n\nAAAA\n-----END CERTIFICATE-----\n')), 'no PEM block headers are permitted');
  assert.equal(certificateProblem(Buffer.from('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n')), 'x509: malformed certificate');
  const issued = csr({}, { conditions: [cond('Approved')], certificate: b64(certPem) });
  assert.deepEqual(updateErrors(kind, issued, csr({}, { conditions: [cond('Approved')] })), []);
  assert.deepEqual(messages(updateErrors(kind, csr({}, { conditions: [cond('Approved')], certificate: b64('junk') }), csr())),
    ['status.certificate: Invalid value: "<certificate data>": must contain at least one CERTIFICATE PEM block']);
  const other = ca.client('joe').certPem;
  assert.deepEqual(messages(updateErrors(kind, csr({}, { conditions: [cond('Approved')], certificate: b64(other) }), issued)),
    ['status.certificate: Forbidden: updates may not modify existing certificate content']);
});

test('names need only fit one path segment', () => {
  assert.deepEqual(validation.name('Node CSR:1', false), []);
  assert.deepEqual(validation.name('a/b', false), ["may not contain '/'"]);
});
