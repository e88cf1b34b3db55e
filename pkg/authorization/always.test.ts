import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { UserInfo } from '../runtime/user.js';
import { nonResourceAttributes, resourceAttributes } from './attributes.js';
import { AlwaysAllowAuthorizer, AlwaysDenyAuthorizer } from './always.js';

const user: UserInfo = { name: 'u', groups: [], extra: {} };

test('AlwaysAllow allows every request and lists every rule', async () => {
  const a = new AlwaysAllowAuthorizer();
  assert.deepEqual(await a.authorize(), { decision: 'allow', reason: '' });
  assert.deepEqual(await a.rulesFor(user, 'n'), {
    resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], resourceNames: [] }],
    nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
    incomplete: false,
  });
});

test('AlwaysDeny has no opinion, with upstream\'s reason, and lists no rules', async () => {
  const d = new AlwaysDenyAuthorizer();
  for (const a of [resourceAttributes(user, { verb: 'get', resource: 'pods' }), nonResourceAttributes(user, 'get', '/healthz')]) {
    assert.deepEqual(await d.authorize(), { decision: 'noOpinion', reason: 'Everything is forbidden.' }, a.path);
  }
  assert.deepEqual(await d.rulesFor(user, ''), { resourceRules: [], nonResourceRules: [], incomplete: false });
});
