import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { VirtualHandler } from '../endpoints/resource-handlers.js';
import { StatusError } from '../runtime/errors.js';
import type { UserInfo } from '../runtime/user.js';
import type { StoredObject } from '../storage/interface.js';
import { AlwaysAllowAuthorizer, AlwaysDenyAuthorizer } from './always.js';
import type { Attributes } from './attributes.js';
import type { Authorizer, RuleResolver } from './authorizer.js';
import { RbacAuthorizer } from './rbac/authorizer.js';
import { RbacIndex } from './rbac/index.js';
import {
  localSubjectAccessReviewHandler, selfSubjectAccessReviewHandler, selfSubjectRulesReviewHandler, subjectAccessReviewHandler,
} from './reviews.js';
import { UnionAuthorizer, UnionRuleResolver } from './union.js';

const AUTHZ = 'authorization.orch.io';
const RBAC = 'rbac.authorization.orch.io';
const jane: UserInfo = { name: 'jane', groups: ['devs', 'system:authenticated'], extra: {} };

/** RBAC over a tiny index, as an Authorizer and RuleResolver (the index is what main feeds from caches). */
function rbac(): Authorizer & RuleResolver {
  const index = new RbacIndex(RBAC);
  index.apply('ClusterRole', 'ADDED', { metadata: { name: 'pod-reader' }, rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }] });
  index.apply('ClusterRole', 'ADDED', { metadata: { name: 'health' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }] });
  index.apply('ClusterRoleBinding', 'ADDED', { metadata: { name: 'readers' }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'pod-reader' }, subjects: [{ kind: 'Group', apiGroup: RBAC, name: 'devs' }] });
  index.apply('ClusterRoleBinding', 'ADDED', { metadata: { name: 'health' }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'health' }, subjects: [{ kind: 'User', apiGroup: RBAC, name: 'jane' }] });
  index.apply('RoleBinding', 'ADDED', { metadata: { namespace: 'ns1', name: 'broken' }, roleRef: { apiGroup: RBAC, kind: 'Role', name: 'missing' }, subjects: [{ kind: 'User', apiGroup: RBAC, name: 'jane' }] });
  const authz = new RbacAuthorizer(index);
  return {
    authorize: async (a) => authz.authorize({ ...a, user: a.user ?? { name: '', groups: [] } }),
    rulesFor: async (u, ns) => authz.rulesFor(u, ns),
  };
}

function call(h: VirtualHandler, obj: Partial<StoredObject>, opts: { user?: UserInfo; namespace?: string } = {}): Promise<StoredObject> {
  return h({ obj: { metadata: {}, ...obj } as StoredObject, user: 'user' in opts ? opts.user : jane, namespace: opts.namespace ?? '', name: '', dryRun: false, warn: () => {} });
}

async function rejects(p: Promise<unknown>, code: number, message: string): Promise<StatusError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof StatusError, String(e));
    assert.equal(e.code, code, e.message);
    assert.equal(e.status.message, message);
    return e;
  }
  assert.fail('expected a rejection');
}

const podsGet = { resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'ns1' } };

test('SubjectAccessReview answers with the request, creationTimestamp and upstream\'s status mapping', async () => {
  const sar = { apiVersion: `${AUTHZ}/v1`, kind: 'SubjectAccessReview', spec: { ...podsGet, user: 'bob' } };
  const allowed = await call(subjectAccessReviewHandler(new AlwaysAllowAuthorizer(), AUTHZ), sar);
  assert.deepEqual(allowed.spec, sar.spec);
  assert.equal(allowed.kind, 'SubjectAccessReview');
  assert.match(String(allowed.metadata.creationTimestamp), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.deepEqual(allowed.status, { allowed: true });
  // AlwaysDeny has no opinion: not allowed, not denied, with its reason.
  assert.deepEqual((await call(subjectAccessReviewHandler(new AlwaysDenyAuthorizer(), AUTHZ), sar)).status, { allowed: false, reason: 'Everything is forbidden.' });
  const seen: Attributes[] = [];
  const recorder: Authorizer = { authorize: async (a) => { seen.push(a); return { decision: 'noOpinion', reason: '' }; } };
  await call(subjectAccessReviewHandler(recorder, AUTHZ), { spec: { resourceAttributes: { verb: 'get', group: 'apps', resource: 'deployments', subresource: 'scale', name: 'd' }, user: 'bob', groups: ['g'], uid: '7', extra: { k: ['v'] } } });
  await call(subjectAccessReviewHandler(recorder, AUTHZ), { spec: { resourceAttributes: { version: 'v1' }, user: 'bob' } });
  assert.deepEqual(seen.map((a) => [a.user, a.apiGroup, a.apiVersion, a.resource, a.subresource, a.name, a.namespace, a.isResourceRequest]), [
    [{ name: 'bob', uid: '7', groups: ['g'], extra: { k: ['v'] } }, 'apps', '*', 'deployments', 'scale', 'd', '', true],
    [{ name: 'bob', groups: [], extra: {} }, '', 'v1', '', '', '', '', true],
  ], 'an empty version asks about every version');
  const denier: Authorizer = { authorize: async () => ({ decision: 'deny', reason: 'not on Fridays', evaluationError: 'clock skew' }) };
  assert.deepEqual((await call(subjectAccessReviewHandler(new UnionAuthorizer([new AlwaysDenyAuthorizer(), denier]), AUTHZ), sar)).status,
    { allowed: false, denied: true, reason: 'not on Fridays', evaluationError: 'clock skew' });
});

test('SubjectAccessReview asks RBAC about the spec\'s subject only (not the requester)', async () => {
  const h = subjectAccessReviewHandler(rbac(), AUTHZ);
  assert.deepEqual((await call(h, { spec: { ...podsGet, groups: ['devs'] } })).status,
    { allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding "readers" of ClusterRole "pod-reader" to Group "devs"' });
  // jane is in devs, but the review names a user without groups.
  assert.deepEqual((await call(h, { spec: { ...podsGet, user: 'jane' } })).status,
    { allowed: false, reason: 'RBAC: role.rbac.authorization.orch.io "missing" not found' });
  assert.deepEqual((await call(h, { spec: { nonResourceAttributes: { verb: 'get', path: '/healthz' }, user: 'jane' } })).status,
    { allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding "health" of ClusterRole "health" to User "jane"' });
  assert.equal(((await call(h, { spec: { resourceAttributes: { verb: 'delete', resource: 'pods' }, groups: ['devs'] } })).status as { allowed: boolean }).allowed, false);
});

test('SubjectAccessReview validation: 422 with upstream\'s field errors', async () => {
  const h = subjectAccessReviewHandler(new AlwaysAllowAuthorizer(), AUTHZ);
  const e = await rejects(call(h, { spec: {} }), 422,
    '.authorization.orch.io "" is invalid: [spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified, spec.user: Invalid value: "": at least one of user or group must be specified]');
  assert.equal(e.status.reason, 'Invalid');
  assert.deepEqual(e.status.details?.causes?.map((c) => c.field), ['spec.resourceAttributes', 'spec.user']);
  assert.deepEqual(e.status.details?.causes?.map((c) => c.reason), ['FieldValueInvalid', 'FieldValueInvalid']);
  await rejects(call(h, { spec: { ...podsGet, nonResourceAttributes: { verb: 'get', path: '/x' }, user: 'u' } }), 422,
    '.authorization.orch.io "" is invalid: spec.nonResourceAttributes: Invalid value: {"verb":"get","path":"/x"}: cannot be specified in combination with resourceAttributes');
  await rejects(call(h, { metadata: { name: 'x' }, spec: { ...podsGet, user: 'u' } }), 422,
    '.authorization.orch.io "" is invalid: metadata: Invalid value: {"name":"x"}: must be empty');
  // What clients send for an empty ObjectMeta, and a namespace on a cluster-scoped kind, are no metadata.
  const ok = await call(h, { metadata: { namespace: 'ns1', creationTimestamp: null, managedFields: [{ manager: 'm' }] } as never, spec: { ...podsGet, user: 'u' } });
  assert.deepEqual(ok.status, { allowed: true });
  assert.equal(ok.metadata.namespace, undefined);
});

test('LocalSubjectAccessReview: the path\'s namespace, which the spec must match; no non-resource requests', async () => {
  const h = localSubjectAccessReviewHandler(rbac(), AUTHZ);
  const ok = await call(h, { spec: { ...podsGet, groups: ['devs'] } }, { namespace: 'ns1' });
  assert.equal(ok.metadata.namespace, 'ns1');
  assert.equal((ok.status as { allowed: boolean }).allowed, true);
  await rejects(call(h, { metadata: { namespace: 'ns2' }, spec: { ...podsGet, groups: ['devs'] } }, { namespace: 'ns1' }), 400,
    'the namespace of the provided object does not match the namespace sent on the request');
  await rejects(call(h, { spec: { resourceAttributes: { verb: 'get', resource: 'pods' }, groups: ['devs'] } }, { namespace: 'ns1' }), 422,
    '.authorization.orch.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "": must match metadata.namespace');
  await rejects(call(h, { metadata: { labels: { a: 'b' } }, spec: { nonResourceAttributes: { verb: 'get', path: '/healthz' }, user: 'jane' } }, { namespace: 'ns1' }), 422,
    '.authorization.orch.io "" is invalid: [metadata: Invalid value: {"labels":{"a":"b"},"namespace":"ns1"}: must be empty except for namespace, spec.nonResourceAttributes: Invalid value: {"verb":"get","path":"/healthz"}: disallowed on this kind of request]');
});

test('SelfSubjectAccessReview asks about the requester', async () => {
  const h = selfSubjectAccessReviewHandler(rbac(), AUTHZ);
  assert.deepEqual((await call(h, { spec: podsGet })).status,
    { allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding "readers" of ClusterRole "pod-reader" to Group "devs"' });
  assert.equal(((await call(h, { spec: podsGet }, { user: { name: 'bob', groups: [], extra: {} } })).status as { allowed: boolean }).allowed, false);
  await rejects(call(h, { spec: podsGet }, { user: undefined }), 400, 'no user present on request');
  await rejects(call(h, { spec: {} }), 422,
    '.authorization.orch.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified');
});

test('SelfSubjectRulesReview lists the requester\'s rules in the namespace, with incomplete and the evaluation error', async () => {
  const h = selfSubjectRulesReviewHandler(rbac());
  const r = await call(h, { apiVersion: `${AUTHZ}/v1`, kind: 'SelfSubjectRulesReview', metadata: { name: 'dropped' }, spec: { namespace: 'ns1' } });
  assert.equal(r.kind, 'SelfSubjectRulesReview');
  assert.deepEqual(r.spec, {});
  assert.deepEqual(Object.keys(r.metadata), ['creationTimestamp']);
  assert.deepEqual(r.status, {
    resourceRules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }],
    nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }],
    incomplete: false,
    evaluationError: 'role.rbac.authorization.orch.io "missing" not found',
  });
  const failing: RuleResolver = { rulesFor: async () => { throw new Error('webhook authorizer does not support user rule resolution'); } };
  const union = await call(selfSubjectRulesReviewHandler(new UnionRuleResolver([new AlwaysDenyAuthorizer(), failing])), { spec: { namespace: 'ns1' } });
  assert.deepEqual(union.status, { resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: 'webhook authorizer does not support user rule resolution' });
  await rejects(call(h, { spec: {} }), 400, 'no namespace on request');
  await rejects(call(h, { spec: { namespace: 'ns1' } }, { user: undefined }), 400, 'no user present on request');
});
