// Type checking of policies against the kinds their rules name, and the status controller that
// writes the warnings once per generation.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyStatus } from '../../../../api/admissionregistration/v1/validating-admission-policy.js';
import type { Schema } from '../../../cel/types.js';
import { eventually } from '../../../util/testing/eventually.js';
import type { GroupVersionKind } from '../../interfaces.js';
import { PolicyStatusController } from './status-controller.js';
import { TypeChecker } from './type-checking.js';

const str: Schema = { type: 'string' };
const configMap: Schema = {
  type: 'object',
  properties: { metadata: { type: 'object', properties: { name: str } }, data: { type: 'object', additionalProperties: str } },
};
const deployment: Schema = {
  type: 'object',
  properties: { metadata: { type: 'object', properties: { name: str } }, spec: { type: 'object', properties: { replicas: { type: 'integer' } } } },
};
const kinds: Record<string, [GroupVersionKind, Schema]> = {
  'configmaps': [{ group: '', version: 'v1', kind: 'ConfigMap' }, configMap],
  'deployments': [{ group: 'apps', version: 'v1', kind: 'Deployment' }, deployment],
};
const checker = new TypeChecker({
  kindFor: (r) => kinds[r.resource]?.[0],
  schemaFor: (k) => Object.values(kinds).find(([g]) => g.kind === k.kind)?.[1],
});
const policy = (resources: string[], validations: { expression: string; messageExpression?: string }[], generation = 1): ValidatingAdmissionPolicy => ({
  metadata: { name: 'p', generation, resourceVersion: String(generation) },
  spec: {
    matchConstraints: { resourceRules: [{ apiGroups: ['', 'apps'], apiVersions: ['v1'], resources, operations: ['CREATE'] }] },
    variables: [{ name: 'name', expression: 'object.metadata.name' }],
    validations,
  },
});

test('each expression is checked against every kind the rules name, warnings naming the kind', () => {
  const warnings = checker.check(policy(['configmaps', 'deployments'], [
    { expression: 'object.spec.replicas > 1' },
    { expression: "variables.name != ''", messageExpression: "'bad: ' + variables.name" },
    { expression: 'object.metadata.nam == ""' },
  ]));
  assert.equal(warnings.length, 2);
  assert.equal(warnings[0]!.fieldRef, 'spec.validations[0].expression');
  assert.equal(warnings[0]!.warning, "/v1, Kind=ConfigMap: ERROR: <input>:1:7: undefined field 'spec'\n | object.spec.replicas > 1\n | ......^\n");
  assert.equal(warnings[1]!.fieldRef, 'spec.validations[2].expression');
  const [cm, deploy] = warnings[1]!.warning.split('\n\n');
  assert.match(cm!, /^\/v1, Kind=ConfigMap: ERROR: <input>:1:16: undefined field 'nam'\n/);
  assert.match(deploy!, /^apps\/v1, Kind=Deployment: ERROR: <input>:1:16: undefined field 'nam'\n/);
});

test('wildcards and sub-resources are not checked', () => {
  assert.deepEqual(checker.check(policy(['*', 'deployments/status'], [{ expression: 'object.nothing' }])), []);
});

test('the status controller writes the warnings once per generation', async () => {
  const writes: [string, ValidatingAdmissionPolicyStatus][] = [];
  const controller = new PolicyStatusController({
    checker, logger: undefined,
    applyStatus: async (p, status) => void writes.push([p.metadata!.resourceVersion!, status]),
  });
  const p = policy(['configmaps'], [{ expression: 'object.spec.replicas > 1' }]);
  controller.observe(p);
  await controller.idle();
  assert.equal(writes.length, 1);
  assert.equal(writes[0]![1].observedGeneration, 1);
  assert.equal(writes[0]![1].typeChecking?.expressionWarnings?.[0]?.fieldRef, 'spec.validations[0].expression');
  // The policy with its status written back: nothing more to do.
  controller.observe({ ...p, status: writes[0]![1] });
  const fixed = policy(['configmaps'], [{ expression: 'size(object.data) > 1' }], 2);
  controller.observe({ ...fixed, status: writes[0]![1] });
  await controller.idle();
  assert.deepEqual(writes.slice(1), [['2', { observedGeneration: 2, typeChecking: {} }]]);
  await controller.stop();
});

test('a status write that fails is tried again', async () => {
  let attempts = 0;
  const controller = new PolicyStatusController({
    checker, logger: undefined,
    applyStatus: async () => {
      if (++attempts === 1) throw new Error('etcd is away');
    },
  });
  controller.observe(policy(['configmaps'], [{ expression: 'true' }]));
  await eventually(() => attempts === 2, 'the second attempt');
  await controller.stop();
});
