import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiDomain } from '../../../api/domain.js';
import { isStatusError } from '../../runtime/errors.js';
import { AttributesRecord } from '../attributes.js';
import { builtinPlugins } from '../builtin.js';
import type { AdmissionObject, MutationInterface, Operation } from '../interfaces.js';
import { staticDeps } from '../testing/deps.js';
import { taintNodesByConditionFactory } from './plugin.js';

const user = { name: 'kubelet', groups: [], extra: {} };
function attrs(op: Operation, object: unknown, init: { resource?: string; group?: string; subresource?: string; dryRun?: boolean } = {}) {
  return new AttributesRecord({
    kind: { group: '', version: 'v1', kind: 'Node' },
    resource: { group: init.group ?? '', version: 'v1', resource: init.resource ?? 'nodes' },
    subresource: init.subresource ?? '', name: 'n1', operation: op, object: object as AdmissionObject, dryRun: init.dryRun ?? false, userInfo: user,
  });
}
const node = (taints?: unknown[]): AdmissionObject => ({ metadata: { name: 'n1' }, spec: taints ? { taints } : {} });
const taints = (o: AdmissionObject) => (o['spec'] as { taints?: unknown[] }).taints;
const make = (domain = 'orch.io') => taintNodesByConditionFactory(undefined, staticDeps({}, apiDomain(domain))) as MutationInterface;
const notReady = { key: 'node.orch.io/not-ready', effect: 'NoSchedule' };

test('registered; handles creates only', () => {
  assert.ok(builtinPlugins().has('TaintNodesByCondition'));
  const p = make();
  assert.equal(p.name, 'TaintNodesByCondition');
  assert.deepEqual((['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as Operation[]).map((o) => p.handles(o)), [true, false, false, false]);
});

test('a new node gets the not-ready NoSchedule taint after its own, dry run included', async () => {
  for (const dryRun of [false, true]) {
    const o = node();
    await make().admit(attrs('CREATE', o, { dryRun }));
    assert.deepEqual(taints(o), [notReady]);
  }
  const own = { key: 'dedicated', value: 'gpu', effect: 'NoExecute' };
  const o = node([own]);
  await make().admit(attrs('CREATE', o));
  assert.deepEqual(taints(o), [own, notReady]);
  const noSpec: AdmissionObject = { metadata: { name: 'n1' } };
  await make().admit(attrs('CREATE', noSpec));
  assert.deepEqual(taints(noSpec), [notReady]);
});

test('a node that already has the taint (any value) is left as it is; another effect is not the same taint', async () => {
  const mine = { key: 'node.orch.io/not-ready', value: 'x', effect: 'NoSchedule' };
  const o = node([mine]);
  await make().admit(attrs('CREATE', o));
  assert.deepEqual(taints(o), [mine]);
  const noExecute = { key: 'node.orch.io/not-ready', effect: 'NoExecute' };
  const o2 = node([noExecute]);
  await make().admit(attrs('CREATE', o2));
  assert.deepEqual(taints(o2), [noExecute, notReady]);
});

test('the key follows the domain', async () => {
  const o = node();
  await make('k8s.io').admit(attrs('CREATE', o));
  assert.deepEqual(taints(o), [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }]);
});

test('sub-resources and other resources are left alone', async () => {
  for (const init of [{ subresource: 'status' }, { resource: 'pods' }, { group: 'example.io' }]) {
    const o = node();
    await make().admit(attrs('CREATE', o, init));
    assert.equal(taints(o), undefined, JSON.stringify(init));
  }
});

test('a body that is no object is refused', async () => {
  await assert.rejects(async () => make().admit(attrs('CREATE', 'nonsense')), (e: unknown) => {
    assert.ok(isStatusError(e));
    assert.equal(e.code, 403);
    assert.equal(e.message, 'nodes "n1" is forbidden: unexpected type string');
    return true;
  });
});
