import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CSIDriverSpec, defaultCSIDriver, type CSIDriver } from './csi-driver.js';

test('empty volumeLifecycleModes become Persistent', () => {
  for (const modes of [undefined, []]) {
    const d = { metadata: { name: 'x' }, spec: { ...(modes ? { volumeLifecycleModes: modes } : {}) } } as CSIDriver;
    defaultCSIDriver(d);
    assert.deepEqual(d.spec.volumeLifecycleModes, ['Persistent']);
  }
  const eph = { metadata: { name: 'x' }, spec: { volumeLifecycleModes: ['Ephemeral'] } } as CSIDriver;
  defaultCSIDriver(eph);
  assert.deepEqual(eph.spec.volumeLifecycleModes, ['Ephemeral']);
});

test('plain defaults are declared in the schema', () => {
  const p = CSIDriverSpec.properties;
  assert.equal(p.attachRequired.default, true);
  assert.equal(p.podInfoOnMount.default, false);
  assert.equal(p.requiresRepublish.default, false);
  assert.equal(p.seLinuxMount.default, false);
  assert.equal(p.storageCapacity.default, false);
  assert.equal(p.fsGroupPolicy.default, 'ReadWriteOnceWithFSType');
  assert.equal(p.volumeLifecycleModes['x-orch-list-type'], 'set');
  assert.equal(p.tokenRequests['x-orch-list-type'], 'atomic');
});
