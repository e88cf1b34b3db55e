import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultApiDomain } from '../../../api/domain.js';
import type { SliceObject } from '../endpointslice/endpoint-set.js';
import { sliceNames } from '../endpointslice/slice-names.js';
import { planMirror, type EndpointsObject, type MirrorInput } from './reconciler.js';

const names = sliceNames(defaultApiDomain);
const endpoints = (subsets: EndpointsObject['subsets'], annotations: Record<string, string> = {}): EndpointsObject => ({
  metadata: { name: 'ext', namespace: 'default', uid: 'ep-uid', labels: { team: 'a' }, annotations: { note: 'x', 'endpoints.orch.io/last-change-trigger-time': 't', ...annotations } },
  subsets,
});
const input = (ep: EndpointsObject, existing: SliceObject[] = [], max = 1000): MirrorInput => ({
  endpoints: ep, existing, maxEndpointsPerSubset: max, names, droppedAnnotations: new Set([names.triggerTime]),
});
const stored = (slices: SliceObject[]) => slices.map((s, i) => ({ ...structuredClone(s), metadata: { ...structuredClone(s.metadata), name: `ext-${i}`, uid: `s-${i}`, generation: 1 } }));

test('each subset becomes a slice per address family, ready then not-ready, with the Endpoints\' labels, annotations and owner', () => {
  const plan = planMirror(input(endpoints([{
    addresses: [{ ip: '10.0.0.1', nodeName: 'node-1', hostname: 'a' }, { ip: '2001:DB8::1' }],
    notReadyAddresses: [{ ip: '10.0.0.2', targetRef: { kind: 'Pod', name: 'p', namespace: 'default' } }],
    ports: [{ name: 'http', port: 80, protocol: 'TCP' }],
  }])));
  assert.deepEqual(plan.create.map((s) => s.addressType), ['IPv4', 'IPv6']);
  const v4 = plan.create[0]!;
  assert.deepEqual(v4.metadata.labels, { team: 'a', 'orch.io/service-name': 'ext', 'endpointslice.orch.io/managed-by': 'endpointslicemirroring-controller.orch.io' });
  assert.deepEqual(v4.metadata.annotations, { note: 'x' });
  assert.deepEqual(v4.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'Endpoints', name: 'ext', uid: 'ep-uid', controller: true, blockOwnerDeletion: true }]);
  assert.deepEqual(v4.ports, [{ name: 'http', port: 80, protocol: 'TCP' }]);
  assert.deepEqual(v4.endpoints, [
    { addresses: ['10.0.0.1'], conditions: { ready: true }, nodeName: 'node-1', hostname: 'a' },
    { addresses: ['10.0.0.2'], conditions: { ready: false }, targetRef: { kind: 'Pod', name: 'p', namespace: 'default' } },
  ]);
  assert.deepEqual(plan.create[1]!.endpoints, [{ addresses: ['2001:db8::1'], conditions: { ready: true } }]);
  assert.deepEqual(planMirror(input(endpoints([{ addresses: [{ ip: '10.0.0.1', nodeName: 'node-1', hostname: 'a' }, { ip: '2001:DB8::1' }], notReadyAddresses: [{ ip: '10.0.0.2', targetRef: { kind: 'Pod', name: 'p', namespace: 'default' } }], ports: [{ name: 'http', port: 80, protocol: 'TCP' }] }]), stored(plan.create))),
    { create: [], update: [], delete: [], invalidAddresses: 0, skippedAddresses: 0 }, 'what is mirrored already is left alone');
});

test('invalid and surplus addresses are skipped and counted; a label change updates the slice in place', () => {
  const plan = planMirror(input(endpoints([{ addresses: [{ ip: 'not-an-ip' }, { ip: '10.0.0.1' }, { ip: '10.0.0.2' }, { ip: '10.0.0.3' }], ports: [{ port: 80 }] }]), [], 2));
  assert.deepEqual([plan.invalidAddresses, plan.skippedAddresses], [1, 2]);
  assert.deepEqual(plan.create[0]!.endpoints!.map((e) => e.addresses[0]), ['10.0.0.1', '10.0.0.2']);
  const existing = stored(plan.create);
  const relabelled = endpoints([{ addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }], ports: [{ port: 80 }] }]);
  relabelled.metadata.labels = { team: 'b' };
  const update = planMirror(input(relabelled, existing));
  assert.deepEqual(update.update.map((s) => [s.metadata.name, s.metadata.labels?.team]), [['ext-0', 'b']]);
});

test('new ports make a new slice that takes the old one\'s name; no addresses, no slices', () => {
  const existing = stored(planMirror(input(endpoints([{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80 }] }]))).create);
  const moved = planMirror(input(endpoints([{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 81 }] }]), existing));
  assert.deepEqual([moved.create.length, moved.delete.length], [0, 0]);
  assert.deepEqual(moved.update.map((s) => [s.metadata.name, s.ports![0]!.port]), [['ext-0', 81]]);
  assert.deepEqual(planMirror(input(endpoints([]), existing)).delete.map((s) => s.metadata.name), ['ext-0']);
});
