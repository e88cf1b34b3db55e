import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apiDomain } from '../../../api/domain.js';
import { builtinPlugins } from '../builtin.js';
import type { AdmissionObject, MutationInterface } from '../interfaces.js';
import { podAttrs } from '../testing/attrs.js';
import { staticDeps } from '../testing/deps.js';
import { defaultIngressClassFactory } from './plugin.js';

const ic = (name: string, created: string, annotations: Record<string, string> = {}): AdmissionObject =>
  ({ metadata: { name, creationTimestamp: created, annotations }, spec: { controller: 'example.com/ingress' } });
const isDefault = { 'ingressclass.orch.io/is-default-class': 'true' };
const ingress = (spec: Record<string, unknown> = {}, annotations?: Record<string, string>): AdmissionObject =>
  ({ metadata: { name: 'web', ...(annotations ? { annotations } : {}) }, spec: { defaultBackend: { service: { name: 'web', port: { number: 80 } } }, ...spec } });
const classOf = (o: AdmissionObject) => (o['spec'] as { ingressClassName?: string | null }).ingressClassName;
const attrs = (object: AdmissionObject, over: { group?: string; resource?: string; subresource?: string } = {}) => podAttrs({
  kind: { group: 'networking.orch.io', version: 'v1', kind: 'Ingress' },
  resource: { group: over.group ?? 'networking.orch.io', version: 'v1', resource: over.resource ?? 'ingresses' },
  subresource: over.subresource ?? '',
  object,
});
function make(classes: AdmissionObject[], domain = 'orch.io'): MutationInterface {
  const d = apiDomain(domain);
  return defaultIngressClassFactory(undefined, staticDeps({ [`${d.group('networking')}/ingressclasses`]: classes }, d)) as MutationInterface;
}

test('registered and on by default; handles creates only', () => {
  assert.ok(builtinPlugins().has('DefaultIngressClass'));
  const p = make([]);
  assert.deepEqual((['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as const).map((o) => p.handles(o)), [true, false, false, false]);
});

test('an ingress without a class gets the default one; only "true" marks it', async () => {
  const classes = [ic('internal', '2024-01-01T00:00:00Z', { 'ingressclass.orch.io/is-default-class': 'True' }), ic('public', '2023-01-01T00:00:00Z', isDefault)];
  for (const obj of [ingress(), ingress({ ingressClassName: null }), { metadata: { name: 'bare' } }]) {
    await make(classes).admit(attrs(obj));
    assert.equal(classOf(obj), 'public');
  }
});

test('of several defaults the newest wins, then the first by name', async () => {
  const obj = ingress();
  await make([ic('old', '2023-01-01T00:00:00Z', isDefault), ic('b', '2024-06-01T00:00:00Z', isDefault), ic('a', '2024-06-01T00:00:00Z', isDefault)]).admit(attrs(obj));
  assert.equal(classOf(obj), 'a');
});

test('an ingress naming a class (even the empty one) or carrying the class annotation keeps it; no default, no class', async () => {
  const classes = [ic('public', '2023-01-01T00:00:00Z', isDefault)];
  const named = ingress({ ingressClassName: 'nginx' });
  await make(classes).admit(attrs(named));
  assert.equal(classOf(named), 'nginx');
  const empty = ingress({ ingressClassName: '' });
  await make(classes).admit(attrs(empty));
  assert.equal(classOf(empty), '');
  const annotated = ingress({}, { 'orch.io/ingress.class': 'nginx' });
  await make(classes).admit(attrs(annotated));
  assert.equal(classOf(annotated), undefined);
  const none = ingress();
  await make([ic('plain', '2023-01-01T00:00:00Z')]).admit(attrs(none));
  assert.equal(classOf(none), undefined);
});

test('annotation keys follow the domain; other resources and sub-resources are left alone', async () => {
  const k8s = apiDomain('k8s.io');
  const obj = ingress();
  const upstream = [ic('std', '2023-01-01T00:00:00Z', { 'ingressclass.kubernetes.io/is-default-class': 'true' }), ic('orch', '2024-01-01T00:00:00Z', isDefault)];
  await make(upstream, k8s.name).admit(attrs(obj, { group: 'networking.k8s.io' }));
  assert.equal(classOf(obj), 'std');
  const classes = [ic('public', '2023-01-01T00:00:00Z', isDefault)];
  for (const over of [{ subresource: 'status' }, { group: 'extensions' }, { resource: 'ingressclasses' }]) {
    const o = ingress();
    await make(classes).admit(attrs(o, over));
    assert.equal(classOf(o), undefined, JSON.stringify(over));
  }
});
