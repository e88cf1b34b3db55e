import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { UserInfo } from '../../runtime/user.js';
import { nonResourceAttributes, resourceAttributes } from '../attributes.js';
import { parseSubjectAccessReviewResponse, subjectAccessReviewRequest, subjectAccessReviewSpec } from './subject-access-review.js';

const G = 'authorization.orch.io';
const jane: UserInfo = { name: 'jane', uid: 'u-1', groups: ['group1', 'group2'], extra: { 'z-key': ['1'], 'a-key': ['x', 'y'] } };

test('resource requests: resourceAttributes and the user, empty fields left out, Go field order, extra keys sorted', () => {
  const spec = subjectAccessReviewSpec(resourceAttributes(jane, { verb: 'get', namespace: 'kittensandponies', apiGroup: 'group3', apiVersion: 'v1', resource: 'pods', subresource: 'log', name: 'p' }));
  assert.equal(
    JSON.stringify(spec),
    '{"resourceAttributes":{"namespace":"kittensandponies","verb":"get","group":"group3","version":"v1","resource":"pods","subresource":"log","name":"p"},' +
      '"user":"jane","groups":["group1","group2"],"extra":{"a-key":["x","y"],"z-key":["1"]},"uid":"u-1"}',
  );
  assert.deepEqual(subjectAccessReviewSpec(resourceAttributes({ name: 'bob', groups: [], extra: {} }, { verb: 'list', resource: 'nodes' })), {
    resourceAttributes: { verb: 'list', resource: 'nodes' },
    user: 'bob',
  });
});

test('non-resource requests: nonResourceAttributes; no user: only the attributes', () => {
  assert.deepEqual(subjectAccessReviewSpec(nonResourceAttributes(undefined, 'get', '/metrics')), { nonResourceAttributes: { path: '/metrics', verb: 'get' } });
});

test('the request: v1 says groups, v1beta1 says group', () => {
  const spec = subjectAccessReviewSpec(resourceAttributes(jane, { verb: 'get', resource: 'pods' }));
  const v1 = JSON.parse(subjectAccessReviewRequest(`${G}/v1`, 'v1', spec));
  assert.deepEqual(Object.keys(v1), ['kind', 'apiVersion', 'metadata', 'spec', 'status']);
  assert.equal(v1.apiVersion, `${G}/v1`);
  assert.deepEqual(v1.spec.groups, ['group1', 'group2']);
  const beta = JSON.parse(subjectAccessReviewRequest(`${G}/v1beta1`, 'v1beta1', spec));
  assert.equal(beta.apiVersion, `${G}/v1beta1`);
  assert.deepEqual(Object.keys(beta.spec), ['resourceAttributes', 'user', 'group', 'extra', 'uid']);
  assert.deepEqual(beta.spec.group, ['group1', 'group2']);
});

test('answers: either version of our group, apiVersion and kind may be absent; status fields read', () => {
  const ok = (doc: object) => parseSubjectAccessReviewResponse(JSON.stringify(doc), G);
  assert.deepEqual(ok({ apiVersion: `${G}/v1`, kind: 'SubjectAccessReview', status: { allowed: true, reason: 'ok' } }), { allowed: true, denied: false, reason: 'ok', evaluationError: '' });
  assert.deepEqual(ok({ apiVersion: `${G}/v1beta1`, kind: 'SubjectAccessReview', status: { allowed: false, denied: true, evaluationError: 'e' } }), { allowed: false, denied: true, reason: '', evaluationError: 'e' });
  assert.deepEqual(ok({ status: { allowed: true } }).allowed, true);
  assert.deepEqual(ok({}), { allowed: false, denied: false, reason: '', evaluationError: '' });
});

test('answers that are not a SubjectAccessReview of our group, or malformed, are errors', () => {
  const bad: Array<[string, RegExp]> = [
    ['{"status":', /not valid JSON/],
    ['[]', /not a JSON object/],
    [JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', status: { allowed: true } }), /apiVersion "authorization.k8s.io\/v1" kind "SubjectAccessReview", expected a SubjectAccessReview of authorization.orch.io/],
    [JSON.stringify({ apiVersion: `${G}/v1`, kind: 'TokenReview', status: { allowed: true } }), /kind "TokenReview"/],
    [JSON.stringify({ apiVersion: `${G}/v1`, kind: 'SubjectAccessReview', status: { allowed: 'true' } }), /cannot unmarshal string into status.allowed of type bool/],
    [JSON.stringify({ apiVersion: `${G}/v1`, kind: 'SubjectAccessReview', status: { allowed: true, reason: 7 } }), /cannot unmarshal number into status.reason of type string/],
    [JSON.stringify({ status: [] }), /cannot unmarshal array into status/],
  ];
  for (const [body, pattern] of bad) assert.throws(() => parseSubjectAccessReviewResponse(body, G), pattern, body);
});
