import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatefulSet, defaultStatefulSet } from '../../../api/apps/v1/stateful-set.js';
import { createErrors, defaulted, has, statusUpdateErrors, summary, updateErrors, type KindUnderTest } from '../testing/kind-check.js';
import { podSpecPolicy } from '../testing/pod-spec-policy.js';
import { statefulSetValidation as statefulSetValidationFor } from './stateful-set-validation.js';

const statefulSetValidation = statefulSetValidationFor(podSpecPolicy());

const kind: KindUnderTest<StatefulSet> = { schema: StatefulSet, validation: statefulSetValidation, defaulter: defaultStatefulSet };

const claim = (name: string) => ({ metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } });

function sts(spec: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  return {
    apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'web', namespace: 'default' },
    spec: {
      serviceName: 'web',
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web', tier: 'front' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.25', volumeMounts: [{ name: 'data', mountPath: '/data' }] }] },
      },
      volumeClaimTemplates: [claim('data')],
      ...spec,
    },
    ...extra,
  };
}

/** The spec with one field left out. */
function without(field: string) {
  const s = sts();
  delete (s.spec as Record<string, unknown>)[field];
  return s;
}

test('a stateful set with a claim mounted by its container is accepted', () => {
  assert.deepEqual(createErrors(kind, sts()), []);
  assert.deepEqual(createErrors(kind, sts({ updateStrategy: { type: 'OnDelete' }, podManagementPolicy: 'Parallel', ordinals: { start: 1 } })), []);
});

test('defaults follow the reference', () => {
  const s = defaulted(kind, sts()).spec!;
  assert.equal(s.replicas, 1);
  assert.equal(s.podManagementPolicy, 'OrderedReady');
  assert.equal(s.revisionHistoryLimit, 10);
  assert.equal(s.minReadySeconds, 0);
  assert.deepEqual(s.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { partition: 0 } });
  assert.deepEqual(s.persistentVolumeClaimRetentionPolicy, { whenDeleted: 'Retain', whenScaled: 'Retain' });
  // The pod template's own defaults apply too.
  assert.equal(s.template.spec!.restartPolicy, 'Always');
  // An explicit RollingUpdate without parameters stays without them; OnDelete gets none.
  assert.deepEqual(defaulted(kind, sts({ updateStrategy: { type: 'RollingUpdate' } })).spec!.updateStrategy, { type: 'RollingUpdate' });
  assert.deepEqual(defaulted(kind, sts({ updateStrategy: { type: 'OnDelete' } })).spec!.updateStrategy, { type: 'OnDelete' });
  assert.deepEqual(defaulted(kind, sts({ updateStrategy: { rollingUpdate: { partition: 2 } } })).spec!.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { partition: 2 } });
  assert.deepEqual(defaulted(kind, sts({ persistentVolumeClaimRetentionPolicy: { whenScaled: 'Delete' } })).spec!.persistentVolumeClaimRetentionPolicy, { whenDeleted: 'Retain', whenScaled: 'Delete' });
});

test('selector, template and serviceName are required', () => {
  assert.ok(has(createErrors(kind, without('selector')), 'FieldValueRequired', 'spec.selector'));
  assert.ok(has(createErrors(kind, without('template')), 'FieldValueRequired', 'spec.template'));
  assert.ok(has(createErrors(kind, without('serviceName')), 'FieldValueRequired', 'spec.serviceName'));
});

test('the selector must match the template labels and not be empty', () => {
  const errs = createErrors(kind, sts({ selector: { matchLabels: { app: 'db' } } }));
  assert.deepEqual(summary(errs), ['FieldValueInvalid spec.template.metadata.labels']);
  assert.equal(errs[0]!.detail, '`selector` does not match template `labels`');
  assert.deepEqual(summary(createErrors(kind, sts({ selector: { matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['front'] }] } }))), ['FieldValueInvalid spec.template.metadata.labels']);
  assert.deepEqual(createErrors(kind, sts({ selector: { matchExpressions: [{ key: 'tier', operator: 'Exists' }, { key: 'gone', operator: 'DoesNotExist' }] } })), []);
  const empty = createErrors(kind, sts({ selector: {} }));
  assert.deepEqual(summary(empty), ['FieldValueInvalid spec.selector']);
  assert.equal(empty[0]!.detail, 'empty selector is invalid for statefulset');
  assert.ok(has(createErrors(kind, sts({ selector: { matchExpressions: [{ key: 'app', operator: 'In' }] } })), 'FieldValueRequired', 'spec.selector.matchExpressions[0].values'));
});

test('every claim template needs a matching volumeMount', () => {
  const errs = createErrors(kind, sts({ volumeClaimTemplates: [claim('data'), claim('logs')] }));
  assert.deepEqual(summary(errs), ['FieldValueInvalid spec.volumeClaimTemplates[1].metadata.name']);
  // ...and a mount may name a claim template instead of a pod volume.
  const noVolume = sts({ volumeClaimTemplates: [] });
  assert.ok(has(createErrors(kind, noVolume), 'FieldValueNotFound', 'spec.template.spec.containers[0].volumeMounts[0].name'));
});

test('claim templates are validated as claims', () => {
  const errs = createErrors(kind, sts({ volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { resources: { requests: { storage: '1Gi' } } } }] }));
  assert.ok(has(errs, 'FieldValueRequired', 'spec.volumeClaimTemplates[0].spec.accessModes'), summary(errs).join());
});

test('replicas, minReadySeconds, partition and ordinals are non-negative', () => {
  const errs = createErrors(kind, sts({ replicas: -1 }));
  assert.deepEqual(summary(errs), ['FieldValueInvalid spec.replicas']);
  assert.equal(errs[0]!.detail, 'must be greater than or equal to 0');
  assert.deepEqual(summary(createErrors(kind, sts({ minReadySeconds: -5 }))), ['FieldValueInvalid spec.minReadySeconds']);
  assert.deepEqual(summary(createErrors(kind, sts({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: -1 } } }))), ['FieldValueInvalid spec.updateStrategy.rollingUpdate.partition']);
  assert.deepEqual(summary(createErrors(kind, sts({ ordinals: { start: -1 } }))), ['FieldValueInvalid spec.ordinals.start']);
});

test('OnDelete takes no rollingUpdate parameters', () => {
  const errs = createErrors(kind, sts({ updateStrategy: { type: 'OnDelete', rollingUpdate: { partition: 1 } } }));
  assert.deepEqual(summary(errs), ['FieldValueInvalid spec.updateStrategy.rollingUpdate']);
  assert.equal(errs[0]!.detail, "only allowed for updateStrategy 'RollingUpdate'");
  assert.deepEqual(summary(createErrors(kind, sts({ updateStrategy: { type: 'Sometimes' } }))), ['FieldValueNotSupported spec.updateStrategy.type']);
});

test('maxUnavailable is a positive int or percentage up to 100%', () => {
  const at = 'spec.updateStrategy.rollingUpdate.maxUnavailable';
  const rolling = (maxUnavailable: unknown) => sts({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable } } });
  assert.deepEqual(createErrors(kind, rolling(2)), []);
  assert.deepEqual(createErrors(kind, rolling('50%')), []);
  for (const zero of [0, '0%']) {
    const errs = createErrors(kind, rolling(zero));
    assert.deepEqual(summary(errs), [`FieldValueInvalid ${at}`], String(zero));
    assert.equal(errs[0]!.detail, 'cannot be 0');
  }
  assert.ok(has(createErrors(kind, rolling(-1)), 'FieldValueInvalid', at));
  assert.deepEqual(summary(createErrors(kind, rolling('150%'))), [`FieldValueInvalid ${at}`]);
  assert.ok(has(createErrors(kind, rolling('lots')), 'FieldValueInvalid', at));
});

test('pods of a stateful set always restart and have no deadline', () => {
  const template = (podSpec: Record<string, unknown>) => sts({
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'i', volumeMounts: [{ name: 'data', mountPath: '/d' }] }], ...podSpec } },
  });
  const errs = createErrors(kind, template({ restartPolicy: 'OnFailure' }));
  assert.ok(has(errs, 'FieldValueNotSupported', 'spec.template.spec.restartPolicy'), summary(errs).join());
  assert.equal(errs.find((e) => e.field === 'spec.template.spec.restartPolicy' && e.type === 'FieldValueNotSupported')!.detail, 'supported values: "Always"');
  assert.ok(has(createErrors(kind, template({ restartPolicy: 'Never' })), 'FieldValueNotSupported', 'spec.template.spec.restartPolicy'));
  assert.ok(has(createErrors(kind, template({ activeDeadlineSeconds: 10 })), 'FieldValueForbidden', 'spec.template.spec.activeDeadlineSeconds'));
});

test('podManagementPolicy and claim retention take known values', () => {
  assert.deepEqual(summary(createErrors(kind, sts({ podManagementPolicy: 'Random' }))), ['FieldValueNotSupported spec.podManagementPolicy']);
  assert.deepEqual(summary(createErrors(kind, sts({ persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Keep' } }))), ['FieldValueNotSupported spec.persistentVolumeClaimRetentionPolicy.whenDeleted']);
});

test('only replicas, ordinals, template, updateStrategy, claim retention and minReadySeconds may change', () => {
  const old = sts();
  const allowed = sts({
    replicas: 5, ordinals: { start: 2 }, minReadySeconds: 10,
    updateStrategy: { type: 'OnDelete' },
    persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Delete' },
    template: { metadata: { labels: { app: 'web', v: '2' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.26', volumeMounts: [{ name: 'data', mountPath: '/data' }] }] } },
  });
  assert.deepEqual(updateErrors(kind, allowed, old), []);
  const changes: Record<string, unknown>[] = [
    { selector: { matchLabels: { app: 'web', tier: 'front' } } },
    { serviceName: 'other' },
    { volumeClaimTemplates: [{ ...claim('data'), spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '2Gi' } } } }] },
    { podManagementPolicy: 'Parallel' },
    { revisionHistoryLimit: 3 },
  ];
  for (const change of changes) {
    const errs = updateErrors(kind, sts(change), old);
    assert.deepEqual(summary(errs), ['FieldValueForbidden spec'], JSON.stringify(change));
    assert.equal(errs[0]!.detail,
      "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden");
  }
});

test('updates are validated like creates', () => {
  assert.ok(has(updateErrors(kind, sts({ replicas: -1 }), sts()), 'FieldValueInvalid', 'spec.replicas'));
});

test('status counts are consistent', () => {
  const old = sts({}, { status: { replicas: 1, collisionCount: 2 } });
  const ok = { replicas: 3, readyReplicas: 3, availableReplicas: 2, currentReplicas: 3, updatedReplicas: 1, collisionCount: 2, observedGeneration: 4 };
  assert.deepEqual(statusUpdateErrors(kind, sts({}, { status: ok }), old), []);
  assert.deepEqual(summary(statusUpdateErrors(kind, sts({}, { status: { ...ok, readyReplicas: 4, availableReplicas: 0 } }), old)), ['FieldValueInvalid status.readyReplicas']);
  assert.deepEqual(summary(statusUpdateErrors(kind, sts({}, { status: { ...ok, availableReplicas: 3, readyReplicas: 2 } }), old)), ['FieldValueInvalid status.availableReplicas']);
  assert.ok(has(statusUpdateErrors(kind, sts({}, { status: { ...ok, replicas: -1 } }), old), 'FieldValueInvalid', 'status.replicas'));
  assert.deepEqual(summary(statusUpdateErrors(kind, sts({}, { status: { ...ok, collisionCount: 1 } }), old)), ['FieldValueInvalid status.collisionCount']);
  assert.ok(has(statusUpdateErrors(kind, sts({}, { status: { readyReplicas: 0 } }), old), 'FieldValueRequired', 'status.replicas'));
});

test('stateful set names are DNS labels', () => {
  assert.deepEqual(statefulSetValidation.name('web', false), []);
  assert.ok(statefulSetValidation.name('web.v1', false).length > 0);
});
