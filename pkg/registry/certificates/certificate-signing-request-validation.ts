// Rules of CertificateSigningRequest (upstream ValidateCertificateSigningRequestCreate, ...Update,
// ...StatusUpdate and ...ApprovalUpdate for v1): the request parses and its signature verifies,
// the signer name is a qualified `<domain>/<path>`, the usages are known and distinct, the
// expiration is at least ten minutes, the conditions keep their rules, and a certificate is PEM
// CERTIFICATE blocks that never change once written. An update is held only to the rules its old
// object already met, as upstream's validation options ratchet.
import { X509Certificate } from 'node:crypto';
import type { ApiDomain } from '../../../api/domain.js';
import { CSRConditionTypes, keyUsages, type CertificateSigningRequest } from '../../../api/certificates/v1/certificate-signing-request.js';
import { signerNames } from '../../../api/certificates/v1/register.js';
import { duplicate, forbidden, GoBytes, invalid, notSupported, Path, required, tooLong, type FieldError } from '../../runtime/field-errors.js';
import { parseAndVerifyCSR } from '../../util/certificates/csr.js';
import { pemBlocks } from '../../util/certificates/pem.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { DNS1123SubdomainMaxLength, isDNS1123Label, isDNS1123Subdomain, nameIsPathSegment } from '../validation/names.js';

type CSR = CertificateSigningRequest;
type Condition = NonNullable<NonNullable<CSR['status']>['conditions']>[number];

const specPath = Path.root('spec');
const conditionsPath = Path.root('status').child('conditions');
const certificatePath = Path.root('status').child('certificate');

const validUsages: ReadonlySet<string> = new Set(keyUsages);
// Upstream lists the supported values sorted.
const sortedUsages = [...keyUsages].sort();
const allStatusValues = ['False', 'True', 'Unknown'];
const trueOnly = ['True'];
const approvalTypes: readonly string[] = [CSRConditionTypes.approved, CSRConditionTypes.denied, CSRConditionTypes.failed];

/** What an update may keep because its old object already had it (upstream's ratcheting options). */
interface Options {
  allowLegacySignerName: boolean;
  allowDuplicateConditionTypes: boolean;
  allowEmptyConditionType: boolean;
  allowArbitraryCertificate: boolean;
  allowDuplicateUsages: boolean;
  allowUnknownUsages: boolean;
  allowBothApprovedAndDenied: boolean;
}

const strict: Options = {
  allowLegacySignerName: false,
  allowDuplicateConditionTypes: false,
  allowEmptyConditionType: false,
  allowArbitraryCertificate: false,
  allowDuplicateUsages: false,
  allowUnknownUsages: false,
  allowBothApprovedAndDenied: false,
};

const requestBytes = (csr: CSR): Uint8Array | null => (csr.spec?.request === undefined ? null : Buffer.from(csr.spec.request, 'base64'));
const conditionsOf = (csr: CSR): Condition[] => csr.status?.conditions ?? [];

/** Why `pem` is not a valid status.certificate (upstream validateCertificate), or undefined. */
export function certificateProblem(pem: Uint8Array): string | undefined {
  if (pem.length === 0) return undefined;
  let blocks = 0;
  for (const block of pemBlocks(Buffer.from(pem).toString('latin1'))) {
    if (block.type !== 'CERTIFICATE') return `only CERTIFICATE PEM blocks are allowed, found ${JSON.stringify(block.type)}`;
    if (block.hasHeaders) return 'no PEM block headers are permitted';
    blocks++;
    if (block.bytes.length === 0) return 'found CERTIFICATE PEM block containing 0 certificates';
    try {
      new X509Certificate(block.bytes);
    } catch {
      return 'x509: malformed certificate';
    }
  }
  if (blocks === 0) return 'must contain at least one CERTIFICATE PEM block';
  return undefined;
}

/** Upstream ValidateSignerName: `<DNS domain of two labels or more>/<DNS subdomain path>`, within 253 characters. */
export function validateSignerName(path: Path, signerName: string): FieldError[] {
  if (signerName === '') return [required(path)];
  const segments = signerName.split('/');
  if (segments.length !== 2) {
    return [invalid(path, signerName, "must be a fully qualified domain and path of the form 'example.com/signer-name'")];
  }
  const [domain, rest] = segments as [string, string];
  const errs: FieldError[] = [];
  if (domain.length > DNS1123SubdomainMaxLength) errs.push(tooLong(path, domain, DNS1123SubdomainMaxLength));
  const domainLabels = domain.split('.');
  for (const label of domainLabels) {
    const problems = isDNS1123Label(label);
    if (problems.length === 0) continue;
    // Later labels would only repeat the same complaint.
    for (const p of problems) errs.push(invalid(path, domain, `validating label ${JSON.stringify(label)}: ${p}`));
    break;
  }
  if (domainLabels.length < 2) errs.push(invalid(path, domain, 'should be a domain with at least two segments separated by dots'));
  for (const label of rest.split('.')) {
    const problems = isDNS1123Subdomain(label);
    if (problems.length === 0) continue;
    for (const p of problems) errs.push(invalid(path, rest, `validating label ${JSON.stringify(label)}: ${p}`));
    break;
  }
  // The whole name must fit an RBAC resourceName.
  const maxPath = DNS1123SubdomainMaxLength - domain.length - 1;
  if (rest.length > maxPath) errs.push(tooLong(path, rest, maxPath));
  return errs;
}

function validateConditions(csr: CSR, opts: Options): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let hasApproved = false;
  let hasDenied = false;
  conditionsOf(csr).forEach((c, i) => {
    const p = conditionsPath.index(i);
    const type = c.type ?? '';
    const status = c.status ?? '';
    if (!opts.allowEmptyConditionType && type === '') errs.push(required(p.child('type')));
    const allowed = approvalTypes.includes(type) ? trueOnly : allStatusValues;
    if (status === '') errs.push(required(p.child('status')));
    else if (!allowed.includes(status)) errs.push(notSupported(p.child('status'), status, allowed));
    if (!opts.allowBothApprovedAndDenied) {
      if (type === CSRConditionTypes.approved) {
        hasApproved = true;
        if (hasDenied) errs.push(invalid(p.child('type'), type, 'Approved and Denied conditions are mutually exclusive'));
      } else if (type === CSRConditionTypes.denied) {
        hasDenied = true;
        if (hasApproved) errs.push(invalid(p.child('type'), type, 'Approved and Denied conditions are mutually exclusive'));
      }
    }
    if (!opts.allowDuplicateConditionTypes) {
      if (seen.has(type)) errs.push(duplicate(p.child('type'), type));
      seen.add(type);
    }
  });
  return errs;
}

function validateCSR(csr: CSR, opts: Options, legacySigner: string): FieldError[] {
  const errs: FieldError[] = [];
  const spec = csr.spec ?? {};
  const request = requestBytes(csr);
  const parsed = parseAndVerifyCSR(request ?? Buffer.alloc(0));
  if (!parsed.ok) errs.push(invalid(specPath.child('request'), new GoBytes(request), parsed.error));
  const usages = spec.usages ?? [];
  if (usages.length === 0) errs.push(required(specPath.child('usages')));
  if (!opts.allowUnknownUsages) {
    usages.forEach((u, i) => {
      if (!validUsages.has(u)) errs.push(notSupported(specPath.child('usages').index(i), u, sortedUsages));
    });
  }
  if (!opts.allowDuplicateUsages) {
    const seen = new Set<string>();
    usages.forEach((u, i) => {
      if (seen.has(u)) errs.push(duplicate(specPath.child('usages').index(i), u));
      seen.add(u);
    });
  }
  const signerName = spec.signerName ?? '';
  if (!opts.allowLegacySignerName && signerName === legacySigner) {
    errs.push(invalid(specPath.child('signerName'), signerName, 'the legacy signerName is not allowed via this API version'));
  } else {
    errs.push(...validateSignerName(specPath.child('signerName'), signerName));
  }
  if (spec.expirationSeconds !== undefined && spec.expirationSeconds < 600) {
    errs.push(invalid(specPath.child('expirationSeconds'), spec.expirationSeconds, 'may not specify a duration less than 600 seconds (10 minutes)'));
  }
  errs.push(...validateConditions(csr, opts));
  if (!opts.allowArbitraryCertificate) {
    const problem = certificateProblem(Buffer.from(csr.status?.certificate ?? '', 'base64'));
    if (problem) errs.push(invalid(certificatePath, '<certificate data>', problem));
  }
  return errs;
}

function hasDuplicates(values: string[]): boolean {
  return new Set(values).size !== values.length;
}

/** Upstream getValidationOptions: what the old object already got away with stays allowed. */
function ratchet(old: CSR, legacySigner: string): Options {
  const conditions = conditionsOf(old);
  const types = conditions.map((c) => c.type ?? '');
  const usages = old.spec?.usages ?? [];
  return {
    allowLegacySignerName: old.spec?.signerName === legacySigner,
    allowDuplicateConditionTypes: hasDuplicates(types),
    allowEmptyConditionType: types.includes(''),
    allowArbitraryCertificate: certificateProblem(Buffer.from(old.status?.certificate ?? '', 'base64')) !== undefined,
    allowDuplicateUsages: hasDuplicates(usages),
    allowUnknownUsages: usages.some((u) => !validUsages.has(u)),
    allowBothApprovedAndDenied: types.includes(CSRConditionTypes.approved) && types.includes(CSRConditionTypes.denied),
  };
}

function validateUpdate(csr: CSR, old: CSR, legacySigner: string): FieldError[] {
  const errs = validateCSR(csr, ratchet(old, legacySigner), legacySigner);
  // Approved, Denied and Failed are final: an update may not drop them.
  for (const t of approvalTypes) {
    const before = conditionsOf(old).filter((c) => c.type === t).length;
    const after = conditionsOf(csr).filter((c) => c.type === t).length;
    if (after < before) errs.push(forbidden(conditionsPath, `updates may not remove a condition of type ${JSON.stringify(t)}`));
  }
  const oldCert = old.status?.certificate ?? '';
  if (oldCert !== '' && !Buffer.from(oldCert, 'base64').equals(Buffer.from(csr.status?.certificate ?? '', 'base64'))) {
    errs.push(forbidden(certificatePath, 'updates may not modify existing certificate content'));
  }
  return errs;
}

export function certificateSigningRequestValidation(domain: ApiDomain): KindValidation<CSR> {
  const legacySigner = signerNames(domain).legacyUnknown;
  const update = (csr: CSR, old: CSR) => validateUpdate(csr, old, legacySigner);
  return {
    // Upstream does not care what requests are called; the name must still fit one path segment.
    name: nameIsPathSegment,
    validate: (csr) => validateCSR(csr, strict, legacySigner),
    validateUpdate: update,
    validateStatusUpdate: update,
    validateSubresourceUpdate: { approval: update },
  };
}
