import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultApiDomain } from '../../../api/domain.js';
import type { Node } from '../../../api/core/v1/node.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { Service } from '../../../api/core/v1/service.js';
import type { KubeObject } from '../../client/index.js';
import type { SliceObject } from './endpoint-set.js';
import { addressTypesOf, planSlices, type ReconcileInput } from './reconciler.js';
import { sliceNames } from './slice-names.js';

const names = sliceNames(defaultApiDomain);
const svc: Service & KubeObject = {
  metadata: { name: 'web', namespace: 'default', uid: 'svc-uid', labels: { app: 'web', tier: 'front' } },
  spec: { selector: { app: 'web' }, clusterIP: '10.0.0.10', ipFamilies: ['IPv4'], ports: [{ name: 'http', port: 80, protocol: 'TCP', targetPort: 'http' }] },
};
const nodes: Record<string, Node> = { 'node-1': { metadata: { name: 'node-1', labels: { 'topology.orch.io/zone': 'zone-a' } } } };

function pod(i: number, opts: { ready?: boolean; deleting?: boolean; node?: string } = {}): Pod {
  return {
    metadata: { name: `web-${i}`, namespace: 'default', uid: `uid-${i}`, labels: { app: 'web' }, ...(opts.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
    spec: { nodeName: opts.node ?? 'node-1', containers: [{ name: 'app', image: 'app', ports: [{ name: 'http', containerPort: 8080 }] }] },
    status: { phase: 'Running', podIPs: [{ ip: `10.1.0.${i}` }], conditions: [{ type: 'Ready', status: opts.ready === false ? 'False' : 'True' }] },
  };
}

const input = (pods: Pod[], existing: SliceObject[] = [], max = 100): ReconcileInput => ({
  service: svc, pods, existing, node: (n) => nodes[n], maxEndpointsPerSlice: max, names, zoneLabel: 'topology.orch.io/zone',
});

/** The plan's slices as the server would store them: named, with uids and generations. */
let counter = 0;
const stored = (slices: SliceObject[]): SliceObject[] => slices.map((s) => {
  counter++;
  return { ...structuredClone(s), metadata: { ...structuredClone(s.metadata), name: s.metadata.name ?? `web-${counter}`, uid: `slice-${counter}`, generation: 1 } };
});
const addressesOf = (s: SliceObject) => (s.endpoints ?? []).map((e) => e.addresses[0]);

test('a service\'s pods become one slice: conditions, node, zone, target, named target port, labels, owner, generateName', () => {
  const plan = planSlices(input([pod(1), pod(2, { ready: false }), pod(3, { deleting: true })]));
  assert.deepEqual(plan.update, []);
  assert.deepEqual(plan.delete, []);
  assert.equal(plan.create.length, 1);
  const s = plan.create[0]!;
  assert.equal(s.metadata.generateName, 'web-');
  assert.deepEqual(s.metadata.labels, { app: 'web', tier: 'front', 'orch.io/service-name': 'web', 'endpointslice.orch.io/managed-by': 'endpointslice-controller.orch.io' });
  assert.deepEqual(s.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'Service', name: 'web', uid: 'svc-uid', controller: true, blockOwnerDeletion: true }]);
  assert.equal(s.addressType, 'IPv4');
  assert.deepEqual(s.ports, [{ name: 'http', port: 8080, protocol: 'TCP' }]);
  assert.deepEqual(s.endpoints, [
    { addresses: ['10.1.0.1'], conditions: { ready: true, serving: true, terminating: false }, targetRef: { kind: 'Pod', namespace: 'default', name: 'web-1', uid: 'uid-1' }, nodeName: 'node-1', zone: 'zone-a' },
    { addresses: ['10.1.0.2'], conditions: { ready: false, serving: false, terminating: false }, targetRef: { kind: 'Pod', namespace: 'default', name: 'web-2', uid: 'uid-2' }, nodeName: 'node-1', zone: 'zone-a' },
    { addresses: ['10.1.0.3'], conditions: { ready: false, serving: true, terminating: true }, targetRef: { kind: 'Pod', namespace: 'default', name: 'web-3', uid: 'uid-3' }, nodeName: 'node-1', zone: 'zone-a' },
  ]);
});

test('packing: new slices hold at most maxEndpointsPerSlice; a later pod goes into the slice it fills best; a slice emptied goes', () => {
  const pods = [1, 2, 3, 4, 5].map((i) => pod(i));
  const first = planSlices(input(pods, [], 2));
  assert.deepEqual(first.create.map(addressesOf), [['10.1.0.1', '10.1.0.2'], ['10.1.0.3', '10.1.0.4'], ['10.1.0.5']]);
  const existing = stored(first.create);

  assert.deepEqual(planSlices(input(pods, existing, 2)), { create: [], update: [], delete: [], errors: [] }, 'nothing to do when all is in place');

  const grown = planSlices(input([...pods, pod(6)], existing, 2));
  assert.deepEqual(grown.create, []);
  assert.deepEqual(grown.update.map((s) => [s.metadata.name, addressesOf(s)]), [[existing[2]!.metadata.name, ['10.1.0.5', '10.1.0.6']]]);

  const shrunk = planSlices(input([pod(1), pod(2), pod(5)], existing, 2));
  assert.deepEqual(shrunk.delete.map((s) => s.metadata.name), [existing[1]!.metadata.name]);
  assert.deepEqual(shrunk.update, []);

  const changed = planSlices(input([pod(1, { ready: false }), pod(2), pod(3), pod(4), pod(5)], existing, 2));
  assert.deepEqual(changed.update.map((s) => s.metadata.name), [existing[0]!.metadata.name], 'a readiness change updates only its slice');
  assert.equal(changed.update[0]!.endpoints![0]!.conditions!.ready, false);
});

test('no endpoints: one empty placeholder, kept as it is; pods of an unknown node are left out with an error', () => {
  const empty = planSlices(input([]));
  assert.equal(empty.create.length, 1);
  assert.deepEqual([empty.create[0]!.endpoints, empty.create[0]!.ports], [[], []]);
  assert.deepEqual(planSlices(input([], stored(empty.create))), { create: [], update: [], delete: [], errors: [] });

  const lost = planSlices(input([pod(1, { node: 'gone' })]));
  assert.deepEqual(lost.errors, ['skipping Pod web-1 for Service default/web: Node gone Not Found']);
  assert.equal(lost.create.length, 1, 'the placeholder');
  assert.deepEqual(lost.create[0]!.endpoints, []);
});

test('the placeholder is replaced in place (recycled) once pods come; a service label change updates its slices', () => {
  const placeholder = stored(planSlices(input([])).create);
  const filled = planSlices(input([pod(1)], placeholder));
  assert.deepEqual([filled.create.length, filled.delete.length], [0, 0]);
  assert.equal(filled.update[0]!.metadata.name, placeholder[0]!.metadata.name);
  assert.deepEqual(addressesOf(filled.update[0]!), ['10.1.0.1']);

  const existing = stored(planSlices(input([pod(1)])).create);
  const relabelled = planSlices({ ...input([pod(1)], existing), service: { ...svc, metadata: { ...svc.metadata, labels: { app: 'web' } } } });
  assert.deepEqual(relabelled.update.map((s) => s.metadata.labels), [{ app: 'web', 'orch.io/service-name': 'web', 'endpointslice.orch.io/managed-by': 'endpointslice-controller.orch.io' }]);
});

test('address families: the service\'s, else its cluster IP\'s, else both for a headless service (marked headless)', () => {
  assert.deepEqual(addressTypesOf({ spec: { ipFamilies: ['IPv6', 'IPv4'] } }), ['IPv6', 'IPv4']);
  assert.deepEqual(addressTypesOf({ spec: { clusterIP: 'fd00::1' } }), ['IPv6']);
  assert.deepEqual(addressTypesOf({ spec: { clusterIP: 'None' } }), ['IPv4', 'IPv6']);
  const headless: Service & KubeObject = { ...svc, spec: { ...svc.spec, clusterIP: 'None', ipFamilies: ['IPv4', 'IPv6'] } };
  const dual = pod(1);
  dual.status!.podIPs = [{ ip: '10.1.0.1' }, { ip: 'FD00:0:0::1' }];
  const plan = planSlices({ ...input([dual]), service: headless });
  assert.deepEqual(plan.create.map((s) => [s.addressType, addressesOf(s), s.metadata.labels?.['service.orch.io/headless']]), [['IPv4', ['10.1.0.1'], ''], ['IPv6', ['fd00::1'], '']]);
  const v4only = stored(plan.create);
  const dropped = planSlices({ ...input([dual], v4only), service: { ...headless, spec: { ...headless.spec, ipFamilies: ['IPv4'] } } });
  assert.deepEqual(dropped.delete.map((s) => s.addressType), ['IPv6'], 'a family the service no longer has goes');
});
