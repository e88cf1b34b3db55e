import { test } from 'node:test';
import assert from 'node:assert/strict';
import { APIService } from '../../../api/apiregistration/v1/api-service.js';
import { createErrors, summary, type KindUnderTest } from '../testing/kind-check.js';
import { apiServiceValidation } from './api-service-validation.js';

const kind: KindUnderTest<APIService> = { schema: APIService, validation: apiServiceValidation };
const svc = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'apiregistration.orch.io/v1', kind: 'APIService', metadata: { name }, spec });
const remote = { group: 'metrics.example.com', version: 'v1beta1', groupPriorityMinimum: 100, versionPriority: 10, service: { namespace: 'ns', name: 'metrics', port: 443 } };

test('a local APIService and one behind a service pass', () => {
  assert.deepEqual(createErrors(kind, svc('v1.', { group: '', version: 'v1', groupPriorityMinimum: 18000, versionPriority: 1 })), []);
  assert.deepEqual(createErrors(kind, svc('v1beta1.metrics.example.com', remote)), []);
  assert.deepEqual(createErrors(kind, svc('v1beta1.metrics.example.com', { ...remote, insecureSkipTLSVerify: true })), []);
});

test('the name is <version>.<group>, and only v1 may have an empty group', () => {
  const errs = createErrors(kind, svc('metrics', remote));
  assert.deepEqual(summary(errs), ['FieldValueInvalid metadata.name']);
  assert.equal(errs[0]!.detail, 'must be `spec.version+"."+spec.group`: "v1beta1.metrics.example.com"');
  const empty = createErrors(kind, svc('v2.', { group: '', version: 'v2', groupPriorityMinimum: 1, versionPriority: 1 }));
  assert.deepEqual(summary(empty), ['FieldValueRequired spec.group']);
  assert.equal(empty[0]!.detail, 'only v1 may have an empty group and it better be legacy kube');
});

test('priorities stay within 1..20000 and 1..1000', () => {
  assert.deepEqual(summary(createErrors(kind, svc('v1beta1.metrics.example.com', { ...remote, groupPriorityMinimum: 20001, versionPriority: 0 }))),
    ['FieldValueInvalid spec.groupPriorityMinimum', 'FieldValueInvalid spec.versionPriority']);
});

test('TLS settings: not on a local APIService, never a caBundle with insecureSkipTLSVerify', () => {
  const local = createErrors(kind, svc('v1.x.example.com', { group: 'x.example.com', version: 'v1', groupPriorityMinimum: 1, versionPriority: 1, caBundle: 'YWJj', insecureSkipTLSVerify: true }));
  assert.deepEqual(local.map((e) => e.detail), ['local APIServices may not have a caBundle', 'local APIServices may not have insecureSkipTLSVerify']);
  assert.equal(local[0]!.badValue, '3 bytes');
  const both = createErrors(kind, svc('v1beta1.metrics.example.com', { ...remote, caBundle: 'YWJj', insecureSkipTLSVerify: true }));
  assert.deepEqual(both.map((e) => e.detail), ['may not be true if caBundle is present']);
});

test('a service reference names a namespace, a name and a valid port', () => {
  const errs = createErrors(kind, svc('v1beta1.metrics.example.com', { ...remote, service: { port: 0 } }));
  assert.deepEqual(summary(errs), ['FieldValueRequired spec.service.namespace', 'FieldValueRequired spec.service.name', 'FieldValueInvalid spec.service.port']);
});
