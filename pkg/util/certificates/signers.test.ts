import { signerNames } from '../../../api/certificates/v1/register.js';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apiDomain, defaultApiDomain } from '../../../api/domain.js';
import { checkBuiltInSigner, kubeAPIServerClientViolation, kubeletClientViolation, kubeletServingViolation, type RequestNames } from './signers.js';

const names = (o: Partial<RequestNames>): RequestNames => ({ commonName: '', organizations: [], dnsNames: [], emailAddresses: [], ipAddresses: [], uris: [], ...o });
const node = (o: Partial<RequestNames> = {}) => names({ commonName: 'system:node:n1', organizations: ['system:nodes'], ...o });
const clientUsages = ['digital signature', 'key encipherment', 'client auth'];
const servingUsages = ['digital signature', 'key encipherment', 'server auth'];

test('signer names derive from the platform domain', () => {
  assert.deepEqual(signerNames(defaultApiDomain), {
    kubeAPIServerClient: 'orch.io/kube-apiserver-client',
    kubeAPIServerClientKubelet: 'orch.io/kube-apiserver-client-kubelet',
    kubeletServing: 'orch.io/kubelet-serving',
    legacyUnknown: 'orch.io/legacy-unknown',
  });
  assert.equal(signerNames(apiDomain('k8s.io')).kubeletServing, 'kubernetes.io/kubelet-serving');
});

test('kubelet client rule: upstream ValidateKubeletClientCSR cases, checked in upstream order', () => {
  const cases: [string, RequestNames, string[], string | undefined][] = [
    ['valid, RSA usages', node(), clientUsages, undefined],
    ['valid, usages without key encipherment', node(), ['digital signature', 'client auth'], undefined],
    ['duplicated usages are one set', node(), ['client auth', 'digital signature', 'client auth'], undefined],
    ['no organization', node({ organizations: [] }), clientUsages, 'subject organization is not system:nodes'],
    ['extra organization', node({ organizations: ['system:nodes', 'other'] }), clientUsages, 'subject organization is not system:nodes'],
    ['wrong organization', node({ organizations: ['system:masters'] }), clientUsages, 'subject organization is not system:nodes'],
    ['DNS SAN', node({ dnsNames: ['n1'] }), clientUsages, 'DNS subjectAltNames are not allowed'],
    ['email SAN', node({ emailAddresses: ['a@b.c'] }), clientUsages, 'Email subjectAltNames are not allowed'],
    ['IP SAN', node({ ipAddresses: ['10.0.0.1'] }), clientUsages, 'IP subjectAltNames are not allowed'],
    ['URI SAN', node({ uris: ['spiffe://x'] }), clientUsages, 'URI subjectAltNames are not allowed'],
    ['bad common name', node({ commonName: 'n1' }), clientUsages, 'subject common name does not begin with system:node:'],
    ['bad common name before usages', node({ commonName: 'n1' }), ['server auth'], 'subject common name does not begin with system:node:'],
    ['server usage', node(), ['digital signature', 'key encipherment', 'server auth'], 'usages did not match [client auth digital signature key encipherment]'],
    ['extra usage', node(), [...clientUsages, 'server auth'], 'usages did not match [client auth digital signature key encipherment]'],
    ['missing usage', node(), ['client auth'], 'usages did not match [client auth digital signature key encipherment]'],
  ];
  for (const [name, req, usages, want] of cases) assert.equal(kubeletClientViolation(req, usages), want, name);
});

test('kubelet serving rule: upstream ValidateKubeletServingCSR cases, checked in upstream order', () => {
  const cases: [string, RequestNames, string[], string | undefined][] = [
    ['valid with DNS', node({ dnsNames: ['n1.example'] }), servingUsages, undefined],
    ['valid with IP, no key encipherment', node({ ipAddresses: ['10.0.0.1'] }), ['digital signature', 'server auth'], undefined],
    ['wrong organization', node({ organizations: ['x'], dnsNames: ['n1'] }), servingUsages, 'subject organization is not system:nodes'],
    ['no DNS or IP', node(), servingUsages, 'DNS or IP subjectAltName is required'],
    ['email SAN', node({ dnsNames: ['n1'], emailAddresses: ['a@b.c'] }), servingUsages, 'Email subjectAltNames are not allowed'],
    ['URI SAN', node({ dnsNames: ['n1'], uris: ['https://x'] }), servingUsages, 'URI subjectAltNames are not allowed'],
    ['client usage', node({ dnsNames: ['n1'] }), clientUsages, 'usages did not match [digital signature key encipherment server auth]'],
    ['usages before common name', node({ dnsNames: ['n1'], commonName: 'x' }), clientUsages, 'usages did not match [digital signature key encipherment server auth]'],
    ['bad common name', node({ dnsNames: ['n1'], commonName: 'x' }), servingUsages, 'subject common name does not begin with system:node:'],
  ];
  for (const [name, req, usages, want] of cases) assert.equal(kubeletServingViolation(req, usages), want, name);
});

test('kube-apiserver client rule: client auth required, only signature and encipherment besides', () => {
  assert.equal(kubeAPIServerClientViolation(['client auth']), undefined);
  assert.equal(kubeAPIServerClientViolation(clientUsages), undefined);
  assert.equal(kubeAPIServerClientViolation(['digital signature']), 'missing required usage for client certificate: client auth');
  assert.equal(kubeAPIServerClientViolation([]), 'missing required usage for client certificate: client auth');
  assert.equal(kubeAPIServerClientViolation(['client auth', 'server auth']), 'invalid usage for client certificate: server auth');
});

test('checkBuiltInSigner dispatches by signer name; legacy-unknown has no rule; other signers are not ours', () => {
  const s = signerNames(defaultApiDomain);
  const anything = names({ commonName: 'x', dnsNames: ['y'] });
  assert.deepEqual(checkBuiltInSigner(s, s.legacyUnknown, anything, ['server auth']), { violation: undefined });
  assert.deepEqual(checkBuiltInSigner(s, s.kubeAPIServerClient, anything, ['server auth']), { violation: 'invalid usage for client certificate: server auth' });
  assert.deepEqual(checkBuiltInSigner(s, s.kubeAPIServerClientKubelet, node(), clientUsages), { violation: undefined });
  assert.deepEqual(checkBuiltInSigner(s, s.kubeletServing, node(), servingUsages), { violation: 'DNS or IP subjectAltName is required' });
  assert.equal(checkBuiltInSigner(s, 'example.com/custom', anything, []), undefined);
  assert.equal(checkBuiltInSigner(s, 'kubernetes.io/kubelet-serving', anything, []), undefined);
});
