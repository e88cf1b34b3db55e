import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Service, defaultService } from '../../../api/core/v1/service.js';
import { serviceExternalIP, servicePorts } from '../../../api/core/v1/register.js';
import { createErrors, summary, updateErrors, type KindUnderTest } from '../testing/kind-check.js';
import { serviceValidation } from './service-validation.js';
import { dropTypeDependentFields, patchAllocatedValues } from './service/update-fields.js';

const kind: KindUnderTest<Service> = { schema: Service, validation: serviceValidation, defaulter: defaultService };
const svc = (spec: Record<string, unknown>, name = 'web') => ({
  apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default' },
  spec: { selector: { app: 'web' }, ports: [{ port: 80 }], ...spec },
});

test('defaults: type, affinity, protocol, target port and traffic policies', () => {
  const s = svc({ ports: [{ port: 80 }, { name: 'b', port: 81, targetPort: 'http', protocol: '' }] }) as Service;
  defaultService(s);
  assert.equal(s.spec!.type, 'ClusterIP');
  assert.equal(s.spec!.sessionAffinity, 'None');
  assert.deepEqual(s.spec!.ports, [{ port: 80, protocol: 'TCP', targetPort: 80 }, { name: 'b', port: 81, targetPort: 'http', protocol: 'TCP' }]);
  assert.equal(s.spec!.internalTrafficPolicy, 'Cluster');
  assert.equal(s.spec!.externalTrafficPolicy, undefined);
  const lb = svc({ type: 'LoadBalancer', sessionAffinity: 'ClientIP' }) as Service;
  defaultService(lb);
  assert.equal(lb.spec!.externalTrafficPolicy, 'Cluster');
  assert.equal(lb.spec!.allocateLoadBalancerNodePorts, true);
  assert.equal(lb.spec!.sessionAffinityConfig!.clientIP!.timeoutSeconds, 10800);
  const en = svc({ type: 'ExternalName', externalName: 'x.example.com' }) as Service;
  defaultService(en);
  assert.equal(en.spec!.internalTrafficPolicy, undefined);
});

test('valid services of every type are accepted', () => {
  for (const spec of [
    {}, { clusterIP: 'None' }, { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] },
    { type: 'LoadBalancer', externalTrafficPolicy: 'Local', healthCheckNodePort: 30111, loadBalancerSourceRanges: ['10.0.0.0/8'], loadBalancerClass: 'example.com/lb' },
    { type: 'ExternalName', externalName: 'db.example.com.', ports: [] },
    { clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.5'], externalIPs: ['192.0.2.9'], externalTrafficPolicy: 'Cluster' },
  ]) assert.deepEqual(summary(createErrors(kind, svc(spec))), [], JSON.stringify(spec));
});

test('ports: required, named when several, unique, node ports only where the type has them', () => {
  assert.deepEqual(summary(createErrors(kind, svc({ ports: [] }))), ['FieldValueRequired spec.ports']);
  assert.deepEqual(summary(createErrors(kind, svc({ ports: [{ port: 80 }, { name: 'b', port: 81 }] }))), ['FieldValueRequired spec.ports[0].name']);
  assert.deepEqual(summary(createErrors(kind, svc({ ports: [{ name: 'a', port: 80 }, { name: 'a', port: 81 }] }))), ['FieldValueDuplicate spec.ports[1].name']);
  assert.deepEqual(summary(createErrors(kind, svc({ ports: [{ name: 'a', port: 80 }, { name: 'b', port: 80 }] }))), ['FieldValueDuplicate spec.ports[1]']);
  assert.deepEqual(summary(createErrors(kind, svc({ ports: [{ port: 80, nodePort: 30000 }] }))), ['FieldValueForbidden spec.ports[0].nodePort']);
  assert.deepEqual(summary(createErrors(kind, svc({ type: 'NodePort', ports: [{ name: 'a', port: 80, nodePort: 30000 }, { name: 'b', port: 81, nodePort: 30000 }] }))),
    ['FieldValueDuplicate spec.ports[1].nodePort']);
  assert.deepEqual(summary(createErrors(kind, svc({ ports: [{ port: 80, targetPort: 70000 }] }))), ['FieldValueInvalid spec.ports[0].targetPort']);
});

test('cluster IPs, external names, affinity and load balancer-only fields', () => {
  assert.deepEqual(summary(createErrors(kind, svc({ clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.6'] }))), ['FieldValueInvalid spec.clusterIPs']);
  assert.deepEqual(summary(createErrors(kind, svc({ type: 'NodePort', clusterIP: 'None' }))), ['FieldValueInvalid spec.clusterIPs[0]']);
  assert.deepEqual(summary(createErrors(kind, svc({ type: 'ExternalName', externalName: 'x.example.com', clusterIP: '10.0.0.1' }))), ['FieldValueForbidden spec.clusterIPs']);
  assert.deepEqual(summary(createErrors(kind, svc({ type: 'ExternalName', externalName: 'Not A Name' }))), ['FieldValueInvalid spec.externalName']);
  assert.deepEqual(summary(createErrors(kind, svc({ sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 86401 } } }))),
    ['FieldValueInvalid spec.sessionAffinityConfig.clientIP.timeoutSeconds']);
  assert.deepEqual(summary(createErrors(kind, svc({ sessionAffinityConfig: { clientIP: { timeoutSeconds: 5 } } }))), ['FieldValueForbidden spec.sessionAffinityConfig']);
  assert.deepEqual(summary(createErrors(kind, svc({ loadBalancerClass: 'example.com/lb' }))), ['FieldValueForbidden spec.loadBalancerClass']);
  assert.deepEqual(summary(createErrors(kind, svc({ type: 'LoadBalancer', healthCheckNodePort: 30100 }))), ['FieldValueInvalid spec.healthCheckNodePort']);
  assert.deepEqual(summary(createErrors(kind, svc({ externalIPs: ['127.0.0.1'] }))), ['FieldValueInvalid spec.externalIPs[0]']);
  assert.deepEqual(summary(createErrors(kind, svc({ trafficDistribution: 'Anywhere' }))), ['FieldValueNotSupported spec.trafficDistribution']);
  assert.deepEqual(serviceValidation.name('1web', false).length, 1, 'names are DNS-1035 labels');
  assert.deepEqual(serviceValidation.name('web-', true), []);
});

test('update: the cluster IP is fixed unless the type turns into or out of ExternalName', () => {
  const old = svc({ clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.5'] });
  assert.deepEqual(summary(updateErrors(kind, svc({ clusterIP: '10.0.0.6', clusterIPs: ['10.0.0.6'] }), old)), ['FieldValueInvalid spec.clusterIPs[0]']);
  assert.deepEqual(summary(updateErrors(kind, svc({ type: 'ExternalName', externalName: 'x.example.com' }), old)), []);
  const ext = svc({ type: 'ExternalName', externalName: 'x.example.com' });
  assert.deepEqual(summary(updateErrors(kind, svc({ clusterIP: '10.0.0.9' }), ext)), []);
});

test('update: allocated values are kept when left out, and dropped with a type that does not use them', () => {
  const old = svc({ type: 'NodePort', clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.5'], ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack', externalTrafficPolicy: 'Cluster',
    ports: [{ name: 'http', port: 80, nodePort: 30080 }] }) as Service;
  const sent = svc({ type: 'NodePort', ports: [{ name: 'http', port: 80 }] }) as Service;
  patchAllocatedValues(sent, old);
  assert.equal(sent.spec!.clusterIP, '10.0.0.5');
  assert.deepEqual(sent.spec!.ipFamilies, ['IPv4']);
  assert.equal(sent.spec!.ports![0]!.nodePort, 30080);
  const down = structuredClone(old);
  down.spec!.type = 'ClusterIP';
  dropTypeDependentFields(down, old);
  assert.equal(down.spec!.ports![0]!.nodePort, undefined);
  assert.equal(down.spec!.externalTrafficPolicy, undefined);
  assert.equal(down.spec!.clusterIP, '10.0.0.5');
  const toName = structuredClone(old);
  toName.spec!.type = 'ExternalName';
  dropTypeDependentFields(toName, old);
  assert.equal(toName.spec!.clusterIP, undefined);
  assert.equal(toName.spec!.ipFamilies, undefined);
});

test('printer cells: ports with node ports, external IPs of each type', () => {
  const s = svc({ type: 'LoadBalancer', ports: [{ port: 80, protocol: 'TCP', nodePort: 30080 }, { port: 53, protocol: 'UDP' }] }) as Service;
  assert.equal(servicePorts(s), '80:30080/TCP,53/UDP');
  assert.equal(serviceExternalIP(s, true), '<pending>');
  s.status = { loadBalancer: { ingress: [{ hostname: 'a-very-long-load-balancer.example.com' }] } };
  assert.equal(serviceExternalIP(s, false), 'a-very-long-l...');
  assert.equal(serviceExternalIP(s, true), 'a-very-long-load-balancer.example.com');
  assert.equal(serviceExternalIP(svc({ externalIPs: ['192.0.2.1', '192.0.2.2'] }) as Service, true), '192.0.2.1,192.0.2.2');
  assert.equal(serviceExternalIP(svc({}) as Service, true), '<none>');
});
