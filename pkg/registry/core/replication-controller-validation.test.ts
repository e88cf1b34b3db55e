import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReplicationController, defaultReplicationController } from '../../../api/core/v1/replication-controller.js';
import { createErrors, defaulted, statusUpdateErrors, summary, updateErrors, type KindUnderTest } from '../testing/kind-check.js';
import { podSpecPolicy } from '../testing/pod-spec-policy.js';
import { replicationControllerValidation } from './replication-controller-validation.js';

const kind: KindUnderTest<ReplicationController> = {
  schema: ReplicationController, validation: replicationControllerValidation(podSpecPolicy()), defaulter: defaultReplicationController,
};

function rc(spec: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  return {
    apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'web', namespace: 'default' },
    spec: { template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } }, ...spec },
    ...extra,
  };
}

test('selector and labels default from the template; replicas to 1', () => {
  const o = defaulted(kind, rc());
  assert.deepEqual(o.spec!.selector, { app: 'web' });
  assert.deepEqual(o.metadata!.labels, { app: 'web' });
  assert.equal(o.spec!.replicas, 1);
  assert.equal(o.spec!.template!.spec!.restartPolicy, 'Always');
  assert.deepEqual(createErrors(kind, rc()), []);
  const own = defaulted(kind, rc({ selector: { app: 'web' } }, { metadata: { name: 'web', labels: { team: 'a' } } }));
  assert.deepEqual(own.metadata!.labels, { team: 'a' });
});

test('selector required and matching the template; template required; pods always restart', () => {
  const noLabels = rc({ template: { spec: { containers: [{ name: 'web', image: 'nginx' }] } } });
  assert.deepEqual(summary(createErrors(kind, noLabels)), ['FieldValueRequired spec.selector']);
  const mismatch = createErrors(kind, rc({ selector: { app: 'db' } }));
  assert.deepEqual(summary(mismatch), ['FieldValueInvalid spec.template.metadata.labels']);
  assert.equal(mismatch[0]!.detail, '`selector` does not match template `labels`');
  assert.deepEqual(summary(createErrors(kind, { ...rc({ selector: { app: 'web' } }), spec: { selector: { app: 'web' } } })), ['FieldValueRequired spec.template']);
  const never = rc({ template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'w', image: 'i' }], restartPolicy: 'Never', activeDeadlineSeconds: 5 } } });
  const errs = createErrors(kind, never);
  assert.deepEqual(summary(errs), ['FieldValueNotSupported spec.template.spec.restartPolicy', 'FieldValueForbidden spec.template.spec.activeDeadlineSeconds']);
  assert.equal(errs[1]!.detail, 'activeDeadlineSeconds in ReplicationController is not Supported');
  assert.deepEqual(summary(createErrors(kind, rc({ replicas: -1, minReadySeconds: -1 }))), ['FieldValueInvalid spec.minReadySeconds', 'FieldValueInvalid spec.replicas']);
});

test('the selector may change; status counts are consistent', () => {
  const old = rc();
  const next = rc({ selector: { app: 'web', v: '2' }, template: { metadata: { labels: { app: 'web', v: '2' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } } });
  assert.deepEqual(updateErrors(kind, next, old), []);
  const over = statusUpdateErrors(kind, rc({}, { status: { replicas: 1, readyReplicas: 2 } }), old);
  assert.deepEqual(summary(over), ['FieldValueInvalid status.readyReplicas']);
});
