// x-kubernetes-validations: the CRD-write checks (compilation, messages, estimated cost) and the
// evaluation against objects (messages, messageExpression, reason, fieldPath, transition rules).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { errorMessage } from '../runtime/field-errors.js';
import type { Schema } from './types.js';
import { compileValidationRules, validateWithRules } from './validation-rules.js';

const schema = (rules: Schema['x-kubernetes-validations'], props: Record<string, Schema> = {}): Schema => ({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      'x-kubernetes-validations': rules,
      properties: { replicas: { type: 'integer' }, min: { type: 'integer' }, name: { type: 'string', maxLength: 20 }, ...props },
    },
  },
});
const root = 'spec.validation.openAPIV3Schema';

test('rules that do not compile, or cost too much, are refused when the CRD is written', () => {
  assert.deepEqual(compileValidationRules(schema([{ rule: 'self.replicas >= self.min' }]), root), []);
  const bad = compileValidationRules(schema([{ rule: 'self.replicaz > 0' }]), root).map(errorMessage);
  assert.equal(bad.length, 1);
  assert.match(bad[0]!, /^spec\.validation\.openAPIV3Schema\.properties\[spec\]\.x-kubernetes-validations\[0\]\.rule: Invalid value: .*compilation failed: ERROR: <input>:1:5: undefined field 'replicaz'/);
  assert.match(compileValidationRules(schema([{ rule: 'self.replicas' }]), root).map(errorMessage)[0]!, /cel expression must evaluate to a bool$/);
  const expensive = schema([{ rule: 'self.items.all(x, self.items.all(y, x != y || x == y))' }], { items: { type: 'array', items: { type: 'string' } } });
  const costErr = compileValidationRules(expensive, root).map(errorMessage);
  assert.ok(costErr.includes(`${root}.properties[spec].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`), costErr.join('\n'));
  const bounded = schema([{ rule: 'self.items.all(x, self.items.all(y, x != y || x == y))' }], { items: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 10 } } });
  assert.deepEqual(compileValidationRules(bounded, root), [], 'maxItems and maxLength bound the estimate');
  assert.deepEqual(compileValidationRules(schema([{ rule: 'true', reason: 'Bogus' }]), root).map(errorMessage),
    [`${root}.properties[spec].x-kubernetes-validations[0].reason: Unsupported value: "Bogus": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`]);
  assert.deepEqual(compileValidationRules(schema([{ rule: 'true', optionalOldSelf: true }]), root).map(errorMessage),
    [`${root}.properties[spec].x-kubernetes-validations[0].optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule`]);
});

test('objects are validated with the rules: message, messageExpression, reason, fieldPath and transition rules', async () => {
  const s = schema([
    { rule: 'self.replicas >= self.min', message: 'replicas must be at least min' },
    { rule: 'self.name.startsWith("a")', messageExpression: '"name " + self.name + " must start with a"', reason: 'FieldValueForbidden', fieldPath: '.name' },
    { rule: 'self.replicas >= oldSelf.replicas', message: 'replicas may not decrease' },
    { rule: 'size(self.name) < 10' },
  ]);
  assert.deepEqual(await validateWithRules(s, { spec: { replicas: 3, min: 1, name: 'abc' } }), []);
  const errs = (await validateWithRules(s, { spec: { replicas: 0, min: 1, name: 'bcdefghijkl' } })).map(errorMessage);
  assert.deepEqual(errs, [
    'spec: Invalid value: "object": replicas must be at least min',
    'spec.name: Forbidden: name bcdefghijkl must start with a',
    'spec: Invalid value: "object": failed rule: size(self.name) < 10',
  ]);
  const update = (await validateWithRules(s, { spec: { replicas: 2, min: 1, name: 'a' } }, { spec: { replicas: 5, min: 1, name: 'a' } })).map(errorMessage);
  assert.deepEqual(update, ['spec: Invalid value: "object": replicas may not decrease'], 'the transition rule runs on update only');
});
