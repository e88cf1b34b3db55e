import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Deployment, defaultDeployment } from '../../../api/apps/v1/deployment.js';
import { createErrors, defaulted, has, statusUpdateErrors, summary, updateErrors, type KindUnderTest } from '../testing/kind-check.js';
import { podSpecPolicy } from '../testing/pod-spec-policy.js';
import { deploymentValidation as deploymentValidationFor } from './deployment-validation.js';

const deploymentValidation = deploymentValidationFor(podSpecPolicy());
const kind: KindUnderTest<Deployment> = { schema: Deployment, validation: deploymentValidation, defaulter: defaultDeployment };

function deploy(spec: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  return {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'api', namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: 'api' } },
      template: { metadata: { labels: { app: 'api', tier: 'back' } }, spec: { containers: [{ name: 'api', image: 'api:1' }] } },
      ...spec,
    },
    ...extra,
  };
}

const rolling = (rollingUpdate: Record<string, unknown>) => deploy({ strategy: { type: 'RollingUpdate', rollingUpdate } });

test('a deployment is accepted with either strategy', () => {
  assert.deepEqual(createErrors(kind, deploy()), []);
  assert.deepEqual(createErrors(kind, deploy({ strategy: { type: 'Recreate' }, paused: true, replicas: 0 })), []);
});

test('defaults follow upstream: 1 replica, RollingUpdate 25%/25%, 10 revisions, 600s deadline', () => {
  const s = defaulted(kind, deploy()).spec!;
  assert.equal(s.replicas, 1);
  assert.equal(s.revisionHistoryLimit, 10);
  assert.equal(s.progressDeadlineSeconds, 600);
  assert.deepEqual(s.strategy, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } });
  assert.equal(s.template.spec!.restartPolicy, 'Always');
  assert.deepEqual(defaulted(kind, deploy({ strategy: { type: 'Recreate' } })).spec!.strategy, { type: 'Recreate' });
  assert.deepEqual(defaulted(kind, rolling({ maxSurge: 0 })).spec!.strategy, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: 0 } });
  assert.deepEqual(defaulted(kind, deploy({ strategy: { rollingUpdate: { maxUnavailable: 1 } } })).spec!.strategy,
    { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: '25%' } });
});

test('selector and template are required; the selector must match and not be empty', () => {
  const noSelector = deploy();
  delete (noSelector.spec as Record<string, unknown>).selector;
  assert.ok(has(createErrors(kind, noSelector), 'FieldValueRequired', 'spec.selector'));
  const noTemplate = deploy();
  delete (noTemplate.spec as Record<string, unknown>).template;
  assert.ok(has(createErrors(kind, noTemplate), 'FieldValueRequired', 'spec.template'));
  const mismatch = createErrors(kind, deploy({ selector: { matchLabels: { app: 'db' } } }));
  assert.deepEqual(summary(mismatch), ['FieldValueInvalid spec.template.metadata.labels']);
  assert.equal(mismatch[0]!.detail, '`selector` does not match template `labels`');
  const empty = createErrors(kind, deploy({ selector: {} }));
  assert.deepEqual(summary(empty), ['FieldValueInvalid spec.selector']);
  assert.equal(empty[0]!.detail, 'empty selector is invalid for deployment');
  // A malformed selector is reported once, not also as a mismatch.
  assert.deepEqual(summary(createErrors(kind, deploy({ selector: { matchExpressions: [{ key: 'app', operator: 'In' }] } }))),
    ['FieldValueRequired spec.selector.matchExpressions[0].values']);
});

test('Recreate takes no rollingUpdate; RollingUpdate needs sound numbers', () => {
  const recreate = createErrors(kind, deploy({ strategy: { type: 'Recreate', rollingUpdate: { maxSurge: 1 } } }));
  assert.deepEqual(summary(recreate), ['FieldValueForbidden spec.strategy.rollingUpdate']);
  assert.equal(recreate[0]!.detail, "may not be specified when strategy `type` is 'Recreate'");
  assert.deepEqual(summary(createErrors(kind, deploy({ strategy: { type: 'Blue' } }))), ['FieldValueNotSupported spec.strategy.type']);
  const at = 'spec.strategy.rollingUpdate';
  const zero = createErrors(kind, rolling({ maxUnavailable: 0, maxSurge: '0%' }));
  assert.deepEqual(summary(zero), [`FieldValueInvalid ${at}.maxUnavailable`]);
  assert.equal(zero[0]!.detail, 'may not be 0 when `maxSurge` is 0');
  assert.deepEqual(createErrors(kind, rolling({ maxUnavailable: 0, maxSurge: 1 })), []);
  assert.deepEqual(createErrors(kind, rolling({ maxUnavailable: '100%', maxSurge: '300%' })), []);
  const over = createErrors(kind, rolling({ maxUnavailable: '150%' }));
  assert.deepEqual(summary(over), [`FieldValueInvalid ${at}.maxUnavailable`]);
  assert.equal(over[0]!.detail, 'must not be greater than 100%');
  assert.deepEqual(summary(createErrors(kind, rolling({ maxUnavailable: -1, maxSurge: 'many' }))), [`FieldValueInvalid ${at}.maxUnavailable`, `FieldValueInvalid ${at}.maxSurge`]);
});

test('counts are non-negative and the progress deadline exceeds minReadySeconds', () => {
  for (const f of ['replicas', 'minReadySeconds', 'revisionHistoryLimit']) {
    const errs = createErrors(kind, deploy({ [f]: -1 }));
    assert.deepEqual(summary(errs), [`FieldValueInvalid spec.${f}`], f);
    assert.equal(errs[0]!.detail, 'must be greater than or equal to 0');
  }
  assert.deepEqual(summary(createErrors(kind, deploy({ progressDeadlineSeconds: -1 }))), ['FieldValueInvalid spec.progressDeadlineSeconds']);
  const deadline = createErrors(kind, deploy({ minReadySeconds: 30, progressDeadlineSeconds: 30 }));
  assert.deepEqual(summary(deadline), ['FieldValueInvalid spec.progressDeadlineSeconds']);
  assert.equal(deadline[0]!.detail, 'must be greater than minReadySeconds');
  assert.deepEqual(createErrors(kind, deploy({ minReadySeconds: 30, progressDeadlineSeconds: 31 })), []);
});

test('pods of a deployment always restart and have no deadline', () => {
  const template = (podSpec: Record<string, unknown>) => deploy({ template: { metadata: { labels: { app: 'api' } }, spec: { containers: [{ name: 'c', image: 'i' }], ...podSpec } } });
  const errs = createErrors(kind, template({ restartPolicy: 'Never' }));
  assert.deepEqual(summary(errs), ['FieldValueNotSupported spec.template.spec.restartPolicy']);
  assert.equal(errs[0]!.detail, 'supported values: "Always"');
  const deadline = createErrors(kind, template({ activeDeadlineSeconds: 5 }));
  assert.deepEqual(summary(deadline), ['FieldValueForbidden spec.template.spec.activeDeadlineSeconds']);
  assert.equal(deadline[0]!.detail, 'activeDeadlineSeconds in ReplicaSet is not Supported');
});

test('the selector is immutable; the rest of the spec may change', () => {
  const old = deploy();
  assert.deepEqual(updateErrors(kind, deploy({ replicas: 4, paused: true, strategy: { type: 'Recreate' }, template: { metadata: { labels: { app: 'api', v: '2' } }, spec: { containers: [{ name: 'api', image: 'api:2' }] } } }), old), []);
  const errs = updateErrors(kind, deploy({ selector: { matchLabels: { app: 'api', tier: 'back' } } }), old);
  assert.deepEqual(summary(errs), ['FieldValueInvalid spec.selector']);
  assert.equal(errs[0]!.detail, 'field is immutable');
  assert.ok(has(updateErrors(kind, deploy({ replicas: -1 }), old), 'FieldValueInvalid', 'spec.replicas'));
});

test('status counts are consistent', () => {
  const old = deploy({}, { status: { replicas: 1, collisionCount: 2 } });
  const ok = { replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 2, unavailableReplicas: 1, collisionCount: 2, observedGeneration: 4 };
  assert.deepEqual(statusUpdateErrors(kind, deploy({}, { status: ok }), old), []);
  assert.deepEqual(summary(statusUpdateErrors(kind, deploy({}, { status: { ...ok, updatedReplicas: 4 } }), old)), ['FieldValueInvalid status.updatedReplicas']);
  const available = statusUpdateErrors(kind, deploy({}, { status: { ...ok, readyReplicas: 1 } }), old);
  assert.deepEqual(summary(available), ['FieldValueInvalid status.availableReplicas']);
  assert.equal(available[0]!.detail, 'cannot be greater than readyReplicas');
  assert.deepEqual(summary(statusUpdateErrors(kind, deploy({}, { status: { ...ok, unavailableReplicas: -1 } }), old)), ['FieldValueInvalid status.unavailableReplicas']);
  const decremented = statusUpdateErrors(kind, deploy({}, { status: { ...ok, collisionCount: 1 } }), old);
  assert.deepEqual(summary(decremented), ['FieldValueInvalid status.collisionCount']);
  assert.equal(decremented[0]!.detail, 'cannot be decremented');
});

test('deployment names are DNS subdomains', () => {
  assert.deepEqual(deploymentValidation.name('api.v1', false), []);
  assert.ok(deploymentValidation.name('API', false).length > 0);
});

test('privileged containers in the template are disallowed by cluster policy unless --allow-privileged', () => {
  const privileged = deploy({ template: { metadata: { labels: { app: 'api' } }, spec: {
    initContainers: [{ name: 'init', image: 'busybox', securityContext: { privileged: true } }],
    containers: [{ name: 'api', image: 'api:1', securityContext: { privileged: true } }],
  } } });
  const errs = createErrors(kind, privileged);
  assert.deepEqual(summary(errs), [
    'FieldValueForbidden spec.template.spec.containers[0].securityContext.privileged',
    'FieldValueForbidden spec.template.spec.initContainers[0].securityContext.privileged',
  ]);
  assert.ok(errs.every((e) => e.detail === 'disallowed by cluster policy'));
  assert.deepEqual(updateErrors(kind, privileged, deploy()).map((e) => e.field), errs.map((e) => e.field));
  assert.deepEqual(createErrors({ ...kind, validation: deploymentValidationFor(podSpecPolicy({ allowPrivileged: true })) }, privileged), []);
});
