import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DaemonSet, defaultDaemonSet } from '../../../api/apps/v1/daemon-set.js';
import { createErrors, defaulted, statusUpdateErrors, summary, updateErrors, type KindUnderTest } from '../testing/kind-check.js';
import { podSpecPolicy } from '../testing/pod-spec-policy.js';
import { daemonSetValidation } from './daemon-set-validation.js';

const kind: KindUnderTest<DaemonSet> = { schema: DaemonSet, validation: daemonSetValidation(podSpecPolicy()), defaulter: defaultDaemonSet };

function ds(spec: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  return {
    apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent', namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'a', image: 'agent:1' }] } },
      ...spec,
    },
    ...extra,
  };
}

test('defaults: RollingUpdate with maxUnavailable 1 and maxSurge 0, ten revisions kept', () => {
  const s = defaulted(kind, ds()).spec!;
  assert.deepEqual(s.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
  assert.equal(s.revisionHistoryLimit, 10);
  assert.deepEqual(defaulted(kind, ds({ updateStrategy: { type: 'OnDelete' } })).spec!.updateStrategy, { type: 'OnDelete' });
  assert.deepEqual(createErrors(kind, ds()), []);
});

test('selector not empty and matching; pods always restart; no deadline', () => {
  const empty = createErrors(kind, ds({ selector: {} }));
  assert.deepEqual(summary(empty), ['FieldValueInvalid spec.selector']);
  assert.equal(empty[0]!.detail, 'empty selector is invalid for daemonset');
  assert.deepEqual(summary(createErrors(kind, ds({ selector: { matchLabels: { app: 'x' } } }))), ['FieldValueInvalid spec.template.metadata.labels']);
  const errs = createErrors(kind, ds({ template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'a', image: 'i' }], restartPolicy: 'OnFailure', activeDeadlineSeconds: 3 } } }));
  assert.deepEqual(summary(errs), ['FieldValueNotSupported spec.template.spec.restartPolicy', 'FieldValueInvalid spec.template.spec.activeDeadlineSeconds']);
  assert.equal(errs[1]!.detail, 'activeDeadlineSeconds must be nil for daemons');
});

test('update strategy: exactly one of maxUnavailable and maxSurge is non-zero', () => {
  const ru = (rollingUpdate: Record<string, unknown>) => createErrors(kind, ds({ updateStrategy: { type: 'RollingUpdate', rollingUpdate } }));
  const both = ru({ maxUnavailable: 1, maxSurge: 1 });
  assert.deepEqual(summary(both), ['FieldValueInvalid spec.updateStrategy.rollingUpdate.maxSurge']);
  assert.equal(both[0]!.detail, 'may not be set when maxUnavailable is non-zero');
  const none = ru({ maxUnavailable: 0, maxSurge: '0%' });
  assert.deepEqual(summary(none), ['FieldValueRequired spec.updateStrategy.rollingUpdate.maxUnavailable']);
  assert.equal(none[0]!.detail, 'cannot be 0 when maxSurge is 0');
  assert.deepEqual(summary(ru({ maxUnavailable: '120%', maxSurge: 0 })), ['FieldValueInvalid spec.updateStrategy.rollingUpdate.maxUnavailable']);
  assert.deepEqual(ru({ maxUnavailable: 0, maxSurge: '20%' }), []);
  assert.deepEqual(summary(createErrors(kind, ds({ updateStrategy: { type: 'Sometimes' } }))), ['FieldValueNotSupported spec.updateStrategy.type']);
});

test('the selector is immutable; status counts are non-negative', () => {
  const errs = updateErrors(kind, ds({ selector: { matchLabels: { app: 'agent', x: 'y' } } }), ds());
  assert.ok(summary(errs).includes('FieldValueInvalid spec.selector'));
  assert.equal(errs.find((e) => e.field === 'spec.selector')!.detail, 'field is immutable');
  const status = { currentNumberScheduled: 1, numberMisscheduled: -1, desiredNumberScheduled: 1, numberReady: 1 };
  assert.deepEqual(summary(statusUpdateErrors(kind, ds({}, { status }), ds())), ['FieldValueInvalid status.numberMisscheduled']);
});
