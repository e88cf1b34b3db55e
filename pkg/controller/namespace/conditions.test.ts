import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConditionUpdater, gvrString, type NamespaceCondition } from './conditions.js';

const at = (iso: string) => new Date(iso);

test('a clean pass reports all five conditions False with upstream\'s reasons and messages', () => {
  const { conditions, changed } = new ConditionUpdater().merge([], at('2026-01-01T00:00:00.123Z'));
  assert.equal(changed, true);
  assert.deepEqual(conditions.map((c) => [c.type, c.status, c.reason, c.message, c.lastTransitionTime]), [
    ['NamespaceDeletionDiscoveryFailure', 'False', 'ResourcesDiscovered', 'All resources successfully discovered', '2026-01-01T00:00:00Z'],
    ['NamespaceDeletionGroupVersionParsingFailure', 'False', 'ParsedGroupVersions', 'All legacy kube types successfully parsed', '2026-01-01T00:00:00Z'],
    ['NamespaceDeletionContentFailure', 'False', 'ContentDeleted', 'All content successfully deleted, may be waiting on finalization', '2026-01-01T00:00:00Z'],
    ['NamespaceContentRemaining', 'False', 'ContentRemoved', 'All content successfully removed', '2026-01-01T00:00:00Z'],
    ['NamespaceFinalizersRemaining', 'False', 'ContentHasNoFinalizers', 'All content-preserving finalizers finished', '2026-01-01T00:00:00Z'],
  ]);
});

test('problems read as kubectl describe ns shows them on upstream', () => {
  const u = new ConditionUpdater();
  u.discoveryFailed(new Map([['metrics.orch.io/v1beta1', 'the server is currently unable to handle the request'], ['custom.example.com/v1', 'boom']]));
  u.deleteContentFailed(`unexpected items still remain in namespace: ns1 for gvr: ${gvrString('', 'v1', 'pods')}`);
  u.deleteContentFailed('an error on the server has prevented the request from succeeding');
  u.contentTotals({
    byResource: new Map([['pods.', 1], ['configmaps.', 2], ['widgets.example.com', 0]]),
    byFinalizer: new Map([['orch.io/pvc-protection', 1], ['example.com/hold', 2]]),
  });
  const byType = Object.fromEntries(u.merge([]).conditions.map((c) => [c.type, c]));
  assert.deepEqual([byType.NamespaceDeletionDiscoveryFailure!.status, byType.NamespaceDeletionDiscoveryFailure!.reason, byType.NamespaceDeletionDiscoveryFailure!.message], ['True', 'DiscoveryFailed',
    'Discovery failed for some groups, 2 failing: unable to retrieve the complete list of server APIs: custom.example.com/v1: boom, metrics.orch.io/v1beta1: the server is currently unable to handle the request']);
  assert.deepEqual([byType.NamespaceDeletionContentFailure!.reason, byType.NamespaceDeletionContentFailure!.message], ['ContentDeletionFailed',
    'Failed to delete all resource types, 2 remaining: an error on the server has prevented the request from succeeding, unexpected items still remain in namespace: ns1 for gvr: /v1, Resource=pods']);
  assert.deepEqual([byType.NamespaceContentRemaining!.reason, byType.NamespaceContentRemaining!.message], ['SomeResourcesRemain',
    'Some resources are remaining: configmaps. has 2 resource instances, pods. has 1 resource instances']);
  assert.deepEqual([byType.NamespaceFinalizersRemaining!.reason, byType.NamespaceFinalizersRemaining!.message], ['SomeFinalizersRemain',
    'Some content in the namespace has finalizers remaining: example.com/hold in 2 resource instances, orch.io/pvc-protection in 1 resource instances']);
  assert.equal(byType.NamespaceDeletionGroupVersionParsingFailure!.status, 'False');
  assert.equal(gvrString('apps', 'v1', 'deployments'), 'apps/v1, Resource=deployments');
});

test('conditions change in place: the transition time moves with the status only, other conditions stay where they are', () => {
  const first = new ConditionUpdater();
  first.contentTotals({ byResource: new Map([['pods.', 2]]), byFinalizer: new Map() });
  const custom: NamespaceCondition = { type: 'example.com/Custom', status: 'True', reason: 'Mine', message: 'kept' };
  const before = first.merge([custom], at('2026-01-01T00:00:00Z')).conditions;
  assert.equal(before[0]!.type, 'example.com/Custom', 'an existing condition keeps its place');

  const same = new ConditionUpdater();
  same.contentTotals({ byResource: new Map([['pods.', 2]]), byFinalizer: new Map() });
  assert.equal(same.merge(before, at('2026-01-01T00:01:00Z')).changed, false, 'nothing to write when nothing changed');

  const fewer = new ConditionUpdater();
  fewer.contentTotals({ byResource: new Map([['pods.', 1]]), byFinalizer: new Map() });
  const { conditions, changed } = fewer.merge(before, at('2026-01-01T00:02:00Z'));
  assert.equal(changed, true);
  const remaining = conditions.find((c) => c.type === 'NamespaceContentRemaining')!;
  assert.equal(remaining.message, 'Some resources are remaining: pods. has 1 resource instances');
  assert.equal(remaining.lastTransitionTime, '2026-01-01T00:00:00Z', 'still True: the time it became True stays');

  const gone = new ConditionUpdater().merge(conditions, at('2026-01-01T00:03:00Z')).conditions.find((c) => c.type === 'NamespaceContentRemaining')!;
  assert.deepEqual([gone.status, gone.reason, gone.lastTransitionTime], ['False', 'ContentRemoved', '2026-01-01T00:03:00Z']);
  assert.deepEqual(conditions.map((c) => c.type), before.map((c) => c.type), 'the order does not change');
});
