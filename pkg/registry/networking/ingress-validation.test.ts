import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultApiDomain } from '../../../api/domain.js';
import { Ingress } from '../../../api/networking/v1/ingress.js';
import { IngressClass } from '../../../api/networking/v1/ingress-class.js';
import { createErrors, defaulted, statusUpdateErrors, summary, updateErrors, type KindUnderTest } from '../testing/kind-check.js';
import { ingressClassValidation, ingressValidation } from './ingress-validation.js';

const ingress: KindUnderTest<Ingress> = { schema: Ingress, validation: ingressValidation(defaultApiDomain) };
const ingressClass: KindUnderTest<IngressClass> = { schema: IngressClass, validation: ingressClassValidation };

const svc = (port: Record<string, unknown> = { number: 80 }) => ({ service: { name: 'web', port } });
function ing(spec: Record<string, unknown>, metadata: Record<string, unknown> = {}) {
  return { apiVersion: 'networking.orch.io/v1', kind: 'Ingress', metadata: { name: 'web', namespace: 'default', ...metadata }, spec };
}
const rule = (host: string, paths: unknown[]) => ({ host, http: { paths } });

test('an ingress needs rules or a default backend; paths need a type and absolute paths', () => {
  assert.deepEqual(createErrors(ingress, ing({ rules: [rule('web.example.com', [{ path: '/', pathType: 'Prefix', backend: svc() }])] })), []);
  assert.deepEqual(createErrors(ingress, ing({ defaultBackend: svc({ name: 'http' }) })), []);
  assert.deepEqual(summary(createErrors(ingress, ing({}))), ['FieldValueInvalid spec']);
  assert.deepEqual(summary(createErrors(ingress, ing({ rules: [rule('a.example', [{ path: '/', backend: svc() }])] }))), ['FieldValueRequired spec.rules[0].http.paths[0].pathType']);
  assert.deepEqual(summary(createErrors(ingress, ing({ rules: [rule('a.example', [{ path: '/', pathType: 'Regex', backend: svc() }])] }))), ['FieldValueNotSupported spec.rules[0].http.paths[0].pathType']);
  const rel = createErrors(ingress, ing({ rules: [rule('a.example', [{ path: 'api/../x', pathType: 'Exact', backend: svc() }])] }));
  assert.deepEqual(rel.map((e) => e.detail), ['must be an absolute path', "must not contain '/../'"]);
  assert.deepEqual(createErrors(ingress, ing({ rules: [rule('a.example', [{ pathType: 'ImplementationSpecific', backend: svc() }])] })), []);
  assert.deepEqual(summary(createErrors(ingress, ing({ rules: [rule('a.example', [])] }))), ['FieldValueRequired spec.rules[0].http.paths']);
});

test('backends: a service with a port name or number, or a resource, not both', () => {
  const backend = (b: unknown) => createErrors(ingress, ing({ defaultBackend: b }));
  assert.deepEqual(backend({ ...svc(), resource: { kind: 'Bucket', name: 'b' } }).map((e) => e.detail), ['cannot set both resource and service backends']);
  assert.deepEqual(backend({}).map((e) => e.detail), ['resource or service backend is required']);
  assert.deepEqual(backend(svc({ name: 'http', number: 80 })).map((e) => e.detail), ['cannot set both port name & port number']);
  assert.deepEqual(backend(svc({})).map((e) => `${e.type} ${e.field} ${e.detail}`), ['FieldValueRequired spec.defaultBackend port name or number is required']);
  assert.deepEqual(summary(backend({ service: { name: 'Web_1', port: { number: 70000 } } })), ['FieldValueInvalid spec.defaultBackend.service.name', 'FieldValueInvalid spec.defaultBackend.service.port.number']);
  assert.deepEqual(backend({ resource: { apiGroup: 'k8s.example.com', kind: 'Bucket', name: 'b' } }), []);
});

test('hosts: DNS names, wildcards only as a first label, no IP addresses', () => {
  const host = (h: string) => summary(createErrors(ingress, ing({ rules: [rule(h, [{ path: '/', pathType: 'Prefix', backend: svc() }])] })));
  assert.deepEqual(host('*.example.com'), []);
  assert.deepEqual(host('a.*.example.com'), ['FieldValueInvalid spec.rules[0].host']);
  assert.deepEqual(host('10.0.0.1'), ['FieldValueInvalid spec.rules[0].host']);
  assert.deepEqual(summary(createErrors(ingress, ing({ defaultBackend: svc(), tls: [{ hosts: ['*.example.com', 'Bad_Host'], secretName: 'tls' }] }))), ['FieldValueInvalid spec.tls[0].hosts[1]']);
  const both = createErrors(ingress, ing({ defaultBackend: svc(), ingressClassName: 'nginx' }, { annotations: { 'orch.io/ingress.class': 'nginx' } }));
  assert.deepEqual(both.map((e) => `${e.field} ${e.detail}`), ['annotations.orch.io/ingress.class can not be set when the class field is also set']);
  assert.deepEqual(summary(statusUpdateErrors(ingress, { ...ing({ defaultBackend: svc() }), status: { loadBalancer: { ingress: [{ ip: 'nope' }] } } }, ing({ defaultBackend: svc() }))),
    ['FieldValueInvalid status.loadBalancer.ingress[0].ip']);
});

test('ingress classes: a domain-prefixed controller that cannot change; parameters scoped', () => {
  const ic = (spec: Record<string, unknown>) => ({ apiVersion: 'networking.orch.io/v1', kind: 'IngressClass', metadata: { name: 'nginx' }, spec });
  assert.deepEqual(createErrors(ingressClass, ic({ controller: 'example.com/nginx' })), []);
  assert.deepEqual(createErrors(ingressClass, ic({ controller: 'nginx' })).map((e) => e.detail), ['must be a domain-prefixed path (such as "acme.io/foo")']);
  assert.equal(defaulted(ingressClass, ic({ controller: 'example.com/nginx', parameters: { kind: 'P', name: 'p' } })).spec!.parameters!.scope, 'Cluster');
  assert.deepEqual(summary(createErrors(ingressClass, ic({ controller: 'example.com/nginx', parameters: { kind: 'P', name: 'p', scope: 'Namespace' } }))),
    ['FieldValueRequired spec.parameters.namespace']);
  assert.deepEqual(summary(createErrors(ingressClass, ic({ controller: 'example.com/nginx', parameters: { kind: 'P', name: 'p', namespace: 'x' } }))),
    ['FieldValueForbidden spec.parameters.namespace']);
  assert.deepEqual(summary(updateErrors(ingressClass, ic({ controller: 'example.com/other' }), ic({ controller: 'example.com/nginx' }))), ['FieldValueInvalid spec.controller']);
});
