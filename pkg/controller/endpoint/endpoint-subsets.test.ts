import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EndpointSubset } from '../../../api/core/v1/endpoints.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { Service } from '../../../api/core/v1/service.js';
import { repackSubsets, serviceSubsets, truncateSubsets } from './endpoint-subsets.js';

const svc = (spec: NonNullable<Service['spec']>): Service => ({ metadata: { name: 'web', namespace: 'ns' }, spec: { selector: { app: 'web' }, ...spec } });
const pod = (name: string, ip: string, opts: { ready?: boolean; phase?: string; deleting?: boolean; ports?: { name: string; containerPort: number }[]; hostname?: string } = {}): Pod => ({
  metadata: { name, namespace: 'ns', uid: `uid-${name}`, ...(opts.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
  spec: {
    nodeName: 'node-1', containers: [{ name: 'app', image: 'app', ...(opts.ports ? { ports: opts.ports } : {}) }],
    ...(opts.hostname ? { hostname: opts.hostname, subdomain: 'web' } : {}),
  },
  status: { phase: (opts.phase ?? 'Running') as 'Running', podIP: ip, podIPs: [{ ip }], conditions: [{ type: 'Ready', status: opts.ready === false ? 'False' : 'True' }] },
});
const address = (name: string, ip: string, extra: Record<string, unknown> = {}) => ({ ip, nodeName: 'node-1', targetRef: { kind: 'Pod', namespace: 'ns', name, uid: `uid-${name}` }, ...extra });

test('ready and not-ready pods become addresses per service port; terminal, deleted and unaddressed pods do not', () => {
  const s = svc({ ports: [{ name: 'http', port: 80, targetPort: 'web', protocol: 'TCP' }, { name: 'metrics', port: 9090, targetPort: 9090, protocol: 'TCP' }] });
  const web = [{ name: 'web', containerPort: 8080 }];
  const subsets = serviceSubsets(s, [
    pod('a', '10.0.0.1', { ports: web }),
    pod('b', '10.0.0.2', { ready: false, ports: web }),
    pod('c', '10.0.0.3'),
    pod('done', '10.0.0.4', { phase: 'Succeeded', ports: web }),
    pod('going', '10.0.0.5', { deleting: true, ports: web }),
  ]);
  // c names no `web` port, so it offers only the numbered one: the two ports have different address sets.
  assert.deepEqual(subsets, [
    { addresses: [address('a', '10.0.0.1'), address('c', '10.0.0.3')], notReadyAddresses: [address('b', '10.0.0.2')], ports: [{ name: 'metrics', port: 9090, protocol: 'TCP' }] },
    { addresses: [address('a', '10.0.0.1')], notReadyAddresses: [address('b', '10.0.0.2')], ports: [{ name: 'http', port: 8080, protocol: 'TCP' }] },
  ]);
  const same = serviceSubsets(s, [pod('a', '10.0.0.1', { ports: web }), pod('b', '10.0.0.2', { ready: false, ports: web })]);
  assert.deepEqual(same, [{
    addresses: [address('a', '10.0.0.1')], notReadyAddresses: [address('b', '10.0.0.2')],
    ports: [{ name: 'http', port: 8080, protocol: 'TCP' }, { name: 'metrics', port: 9090, protocol: 'TCP' }],
  }], 'addresses offering the same ports share one subset');
  assert.deepEqual(serviceSubsets(s, []), [], 'no pods: an Endpoints with no subsets');
});

test('publishNotReadyAddresses keeps every address ready, terminating ones too; a headless service without ports lists addresses alone', () => {
  const s = svc({ clusterIP: 'None', publishNotReadyAddresses: true });
  assert.deepEqual(serviceSubsets(s, [pod('a', '10.0.0.1', { ready: false, hostname: 'a' }), pod('b', '10.0.0.2', { deleting: true })]), [
    { addresses: [address('a', '10.0.0.1', { hostname: 'a' }), address('b', '10.0.0.2')] },
  ]);
});

test('the address is of the service\'s IP family', () => {
  const dual: Pod = { ...pod('a', '10.0.0.1'), status: { ...pod('a', '10.0.0.1').status, podIPs: [{ ip: '10.0.0.1' }, { ip: 'fd00::1' }] } };
  const v6 = serviceSubsets(svc({ ipFamilies: ['IPv6'], ports: [{ port: 80, targetPort: 80, protocol: 'TCP' }] }), [dual]);
  assert.equal(v6[0]!.addresses![0]!.ip, 'fd00::1');
  assert.deepEqual(serviceSubsets(svc({ ipFamilies: ['IPv6'], ports: [{ port: 80, targetPort: 80, protocol: 'TCP' }] }), [pod('b', '10.0.0.2')]), []);
});

test('repacking merges subsets offering the same ports, ready wins, and is stable', () => {
  const port = { name: 'http', port: 80, protocol: 'TCP' as const };
  const a = address('a', '10.0.0.1');
  const b = address('b', '10.0.0.2');
  const packed = repackSubsets([{ addresses: [b], ports: [port] }, { notReadyAddresses: [a], ports: [port] }, { addresses: [a], ports: [port] }]);
  assert.deepEqual(packed, [{ addresses: [a, b], ports: [port] }]);
});

test('over 1000 addresses are cut, each subset keeping its share, ready ones first', () => {
  const many = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => ({ ip: `${prefix}.${Math.floor(i / 250)}.${i % 250}` }));
  const subsets: EndpointSubset[] = [{ addresses: many(900, '10.1'), notReadyAddresses: many(300, '10.2') }, { addresses: many(300, '10.3') }];
  assert.equal(truncateSubsets(subsets), true);
  assert.deepEqual(subsets.map((s) => [(s.addresses ?? []).length, (s.notReadyAddresses ?? []).length]), [[750, 0], [250, 0]]);
  const fits: EndpointSubset[] = [{ addresses: many(800, '10.1'), notReadyAddresses: many(400, '10.2') }];
  assert.equal(truncateSubsets(fits), true);
  assert.deepEqual([fits[0]!.addresses!.length, fits[0]!.notReadyAddresses!.length], [800, 200]);
  assert.equal(truncateSubsets([{ addresses: many(1000, '10.1') }]), false);
});
