import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PolicyRule } from '../../../api/rbac/v1/policy-rule.js';
import { compactRules, compactString, covers, ruleAllows, type RbacAttributes } from './rules.js';

const user = { name: 'jane', groups: ['system:authenticated'] };
const res = (verb: string, apiGroup: string, resource: string, extra: Partial<RbacAttributes> = {}): RbacAttributes =>
  ({ user, verb, apiGroup, resource, namespace: 'ns', isResourceRequest: true, ...extra });
const url = (verb: string, path: string): RbacAttributes => ({ user, verb, path, isResourceRequest: false });

test('verbs, groups and resources match exactly or by star; "" is the core group', () => {
  const r: PolicyRule = { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] };
  assert.equal(ruleAllows(res('get', '', 'pods'), r), true);
  assert.equal(ruleAllows(res('list', '', 'pods'), r), true);
  assert.equal(ruleAllows(res('delete', '', 'pods'), r), false);
  assert.equal(ruleAllows(res('get', 'apps', 'pods'), r), false);
  assert.equal(ruleAllows(res('get', '', 'secrets'), r), false);
  const star: PolicyRule = { verbs: ['*'], apiGroups: ['*'], resources: ['*'] };
  assert.equal(ruleAllows(res('escalate', 'rbac.authorization.orch.io', 'clusterroles', { subresource: 'status' }), star), true);
  assert.equal(ruleAllows(url('get', '/healthz'), star), false, 'resource rules never allow a non-resource URL');
  assert.equal(ruleAllows(res('get', '', 'pods'), { verbs: ['get'], resources: ['pods'] }), false, 'a rule without apiGroups matches no group');
});

test('subresources: exact resource/subresource or */subresource; a bare resource does not cover its subresources', () => {
  assert.equal(ruleAllows(res('get', '', 'pods', { subresource: 'log' }), { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }), true);
  assert.equal(ruleAllows(res('get', '', 'pods', { subresource: 'log' }), { verbs: ['get'], apiGroups: [''], resources: ['pods'] }), false);
  assert.equal(ruleAllows(res('get', 'apps', 'deployments', { subresource: 'scale' }), { verbs: ['get'], apiGroups: ['*'], resources: ['*/scale'] }), true);
  assert.equal(ruleAllows(res('get', 'apps', 'deployments', { subresource: 'status' }), { verbs: ['get'], apiGroups: ['*'], resources: ['*/scale'] }), false);
  assert.equal(ruleAllows(res('get', 'apps', 'deployments'), { verbs: ['get'], apiGroups: ['*'], resources: ['*/scale'] }), false);
  // upstream gives pods/* no meaning beyond the literal string
  assert.equal(ruleAllows(res('get', '', 'pods', { subresource: 'log' }), { verbs: ['get'], apiGroups: [''], resources: ['pods/*'] }), false);
  assert.equal(ruleAllows(res('get', '', 'pods', { subresource: 'xscale' }), { verbs: ['get'], apiGroups: [''], resources: ['*/scale'] }), false);
});

test('resourceNames match only requests naming one of them, never list or create without a name', () => {
  const r: PolicyRule = { verbs: ['get', 'list', 'create', 'update'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['cluster-info'] };
  assert.equal(ruleAllows(res('get', '', 'configmaps', { name: 'cluster-info' }), r), true);
  assert.equal(ruleAllows(res('update', '', 'configmaps', { name: 'cluster-info' }), r), true);
  assert.equal(ruleAllows(res('get', '', 'configmaps', { name: 'other' }), r), false);
  assert.equal(ruleAllows(res('list', '', 'configmaps'), r), false);
  assert.equal(ruleAllows(res('create', '', 'configmaps'), r), false);
  assert.equal(ruleAllows(res('list', '', 'configmaps', { name: '' }), { ...r, resourceNames: [] }), true, 'empty names allow any');
});

test('non-resource URLs: exact, *, and a trailing * as a prefix', () => {
  const r: PolicyRule = { verbs: ['get'], nonResourceURLs: ['/healthz', '/apis/*'] };
  assert.equal(ruleAllows(url('get', '/healthz'), r), true);
  assert.equal(ruleAllows(url('get', '/healthz/etcd'), r), false);
  assert.equal(ruleAllows(url('get', '/apis/'), r), true);
  assert.equal(ruleAllows(url('get', '/apis/apps/v1'), r), true);
  assert.equal(ruleAllows(url('get', '/apis'), r), false);
  assert.equal(ruleAllows(url('post', '/healthz'), r), false);
  assert.equal(ruleAllows(url('post', '/anything'), { verbs: ['*'], nonResourceURLs: ['*'] }), true);
  assert.equal(ruleAllows(res('get', '', 'pods'), { verbs: ['*'], nonResourceURLs: ['*'] }), false);
});

// Upstream's policy_comparator_test.go, case by case.
const coverCases: { name: string; owner: PolicyRule[]; servant: PolicyRule[]; covered: boolean; uncovered: PolicyRule[] }[] = [
  { name: 'ExactMatch', owner: [{ apiGroups: ['v1'], verbs: ['get'], resources: ['builds'] }],
    servant: [{ apiGroups: ['v1'], verbs: ['get'], resources: ['builds'] }], covered: true, uncovered: [] },
  { name: 'SubresourceWildcard', owner: [{ apiGroups: ['v1'], verbs: ['get'], resources: ['*/scale'] }],
    servant: [{ apiGroups: ['v1'], verbs: ['get'], resources: ['foo/scale'] }], covered: true, uncovered: [] },
  { name: 'MultipleRulesCoveringSingleRule', owner: [
    { apiGroups: ['v1'], verbs: ['delete'], resources: ['deployments'] },
    { apiGroups: ['v1'], verbs: ['delete'], resources: ['builds'] },
    { apiGroups: ['v1'], verbs: ['update'], resources: ['builds', 'deployments'] },
  ], servant: [{ apiGroups: ['v1'], verbs: ['delete', 'update'], resources: ['builds', 'deployments'] }], covered: true, uncovered: [] },
  { name: 'MultipleAPIGroupsCoveringSingleRule', owner: ['group1', 'group2'].flatMap((g) => [
    { apiGroups: [g], verbs: ['delete'], resources: ['deployments'] },
    { apiGroups: [g], verbs: ['delete'], resources: ['builds'] },
    { apiGroups: [g], verbs: ['update'], resources: ['builds', 'deployments'] },
  ]), servant: [{ apiGroups: ['group1', 'group2'], verbs: ['delete', 'update'], resources: ['builds', 'deployments'] }], covered: true, uncovered: [] },
  { name: 'SingleAPIGroupsCoveringMultiple', owner: [{ apiGroups: ['group1', 'group2'], verbs: ['delete', 'update'], resources: ['builds', 'deployments'] }],
    servant: ['group1', 'group2'].flatMap((g) => [
      { apiGroups: [g], verbs: ['delete'], resources: ['deployments'] },
      { apiGroups: [g], verbs: ['delete'], resources: ['builds'] },
      { apiGroups: [g], verbs: ['update'], resources: ['builds', 'deployments'] },
    ]), covered: true, uncovered: [] },
  { name: 'MultipleRulesMissingSingleVerbResourceCombination', owner: [
    { apiGroups: ['v1'], verbs: ['delete', 'update'], resources: ['builds', 'deployments'] },
    { apiGroups: ['v1'], verbs: ['delete'], resources: ['pods'] },
  ], servant: [{ apiGroups: ['v1'], verbs: ['delete', 'update'], resources: ['builds', 'deployments', 'pods'] }],
  covered: false, uncovered: [{ apiGroups: ['v1'], verbs: ['update'], resources: ['pods'] }] },
  { name: 'APIGroupStarCoveringMultiple', owner: [{ apiGroups: ['*'], verbs: ['get'], resources: ['roles'] }],
    servant: [{ apiGroups: ['group1', 'group2'], verbs: ['get'], resources: ['roles'] }], covered: true, uncovered: [] },
  { name: 'EnumerationNotCoveringAPIGroupStar', owner: [{ apiGroups: ['dummy-group'], verbs: ['get'], resources: ['roles'] }],
    servant: [{ apiGroups: ['*'], verbs: ['get'], resources: ['roles'] }], covered: false,
    uncovered: [{ apiGroups: ['*'], verbs: ['get'], resources: ['roles'] }] },
  { name: 'APIGroupStarCoveringStar', owner: [{ apiGroups: ['*'], verbs: ['get'], resources: ['roles'] }],
    servant: [{ apiGroups: ['*'], verbs: ['get'], resources: ['roles'] }], covered: true, uncovered: [] },
  { name: 'VerbStarCoveringMultiple', owner: [{ apiGroups: ['v1'], verbs: ['*'], resources: ['roles'] }],
    servant: [{ apiGroups: ['v1'], verbs: ['watch', 'list'], resources: ['roles'] }], covered: true, uncovered: [] },
  { name: 'EnumerationNotCoveringVerbStar', owner: [{ apiGroups: ['v1'], verbs: ['get', 'list', 'watch', 'create', 'update', 'delete', 'exec'], resources: ['roles'] }],
    servant: [{ apiGroups: ['v1'], verbs: ['*'], resources: ['roles'] }], covered: false,
    uncovered: [{ apiGroups: ['v1'], verbs: ['*'], resources: ['roles'] }] },
  { name: 'VerbStarCoveringStar', owner: [{ apiGroups: ['v1'], verbs: ['*'], resources: ['roles'] }],
    servant: [{ apiGroups: ['v1'], verbs: ['*'], resources: ['roles'] }], covered: true, uncovered: [] },
  { name: 'ResourceStarCoveringMultiple', owner: [{ apiGroups: ['v1'], verbs: ['get'], resources: ['*'] }],
    servant: [{ apiGroups: ['v1'], verbs: ['get'], resources: ['resourcegroup:deployments'] }], covered: true, uncovered: [] },
  { name: 'EnumerationNotCoveringResourceStar', owner: [{ apiGroups: ['v1'], verbs: ['get'], resources: ['roles', 'resourcegroup:deployments'] }],
    servant: [{ apiGroups: ['v1'], verbs: ['get'], resources: ['*'] }], covered: false,
    uncovered: [{ apiGroups: ['v1'], verbs: ['get'], resources: ['*'] }] },
  { name: 'ResourceStarCoveringStar', owner: [{ apiGroups: ['v1'], verbs: ['get'], resources: ['*'] }],
    servant: [{ apiGroups: ['v1'], verbs: ['get'], resources: ['*'] }], covered: true, uncovered: [] },
  { name: 'ResourceNameEmptyCoveringMultiple', owner: [{ apiGroups: ['v1'], verbs: ['get'], resources: ['pods'], resourceNames: [] }],
    servant: [{ apiGroups: ['v1'], verbs: ['get'], resources: ['pods'], resourceNames: ['foo', 'bar'] }], covered: true, uncovered: [] },
  { name: 'EnumerationNotCoveringResourceNameEmpty', owner: [{ apiGroups: ['v1'], verbs: ['get'], resources: ['pods'], resourceNames: ['foo', 'bar'] }],
    servant: [{ apiGroups: ['v1'], verbs: ['get'], resources: ['pods'], resourceNames: [] }], covered: false,
    uncovered: [{ apiGroups: ['v1'], verbs: ['get'], resources: ['pods'] }] },
  { name: 'NonResourceURLs', owner: [{ nonResourceURLs: ['/apis'], verbs: ['*'] }],
    servant: [{ nonResourceURLs: ['/apis'], verbs: ['*'] }], covered: true, uncovered: [] },
  { name: 'NonResourceURLsStar', owner: [{ nonResourceURLs: ['*'], verbs: ['*'] }],
    servant: [{ nonResourceURLs: ['/apis', '/apis/v1', '/'], verbs: ['*'] }], covered: true, uncovered: [] },
  { name: 'NonResourceURLsStarAfterPrefixDoesntCover', owner: [{ nonResourceURLs: ['/apis/*'], verbs: ['*'] }],
    servant: [{ nonResourceURLs: ['/apis', '/apis/v1'], verbs: ['get'] }], covered: false,
    uncovered: [{ nonResourceURLs: ['/apis'], verbs: ['get'] }] },
  { name: 'NonResourceURLsStarAfterPrefix', owner: [{ nonResourceURLs: ['/apis/*'], verbs: ['*'] }],
    servant: [{ nonResourceURLs: ['/apis/v1/foo', '/apis/v1'], verbs: ['get'] }], covered: true, uncovered: [] },
  { name: 'NonResourceURLsWithOtherFields', owner: [{ apiGroups: ['v1'], verbs: ['get'], resources: ['builds'], nonResourceURLs: ['/apis'] }],
    servant: [{ apiGroups: ['v1'], verbs: ['get'], resources: ['builds'], nonResourceURLs: ['/apis'] }], covered: true, uncovered: [] },
  { name: 'NonResourceURLsWithOtherFieldsFailure', owner: [{ apiGroups: ['v1'], verbs: ['get'], resources: ['builds'] }],
    servant: [{ apiGroups: ['v1'], verbs: ['get'], resources: ['builds'], nonResourceURLs: ['/apis'] }], covered: false,
    uncovered: [{ nonResourceURLs: ['/apis'], verbs: ['get'] }] },
];

for (const c of coverCases) {
  test(`Covers: ${c.name}`, () => {
    const got = covers(c.owner, c.servant);
    assert.equal(got.covers, c.covered);
    assert.equal(got.uncovered.length, c.uncovered.length, JSON.stringify(got.uncovered));
    for (const want of c.uncovered) assert.ok(got.uncovered.some((u) => isDeepEqual(u, want)), `missing ${JSON.stringify(want)}`);
  });
}

function isDeepEqual(a: unknown, b: unknown): boolean {
  try { assert.deepEqual(a, b); return true; } catch { return false; }
}

test('compactRules merges single group/resource rules differing by verb; CompactString prints as Go', () => {
  const missing = covers([], [{ apiGroups: [''], resources: ['pods', 'secrets'], verbs: ['get', 'list'] }, { verbs: ['get'], nonResourceURLs: ['/x'] }]).uncovered;
  const lines = compactRules(missing).map(compactString).sort();
  assert.deepEqual(lines, [
    '{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}',
    '{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list"]}',
    '{NonResourceURLs:["/x"], Verbs:["get"]}',
  ]);
  const named = compactRules([
    { apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'], verbs: ['get'] },
    { apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'], verbs: ['update'] },
    { apiGroups: [''], resources: ['configmaps'], resourceNames: ['b'], verbs: ['get'] },
  ]).map(compactString).sort();
  assert.deepEqual(named, [
    '{APIGroups:[""], Resources:["configmaps"], ResourceNames:["a"], Verbs:["get" "update"]}',
    '{APIGroups:[""], Resources:["configmaps"], ResourceNames:["b"], Verbs:["get"]}',
  ]);
});
