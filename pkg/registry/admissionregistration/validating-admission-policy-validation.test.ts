// ValidatingAdmissionPolicy and its binding as upstream's v1 validation has them: defaults,
// required fields, CEL compiled at write (variables composed in order), and the binding's
// paramRef and validationActions rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '../../../api/admissionregistration/v1/validating-admission-policy.js';
import { errorMessage } from '../../runtime/field-errors.js';
import { createErrors, defaulted, type KindUnderTest } from '../testing/kind-check.js';
import { validatingAdmissionPolicyBindingValidation, validatingAdmissionPolicyValidation } from './validating-admission-policy-validation.js';

const policyKind: KindUnderTest<ValidatingAdmissionPolicy> = { schema: ValidatingAdmissionPolicy, validation: validatingAdmissionPolicyValidation };
const bindingKind: KindUnderTest<ValidatingAdmissionPolicyBinding> = { schema: ValidatingAdmissionPolicyBinding, validation: validatingAdmissionPolicyBindingValidation };

type Spec = Record<string, unknown>;
const policy = (spec: Spec) => ({
  apiVersion: 'admissionregistration.orch.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name: 'p' },
  spec: { matchConstraints: { resourceRules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }] }, ...spec },
});
const binding = (spec: Spec) => ({
  apiVersion: 'admissionregistration.orch.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'b' }, spec: { policyName: 'p', ...spec },
});
const policyErrors = (spec: Spec) => createErrors(policyKind, policy(spec)).map(errorMessage);
const bindingErrors = (spec: Spec) => createErrors(bindingKind, binding(spec)).map(errorMessage);

test('a policy gets failurePolicy Fail, matchPolicy Equivalent and empty selectors by default', () => {
  const p = defaulted(policyKind, policy({ validations: [{ expression: 'true' }] }));
  assert.equal(p.spec?.failurePolicy, 'Fail');
  assert.equal(p.spec?.matchConstraints?.matchPolicy, 'Equivalent');
  assert.deepEqual(p.spec?.matchConstraints?.namespaceSelector, {});
  assert.deepEqual(p.spec?.matchConstraints?.objectSelector, {});
  assert.deepEqual(policyErrors({ validations: [{ expression: 'true' }] }), []);
});

test('expressions compile at write, variables in order, with upstream\'s messages', () => {
  assert.deepEqual(policyErrors({}), [
    'spec.validations: Required value: validations or auditAnnotations must contain at least one item',
    'spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item',
  ]);
  assert.deepEqual(policyErrors({
    variables: [{ name: 'a', expression: 'object.metadata.name' }, { name: 'b', expression: "variables.a + '-suffix'" }],
    validations: [{ expression: "variables.b != ''", messageExpression: "'name: ' + variables.b" }],
    auditAnnotations: [{ key: 'who', valueExpression: 'request.userInfo.username' }],
    matchConditions: [{ name: 'named', expression: "object.metadata.name != ''" }],
  }), []);
  assert.deepEqual(policyErrors({
    variables: [{ name: 'not-an-identifier', expression: 'variables.later' }],
    validations: [{ expression: 'params.x', reason: 'Conflict', message: 'two\nlines' }, { expression: "authorizer.group('').resource('pods').check('get').allowed()", messageExpression: 'authorizer' }],
  }), [
    'spec.variables[0].name: Invalid value: "not-an-identifier": name is not a valid CEL identifier',
    "spec.variables[0].expression: Invalid value: \"variables.later\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'variables' (in container '')\n | variables.later\n | ^",
    "spec.validations[0].expression: Invalid value: \"params.x\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'params' (in container '')\n | params.x\n | ^",
    'spec.validations[0].message: Invalid value: "two\\nlines": message must not contain line breaks',
    'spec.validations[0].reason: Unsupported value: "Conflict": supported values: "Forbidden", "Invalid", "RequestEntityTooLarge"',
    "spec.validations[1].messageExpression: Invalid value: \"authorizer\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'authorizer' (in container '')\n | authorizer\n | ^",
  ]);
});

test('a binding needs one of paramRef name or selector, a parameterNotFoundAction, and actions without Deny and Warn together', () => {
  assert.deepEqual(bindingErrors({ validationActions: ['Deny', 'Audit'], paramRef: { name: 'limits', parameterNotFoundAction: 'Allow' } }), []);
  assert.deepEqual(bindingErrors({ validationActions: ['Deny', 'Warn', 'Deny'], paramRef: { name: 'a', selector: {} } }), [
    'spec.paramRef.name: Forbidden: name and selector are mutually exclusive',
    'spec.paramRef.selector: Forbidden: name and selector are mutually exclusive',
    'spec.paramRef.parameterNotFoundAction: Required value',
    'spec.validationActions[2]: Duplicate value: "Deny"',
    'spec.validationActions: Invalid value: ["Deny","Warn","Deny"]: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
  ]);
  assert.deepEqual(bindingErrors({}), ['spec.validationActions: Required value: at least one validation action is required']);
});
