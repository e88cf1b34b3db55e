import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NetworkPolicyPort, defaultNetworkPolicy, type NetworkPolicy } from './network-policy.js';

const policy = (spec: Record<string, unknown>) => ({ metadata: { name: 'p' }, spec: { podSelector: {}, ...spec } }) as NetworkPolicy;

test('policyTypes default to Ingress, plus Egress when there are egress rules', () => {
  const ingressOnly = policy({ ingress: [{}] });
  defaultNetworkPolicy(ingressOnly);
  assert.deepEqual(ingressOnly.spec!.policyTypes, ['Ingress']);
  const both = policy({ egress: [{ to: [] }] });
  defaultNetworkPolicy(both);
  assert.deepEqual(both.spec!.policyTypes, ['Ingress', 'Egress']);
});

test('explicit policyTypes are kept', () => {
  const egressOnly = policy({ policyTypes: ['Egress'] });
  defaultNetworkPolicy(egressOnly);
  assert.deepEqual(egressOnly.spec!.policyTypes, ['Egress']);
});

test('port protocols default to TCP in the schema', () => {
  assert.equal(NetworkPolicyPort.properties.protocol.default, 'TCP');
});
