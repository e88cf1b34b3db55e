// Rules of ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding (upstream's
// ValidateValidatingAdmissionPolicy, ValidateValidatingAdmissionPolicyBinding, their Update and
// Status variants, admissionregistration/v1). Every expression is compiled as the policy is
// written, in the environment it will run in (variables composed in order), and refused with
// cel-go's error when it does not compile or yields the wrong type. Enumerations the schema
// declares (failurePolicy, matchPolicy, scope, operations) are refused by the schema.
import { isDeepStrictEqual } from 'node:util';
import type {
  AuditAnnotation, MatchResources, NamedRuleWithOperations, ParamKind, ParamRef, ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding, ValidatingAdmissionPolicyStatus, Validation, Variable,
} from '../../../api/admissionregistration/v1/validating-admission-policy.js';
import { ParameterNotFoundActions, ValidationActions, ValidationReasons } from '../../../api/admissionregistration/v1/validating-admission-policy.js';
import { CompositionCompiler, matchConditionCompileError } from '../../cel/admission/composition.js';
import { duplicate, forbidden, invalid, notSupported, required, Path, type FieldError } from '../../runtime/field-errors.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { validateConditions } from '../validation/conditions.js';
import { validateLabelSelector } from '../validation/label-selector.js';
import { isDNS1035Label, isDNS1123Subdomain, isPathSegmentName, isQualifiedName, nameIsDNSSubdomain } from '../validation/names.js';
import { validateMatchConditions, validateRuleWithOperations } from './webhook-configuration-validation.js';

const maxAuditAnnotations = 20;
// Shorter than an audit annotation's value may be, as concatenations yield longer values.
const maxAuditAnnotationValueExpressionLength = 5 * 1024;

const celIdentifier = /^[_a-zA-Z][_a-zA-Z0-9]*$/;
const celReserved = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if',
  'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);
const isCELIdentifier = (name: string) => celIdentifier.test(name) && !celReserved.has(name);
const hasNewlines = (s: string) => /[\n\r]+/.test(s);
const blank = (s: string | undefined | null) => (s ?? '').trim() === '';

/** `group/version` as upstream's admissionregistration validation parses it. */
function parseGroupVersion(gv: string): { group: string; version: string } | { error: string } {
  if (gv === '' || gv === '/') return { group: '', version: '' };
  const parts = gv.split('/');
  if (parts.length === 1) return { group: '', version: gv };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  return { error: `unexpected GroupVersion string: ${gv}` };
}

function validateParamKind(kind: ParamKind, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const apiVersion = kind.apiVersion ?? '';
  if (apiVersion === '') {
    errs.push(required(path.child('apiVersion')));
  } else {
    const gv = parseGroupVersion(apiVersion);
    if ('error' in gv) {
      errs.push(invalid(path.child('apiVersion'), apiVersion, gv.error));
    } else {
      if (gv.group !== '') {
        const e = isDNS1123Subdomain(gv.group);
        if (e.length > 0) errs.push(invalid(path.child('apiVersion'), gv.group, e.join(',')));
      }
      if (gv.version === '') {
        errs.push(invalid(path.child('apiVersion'), apiVersion, 'version must be specified'));
      } else {
        const e = isDNS1035Label(gv.version);
        if (e.length > 0) errs.push(invalid(path.child('apiVersion'), gv.version, e.join(',')));
      }
    }
  }
  const k = kind.kind ?? '';
  if (k === '') {
    errs.push(required(path.child('kind')));
  } else {
    const e = isDNS1035Label(k.toLowerCase());
    if (e.length > 0) errs.push(invalid(path.child('kind'), k, `may have mixed case, but should otherwise match: ${e.join(',')}`));
  }
  return errs;
}

function validateNamedRule(rule: NamedRuleWithOperations, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (rule.resourceNames ?? []).forEach((name, i) => {
    const p = path.child('resourceNames').index(i);
    for (const m of isPathSegmentName(name)) errs.push(invalid(p, name, m));
    if (seen.has(name)) errs.push(duplicate(p, name));
    else seen.add(name);
  });
  errs.push(...validateRuleWithOperations(rule, path));
  return errs;
}

function validateMatchResources(mr: MatchResources, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  if (mr.matchPolicy === undefined || mr.matchPolicy === null) errs.push(required(path.child('matchPolicy')));
  // Validated strictly: this type came after upstream relaxed its selectors (issue 99139).
  for (const sel of ['namespaceSelector', 'objectSelector'] as const) {
    if (mr[sel] === undefined || mr[sel] === null) errs.push(required(path.child(sel)));
    else errs.push(...validateLabelSelector(mr[sel], path.child(sel)));
  }
  (mr.resourceRules ?? []).forEach((r, i) => errs.push(...validateNamedRule(r, path.child('resourceRules').index(i))));
  (mr.excludeResourceRules ?? []).forEach((r, i) => errs.push(...validateNamedRule(r, path.child('excludeResourceRules').index(i))));
  return errs;
}

function validateVariable(compiler: CompositionCompiler, v: Variable, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  if (blank(v.name)) errs.push(required(path.child('name'), 'name is not specified'));
  else if (!isCELIdentifier(v.name)) errs.push(invalid(path.child('name'), v.name, 'name is not a valid CEL identifier'));
  if (blank(v.expression)) {
    errs.push(required(path.child('expression'), 'expression is not specified'));
  } else {
    const r = compiler.addVariable(v.name, v.expression);
    if (r.error !== undefined) errs.push(invalid(path.child('expression'), v.expression, r.error));
  }
  return errs;
}

function validateValidation(compiler: CompositionCompiler, v: Validation, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  if (blank(v.expression)) {
    errs.push(required(path.child('expression'), 'expression is not specified'));
  } else {
    const r = compiler.compile(v.expression, { authorizer: true, returnTypes: ['bool'] });
    if (r.error !== undefined) errs.push(invalid(path.child('expression'), v.expression, r.error));
  }
  const me = v.messageExpression ?? '';
  if (me.length > 0 && blank(me)) {
    errs.push(invalid(path.child('messageExpression'), me, 'must be non-empty if specified'));
  } else if (me.length > 0) {
    // Compiled as written, so the error's column points into what the user wrote.
    const r = compiler.compile(me, { authorizer: false, returnTypes: ['string'] });
    if (r.error !== undefined) errs.push(invalid(path.child('messageExpression'), me, r.error));
  }
  const msg = v.message ?? '';
  if (msg.length > 0 && blank(msg)) errs.push(invalid(path.child('message'), msg, 'message must be non-empty if specified'));
  else if (hasNewlines(msg.trim())) errs.push(invalid(path.child('message'), msg, 'message must not contain line breaks'));
  if (v.reason !== undefined && v.reason !== null && !(ValidationReasons as readonly string[]).includes(v.reason)) {
    errs.push(notSupported(path.child('reason'), v.reason, ValidationReasons));
  }
  return errs;
}

function validateAuditAnnotation(compiler: CompositionCompiler, policyName: string, a: AuditAnnotation, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  if (policyName !== '') {
    const qualified = `${policyName}/${a.key}`;
    for (const m of isQualifiedName(qualified)) errs.push(invalid(path.child('key'), qualified, m));
  } else {
    errs.push(invalid(path.child('key'), a.key, 'requires metadata.name be non-empty'));
  }
  const value = (a.valueExpression ?? '').trim();
  if (value === '') {
    errs.push(required(path.child('valueExpression'), 'valueExpression is not specified'));
  } else if (Buffer.byteLength(value) > maxAuditAnnotationValueExpressionLength) {
    errs.push(required(path.child('valueExpression'), `must not exceed ${maxAuditAnnotationValueExpressionLength} bytes in length`));
  } else {
    const r = compiler.compile(value, { authorizer: true, returnTypes: ['string', 'null_type'] });
    if (r.error !== undefined) errs.push(invalid(path.child('valueExpression'), a.valueExpression, r.error));
  }
  return errs;
}

interface PolicyOptions {
  /** An update that leaves paramKind and matchConditions as they were does not compile the conditions again. */
  ignoreMatchConditions: boolean;
}

function validatePolicy(p: ValidatingAdmissionPolicy, opts: PolicyOptions): FieldError[] {
  const errs: FieldError[] = [];
  const spec = p.spec ?? {};
  const path = Path.root('spec');
  const hasParams = spec.paramKind !== undefined && spec.paramKind !== null;
  const compiler = new CompositionCompiler({ params: hasParams });
  if (spec.failurePolicy === undefined || spec.failurePolicy === null) errs.push(required(path.child('failurePolicy')));
  if (hasParams) errs.push(...validateParamKind(spec.paramKind!, path.child('paramKind')));
  if (!spec.matchConstraints) {
    errs.push(required(path.child('matchConstraints')));
  } else {
    errs.push(...validateMatchResources(spec.matchConstraints, path.child('matchConstraints')));
    // At least one resource rule, for the type information of object.
    if ((spec.matchConstraints.resourceRules ?? []).length === 0) errs.push(required(path.child('matchConstraints', 'resourceRules')));
  }
  if (!opts.ignoreMatchConditions) {
    errs.push(...validateMatchConditions(spec.matchConditions ?? [], path.child('matchConditions'), (e) => matchConditionCompileError(e, { params: hasParams })));
  }
  (spec.variables ?? []).forEach((v, i) => errs.push(...validateVariable(compiler, v, path.child('variables').index(i))));
  const validations = spec.validations ?? [];
  const annotations = spec.auditAnnotations ?? [];
  if (validations.length === 0 && annotations.length === 0) {
    errs.push(required(path.child('validations'), 'validations or auditAnnotations must contain at least one item'));
    errs.push(required(path.child('auditAnnotations'), 'validations or auditAnnotations must contain at least one item'));
    return errs;
  }
  validations.forEach((v, i) => errs.push(...validateValidation(compiler, v, path.child('validations').index(i))));
  if (annotations.length > maxAuditAnnotations) {
    errs.push(invalid(path.child('auditAnnotations'), annotations, `must not have more than ${maxAuditAnnotations} auditAnnotations`));
  }
  const keys = new Set<string>();
  annotations.forEach((a, i) => {
    const ap = path.child('auditAnnotations').index(i);
    errs.push(...validateAuditAnnotation(compiler, p.metadata?.name ?? '', a, ap));
    if (keys.has(a.key)) errs.push(duplicate(ap.child('key'), a.key));
    keys.add(a.key);
  });
  return errs;
}


function validateStatus(status: ValidatingAdmissionPolicyStatus | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const path = Path.root('status').child('typeChecking', 'expressionWarnings');
  (status?.typeChecking?.expressionWarnings ?? []).forEach((w, i) => {
    if (!w.warning) errs.push(required(path.index(i).child('warning')));
    // Upstream parses it as a JSONPath too, which takes nearly any text; an empty one is refused.
    if (blank(w.fieldRef)) errs.push(required(path.index(i).child('fieldRef')));
  });
  errs.push(...validateConditions(status?.conditions, Path.root('status').child('conditions')));
  return errs;
}

export const validatingAdmissionPolicyValidation: KindValidation<ValidatingAdmissionPolicy> = {
  name: nameIsDNSSubdomain,
  validate: (p) => validatePolicy(p, { ignoreMatchConditions: false }),
  validateUpdate: (p, old) => validatePolicy(p, {
    ignoreMatchConditions: isDeepStrictEqual(p.spec?.paramKind, old.spec?.paramKind) && isDeepStrictEqual(p.spec?.matchConditions, old.spec?.matchConditions),
  }),
  validateStatusUpdate: (p) => validateStatus(p.status),
};

function validateParamRef(ref: ParamRef, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const name = ref.name ?? '';
  const hasSelector = ref.selector !== undefined && ref.selector !== null;
  if (name !== '') {
    for (const m of isPathSegmentName(name)) errs.push(invalid(path.child('name'), name, m));
    if (hasSelector) errs.push(forbidden(path.child('name'), 'name and selector are mutually exclusive'));
  }
  if (hasSelector) {
    errs.push(...validateLabelSelector(ref.selector!, path.child('selector')));
    if (name !== '') errs.push(forbidden(path.child('selector'), 'name and selector are mutually exclusive'));
  }
  if (name === '' && !hasSelector) errs.push(required(path, 'one of name or selector must be specified'));
  const action: string | undefined | null = ref.parameterNotFoundAction;
  if (action === undefined || action === null || action === '') errs.push(required(path.child('parameterNotFoundAction')));
  else if (!(ParameterNotFoundActions as readonly string[]).includes(action)) errs.push(notSupported(path.child('parameterNotFoundAction'), action, ParameterNotFoundActions));
  return errs;
}

function validateValidationActions(actions: readonly string[], path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  actions.forEach((a, i) => {
    if (!(ValidationActions as readonly string[]).includes(a)) errs.push(notSupported(path.index(i), a, ValidationActions));
    if (seen.has(a)) errs.push(duplicate(path.index(i), a));
    seen.add(a);
  });
  if (seen.has('Deny') && seen.has('Warn')) {
    errs.push(invalid(path, actions, 'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)'));
  }
  if (seen.size === 0) errs.push(required(path, 'at least one validation action is required'));
  return errs;
}

function validateBinding(b: ValidatingAdmissionPolicyBinding): FieldError[] {
  const errs: FieldError[] = [];
  const spec = b.spec ?? {};
  const path = Path.root('spec');
  const policyName = spec.policyName ?? '';
  if (policyName === '') errs.push(required(path.child('policyName')));
  else for (const m of nameIsDNSSubdomain(policyName, false)) errs.push(invalid(path.child('policyName'), policyName, m));
  if (spec.paramRef) errs.push(...validateParamRef(spec.paramRef, path.child('paramRef')));
  // Upstream's path is spelled this way.
  if (spec.matchResources) errs.push(...validateMatchResources(spec.matchResources, path.child('matchResouces')));
  errs.push(...validateValidationActions(spec.validationActions ?? [], path.child('validationActions')));
  return errs;
}

export const validatingAdmissionPolicyBindingValidation: KindValidation<ValidatingAdmissionPolicyBinding> = {
  name: nameIsDNSSubdomain,
  validate: validateBinding,
  validateUpdate: (b) => validateBinding(b),
};
