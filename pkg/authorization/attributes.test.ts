import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultApiDomain } from '../../api/domain.js';
import { parseRequestInfo } from '../endpoints/request-info.js';
import type { UserInfo } from '../runtime/user.js';
import { attributesFrom, bindAttributes, escalateAttributes, impersonateAttributes, isReadOnly, signerAttributes, useAttributes } from './attributes.js';

const jane: UserInfo = { name: 'jane', uid: '1', groups: ['dev'], extra: {} };
const empty = { namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '', path: '' };

test('attributes of resource requests come from the request info and the user', () => {
  assert.deepEqual(attributesFrom(parseRequestInfo('GET', '/apis/apps/v1/namespaces/n/deployments/d/scale'), jane), {
    user: jane, verb: 'get', namespace: 'n', apiGroup: 'apps', apiVersion: 'v1', resource: 'deployments', subresource: 'scale', name: 'd',
    isResourceRequest: true, path: '/apis/apps/v1/namespaces/n/deployments/d/scale',
  });
  const list = attributesFrom(parseRequestInfo('GET', '/api/v1/pods?watch=1'), undefined);
  assert.equal(list.verb, 'watch');
  assert.equal(list.user, undefined);
  assert.equal(list.path, '/api/v1/pods');
  assert.equal(isReadOnly(list), true);
  assert.equal(isReadOnly(attributesFrom(parseRequestInfo('PATCH', '/api/v1/namespaces/n/pods/p'), jane)), false);
  assert.equal(attributesFrom(parseRequestInfo('DELETE', '/api/v1/namespaces/n/pods'), jane).verb, 'deletecollection');
});

test('a list or watch selecting one metadata.name is asked about that name, as upstream\'s RequestInfo names it', () => {
  const name = (method: string, url: string) => attributesFrom(parseRequestInfo(method, url), jane).name;
  assert.equal(name('GET', '/api/v1/namespaces/n/secrets?fieldSelector=metadata.name%3Ds'), 's');
  assert.equal(name('GET', '/api/v1/namespaces/n/secrets?watch=1&fieldSelector=type%3Dx,metadata.name%3D%3Ds'), 's', 'with == and beside other terms');
  assert.equal(name('GET', '/api/v1/namespaces/n/secrets?fieldSelector=metadata.name!%3Ds'), '', 'not an exact match');
  assert.equal(name('GET', '/api/v1/namespaces/n/secrets?fieldSelector=metadata.namespace%3Ds'), '');
  assert.equal(name('GET', '/api/v1/namespaces/n/secrets?fieldSelector=metadata.name%3D..'), '', 'not a valid path segment');
  assert.equal(name('GET', '/api/v1/namespaces/n/secrets?fieldSelector=metadata.name%3Da%2Fb'), '');
  assert.equal(name('GET', '/api/v1/namespaces/n/secrets?fieldSelector=metadata.name%3Da%5Cq'), '', 'a selector that does not parse');
  assert.equal(name('DELETE', '/api/v1/namespaces/n/secrets?fieldSelector=metadata.name%3Ds'), '', 'deletecollection is not named');
  assert.equal(name('GET', '/api/v1/namespaces/n/secrets/t?fieldSelector=metadata.name%3Ds'), 't', 'the path\'s name wins');
});

test('non-resource requests carry only the lower-cased method and the path', () => {
  assert.deepEqual(attributesFrom(parseRequestInfo('GET', '/healthz?verbose'), jane), { ...empty, user: jane, verb: 'get', isResourceRequest: false, path: '/healthz' });
  assert.deepEqual(attributesFrom(parseRequestInfo('GET', '/apis/apps/v1'), jane), { ...empty, user: jane, verb: 'get', isResourceRequest: false, path: '/apis/apps/v1' });
  assert.equal(attributesFrom(parseRequestInfo('POST', '/logs'), jane).verb, 'post');
});

test('impersonate checks, as upstream impersonation builds them', () => {
  const authn = defaultApiDomain.group('authentication');
  const r = (x: object) => ({ ...empty, user: jane, verb: 'impersonate', isResourceRequest: true, ...x });
  assert.deepEqual(impersonateAttributes(jane, { kind: 'User', name: 'bob' }, authn), r({ resource: 'users', name: 'bob' }));
  assert.deepEqual(impersonateAttributes(jane, { kind: 'Group', name: 'ops' }, authn), r({ resource: 'groups', name: 'ops' }));
  assert.deepEqual(impersonateAttributes(jane, { kind: 'ServiceAccount', namespace: 'ns', name: 'sa' }, authn), r({ resource: 'serviceaccounts', namespace: 'ns', name: 'sa' }));
  assert.deepEqual(impersonateAttributes(jane, { kind: 'UID', uid: 'u-9' }, authn), r({ apiGroup: 'authentication.orch.io', apiVersion: 'v1', resource: 'uids', name: 'u-9' }));
  assert.deepEqual(impersonateAttributes(jane, { kind: 'UserExtra', key: 'scopes', value: 'view' }, authn), r({ apiGroup: 'authentication.orch.io', apiVersion: 'v1', resource: 'userextras', subresource: 'scopes', name: 'view' }));
});

test('bind, escalate, approve/sign and use checks', () => {
  const rbac = defaultApiDomain.group('rbac.authorization');
  assert.deepEqual(bindAttributes(jane, 'ns', { apiGroup: rbac, kind: 'ClusterRole', name: 'admin' }), {
    ...empty, user: jane, verb: 'bind', namespace: 'ns', apiGroup: rbac, resource: 'clusterroles', name: 'admin', isResourceRequest: true,
  });
  assert.equal(bindAttributes(jane, '', { apiGroup: rbac, kind: 'Role', name: 'r' })?.resource, 'roles');
  assert.equal(bindAttributes(jane, '', { apiGroup: rbac, kind: 'User', name: 'r' }), undefined);
  assert.deepEqual(escalateAttributes(jane, parseRequestInfo('PUT', `/apis/${rbac}/v1/namespaces/n/roles/r`)), {
    ...empty, user: jane, verb: 'escalate', namespace: 'n', apiGroup: rbac, apiVersion: '*', resource: 'roles', name: 'r', isResourceRequest: true,
  });
  const [exact, wildcard] = signerAttributes(jane, 'approve', 'example.com/my-signer', defaultApiDomain.group('certificates'));
  assert.deepEqual(exact, { ...empty, user: jane, verb: 'approve', apiGroup: 'certificates.orch.io', apiVersion: '*', resource: 'signers', name: 'example.com/my-signer', isResourceRequest: true });
  assert.equal(wildcard.name, 'example.com/*');
  assert.deepEqual(useAttributes(jane, { apiGroup: 'policy', resource: 'podsecuritypolicies', name: 'restricted' }), {
    ...empty, user: jane, verb: 'use', apiGroup: 'policy', resource: 'podsecuritypolicies', name: 'restricted', isResourceRequest: true,
  });
});
