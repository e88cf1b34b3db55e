import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builtinPlugins } from '../builtin.js';
import type { AdmissionObject, ValidationInterface } from '../interfaces.js';
import { podAttrs } from '../testing/attrs.js';
import { staticDeps } from '../testing/deps.js';
import { refusal } from '../testing/refusal.js';
import { limitPodHardAntiAffinityTopologyFactory } from './plugin.js';

const p = limitPodHardAntiAffinityTopologyFactory(undefined, staticDeps()) as ValidationInterface;
const term = (topologyKey: string) => ({ labelSelector: { matchLabels: { app: 'db' } }, topologyKey });
const pod = (antiAffinity: Record<string, unknown>, meta: Record<string, unknown> = { name: 'db-0' }): AdmissionObject =>
  ({ metadata: meta, spec: { containers: [{ name: 'db', image: 'db' }], affinity: { podAntiAffinity: antiAffinity } } });

test('registered; validates creates and updates', () => {
  assert.ok(builtinPlugins().has('LimitPodHardAntiAffinityTopology'));
  assert.deepEqual((['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as const).map((o) => p.handles(o)), [true, true, false, false]);
});

test('a required anti-affinity over anything but the hostname is refused with upstream\'s message, naming the pod as given', async () => {
  for (const operation of ['CREATE', 'UPDATE'] as const) {
    const e = await refusal(() => p.validate(podAttrs({ operation, object: pod({ requiredDuringSchedulingIgnoredDuringExecution: [term('orch.io/hostname'), term('topology.orch.io/zone')] }) })));
    assert.equal(e.code, 403);
    assert.equal(e.reason, 'Forbidden');
    assert.equal(e.message, 'pods "db-0" is forbidden: affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey topology.orch.io/zone but only key orch.io/hostname is allowed');
  }
  const generated = await refusal(() => p.validate(podAttrs({ object: pod({ requiredDuringSchedulingIgnoredDuringExecution: [term('rack')] }, { generateName: 'db-' }) })));
  assert.equal(generated.message, 'pods is forbidden: affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey rack but only key orch.io/hostname is allowed');
});

test('hostname terms, preferred terms, pods without affinity and sub-resources pass', () => {
  p.validate(podAttrs({ object: pod({ requiredDuringSchedulingIgnoredDuringExecution: [term('orch.io/hostname')] }) }));
  p.validate(podAttrs({ object: pod({ preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: term('topology.orch.io/zone') }] }) }));
  p.validate(podAttrs({ object: { metadata: { name: 'x' }, spec: { containers: [] } } }));
  p.validate(podAttrs({ subresource: 'status', object: pod({ requiredDuringSchedulingIgnoredDuringExecution: [term('zone')] }) }));
});
