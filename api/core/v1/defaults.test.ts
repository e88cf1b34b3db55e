import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultLimitRange, type LimitRange } from './limit-range.js';
import { apiDomain, defaultApiDomain } from '../../domain.js';
import { defaultNamespace, type Namespace } from './namespace.js';
import { Secret, defaultSecret } from './secret.js';

test('namespaces are labelled with their name and start Active', () => {
  const ns: Namespace = { metadata: { name: 'team-a', labels: { owner: 'x' } } };
  defaultNamespace(ns, defaultApiDomain);
  assert.deepEqual(ns.metadata!.labels, { owner: 'x', 'orch.io/metadata.name': 'team-a' });
  const upstream: Namespace = { metadata: { name: 'team-a' } };
  defaultNamespace(upstream, apiDomain('k8s.io'));
  assert.deepEqual(upstream.metadata!.labels, { 'kubernetes.io/metadata.name': 'team-a' });
  assert.equal(ns.status!.phase, 'Active');
  const generated: Namespace = { metadata: { generateName: 'tmp-' }, status: { phase: 'Terminating' } };
  defaultNamespace(generated, defaultApiDomain);
  assert.equal(generated.metadata!.labels, undefined);
  assert.equal(generated.status!.phase, 'Terminating');
});

test('secret stringData is folded into data', () => {
  const s: Secret = { metadata: { name: 's' }, data: { a: Buffer.from('old').toString('base64') }, stringData: { a: 'new', b: 'two' } };
  defaultSecret(s);
  assert.equal(s.stringData, undefined);
  assert.deepEqual(s.data, { a: Buffer.from('new').toString('base64'), b: Buffer.from('two').toString('base64') });
  assert.equal(s.type, 'Opaque');
  assert.equal(Secret.properties.type.default, 'Opaque');
  const empty: Secret = { metadata: { name: 's' }, type: '' };
  defaultSecret(empty);
  assert.equal(empty.type, 'Opaque');
  const typed: Secret = { metadata: { name: 's' }, type: 'orch.io/tls' };
  defaultSecret(typed);
  assert.equal(typed.type, 'orch.io/tls');
});

test('container limits default from max, then default, then min', () => {
  const lr: LimitRange = { metadata: { name: 'l' }, spec: { limits: [
    { type: 'Container', max: { cpu: '2' }, min: { memory: '64Mi' }, defaultRequest: { cpu: '100m' } },
    { type: 'Pod', max: { cpu: '4' } },
  ] } };
  defaultLimitRange(lr);
  assert.deepEqual(lr.spec!.limits[0]!.default, { cpu: '2' });
  assert.deepEqual(lr.spec!.limits[0]!.defaultRequest, { cpu: '100m', memory: '64Mi' });
  assert.equal(lr.spec!.limits[1]!.default, undefined);
});
