import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReplicaSet, defaultReplicaSet } from '../../../api/apps/v1/replica-set.js';
import { createErrors, defaulted, has, statusUpdateErrors, summary, updateErrors, type KindUnderTest } from '../testing/kind-check.js';
import { podSpecPolicy } from '../testing/pod-spec-policy.js';
import { replicaSetValidation as replicaSetValidationFor } from './replica-set-validation.js';

const replicaSetValidation = replicaSetValidationFor(podSpecPolicy());
const kind: KindUnderTest<ReplicaSet> = { schema: ReplicaSet, validation: replicaSetValidation, defaulter: defaultReplicaSet };

function rs(spec: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  return {
    apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'api-1', namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: 'api' } },
      template: { metadata: { labels: { app: 'api' } }, spec: { containers: [{ name: 'api', image: 'api:1' }] } },
      ...spec,
    },
    ...extra,
  };
}

test('a replica set is accepted and defaults to one replica', () => {
  assert.deepEqual(createErrors(kind, rs()), []);
  const s = defaulted(kind, rs()).spec!;
  assert.equal(s.replicas, 1);
  assert.equal(s.template!.spec!.restartPolicy, 'Always');
});

test('the selector is required, not empty and matches the template', () => {
  const noSelector = rs();
  delete (noSelector.spec as Record<string, unknown>).selector;
  assert.ok(has(createErrors(kind, noSelector), 'FieldValueRequired', 'spec.selector'));
  const empty = createErrors(kind, rs({ selector: {} }));
  assert.deepEqual(summary(empty), ['FieldValueInvalid spec.selector']);
  assert.equal(empty[0]!.detail, 'empty selector is invalid for deployment');
  assert.deepEqual(summary(createErrors(kind, rs({ selector: { matchLabels: { app: 'db' } } }))), ['FieldValueInvalid spec.template.metadata.labels']);
});

test('a missing template is validated as an empty one', () => {
  const noTemplate = rs();
  delete (noTemplate.spec as Record<string, unknown>).template;
  const errs = createErrors(kind, noTemplate);
  assert.ok(has(errs, 'FieldValueInvalid', 'spec.template.metadata.labels'), summary(errs).join());
  assert.ok(has(errs, 'FieldValueRequired', 'spec.template.spec.containers'), summary(errs).join());
});

test('replicas and minReadySeconds are non-negative; pods always restart', () => {
  assert.deepEqual(summary(createErrors(kind, rs({ replicas: -2 }))), ['FieldValueInvalid spec.replicas']);
  assert.deepEqual(summary(createErrors(kind, rs({ minReadySeconds: -2 }))), ['FieldValueInvalid spec.minReadySeconds']);
  assert.deepEqual(summary(createErrors(kind, rs({ template: { metadata: { labels: { app: 'api' } }, spec: { containers: [{ name: 'c', image: 'i' }], restartPolicy: 'OnFailure' } } }))),
    ['FieldValueNotSupported spec.template.spec.restartPolicy']);
});

test('the selector is immutable', () => {
  const old = rs();
  assert.deepEqual(updateErrors(kind, rs({ replicas: 5 }), old), []);
  const errs = updateErrors(kind, rs({ selector: { matchExpressions: [{ key: 'app', operator: 'Exists' }] } }), old);
  assert.deepEqual(summary(errs), ['FieldValueInvalid spec.selector']);
  assert.equal(errs[0]!.detail, 'field is immutable');
});

test('status counts are consistent', () => {
  const ok = { replicas: 3, fullyLabeledReplicas: 3, readyReplicas: 2, availableReplicas: 2, observedGeneration: 1 };
  assert.deepEqual(statusUpdateErrors(kind, rs({}, { status: ok }), rs()), []);
  const over = statusUpdateErrors(kind, rs({}, { status: { ...ok, fullyLabeledReplicas: 4 } }), rs());
  assert.deepEqual(summary(over), ['FieldValueInvalid status.fullyLabeledReplicas']);
  assert.equal(over[0]!.detail, 'cannot be greater than status.replicas');
  assert.deepEqual(summary(statusUpdateErrors(kind, rs({}, { status: { ...ok, availableReplicas: 3 } }), rs())), ['FieldValueInvalid status.availableReplicas']);
  assert.deepEqual(summary(statusUpdateErrors(kind, rs({}, { status: { ...ok, observedGeneration: -1 } }), rs())), ['FieldValueInvalid status.observedGeneration']);
  assert.ok(has(statusUpdateErrors(kind, rs({}, { status: { readyReplicas: 0 } }), rs()), 'FieldValueRequired', 'status.replicas'));
});
