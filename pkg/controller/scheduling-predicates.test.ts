// Taints against tolerations and required node affinity, as upstream's scheduling helpers weigh them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { requiredPlacementMatches, termMatches } from './node-affinity.js';
import { findUntoleratedTaint, matchingTolerations, taintSetDiff, toleratesTaint, type Taint } from './taints.js';

const taint = (key: string, effect: Taint['effect'], value?: string): Taint => ({ key, effect, ...(value ? { value } : {}) });

test('a toleration matches by key (empty: any), effect (empty: any), and value (Exists: any; Equal or empty: the same)', () => {
  const t = taint('dedicated', 'NoSchedule', 'gpu');
  assert.ok(toleratesTaint({ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }, t));
  assert.ok(toleratesTaint({ key: 'dedicated', value: 'gpu' }, t), 'an empty operator is Equal, an empty effect any');
  assert.ok(!toleratesTaint({ key: 'dedicated', value: 'cpu' }, t));
  assert.ok(toleratesTaint({ key: 'dedicated', operator: 'Exists' }, t));
  assert.ok(toleratesTaint({ operator: 'Exists' }, t), 'an empty key with Exists tolerates everything');
  assert.ok(!toleratesTaint({ key: 'dedicated', operator: 'Exists', effect: 'NoExecute' }, t));
  assert.ok(!toleratesTaint({ key: 'other', operator: 'Exists' }, t));
  assert.ok(!toleratesTaint({ key: 'dedicated', operator: 'Gt' as 'Exists', value: 'gpu' }, t), 'an unknown operator tolerates nothing');
});

test('the untolerated taint among some effects, the tolerations used (the first that matches each taint), taint-set differences', () => {
  const taints = [taint('a', 'NoSchedule'), taint('b', 'NoExecute'), taint('c', 'PreferNoSchedule')];
  const tolA = { key: 'a', operator: 'Exists' as const };
  assert.equal(findUntoleratedTaint(taints, [tolA], (x) => x.effect !== 'PreferNoSchedule')?.key, 'b');
  assert.equal(findUntoleratedTaint(taints, [tolA], (x) => x.effect === 'NoSchedule'), undefined);
  const first = { key: 'b', operator: 'Exists' as const, tolerationSeconds: 5 };
  const second = { operator: 'Exists' as const, tolerationSeconds: 1 };
  assert.deepEqual(matchingTolerations([taint('b', 'NoExecute')], [first, second]), { all: true, used: [first] });
  assert.deepEqual(matchingTolerations([taint('b', 'NoExecute'), taint('z', 'NoExecute')], [first]), { all: false, used: [] });
  assert.deepEqual(matchingTolerations([], []), { all: true, used: [] });
  assert.deepEqual(taintSetDiff([taint('a', 'NoSchedule'), taint('x', 'NoSchedule')], [taint('a', 'NoSchedule', 'v'), taint('a', 'NoExecute')]),
    { add: [taint('x', 'NoSchedule')], remove: [taint('a', 'NoExecute')] });
});

test('required placement: every nodeSelector label, and one term whose label expressions and metadata.name fields all hold', () => {
  const node = { metadata: { name: 'n1', labels: { zone: 'a', cores: '8' } } };
  assert.ok(requiredPlacementMatches({}, node));
  assert.ok(requiredPlacementMatches({ nodeSelector: { zone: 'a' } }, node));
  assert.ok(!requiredPlacementMatches({ nodeSelector: { zone: 'a', disk: 'ssd' } }, node));
  const req = (...nodeSelectorTerms: object[]) => ({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms } } } }) as Parameters<typeof requiredPlacementMatches>[0];
  assert.ok(requiredPlacementMatches(req({ matchExpressions: [{ key: 'zone', operator: 'In', values: ['b'] }] }, { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] }), node), 'any term');
  assert.ok(!requiredPlacementMatches(req({ matchExpressions: [{ key: 'zone', operator: 'In', values: ['b'] }] }), node));
  assert.ok(!requiredPlacementMatches(req(), node), 'no term matches nothing');
  assert.ok(!termMatches({}, node), 'a term without conditions matches no node');
  const one = (r: object) => termMatches({ matchExpressions: [r] } as Parameters<typeof termMatches>[0], node);
  assert.ok(one({ key: 'disk', operator: 'NotIn', values: ['hdd'] }), 'NotIn holds for a missing label');
  assert.ok(one({ key: 'zone', operator: 'Exists' }) && one({ key: 'disk', operator: 'DoesNotExist' }));
  assert.ok(one({ key: 'cores', operator: 'Gt', values: ['4'] }) && one({ key: 'cores', operator: 'Lt', values: ['16'] }));
  assert.ok(!one({ key: 'cores', operator: 'Gt', values: ['8'] }) && !one({ key: 'cores', operator: 'Gt', values: ['x'] }) && !one({ key: 'zone', operator: 'Gt', values: ['1'] }));
  assert.ok(!termMatches({ matchFields: [{ key: 'metadata.uid', operator: 'In', values: ['n1'] }] }, node), 'only metadata.name is a field');
  assert.ok(termMatches({ matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['n2'] }] }, node));
});
