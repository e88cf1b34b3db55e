import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultApiDomain, apiDomain } from '../../../api/domain.js';
import { serviceAccountNames } from './names.js';
import { apiAudiences, serviceAccountFlagErrors, serviceAccountFlagWarnings } from './options.js';
import { makeGroupNames, makeUsername, serviceAccountUser, splitUsername } from './user.js';

test('flag checks report what upstream reports', () => {
  assert.deepEqual(serviceAccountFlagErrors({ issuers: ['https://a'], keyFiles: ['/k.pem'] }), []);
  assert.deepEqual(serviceAccountFlagErrors({ issuers: [], keyFiles: [] }), ['service-account-issuer is a required flag', 'service-account-key-file is a required flag']);
  assert.deepEqual(serviceAccountFlagErrors({ issuers: ['https://a', '', 'https://a', 'api'], keyFiles: ['/k'] }), [
    'service-account-issuer should not be an empty string',
    'service-account-issuer "https://a" is already specified',
  ]);
  assert.deepEqual(serviceAccountFlagErrors({ issuers: ['://nope'], keyFiles: ['/k'] }), ['service-account-issuer "://nope" contained a \':\' but was not a valid URL']);
  assert.deepEqual(serviceAccountFlagErrors({ issuers: ['a'], keyFiles: ['/k'], jwksUri: 'http://x/jwks' }), ['service-account-jwks-uri requires https scheme, parsed as: http://x/jwks']);
  assert.deepEqual(serviceAccountFlagErrors({ issuers: ['a'], keyFiles: ['/k'], jwksUri: 'not a url' }), ['service-account-jwks-uri must be a valid URL']);
  for (const bad of [1, 3599, 2 ** 32 + 1]) {
    assert.deepEqual(serviceAccountFlagErrors({ issuers: ['a'], keyFiles: ['/k'], maxExpirationSeconds: bad }), ['the service-account-max-token-expiration must be between 1 hour and 2^32 seconds'], String(bad));
  }
  for (const good of [0, 3600, 2 ** 32]) assert.deepEqual(serviceAccountFlagErrors({ issuers: ['a'], keyFiles: ['/k'], maxExpirationSeconds: good }), []);
});

test('a cap that defeats the expiration extension is warned about', () => {
  assert.deepEqual(serviceAccountFlagWarnings(true, 0), []);
  assert.deepEqual(serviceAccountFlagWarnings(false, 3600), []);
  assert.equal(serviceAccountFlagWarnings(true, 3600).length, 2);
  assert.equal(serviceAccountFlagWarnings(true, 7200).length, 1);
  assert.deepEqual(serviceAccountFlagWarnings(true, 365 * 24 * 3600), []);
});

test('--api-audiences defaults to the issuers', () => {
  assert.deepEqual(apiAudiences([], ['https://a', 'b']), ['https://a', 'b']);
  assert.deepEqual(apiAudiences(['x'], ['https://a']), ['x']);
});

test('service account usernames and groups', () => {
  assert.equal(makeUsername('ci', 'builder'), 'system:serviceaccount:ci:builder');
  assert.deepEqual(splitUsername('system:serviceaccount:ci:builder'), { namespace: 'ci', name: 'builder' });
  assert.deepEqual(splitUsername('system:serviceaccount:ci:my.builder'), { namespace: 'ci', name: 'my.builder' });
  for (const bad of ['builder', 'system:serviceaccount:ci', 'system:serviceaccount:ci:a:b', 'system:serviceaccount:CI:a', 'system:serviceaccount:ci:', 'system:serviceaccount:c.i:a']) {
    assert.equal(splitUsername(bad), undefined, bad);
  }
  assert.deepEqual(makeGroupNames('ci'), ['system:serviceaccounts', 'system:serviceaccounts:ci']);
});

test('names and extra keys follow the domain', () => {
  const ours = serviceAccountNames(defaultApiDomain);
  assert.equal(ours.legacyIssuer, 'orch/serviceaccount');
  assert.equal(ours.privateClaim, 'orch.io');
  assert.equal(ours.legacyClaims.serviceAccountUID, 'orch.io/serviceaccount/service-account.uid');
  const upstream = serviceAccountNames(apiDomain('k8s.io'));
  assert.equal(upstream.legacyIssuer, 'kubernetes/serviceaccount');
  assert.equal(upstream.extra.podName, 'authentication.kubernetes.io/pod-name');
  assert.equal(upstream.legacyTokenInvalidSinceLabel, 'kubernetes.io/legacy-token-invalid-since');
  // Pod extra only with both name and uid; node uid only with a node name.
  const u = serviceAccountUser({ namespace: 'ci', name: 'b', uid: '', podName: 'p', nodeUID: 'orphan' }, ours);
  assert.deepEqual(u, { name: 'system:serviceaccount:ci:b', groups: ['system:serviceaccounts', 'system:serviceaccounts:ci'], extra: {} });
});
