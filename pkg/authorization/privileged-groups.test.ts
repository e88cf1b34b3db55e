import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { UserInfo } from '../runtime/user.js';
import { resourceAttributes } from './attributes.js';
import { PrivilegedGroupsAuthorizer } from './privileged-groups.js';

const check = (user: UserInfo | undefined) => resourceAttributes(user, { verb: 'delete', resource: 'nodes', name: 'n1' });

test('system:masters is allowed everything by default; others get no opinion', async () => {
  const p = new PrivilegedGroupsAuthorizer();
  assert.deepEqual(await p.authorize(check({ name: 'admin', groups: ['system:authenticated', 'system:masters'], extra: {} })), { decision: 'allow', reason: '' });
  assert.deepEqual(await p.authorize(check({ name: 'system:masters', groups: ['system:authenticated'], extra: {} })), { decision: 'noOpinion', reason: '' }, 'a user named like the group is not in it');
  assert.deepEqual(await p.authorize(check({ name: 'jane', groups: ['System:Masters'], extra: {} })), { decision: 'noOpinion', reason: '' }, 'group names are case-sensitive');
});

test('no user: no opinion with upstream\'s reason and error', async () => {
  assert.deepEqual(await new PrivilegedGroupsAuthorizer().authorize(check(undefined)), { decision: 'noOpinion', reason: 'Error', evaluationError: 'no user on request.' });
});

test('other privileged groups, as NewPrivilegedGroups takes them', async () => {
  const p = new PrivilegedGroupsAuthorizer(['ops', 'root']);
  assert.equal((await p.authorize(check({ name: 'x', groups: ['root'], extra: {} }))).decision, 'allow');
  assert.equal((await p.authorize(check({ name: 'x', groups: ['system:masters'], extra: {} }))).decision, 'noOpinion');
});
