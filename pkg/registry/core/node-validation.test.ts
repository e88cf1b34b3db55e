import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Node } from '../../../api/core/v1/node.js';
import { nodeRoles, nodeStatus } from '../../../api/core/v1/register.js';
import { createErrors, summary, updateErrors, type KindUnderTest } from '../testing/kind-check.js';
import { nodeValidation, syncPodCIDRs } from './node-validation.js';

const kind: KindUnderTest<Node> = { schema: Node, validation: nodeValidation };
const node = (spec: Record<string, unknown> = {}, status?: Record<string, unknown>) => ({
  apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' }, spec, ...(status ? { status } : {}),
});

test('taints: qualified keys, label values, known effects, unique by key and effect', () => {
  assert.deepEqual(summary(createErrors(kind, node({ taints: [{ key: 'a', effect: 'NoSchedule' }, { key: 'a', effect: 'NoExecute' }] }))), []);
  const errs = createErrors(kind, node({ taints: [
    { key: 'a', effect: 'NoSchedule' }, { key: 'a', effect: 'NoSchedule' }, { key: 'no good', value: 'x', effect: 'NoSchedule' },
    { key: 'b', value: 'not valid!', effect: 'NoSchedule' }, { key: 'c', effect: 'Never' },
  ] }));
  assert.deepEqual(summary(errs).sort(), ['FieldValueDuplicate spec.taints[1]', 'FieldValueInvalid spec.taints[2].key', 'FieldValueInvalid spec.taints[3].value', 'FieldValueNotSupported spec.taints[4].effect'].sort());
  assert.equal(errs.find((e) => e.type === 'FieldValueDuplicate')!.detail, 'taints must be unique by key and effect pair');
});

test('pod CIDRs parse, one per family, and podCIDR follows the list', () => {
  assert.deepEqual(summary(createErrors(kind, node({ podCIDRs: ['10.0.0.0/24', 'fd00::/64'] }))), []);
  assert.deepEqual(summary(createErrors(kind, node({ podCIDRs: ['10.0.0.0/33'] }))), ['FieldValueInvalid spec.podCIDRs[0]']);
  assert.deepEqual(summary(createErrors(kind, node({ podCIDRs: ['10.0.0.0/24', '10.1.0.0/24'] }))), ['FieldValueInvalid spec.podCIDRs']);
  const n = node({ podCIDR: '10.0.0.0/24' }) as Node;
  syncPodCIDRs(n);
  assert.deepEqual(n.spec!.podCIDRs, ['10.0.0.0/24']);
});

test('update: pod CIDRs and provider ID may only be set once', () => {
  assert.deepEqual(summary(updateErrors(kind, node({ podCIDRs: ['10.0.0.0/24'], providerID: 'x://1' }), node())), []);
  const old = node({ podCIDRs: ['10.0.0.0/24'], providerID: 'x://1' });
  assert.deepEqual(summary(updateErrors(kind, node({ podCIDRs: ['10.0.1.0/24'], providerID: 'x://1' }), old)), ['FieldValueForbidden spec.podCIDRs']);
  const e = updateErrors(kind, node({ podCIDRs: ['10.0.0.0/24'], providerID: 'x://2' }), old);
  assert.deepEqual(summary(e), ['FieldValueForbidden spec.providerID']);
  assert.equal(e[0]!.detail, 'node updates may not change providerID except from "" to valid');
  assert.deepEqual(summary(updateErrors(kind, node({ podCIDRs: ['10.0.0.0/24'], providerID: 'x://1', unschedulable: true }), old)), []);
});

test('printer cells: status and roles', () => {
  assert.equal(nodeStatus(node({}, { conditions: [{ type: 'Ready', status: 'True' }] }) as Node), 'Ready');
  assert.equal(nodeStatus(node({ unschedulable: true }, { conditions: [{ type: 'Ready', status: 'Unknown' }] }) as Node), 'NotReady,SchedulingDisabled');
  assert.equal(nodeStatus(node() as Node), 'Unknown');
  assert.deepEqual(nodeRoles({ 'node-role.kubernetes.io/worker': '', 'node-role.orch.io/control-plane': '', 'kubernetes.io/role': 'infra', 'node-role.kubernetes.io/': '' }, 'orch.io'),
    ['control-plane', 'infra', 'worker']);
});
