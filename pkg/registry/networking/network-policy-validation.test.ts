import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NetworkPolicy, defaultNetworkPolicy } from '../../../api/networking/v1/network-policy.js';
import { createErrors, defaulted, has, statusUpdateErrors, summary, updateErrors, type KindUnderTest } from '../testing/kind-check.js';
import { networkPolicyValidation } from './network-policy-validation.js';

const kind: KindUnderTest<NetworkPolicy> = { schema: NetworkPolicy, validation: networkPolicyValidation, defaulter: defaultNetworkPolicy };
const np = (spec: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  ({ apiVersion: 'networking.orch.io/v1', kind: 'NetworkPolicy', metadata: { name: 'p', namespace: 'default' }, spec: { podSelector: {}, ...spec }, ...extra });
const from = (...peers: unknown[]) => np({ ingress: [{ from: peers }] });
const ports = (...p: unknown[]) => np({ ingress: [{ ports: p }] });

test('a full policy is accepted', () => {
  const policy = np({
    podSelector: { matchLabels: { app: 'db' } },
    ingress: [{
      from: [
        { podSelector: { matchLabels: { app: 'web' } } },
        { namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'In', values: ['a'] }] }, podSelector: {} },
        { ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16', '10.2.3.4/32'] } },
        { ipBlock: { cidr: '2001:db8::/32', except: ['2001:db8:1::/48'] } },
      ],
      ports: [{ port: 5432 }, { protocol: 'UDP', port: 'dns' }, { port: 8000, endPort: 9000 }, {}],
    }],
    egress: [{ to: [{ ipBlock: { cidr: '0.0.0.0/0' } }] }],
    policyTypes: ['Ingress', 'Egress'],
  });
  assert.deepEqual(createErrors(kind, policy), []);
});

test('policyTypes are derived from the rules when unset; protocols default to TCP', () => {
  assert.deepEqual(defaulted(kind, np({})).spec!.policyTypes, ['Ingress']);
  assert.deepEqual(defaulted(kind, np({ egress: [{}] })).spec!.policyTypes, ['Ingress', 'Egress']);
  assert.deepEqual(defaulted(kind, np({ egress: [] })).spec!.policyTypes, ['Ingress']);
  assert.deepEqual(defaulted(kind, np({ egress: [{}], policyTypes: ['Egress'] })).spec!.policyTypes, ['Egress']);
  assert.equal(defaulted(kind, ports({ port: 80 })).spec!.ingress![0]!.ports![0]!.protocol, 'TCP');
});

test('podSelector is required and validated', () => {
  const noSelector = { apiVersion: 'networking.orch.io/v1', kind: 'NetworkPolicy', metadata: { name: 'p', namespace: 'd' }, spec: {} };
  assert.ok(has(createErrors(kind, noSelector), 'FieldValueRequired', 'spec.podSelector'));
  const bad = createErrors(kind, np({ podSelector: { matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] } }));
  assert.deepEqual(summary(bad), ['FieldValueForbidden spec.podSelector.matchExpressions[0].values']);
  assert.deepEqual(summary(createErrors(kind, from({ namespaceSelector: { matchLabels: { 'bad key!': 'x' } } }))), ['FieldValueInvalid spec.ingress[0].from[0].namespaceSelector.matchLabels']);
  assert.deepEqual(summary(createErrors(kind, np({ egress: [{ to: [{ podSelector: { matchExpressions: [{ key: 'a', operator: 'In' }] } }] }] }))),
    ['FieldValueRequired spec.egress[0].to[0].podSelector.matchExpressions[0].values']);
});

test('a peer names at least one field, and ipBlock stands alone', () => {
  const empty = createErrors(kind, from({}));
  assert.deepEqual(summary(empty), ['FieldValueRequired spec.ingress[0].from[0]']);
  assert.equal(empty[0]!.detail, 'must specify a peer');
  const mixed = createErrors(kind, from({ ipBlock: { cidr: '10.0.0.0/8' }, podSelector: {} }));
  assert.deepEqual(summary(mixed), ['FieldValueForbidden spec.ingress[0].from[0]']);
  assert.equal(mixed[0]!.detail, 'may not specify both ipBlock and another peer');
  assert.deepEqual(summary(createErrors(kind, np({ egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/8' }, namespaceSelector: {} }] }] }))), ['FieldValueForbidden spec.egress[0].to[0]']);
});

test('CIDRs must be valid', () => {
  for (const cidr of ['10.0.0.0', '10.0.0.0/33', '300.0.0.0/8', '010.0.0.0/8', '10.0/8', 'fe80::1%eth0/64', '2001:db8::/129', 'nope', '10.0.0.0/08']) {
    assert.deepEqual(summary(createErrors(kind, from({ ipBlock: { cidr } }))), ['FieldValueInvalid spec.ingress[0].from[0].ipBlock.cidr'], cidr);
  }
  assert.ok(has(createErrors(kind, from({ ipBlock: { cidr: '' } })), 'FieldValueRequired', 'spec.ingress[0].from[0].ipBlock.cidr'));
  assert.ok(has(createErrors(kind, from({ ipBlock: {} })), 'FieldValueRequired', 'spec.ingress[0].from[0].ipBlock.cidr'));
  assert.deepEqual(summary(createErrors(kind, from({ ipBlock: { cidr: '10.0.0.0/8', except: ['bogus'] } }))), ['FieldValueInvalid spec.ingress[0].from[0].ipBlock.except[0]']);
});

test('excepts lie strictly inside the CIDR', () => {
  for (const except of ['192.168.0.0/16', '10.0.0.0/8', '10.0.0.0/7', '2001:db8::/64']) {
    const errs = createErrors(kind, from({ ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16', except] } }));
    assert.deepEqual(summary(errs), ['FieldValueInvalid spec.ingress[0].from[0].ipBlock.except[1]'], except);
    assert.equal(errs[0]!.detail, 'must be a strict subset of `cidr`');
  }
});

test('CIDRs already stored stay acceptable on update', () => {
  const old = from({ ipBlock: { cidr: '010.0.0.0/8' } });
  assert.deepEqual(updateErrors(kind, np({ ingress: [{ from: [{ ipBlock: { cidr: '010.0.0.0/8' } }], ports: [{ port: 1 }] }] }), old), []);
  assert.deepEqual(summary(updateErrors(kind, from({ ipBlock: { cidr: '011.0.0.0/8' } }), old)), ['FieldValueInvalid spec.ingress[0].from[0].ipBlock.cidr']);
});

test('ports are in range and named ports well-formed', () => {
  assert.deepEqual(summary(createErrors(kind, ports({ port: 0 }))), ['FieldValueInvalid spec.ingress[0].ports[0].port']);
  assert.deepEqual(summary(createErrors(kind, ports({ port: 65536 }))), ['FieldValueInvalid spec.ingress[0].ports[0].port']);
  assert.ok(has(createErrors(kind, ports({ port: 'Not_A_Name' })), 'FieldValueInvalid', 'spec.ingress[0].ports[0].port'));
});

test('endPort needs a numeric port at or below it', () => {
  const named = createErrors(kind, ports({ port: 'http', endPort: 90 }));
  assert.deepEqual(summary(named), ['FieldValueInvalid spec.ingress[0].ports[0].endPort']);
  assert.equal(named[0]!.detail, 'may not be specified when `port` is non-numeric');
  const missing = createErrors(kind, ports({ endPort: 90 }));
  assert.deepEqual(summary(missing), ['FieldValueInvalid spec.ingress[0].ports[0].endPort']);
  assert.equal(missing[0]!.detail, 'may not be specified when `port` is not specified');
  const below = createErrors(kind, ports({ port: 100, endPort: 90 }));
  assert.deepEqual(summary(below), ['FieldValueInvalid spec.ingress[0].ports[0].endPort']);
  assert.equal(below[0]!.detail, 'must be greater than or equal to `port`');
  assert.deepEqual(summary(createErrors(kind, ports({ port: 100, endPort: 70000 }))), ['FieldValueInvalid spec.ingress[0].ports[0].endPort']);
  assert.deepEqual(createErrors(kind, ports({ port: 100, endPort: 100 })), []);
});

test('protocols and policy types take known values', () => {
  assert.deepEqual(summary(createErrors(kind, ports({ protocol: 'ICMP', port: 1 }))), ['FieldValueNotSupported spec.ingress[0].ports[0].protocol']);
  assert.deepEqual(summary(createErrors(kind, np({ policyTypes: ['Sideways'] }))), ['FieldValueNotSupported spec.policyTypes[0]']);
  assert.deepEqual(summary(createErrors(kind, np({ policyTypes: ['Ingress', 'Egress', 'Ingress'] }))), ['FieldValueInvalid spec.policyTypes']);
});

test('status conditions are well-formed', () => {
  const cond = { type: 'Accepted', status: 'True', lastTransitionTime: '2024-01-01T00:00:00Z', reason: 'Ok', message: '' };
  const old = np({});
  assert.deepEqual(statusUpdateErrors(kind, np({}, { status: { conditions: [cond] } }), old), []);
  assert.deepEqual(summary(statusUpdateErrors(kind, np({}, { status: { conditions: [cond, cond] } }), old)), ['FieldValueDuplicate status.conditions[1].type']);
  assert.deepEqual(summary(statusUpdateErrors(kind, np({}, { status: { conditions: [{ ...cond, reason: '' }] } }), old)), ['FieldValueRequired status.conditions[0].reason']);
});
