import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Namespace, defaultNamespace } from '../../../api/core/v1/namespace.js';
import { createErrors, has, statusUpdateErrors, summary, type KindUnderTest } from '../testing/kind-check.js';
import { defaultApiDomain } from '../../../api/domain.js';
import { standardFinalizers } from '../validation/object-meta.js';
import { namespaceValidation as namespaceValidationFor } from './namespace-validation.js';

const namespaceValidation = namespaceValidationFor(standardFinalizers('orch'));

const kind: KindUnderTest<Namespace> = { schema: Namespace, validation: namespaceValidation, defaulter: (ns) => defaultNamespace(ns, defaultApiDomain) };
const ns = (extra: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' }, ...extra });

test('namespace names are DNS labels', () => {
  assert.deepEqual(namespaceValidation.name('team-a', false), []);
  assert.ok(namespaceValidation.name('team.a', false).length > 0);
  assert.ok(namespaceValidation.name('Team', false).length > 0);
  assert.ok(namespaceValidation.name('a'.repeat(64), false).length > 0);
});

test('a plain namespace is accepted', () => {
  assert.deepEqual(createErrors(kind, ns()), []);
  assert.deepEqual(createErrors(kind, ns({ spec: { finalizers: ['orch', 'example.com/cleanup'] } })), []);
});

test('spec.finalizers must be standard or fully qualified', () => {
  const errs = createErrors(kind, ns({ spec: { finalizers: ['cleanup'] } }));
  assert.deepEqual(summary(errs), ['FieldValueInvalid spec.finalizers']);
  assert.match(errs[0]!.detail, /neither a standard finalizer name nor is it fully qualified/);
  assert.ok(has(createErrors(kind, ns({ spec: { finalizers: ['bad name/x/y'] } })), 'FieldValueInvalid', 'spec.finalizers'));
});

test('status.phase is Active or Terminating', () => {
  const errs = createErrors(kind, ns({ status: { phase: 'Gone' } }));
  assert.ok(has(errs, 'FieldValueNotSupported', 'status.phase'));
});

test('the phase follows deletionTimestamp on status updates', () => {
  const old = ns({ status: { phase: 'Active' } });
  assert.deepEqual(statusUpdateErrors(kind, ns({ status: { phase: 'Active' } }), old), []);
  const early = statusUpdateErrors(kind, ns({ status: { phase: 'Terminating' } }), old);
  assert.deepEqual(summary(early), ['FieldValueInvalid status.phase']);
  const deleting = { ...ns({ status: { phase: 'Active' } }), metadata: { name: 'team-a', deletionTimestamp: '2024-01-01T00:00:00Z' } };
  assert.deepEqual(summary(statusUpdateErrors(kind, deleting, old)), ['FieldValueInvalid status.phase']);
  const terminating = { ...deleting, status: { phase: 'Terminating' } };
  assert.deepEqual(statusUpdateErrors(kind, terminating, old), []);
});
