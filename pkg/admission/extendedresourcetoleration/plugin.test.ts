import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apiDomain } from '../../../api/domain.js';
import { builtinPlugins } from '../builtin.js';
import type { AdmissionObject, MutationInterface } from '../interfaces.js';
import { podAttrs } from '../testing/attrs.js';
import { staticDeps } from '../testing/deps.js';
import { refusal } from '../testing/refusal.js';
import { extendedResourceTolerationFactory } from './plugin.js';

const p = extendedResourceTolerationFactory(undefined, staticDeps()) as MutationInterface;
const pod = (requests: Record<string, string>[], tolerations?: unknown[], init: Record<string, string>[] = []): AdmissionObject => ({
  metadata: { name: 'p' },
  spec: {
    containers: requests.map((r, i) => ({ name: `c${i}`, image: 'app', resources: { requests: r } })),
    initContainers: init.map((r, i) => ({ name: `i${i}`, image: 'init', resources: { requests: r } })),
    ...(tolerations ? { tolerations } : {}),
  },
});
const tolerations = (o: AdmissionObject) => (o['spec'] as { tolerations?: unknown }).tolerations;

test('registered; runs on creates and updates', () => {
  assert.ok(builtinPlugins().has('ExtendedResourceToleration'));
  assert.deepEqual((['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as const).map((o) => p.handles(o)), [true, true, false, false]);
});

test('each extended resource requested by a container or init container is tolerated, sorted by name, after the pod\'s own', async () => {
  const obj = pod([{ cpu: '1', 'example.com/gpu': '1' }, { 'vendor.io/fpga': '2' }], [{ key: 'dedicated', operator: 'Equal', value: 'ml', effect: 'NoSchedule' }], [{ 'acme.io/nic': '1' }]);
  for (const operation of ['CREATE', 'UPDATE'] as const) {
    const o = structuredClone(obj);
    await p.admit(podAttrs({ operation, object: o }));
    assert.deepEqual(tolerations(o), [
      { key: 'dedicated', operator: 'Equal', value: 'ml', effect: 'NoSchedule' },
      { key: 'acme.io/nic', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'example.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'vendor.io/fpga', operator: 'Exists', effect: 'NoSchedule' },
    ]);
  }
});

test('a matching toleration is replaced, an equal one kept once', async () => {
  const withSeconds = pod([{ 'example.com/gpu': '1' }], [{ key: 'example.com/gpu', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 5 }]);
  await p.admit(podAttrs({ object: withSeconds }));
  assert.deepEqual(tolerations(withSeconds), [{ key: 'example.com/gpu', operator: 'Exists', effect: 'NoSchedule' }]);
  const equal = pod([{ 'example.com/gpu': '1' }], [{ key: 'example.com/gpu', operator: 'Exists', effect: 'NoSchedule' }]);
  await p.admit(podAttrs({ object: equal }));
  assert.deepEqual(tolerations(equal), [{ key: 'example.com/gpu', operator: 'Exists', effect: 'NoSchedule' }]);
});

test('native resources (the platform\'s domain included) add nothing; other resources are left alone', async () => {
  const native = pod([{ cpu: '1', memory: '1Gi', 'hugepages-2Mi': '2Mi', 'orch.io/batteries': '1', 'requests.example.com/x': '1' }]);
  await p.admit(podAttrs({ object: native }));
  assert.equal(tolerations(native), undefined);
  const k8s = extendedResourceTolerationFactory(undefined, staticDeps({}, apiDomain('k8s.io'))) as MutationInterface;
  const upstreamNative = pod([{ 'kubernetes.io/batteries': '1', 'orch.io/gpu': '1' }]);
  await k8s.admit(podAttrs({ object: upstreamNative }));
  assert.deepEqual(tolerations(upstreamNative), [{ key: 'orch.io/gpu', operator: 'Exists', effect: 'NoSchedule' }]);
  const sub = pod([{ 'example.com/gpu': '1' }]);
  await p.admit(podAttrs({ object: sub, subresource: 'status' }));
  assert.equal(tolerations(sub), undefined);
  const e = await refusal(() => p.admit(podAttrs({ object: undefined })));
  assert.equal(e.code, 400);
});
