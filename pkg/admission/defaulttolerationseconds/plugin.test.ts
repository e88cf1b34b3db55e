import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiDomain } from '../../../api/domain.js';
import { AttributesRecord } from '../attributes.js';
import { builtinPlugins } from '../builtin.js';
import type { AdmissionObject, MutationInterface, Operation } from '../interfaces.js';
import { staticDeps } from '../testing/deps.js';
import { defaultTolerationSecondsFactory, parseConfig } from './plugin.js';

const user = { name: 'jane', groups: [], extra: {} };
function attrs(op: Operation, object: AdmissionObject, init: { resource?: string; group?: string; subresource?: string; dryRun?: boolean } = {}) {
  return new AttributesRecord({
    kind: { group: init.group ?? '', version: 'v1', kind: 'Pod' },
    resource: { group: init.group ?? '', version: 'v1', resource: init.resource ?? 'pods' },
    subresource: init.subresource ?? '', name: 'p', namespace: 'team', operation: op, object, dryRun: init.dryRun ?? false, userInfo: user,
  });
}
const pod = (tolerations?: unknown[]): AdmissionObject => ({ metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i' }], ...(tolerations ? { tolerations } : {}) } });
const tolerations = (o: AdmissionObject) => (o['spec'] as { tolerations?: unknown[] }).tolerations;
const make = (config?: unknown, domain = 'orch.io') => defaultTolerationSecondsFactory(config, staticDeps({}, apiDomain(domain))) as MutationInterface;

const notReady = { key: 'node.orch.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };
const unreachable = { key: 'node.orch.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };

test('registered; handles pod creates and updates', () => {
  assert.ok(builtinPlugins().has('DefaultTolerationSeconds'));
  const p = make();
  assert.equal(p.name, 'DefaultTolerationSeconds');
  assert.deepEqual((['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as Operation[]).map((o) => p.handles(o)), [true, true, false, false]);
});

test('a pod without tolerations gets both, with 300 seconds, after its own', async () => {
  for (const dryRun of [false, true]) {
    const o = pod();
    await make().admit(attrs('CREATE', o, { dryRun }));
    assert.deepEqual(tolerations(o), [notReady, unreachable]);
  }
  const own = { key: 'gpu', operator: 'Exists', effect: 'NoSchedule' };
  const o = pod([own]);
  await make().admit(attrs('UPDATE', o));
  assert.deepEqual(tolerations(o), [own, notReady, unreachable]);
  // A pod object without spec gets one.
  const bare: AdmissionObject = { metadata: { name: 'p' } };
  await make().admit(attrs('CREATE', bare));
  assert.deepEqual(tolerations(bare), [notReady, unreachable]);
});

test('a pod that already tolerates a taint keeps its own toleration', async () => {
  const mine = { key: 'node.orch.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 };
  const o = pod([mine]);
  await make().admit(attrs('CREATE', o));
  assert.deepEqual(tolerations(o), [mine, unreachable]);
  // An empty effect tolerates every effect, an empty key every key.
  const anyEffect = { key: 'node.orch.io/unreachable', operator: 'Exists' };
  const o2 = pod([anyEffect]);
  await make().admit(attrs('CREATE', o2));
  assert.deepEqual(tolerations(o2), [anyEffect, notReady]);
  const all = { operator: 'Exists' };
  const o3 = pod([all]);
  await make().admit(attrs('CREATE', o3));
  assert.deepEqual(tolerations(o3), [all]);
  const allNoExecute = { operator: 'Exists', effect: 'NoExecute' };
  const o4 = pod([allNoExecute]);
  await make().admit(attrs('CREATE', o4));
  assert.deepEqual(tolerations(o4), [allNoExecute]);
  // Another effect does not count.
  const noSchedule = { key: 'node.orch.io/not-ready', operator: 'Exists', effect: 'NoSchedule' };
  const o5 = pod([noSchedule]);
  await make().admit(attrs('CREATE', o5));
  assert.deepEqual(tolerations(o5), [noSchedule, notReady, unreachable]);
});

test('the seconds come from the configuration (the two flags)', async () => {
  const o = pod();
  await make({ notReadyTolerationSeconds: 60, unreachableTolerationSeconds: 0 }).admit(attrs('CREATE', o));
  assert.deepEqual(tolerations(o), [{ ...notReady, tolerationSeconds: 60 }, { ...unreachable, tolerationSeconds: 0 }]);
  assert.deepEqual(parseConfig({ unreachableTolerationSeconds: 10 }), { notReadyTolerationSeconds: 300, unreachableTolerationSeconds: 10 });
  assert.throws(() => make({ notReadyTolerationSeconds: 1.5 }), /notReadyTolerationSeconds must be an integer/);
  assert.throws(() => make({ unreachableTolerationSeconds: '30' }), /unreachableTolerationSeconds must be an integer/);
  assert.throws(() => make([1]), /configuration must be an object/);
});

test('taint keys follow the domain', async () => {
  const o = pod();
  await make(undefined, 'k8s.io').admit(attrs('CREATE', o));
  assert.deepEqual(tolerations(o), [{ ...notReady, key: 'node.kubernetes.io/not-ready' }, { ...unreachable, key: 'node.kubernetes.io/unreachable' }]);
});

test('sub-resources and other resources are left alone', async () => {
  for (const init of [{ subresource: 'status' }, { subresource: 'ephemeralcontainers' }, { resource: 'podtemplates' }, { group: 'apps', resource: 'pods' }]) {
    const o = pod();
    await make().admit(attrs('UPDATE', o, init));
    assert.equal(tolerations(o), undefined, JSON.stringify(init));
  }
});
