// One policy evaluated: messages and messageExpressions (reading variables), failurePolicy on an
// evaluation error, match conditions, audit annotations, and the per-call cost limit.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ValidatingAdmissionPolicySpec } from '../../../../api/admissionregistration/v1/validating-admission-policy.js';
import { jsonToCel } from '../../../cel/values.js';
import { PolicyValidator, type PolicyActivation } from './validator.js';

const input = (data: Record<string, string>, name = 'cm'): PolicyActivation => ({
  object: jsonToCel({ metadata: { name }, data }), oldObject: null, request: {}, params: null, namespaceObject: null, authorizer: null,
});

test('a failed validation denies with its messageExpression, which may read variables', async () => {
  const v = new PolicyValidator({
    failurePolicy: 'Fail',
    variables: [{ name: 'keys', expression: 'size(object.data)' }, { name: 'tooMany', expression: 'variables.keys > 1' }],
    validations: [
      { expression: '!variables.tooMany', messageExpression: "'has ' + string(variables.keys) + ' keys'" },
      { expression: "object.metadata.name != 'cm'", message: 'not cm', reason: 'Forbidden' },
      { expression: 'false' },
    ],
  });
  const r = await v.validate(input({ a: '1', b: '2' }));
  assert.deepEqual(r.decisions, [
    { action: 'deny', evaluation: 'deny', message: 'has 2 keys', reason: 'Invalid' },
    { action: 'deny', evaluation: 'deny', message: 'not cm', reason: 'Forbidden' },
    { action: 'deny', evaluation: 'deny', message: 'failed expression: false', reason: 'Invalid' },
  ]);
  assert.deepEqual((await v.validate(input({ a: '1' }, 'other'))).decisions.map((d) => d.action), ['admit', 'admit', 'deny']);
});

test('a messageExpression may print an untyped parameter (a custom resource\'s integer) within the runtime cost limit', async () => {
  const v = new PolicyValidator({
    failurePolicy: 'Fail',
    paramKind: { apiVersion: 'policy.example.com/v1', kind: 'Limit' },
    validations: [{ expression: 'size(object.data) <= params.spec.maxKeys', messageExpression: "'at most ' + string(params.spec.maxKeys) + ' keys'" }],
  });
  const r = await v.validate({ ...input({ a: '1', b: '2' }), params: jsonToCel({ spec: { maxKeys: 1 } }) });
  assert.deepEqual(r.decisions, [{ action: 'deny', evaluation: 'deny', message: 'at most 1 keys', reason: 'Invalid' }]);
});

test('an evaluation error denies under Fail and admits under Ignore; a false match condition skips the policy', async () => {
  const spec = (failurePolicy: 'Fail' | 'Ignore'): ValidatingAdmissionPolicySpec => ({
    failurePolicy,
    matchConditions: [{ name: 'named', expression: "object.metadata.name != 'skipped'" }],
    validations: [{ expression: "object.data['missing'] == 'x'" }],
  });
  const error = "expression 'object.data['missing'] == 'x'' resulted in error: no such key: missing";
  assert.deepEqual((await new PolicyValidator(spec('Fail')).validate(input({}))).decisions, [{ action: 'deny', evaluation: 'error', message: error }]);
  assert.deepEqual((await new PolicyValidator(spec('Ignore')).validate(input({}))).decisions, [{ action: 'admit', evaluation: 'error', message: error }]);
  assert.deepEqual((await new PolicyValidator(spec('Fail')).validate(input({}, 'skipped'))).decisions, []);
});

test('audit annotations publish strings, leave out null and empty values', async () => {
  const v = new PolicyValidator({
    failurePolicy: 'Fail',
    auditAnnotations: [
      { key: 'name', valueExpression: "'name is ' + object.metadata.name" },
      { key: 'none', valueExpression: 'null' },
      { key: 'empty', valueExpression: "''" },
    ],
  });
  assert.deepEqual((await v.validate(input({}))).auditAnnotations, [
    { key: 'name', action: 'publish', value: 'name is cm' },
    { key: 'none', action: 'exclude' },
    { key: 'empty', action: 'exclude' },
  ]);
});

test('a validation whose cost exceeds the per-call limit is an evaluation error', async () => {
  const v = new PolicyValidator({
    failurePolicy: 'Fail',
    validations: [{ expression: 'object.data.all(k, object.data.all(j, object.data.all(i, k + j + i != "")))' }],
  });
  const data = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`key-${i}`, 'v']));
  const [d] = (await v.validate(input(data))).decisions;
  assert.equal(d?.evaluation, 'error');
  assert.match(d!.message, /resulted in error: operation cancelled: actual cost limit exceeded$/);
});
