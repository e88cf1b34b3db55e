import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import { test } from 'node:test';
import { apiDomain, defaultApiDomain } from '../../api/domain.js';
import { isStatusError, type StatusError } from '../runtime/errors.js';
import type { UserInfo } from '../runtime/user.js';
import type { Attributes } from './attributes.js';
import { allow, deny, noOpinion, type Decision } from './authorizer.js';
import { impersonate, unescapeExtraKey, type ImpersonationRequest } from './impersonation.js';

const me: UserInfo = { name: 'me', uid: 'me-1', groups: ['admins', 'system:authenticated'], extra: { scopes: ['all'] } };
const opts = { domain: defaultApiDomain };

/** A request with these headers in this order, both views filled as Node fills them. */
function request(pairs: [string, string][]): ImpersonationRequest {
  const headers: IncomingHttpHeaders = {};
  for (const [k, v] of pairs) {
    const lower = k.toLowerCase();
    headers[lower] = headers[lower] === undefined ? v : `${headers[lower] as string}, ${v}`;
  }
  return { headers, rawHeaders: pairs.flat() };
}

/** `resource[/subresource] group namespace name`, the parts an impersonate check varies in. */
const key = (a: Attributes) => `${a.subresource ? `${a.resource}/${a.subresource}` : a.resource} ${a.apiGroup} ${a.namespace} ${a.name}`.replace(/ +/g, ' ');

/** Allows the impersonate checks listed (by key), refuses the rest with `refusal`; records every check. */
function authorizer(allowed: string[], refusal: Decision = noOpinion()) {
  const calls: Attributes[] = [];
  const authorize = async (a: Attributes): Promise<Decision> => {
    calls.push(a);
    return a.verb === 'impersonate' && a.user === me && allowed.includes(key(a)) ? allow() : refusal;
  };
  return { calls, authorize, asked: () => calls.map(key) };
}

async function refusal(p: Promise<unknown>): Promise<StatusError> {
  try {
    await p;
  } catch (e) {
    if (isStatusError(e)) return e;
    throw e;
  }
  assert.fail('expected a StatusError');
}

test('without impersonation headers the user is unchanged and nothing is asked', async () => {
  const req = request([['Authorization', 'Bearer x'], ['Impersonate-User', '']]);
  const authz = authorizer([]);
  assert.equal(await impersonate(req, me, authz.authorize, opts), me);
  assert.deepEqual(authz.calls, []);
  assert.deepEqual(req.rawHeaders, ['Authorization', 'Bearer x', 'Impersonate-User', '']);
});

test('a user alone: that name, system:authenticated, no extra or uid; the headers are removed', async () => {
  const req = request([['Accept', 'application/json'], ['impersonate-user', 'bob']]);
  const authz = authorizer(['users bob']);
  assert.deepEqual(await impersonate(req, me, authz.authorize, opts), { name: 'bob', groups: ['system:authenticated'], extra: {} });
  assert.deepEqual(authz.calls, [{
    user: me, verb: 'impersonate', namespace: '', apiGroup: '', apiVersion: '', resource: 'users', subresource: '', name: 'bob', isResourceRequest: true, path: '',
  }]);
  assert.deepEqual(req.rawHeaders, ['Accept', 'application/json']);
  assert.deepEqual(req.headers, { accept: 'application/json' });
});

test('user, repeated groups, extra and uid: each checked in order, all carried over', async () => {
  const req = request([
    ['Impersonate-Uid', 'u-42'],
    ['Impersonate-Extra-Scopes', 'view'],
    ['Impersonate-User', 'bob'],
    ['Impersonate-Group', 'dev, ops'],
    ['Impersonate-Group', 'qa'],
    ['Impersonate-Extra-Example.COM%2fTeam', 'red'],
    ['impersonate-extra-scopes', 'edit'],
    ['User-Agent', 'kubectl'],
  ]);
  const authz = authorizer([
    'users bob', 'groups dev, ops', 'groups qa',
    'userextras/scopes authentication.orch.io view', 'userextras/scopes authentication.orch.io edit',
    'userextras/example.com/team authentication.orch.io red', 'uids authentication.orch.io u-42',
  ]);
  const got = await impersonate(req, me, authz.authorize, opts);
  assert.deepEqual(got, {
    name: 'bob', uid: 'u-42',
    groups: ['dev, ops', 'qa', 'system:authenticated'],
    extra: { scopes: ['view', 'edit'], 'example.com/team': ['red'] },
  });
  assert.deepEqual(authz.asked(), [
    'users bob', 'groups dev, ops', 'groups qa',
    'userextras/scopes authentication.orch.io view', 'userextras/scopes authentication.orch.io edit',
    'userextras/example.com/team authentication.orch.io red', 'uids authentication.orch.io u-42',
  ]);
  assert.deepEqual(authz.calls.map((a) => a.apiVersion), ['', '', '', 'v1', 'v1', 'v1', 'v1']);
  assert.deepEqual(req.rawHeaders, ['User-Agent', 'kubectl']);
  assert.deepEqual(req.headers, { 'user-agent': 'kubectl' });
});

test('the first Impersonate-User counts when several are sent', async () => {
  const authz = authorizer(['users bob']);
  const got = await impersonate(request([['Impersonate-User', 'bob'], ['Impersonate-User', 'root']]), me, authz.authorize, opts);
  assert.equal(got.name, 'bob');
  assert.deepEqual(authz.asked(), ['users bob']);
});

test('a service account name is checked as serviceaccounts in its namespace and gets its groups', async () => {
  const authz = authorizer(['serviceaccounts ns1 ci']);
  const got = await impersonate(request([['Impersonate-User', 'system:serviceaccount:ns1:ci']]), me, authz.authorize, opts);
  assert.deepEqual(got, { name: 'system:serviceaccount:ns1:ci', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns1', 'system:authenticated'], extra: {} });
  assert.deepEqual(authz.asked(), ['serviceaccounts ns1 ci']);

  // Groups sent replace the service account groups.
  const withGroups = authorizer(['serviceaccounts ns1 ci', 'groups ops']);
  const got2 = await impersonate(request([['Impersonate-User', 'system:serviceaccount:ns1:ci'], ['Impersonate-Group', 'ops']]), me, withGroups.authorize, opts);
  assert.deepEqual(got2.groups, ['ops', 'system:authenticated']);
});

test('a name that is not a valid service account username is an ordinary user', async () => {
  for (const name of ['system:serviceaccount:ns1:ci:x', 'system:serviceaccount:NS:ci', 'system:serviceaccount::ci', 'system:serviceaccount:ns1']) {
    const authz = authorizer([`users ${name}`]);
    const got = await impersonate(request([['Impersonate-User', name]]), me, authz.authorize, opts);
    assert.deepEqual(got, { name, groups: ['system:authenticated'], extra: {} }, name);
    assert.deepEqual(authz.asked(), [`users ${name}`]);
  }
});

test('system:authenticated, or system:unauthenticated for system:anonymous, added only when missing', async () => {
  const run = async (pairs: [string, string][]) => {
    const allowed = pairs.map(([h, v]) => `${h === 'Impersonate-User' ? 'users' : 'groups'} ${v}`);
    return (await impersonate(request(pairs), me, authorizer(allowed).authorize, opts)).groups;
  };
  assert.deepEqual(await run([['Impersonate-User', 'bob'], ['Impersonate-Group', 'system:authenticated'], ['Impersonate-Group', 'dev']]), ['system:authenticated', 'dev']);
  assert.deepEqual(await run([['Impersonate-User', 'bob'], ['Impersonate-Group', 'system:unauthenticated']]), ['system:unauthenticated']);
  assert.deepEqual(await run([['Impersonate-User', 'system:anonymous']]), ['system:unauthenticated']);
  assert.deepEqual(await run([['Impersonate-User', 'system:anonymous'], ['Impersonate-Group', 'dev']]), ['dev', 'system:unauthenticated']);
  assert.deepEqual(await run([['Impersonate-User', 'system:anonymous'], ['Impersonate-Group', 'system:unauthenticated']]), ['system:unauthenticated']);
  assert.deepEqual(await run([['Impersonate-User', 'system:anonymous'], ['Impersonate-Group', 'system:authenticated']]), ['system:authenticated', 'system:unauthenticated']);
});

test('groups, extra or a uid without a user is a 400 listing what was asked, as upstream prints it', async () => {
  const cases: [[string, string][], string][] = [
    [[['Impersonate-Group', 'ops'], ['Impersonate-Group', 'dev']], 'requested [{Group  ops    } {Group  dev    }] without impersonating a user'],
    [[['Impersonate-Extra-Scopes', 'view']], 'requested [{UserExtra  view  authentication.orch.io/v1  scopes}] without impersonating a user'],
    [[['Impersonate-Uid', 'u-1']], 'requested [{UID  u-1  authentication.orch.io/v1  }] without impersonating a user'],
    [[['Impersonate-User', ''], ['Impersonate-Group', 'ops'], ['Impersonate-Uid', 'u-1']], 'requested [{Group  ops    } {UID  u-1  authentication.orch.io/v1  }] without impersonating a user'],
  ];
  for (const [pairs, message] of cases) {
    const req = request(pairs);
    const authz = authorizer(['groups ops', 'groups dev', 'userextras/scopes authentication.orch.io view', 'uids authentication.orch.io u-1']);
    const e = await refusal(impersonate(req, me, authz.authorize, opts));
    assert.equal(e.code, 400);
    assert.equal(e.reason, 'BadRequest');
    assert.equal(e.status.message, message);
    assert.deepEqual(authz.calls, []);
    assert.deepEqual(req.rawHeaders, pairs.flat());
  }
});

test('the first refused target is a 403 worded as upstream; later targets are not asked', async () => {
  const all = [
    ['Impersonate-User', 'bob'], ['Impersonate-Group', 'ops'], ['Impersonate-Extra-Scopes', 'view'], ['Impersonate-Uid', 'u-1'],
  ] as [string, string][];
  const cases: [string[], string, object][] = [
    [[], 'users "bob" is forbidden: User "me" cannot impersonate resource "users" in API group "" at the cluster scope', { name: 'bob', kind: 'users' }],
    [['users bob'], 'groups "ops" is forbidden: User "me" cannot impersonate resource "groups" in API group "" at the cluster scope', { name: 'ops', kind: 'groups' }],
    [['users bob', 'groups ops'],
      'userextras.authentication.orch.io "view" is forbidden: User "me" cannot impersonate resource "userextras/scopes" in API group "authentication.orch.io" at the cluster scope',
      { name: 'view', group: 'authentication.orch.io', kind: 'userextras' }],
    [['users bob', 'groups ops', 'userextras/scopes authentication.orch.io view'],
      'uids.authentication.orch.io "u-1" is forbidden: User "me" cannot impersonate resource "uids" in API group "authentication.orch.io" at the cluster scope',
      { name: 'u-1', group: 'authentication.orch.io', kind: 'uids' }],
  ];
  for (const [allowed, message, details] of cases) {
    const req = request(all);
    const authz = authorizer(allowed);
    const e = await refusal(impersonate(req, me, authz.authorize, opts));
    assert.equal(e.code, 403);
    assert.equal(e.reason, 'Forbidden');
    assert.equal(e.status.message, message);
    assert.deepEqual(e.status.details, details);
    assert.equal(authz.calls.length, allowed.length + 1);
    assert.deepEqual(req.rawHeaders, all.flat());
  }
});

test('a service account refusal names its namespace; a deny reason is appended', async () => {
  const authz = authorizer([], deny('no impersonation here'));
  const e = await refusal(impersonate(request([['Impersonate-User', 'system:serviceaccount:ns1:ci']]), me, authz.authorize, opts));
  assert.equal(e.code, 403);
  assert.equal(e.status.message,
    'serviceaccounts "ci" is forbidden: User "me" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "ns1": no impersonation here');
});

test('an evaluation error refuses even an allow', async () => {
  const authorize = async (): Promise<Decision> => ({ decision: 'allow', reason: '', evaluationError: 'webhook down' });
  const e = await refusal(impersonate(request([['Impersonate-User', 'bob']]), me, authorize, opts));
  assert.equal(e.code, 403);
  assert.equal(e.status.message, 'users "bob" is forbidden: User "me" cannot impersonate resource "users" in API group "" at the cluster scope');
});

test('the authentication group follows the platform domain', async () => {
  const authz = authorizer([]);
  const e = await refusal(impersonate(request([['Impersonate-User', 'bob'], ['Impersonate-Uid', 'u-1']]), me,
    async (a) => (a.resource === 'users' ? allow() : authz.authorize(a)), { domain: apiDomain('k8s.io') }));
  assert.equal(e.status.message,
    'uids.authentication.k8s.io "u-1" is forbidden: User "me" cannot impersonate resource "uids" in API group "authentication.k8s.io" at the cluster scope');
  const bad = await refusal(impersonate(request([['Impersonate-Uid', 'u-1']]), me, authz.authorize, { domain: apiDomain('k8s.io') }));
  assert.equal(bad.status.message, 'requested [{UID  u-1  authentication.k8s.io/v1  }] without impersonating a user');
});

test('extra keys are percent-decoded as Go PathUnescape does, kept as sent when malformed', () => {
  assert.equal(unescapeExtraKey('scopes'), 'scopes');
  assert.equal(unescapeExtraKey('example.com%2fteam'), 'example.com/team');
  assert.equal(unescapeExtraKey('a+b'), 'a+b');
  assert.equal(unescapeExtraKey('%e2%82%ac'), '€');
  assert.equal(unescapeExtraKey('a%zz'), 'a%zz');
  assert.equal(unescapeExtraKey('a%2'), 'a%2');
  assert.equal(unescapeExtraKey('a%'), 'a%');
});
