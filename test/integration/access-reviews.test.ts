// The access reviews (authorization.<domain>/v1) through the real server over HTTPS: answered,
// never stored, validated with upstream's errors, LocalSubjectAccessReview served only below a
// namespace. The server answers them with AlwaysAllow until the configured chain is wired, so the
// decisions here are AlwaysAllow's; the decision logic itself is covered by the handlers' tests.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Etcd3 } from 'etcd3';
import { defaultAuthenticationOptions } from '../../cmd/apiserver/app/authentication-options.js';
import { tempFiles } from '../../pkg/authentication/testing/signing-keys.js';
import { startTestServer, type TestServer } from './framework/apiserver.js';
import { assertBadRequest, assertStatus } from './framework/assertions.js';
import type { Client } from './framework/client.js';

const G = 'authorization.orch.io';
const base = `/apis/${G}/v1`;
const podsGet = { resourceAttributes: { namespace: 'team-a', verb: 'get', resource: 'pods' } };

describe('access reviews through the real server', () => {
  const files = tempFiles('orch-authz-reviews-');
  let t: TestServer;
  let alice: Client;

  before(async () => {
    const tokenAuthFile = files.write('tokens.csv', 'alice-token-31f9,alice,alice-uid,"devs"\n');
    t = await startTestServer({ authentication: { ...defaultAuthenticationOptions(), tokenAuthFile } });
    alice = t.client.withToken('alice-token-31f9');
  });
  after(async () => {
    await t?.stop();
    files.remove();
  });

  test('SubjectAccessReview: 201 with the review echoed, status filled and a creation time; nothing stored', async () => {
    const sar = { apiVersion: `${G}/v1`, kind: 'SubjectAccessReview', spec: { ...podsGet, user: 'bob', groups: ['ops'], extra: { scopes: ['a'] }, uid: '9' } };
    const r = await alice.post(`${base}/subjectaccessreviews`, sar);
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.kind, 'SubjectAccessReview');
    assert.equal(r.body.apiVersion, `${G}/v1`);
    assert.deepEqual(r.body.spec, sar.spec);
    assert.deepEqual(r.body.status, { allowed: true });
    assert.match(r.body.metadata.creationTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const etcd = new Etcd3({ hosts: t.etcd.endpoint });
    try {
      assert.deepEqual(await etcd.getAll().prefix(`/registry/${G}/`).keys(), []);
    } finally {
      etcd.close();
    }
    const get = await alice.get(`${base}/subjectaccessreviews`);
    assertStatus(get, 405, 'MethodNotAllowed');
  });

  test('SubjectAccessReview validation: 422 with upstream\'s causes; metadata must be empty', async () => {
    const r = await alice.post(`${base}/subjectaccessreviews`, { spec: {} });
    assertStatus(r, 422, 'Invalid');
    assert.equal(r.body.message, `.${G} "" is invalid: [spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified, spec.user: Invalid value: "": at least one of user or group must be specified]`);
    assert.deepEqual(r.body.details.causes, [
      { reason: 'FieldValueInvalid', message: 'Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified', field: 'spec.resourceAttributes' },
      { reason: 'FieldValueInvalid', message: 'Invalid value: "": at least one of user or group must be specified', field: 'spec.user' },
    ]);
    const both = await alice.post(`${base}/subjectaccessreviews`, { spec: { ...podsGet, nonResourceAttributes: { path: '/healthz', verb: 'get' }, groups: ['ops'] } });
    assertStatus(both, 422, 'Invalid');
    assert.deepEqual(both.body.details.causes.map((c: { field: string }) => c.field), ['spec.nonResourceAttributes']);
    const named = await alice.post(`${base}/subjectaccessreviews`, { metadata: { name: 'x' }, spec: { ...podsGet, user: 'bob' } });
    assertStatus(named, 422, 'Invalid');
    assert.match(named.body.message, /metadata: Invalid value: .*: must be empty$/);
    // kubectl's empty ObjectMeta is empty.
    const kubectlShaped = await alice.post(`${base}/subjectaccessreviews`, { metadata: { creationTimestamp: null }, spec: { nonResourceAttributes: { path: '/healthz', verb: 'get' }, user: 'bob' } });
    assert.equal(kubectlShaped.status, 201, kubectlShaped.text);
  });

  test('SelfSubjectAccessReview: the requester asks about themselves; subject fields are unknown', async () => {
    const r = await alice.post(`${base}/selfsubjectaccessreviews`, { spec: podsGet });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.body.status, { allowed: true });
    const strict = await alice.post(`${base}/selfsubjectaccessreviews?fieldValidation=Strict`, { spec: { ...podsGet, user: 'root' } });
    assertBadRequest(strict);
    assert.equal(strict.body.message, 'strict decoding error: unknown field "spec.user"');
    const none = await alice.post(`${base}/selfsubjectaccessreviews`, { spec: {} });
    assertStatus(none, 422, 'Invalid');
  });

  test('LocalSubjectAccessReview is served below its namespace only, which the spec must name', async () => {
    const lsar = { spec: { ...podsGet, user: 'bob' } };
    const r = await alice.post(`${base}/namespaces/team-a/localsubjectaccessreviews`, lsar);
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.metadata.namespace, 'team-a');
    assert.deepEqual(r.body.status, { allowed: true });
    assertStatus(await alice.post(`${base}/localsubjectaccessreviews`, lsar), 404, 'NotFound');
    assertStatus(await alice.post(`${base}/namespaces/team-a/subjectaccessreviews`, lsar), 404, 'NotFound');
    const other = await alice.post(`${base}/namespaces/team-b/localsubjectaccessreviews`, lsar);
    assertStatus(other, 422, 'Invalid');
    assert.equal(other.body.message, `.${G} "" is invalid: spec.resourceAttributes.namespace: Invalid value: "team-a": must match metadata.namespace`);
    const mismatch = await alice.post(`${base}/namespaces/team-b/localsubjectaccessreviews`, { metadata: { namespace: 'team-a' }, ...lsar });
    assertBadRequest(mismatch);
    assert.equal(mismatch.body.message, 'the namespace of the provided object does not match the namespace sent on the request');
    const nonResource = await alice.post(`${base}/namespaces/team-a/localsubjectaccessreviews`, { spec: { nonResourceAttributes: { path: '/healthz', verb: 'get' }, user: 'bob' } });
    assertStatus(nonResource, 422, 'Invalid');
    assert.equal(nonResource.body.details.causes.at(-1).field, 'spec.nonResourceAttributes');
  });

  test('SelfSubjectRulesReview: the requester\'s rules in a namespace; 400 without one', async () => {
    const r = await alice.post(`${base}/selfsubjectrulesreviews`, { spec: { namespace: 'team-a' } });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.kind, 'SelfSubjectRulesReview');
    assert.deepEqual(r.body.status, {
      resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
      incomplete: false,
    });
    const none = await alice.post(`${base}/selfsubjectrulesreviews`, { spec: {} });
    assertBadRequest(none);
    assert.equal(none.body.message, 'no namespace on request');
  });

  test('reviews speak protobuf too', async () => {
    const r = await alice.request('POST', `${base}/selfsubjectaccessreviews`, {
      body: { apiVersion: `${G}/v1`, kind: 'SelfSubjectAccessReview', spec: { nonResourceAttributes: { path: '/healthz', verb: 'get' } } },
      headers: { Accept: 'application/vnd.orch.protobuf' },
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.headers['content-type'], 'application/vnd.orch.protobuf');
  });
});
