import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultApiDomain } from '../../../api/domain.js';
import { podAttrs } from '../testing/attrs.js';
import { createAdmissionReview, decodeAdmissionReview, negotiateReviewVersion, ReviewDecodeError, verifyAdmissionResponse } from './admission-review.js';
import { webhookAccessor } from './types.js';

const hook = webhookAccessor('cfg', 0, 'mutating', { name: 'w.example.com', clientConfig: { url: 'https://h' } });

test('the first of the webhook\'s versions the server speaks is sent', () => {
  assert.equal(negotiateReviewVersion(['v2', 'v1beta1', 'v1']), 'v1beta1');
  assert.equal(negotiateReviewVersion(['v1', 'v1beta1']), 'v1');
  assert.equal(negotiateReviewVersion(['v2']), undefined);
  assert.equal(negotiateReviewVersion(undefined), undefined);
});

test('the request carries the converted kind and resource, the request\'s own ones, and nulls where upstream sends them', () => {
  const attrs = podAttrs({ operation: 'DELETE', name: 'p', object: undefined, oldObject: { metadata: { name: 'p' } }, options: { kind: 'DeleteOptions' }, userInfo: { name: 'u', groups: [], extra: {} } });
  const inv = { webhook: hook, resource: { group: 'x', version: 'v2', resource: 'pods' }, subresource: '', kind: { group: 'x', version: 'v2', kind: 'Pod' } };
  const sent = createAdmissionReview(defaultApiDomain, 'v1', attrs, inv, { kind: inv.kind, object: undefined, oldObject: { metadata: { name: 'p' } } });
  assert.equal(sent.review['apiVersion'], 'admission.orch.io/v1');
  assert.equal(sent.review['kind'], 'AdmissionReview');
  const r = sent.review['request'] as Record<string, unknown>;
  assert.equal(r['uid'], sent.uid);
  assert.deepEqual(r['kind'], { group: 'x', version: 'v2', kind: 'Pod' });
  assert.deepEqual(r['requestKind'], { group: '', version: 'v1', kind: 'Pod' });
  assert.deepEqual(r['requestResource'], { group: '', version: 'v1', resource: 'pods' });
  assert.equal('subResource' in r, false);
  assert.equal(r['object'], null);
  assert.deepEqual(r['oldObject'], { metadata: { name: 'p' } });
  assert.deepEqual(r['userInfo'], { username: 'u' });
  assert.equal(r['dryRun'], false);
  assert.deepEqual(r['options'], { kind: 'DeleteOptions' });
  assert.deepEqual(Object.keys(r), ['uid', 'kind', 'resource', 'requestKind', 'requestResource', 'name', 'namespace', 'operation', 'userInfo', 'object', 'oldObject', 'dryRun', 'options']);
});

test('a v1 answer must echo the uid and name admission.<domain>/v1 AdmissionReview; patches come with their type', () => {
  const sent = { uid: 'u1', version: 'v1' as const, review: {} };
  const answer = (response: unknown, apiVersion = 'admission.orch.io/v1') => decodeAdmissionReview(JSON.stringify({ apiVersion, kind: 'AdmissionReview', response }));
  assert.equal(verifyAdmissionResponse(defaultApiDomain, sent, false, answer({ uid: 'u1', allowed: true })).allowed, true);
  assert.throws(() => verifyAdmissionResponse(defaultApiDomain, sent, false, answer({ uid: 'u2', allowed: true })), /expected response.uid="u1", got "u2"/);
  assert.throws(() => verifyAdmissionResponse(defaultApiDomain, sent, false, answer({ uid: 'u1', allowed: true }, 'admission.orch.io/v1beta1')), /expected webhook response of admission.orch.io\/v1, Kind=AdmissionReview, got admission.orch.io\/v1beta1, Kind=AdmissionReview/);
  assert.throws(() => verifyAdmissionResponse(defaultApiDomain, sent, false, answer(undefined)), /webhook response was absent/);
  const patch = Buffer.from('[]').toString('base64');
  assert.throws(() => verifyAdmissionResponse(defaultApiDomain, sent, false, answer({ uid: 'u1', allowed: true, patch, patchType: 'JSONPatch' })), /validating webhook may not return response.patch/);
  assert.throws(() => verifyAdmissionResponse(defaultApiDomain, sent, true, answer({ uid: 'u1', allowed: true, patch })), /webhook returned response.patch but not response.patchType/);
  assert.throws(() => verifyAdmissionResponse(defaultApiDomain, sent, true, answer({ uid: 'u1', allowed: true, patchType: 'JSONPatch' })), /webhook returned response.patchType but not response.patch/);
  assert.equal(verifyAdmissionResponse(defaultApiDomain, sent, true, answer({ uid: 'u1', allowed: true, patch, patchType: 'JSONPatch' })).patch?.toString(), '[]');
});

test('a v1beta1 answer is checked for neither uid nor kind, and a patch is a JSON patch', () => {
  const sent = { uid: 'u1', version: 'v1beta1' as const, review: {} };
  const r = verifyAdmissionResponse(defaultApiDomain, sent, true, decodeAdmissionReview(JSON.stringify({ response: { allowed: true, patch: Buffer.from('[]').toString('base64') } })));
  assert.equal(r.patchType, 'JSONPatch');
});

test('a body that is not an AdmissionReview fails to decode, as a failed call', () => {
  assert.throws(() => decodeAdmissionReview('garbage'), (e) => e instanceof ReviewDecodeError && /couldn't get version\/kind; json parse error/.test(e.message));
  assert.throws(() => decodeAdmissionReview('{"response":{"allowed":"yes"}}'), /cannot unmarshal string into Go struct field AdmissionResponse.response.allowed of type bool/);
  assert.throws(() => decodeAdmissionReview('{"response":{"allowed":true,"patch":"***"}}'), /illegal base64 data/);
});
