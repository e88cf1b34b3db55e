import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatefulSetSpec, defaultStatefulSet, type StatefulSet } from './stateful-set.js';

const base = (spec: Record<string, unknown> = {}): StatefulSet =>
  ({ metadata: { name: 'web' }, spec: { serviceName: 'web', selector: {}, template: { spec: { containers: [] } }, ...spec } }) as unknown as StatefulSet;

test('an unset update strategy becomes RollingUpdate with partition 0', () => {
  const s = base();
  defaultStatefulSet(s);
  assert.deepEqual(s.spec!.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { partition: 0 } });
});

test('an explicit strategy keeps its shape; partition defaults only for RollingUpdate', () => {
  const rolling = base({ updateStrategy: { type: 'RollingUpdate' } });
  defaultStatefulSet(rolling);
  assert.deepEqual(rolling.spec!.updateStrategy, { type: 'RollingUpdate' });
  const withParams = base({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2 } } });
  defaultStatefulSet(withParams);
  assert.deepEqual(withParams.spec!.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2, partition: 0 } });
  const onDelete = base({ updateStrategy: { type: 'OnDelete' } });
  defaultStatefulSet(onDelete);
  assert.deepEqual(onDelete.spec!.updateStrategy, { type: 'OnDelete' });
});

test('empty strings take their defaults, as upstream', () => {
  const s = base({ podManagementPolicy: '', persistentVolumeClaimRetentionPolicy: { whenDeleted: '', whenScaled: 'Delete' } });
  defaultStatefulSet(s);
  assert.equal(s.spec!.podManagementPolicy, 'OrderedReady');
  assert.deepEqual(s.spec!.persistentVolumeClaimRetentionPolicy, { whenDeleted: 'Retain', whenScaled: 'Delete' });
});

test('claims are retained by default', () => {
  const s = base({ persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete' } });
  defaultStatefulSet(s);
  assert.deepEqual(s.spec!.persistentVolumeClaimRetentionPolicy, { whenDeleted: 'Delete', whenScaled: 'Retain' });
});

test('the pod template is defaulted', () => {
  const s = base({ template: { spec: { containers: [{ name: 'c', image: 'nginx' }] } } });
  defaultStatefulSet(s);
  assert.equal(s.spec!.template.spec!.restartPolicy, 'Always');
  assert.equal(s.spec!.template.spec!.dnsPolicy, 'ClusterFirst');
});

test('plain defaults are declared in the schema', () => {
  const p = StatefulSetSpec.properties;
  assert.equal(p.replicas.default, 1);
  assert.equal(p.podManagementPolicy.default, 'OrderedReady');
  assert.equal(p.revisionHistoryLimit.default, 10);
  assert.equal(p.minReadySeconds.default, 0);
  assert.deepEqual(StatefulSetSpec.required, ['selector', 'template', 'serviceName']);
});
