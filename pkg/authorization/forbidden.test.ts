import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseRequestInfo } from '../endpoints/request-info.js';
import { AnonymousUser, UnauthenticatedGroup, type UserInfo } from '../runtime/user.js';
import { attributesFrom, nonResourceAttributes, resourceAttributes } from './attributes.js';
import { forbiddenStatusError } from './forbidden.js';

const u: UserInfo = { name: 'NAME', groups: [], extra: {} };

test('403 Status: upstream responsewriters TestForbidden cases', () => {
  const cases: Array<[ReturnType<typeof resourceAttributes>, string, object]> = [
    [nonResourceAttributes(u, 'GET', '/whatever'), 'forbidden: User "NAME" cannot GET path "/whatever"', {}],
    [nonResourceAttributes(u, 'GET', '/<script>'), 'forbidden: User "NAME" cannot GET path "/&lt;script&gt;"', {}],
    [resourceAttributes(u, { verb: 'get', resource: 'pod' }), 'pod is forbidden: User "NAME" cannot get resource "pod" in API group "" at the cluster scope', { kind: 'pod' }],
    [resourceAttributes(u, { verb: 'get', resource: 'pod', name: 'mypod' }), 'pod "mypod" is forbidden: User "NAME" cannot get resource "pod" in API group "" at the cluster scope', { name: 'mypod', kind: 'pod' }],
    [
      resourceAttributes(u, { verb: 'get', namespace: 'test', apiGroup: 'v2', resource: 'pod', subresource: 'quota' }),
      'pod.v2 is forbidden: User "NAME" cannot get resource "pod/quota" in API group "v2" in the namespace "test"',
      { group: 'v2', kind: 'pod' },
    ],
  ];
  for (const [attrs, message, details] of cases) {
    const e = forbiddenStatusError(attrs, '');
    assert.equal(e.code, 403);
    assert.deepEqual(e.status, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Forbidden', details, code: 403 });
  }
});

test('403 from a real request: reason appended, namespaced, named, sub-resource, cluster scope, anonymous', () => {
  const jane: UserInfo = { name: 'jane', groups: ['system:authenticated'], extra: {} };
  const anon: UserInfo = { name: AnonymousUser, groups: [UnauthenticatedGroup], extra: {} };
  const cases: Array<[string, string, UserInfo | undefined, string, string, object]> = [
    ['GET', '/api/v1/namespaces/n/configmaps', jane, '', 'configmaps is forbidden: User "jane" cannot list resource "configmaps" in API group "" in the namespace "n"', { kind: 'configmaps' }],
    [
      'GET', '/api/v1/namespaces/n/configmaps', jane, 'RBAC: role.rbac.authorization.orch.io "x" not found',
      'configmaps is forbidden: User "jane" cannot list resource "configmaps" in API group "" in the namespace "n": RBAC: role.rbac.authorization.orch.io "x" not found',
      { kind: 'configmaps' },
    ],
    ['GET', '/api/v1/namespaces/n/pods/p1/log', jane, '', 'pods "p1" is forbidden: User "jane" cannot get resource "pods/log" in API group "" in the namespace "n"', { name: 'p1', kind: 'pods' }],
    ['DELETE', '/apis/apps/v1/namespaces/n/deployments/d', jane, '', 'deployments.apps "d" is forbidden: User "jane" cannot delete resource "deployments" in API group "apps" in the namespace "n"', { name: 'd', group: 'apps', kind: 'deployments' }],
    ['GET', '/api/v1/nodes?watch=true', jane, '', 'nodes is forbidden: User "jane" cannot watch resource "nodes" in API group "" at the cluster scope', { kind: 'nodes' }],
    ['POST', '/apis/rbac.authorization.orch.io/v1/clusterroles', anon, '', 'clusterroles.rbac.authorization.orch.io is forbidden: User "system:anonymous" cannot create resource "clusterroles" in API group "rbac.authorization.orch.io" at the cluster scope', { group: 'rbac.authorization.orch.io', kind: 'clusterroles' }],
    ['GET', '/metrics', anon, '', 'forbidden: User "system:anonymous" cannot get path "/metrics"', {}],
    ['GET', '/apis/apps/v1', jane, '', 'forbidden: User "jane" cannot get path "/apis/apps/v1"', {}],
    ['GET', '/healthz', undefined, '', 'forbidden: User "" cannot get path "/healthz"', {}],
  ];
  for (const [method, url, user, reason, message, details] of cases) {
    const e = forbiddenStatusError(attributesFrom(parseRequestInfo(method, url), user), reason);
    assert.equal(e.status.message, message, url);
    assert.equal(e.reason, 'Forbidden');
    assert.deepEqual(e.status.details, details, url);
  }
});

test('names are quoted as Go quotes them; only the sentence is HTML-escaped, not the reason', () => {
  const odd: UserInfo = { name: 'a"b\n<c>', groups: [], extra: {} };
  const e = forbiddenStatusError(resourceAttributes(odd, { verb: 'get', resource: 'secrets', namespace: 'n', name: 'x&y' }), 'because <b>');
  assert.equal(e.status.message, 'secrets "x&y" is forbidden: User "a\\"b\\n&lt;c&gt;" cannot get resource "secrets" in API group "" in the namespace "n": because <b>');
  assert.deepEqual(e.status.details, { name: 'x&y', kind: 'secrets' });
});
