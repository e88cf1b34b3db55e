import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ClusterRole } from '../../../api/rbac/v1/cluster-role.js';
import { aggregatedRules, sameRules } from './aggregated-rules.js';

const r = (resource: string, verbs = ['get']) => ({ verbs, apiGroups: [''], resources: [resource] });

test('selectors in order, picked roles in name order, the role itself never, rules once', () => {
  const agg: ClusterRole = { metadata: { name: 'agg', labels: { a: 'x' } }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { b: 'x' } }, { matchLabels: { a: 'x' } }] }, rules: [r('self')] };
  const all: ClusterRole[] = [
    agg,
    { metadata: { name: 'z', labels: { a: 'x' } }, rules: [r('pods'), r('zz')] },
    { metadata: { name: 'm', labels: { b: 'x' } }, rules: [r('pods')] },
    { metadata: { name: 'b', labels: { a: 'x' } }, rules: [r('secrets')] },
    { metadata: { name: 'c', labels: { a: 'y' } }, rules: [r('nodes')] },
  ];
  assert.deepEqual(aggregatedRules(agg, all), [r('pods'), r('secrets'), r('zz')]);
  assert.equal(aggregatedRules({ metadata: { name: 'plain' }, rules: [] }, all), undefined);
  assert.deepEqual(aggregatedRules({ metadata: { name: 'e' }, aggregationRule: {} }, all), []);
});

test('sameRules: order matters, an absent list equals an empty one', () => {
  assert.ok(sameRules(undefined, []));
  assert.ok(sameRules([r('a')], [{ ...r('a'), resourceNames: [] }]));
  assert.ok(!sameRules([r('a'), r('b')], [r('b'), r('a')]));
});
