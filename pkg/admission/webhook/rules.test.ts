import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resourceMatches, ruleMatches, type RuleTarget } from './rules.js';
import type { RuleWithOperations } from './types.js';

const pods: RuleTarget = { resource: { group: '', version: 'v1', resource: 'pods' }, subresource: '', namespace: 'ns', operation: 'CREATE' };
const rule = (over: Partial<RuleWithOperations> = {}): RuleWithOperations => ({ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], ...over });

test('resource patterns: `*` is every resource without sub-resources, `*/*` everything, `pods/*` pods and its sub-resources, `*/status` every status', () => {
  const cases: [string, string, string, boolean][] = [
    ['*', 'pods', '', true], ['*', 'pods', 'status', false],
    ['*/*', 'pods', '', true], ['*/*', 'pods', 'exec', true],
    ['pods/*', 'pods', 'status', true], ['pods/*', 'pods', '', true], ['pods/*', 'services', 'status', false],
    ['*/status', 'deployments', 'status', true], ['*/status', 'deployments', 'scale', false], ['*/status', 'deployments', '', false],
    ['pods', 'pods', '', true], ['pods', 'pods', 'status', false], ['pods/status', 'pods', 'status', true],
  ];
  for (const [pattern, resource, sub, want] of cases) assert.equal(resourceMatches(pattern, resource, sub), want, `${pattern} vs ${resource}/${sub}`);
});

test('operations, groups and versions match exactly or by `*`; CONNECT is an operation like the others', () => {
  assert.equal(ruleMatches(rule(), pods), true);
  assert.equal(ruleMatches(rule({ operations: ['UPDATE'] }), pods), false);
  assert.equal(ruleMatches(rule({ operations: ['*'] }), { ...pods, operation: 'DELETE' }), true);
  assert.equal(ruleMatches(rule({ operations: ['CONNECT'], resources: ['pods/exec'] }), { ...pods, operation: 'CONNECT', subresource: 'exec' }), true);
  assert.equal(ruleMatches(rule({ apiGroups: ['apps'] }), pods), false);
  assert.equal(ruleMatches(rule({ apiGroups: ['*'], apiVersions: ['*'] }), pods), true);
  assert.equal(ruleMatches(rule({ apiVersions: ['v2'] }), pods), false);
});

test('scope: Namespaced is a namespaced object, Cluster a cluster-scoped one or a Namespace (whose requests carry its name as namespace)', () => {
  const ns: RuleTarget = { resource: { group: '', version: 'v1', resource: 'namespaces' }, subresource: '', namespace: 'team', operation: 'CREATE' };
  const node: RuleTarget = { resource: { group: '', version: 'v1', resource: 'nodes' }, subresource: '', namespace: '', operation: 'CREATE' };
  const any = { resources: ['*'] };
  assert.equal(ruleMatches(rule({ ...any, scope: 'Namespaced' }), pods), true);
  assert.equal(ruleMatches(rule({ ...any, scope: 'Namespaced' }), ns), false);
  assert.equal(ruleMatches(rule({ ...any, scope: 'Namespaced' }), node), false);
  assert.equal(ruleMatches(rule({ ...any, scope: 'Cluster' }), ns), true);
  assert.equal(ruleMatches(rule({ ...any, scope: 'Cluster' }), node), true);
  assert.equal(ruleMatches(rule({ ...any, scope: 'Cluster' }), pods), false);
  assert.equal(ruleMatches(rule({ ...any, scope: '*' }), node), true);
});
