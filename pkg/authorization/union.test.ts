import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { UserInfo } from '../runtime/user.js';
import { resourceAttributes } from './attributes.js';
import type { Authorizer, Decision, RuleResolver, RulesResult } from './authorizer.js';
import { UnionAuthorizer, UnionRuleResolver } from './union.js';

const user: UserInfo = { name: 'u', groups: [], extra: {} };
const attrs = resourceAttributes(user, { verb: 'get', resource: 'pods' });

function fixed(d: Decision, calls?: string[], name = ''): Authorizer {
  return {
    async authorize() {
      calls?.push(name);
      return d;
    },
  };
}

test('first allow or deny wins, with that authorizer\'s own reason and error', async () => {
  const cases: Array<[Decision[], Decision, number]> = [
    [[{ decision: 'allow', reason: '' }], { decision: 'allow', reason: '' }, 1],
    [[{ decision: 'noOpinion', reason: 'a' }, { decision: 'allow', reason: 'b' }, { decision: 'deny', reason: 'c' }], { decision: 'allow', reason: 'b' }, 2],
    [[{ decision: 'noOpinion', reason: 'a', evaluationError: 'e1' }, { decision: 'deny', reason: 'no', evaluationError: 'e2' }], { decision: 'deny', reason: 'no', evaluationError: 'e2' }, 2],
    [[{ decision: 'deny', reason: 'first' }, { decision: 'allow', reason: '' }], { decision: 'deny', reason: 'first' }, 1],
    [[{ decision: 'noOpinion', reason: '' }, { decision: 'noOpinion', reason: '' }], { decision: 'noOpinion', reason: '' }, 2],
    [[{ decision: 'noOpinion', reason: 'r1' }, { decision: 'noOpinion', reason: '' }, { decision: 'noOpinion', reason: 'r3' }], { decision: 'noOpinion', reason: 'r1\nr3' }, 3],
    [[], { decision: 'noOpinion', reason: '' }, 0],
  ];
  for (const [decisions, want, called] of cases) {
    const calls: string[] = [];
    const u = new UnionAuthorizer(decisions.map((d, i) => fixed(d, calls, String(i))));
    assert.deepEqual(await u.authorize(attrs), want, JSON.stringify(decisions));
    assert.equal(calls.length, called);
  }
});

test('no opinion from all: errors aggregated as upstream (one alone, several de-duplicated in brackets)', async () => {
  const no = (e: string): Decision => ({ decision: 'noOpinion', reason: '', evaluationError: e });
  assert.deepEqual(await new UnionAuthorizer([fixed(no('foo')), fixed(no('foo'))]).authorize(attrs), { decision: 'noOpinion', reason: '', evaluationError: 'foo' });
  assert.deepEqual(await new UnionAuthorizer([fixed(no('a')), fixed(no('b')), fixed(no('a'))]).authorize(attrs), { decision: 'noOpinion', reason: '', evaluationError: '[a, b]' });
  assert.deepEqual(await new UnionAuthorizer([fixed(no('only'))]).authorize(attrs), { decision: 'noOpinion', reason: '', evaluationError: 'only' });
});

test('an authorizer that throws is no opinion with its error; the chain goes on', async () => {
  const broken: Authorizer = {
    authorize: () => Promise.reject(new Error('boom')),
  };
  assert.deepEqual(await new UnionAuthorizer([broken, fixed({ decision: 'allow', reason: '' })]).authorize(attrs), { decision: 'allow', reason: '' });
  assert.deepEqual(await new UnionAuthorizer([broken]).authorize(attrs), { decision: 'noOpinion', reason: '', evaluationError: 'boom' });
});

test('rule resolvers: all rules concatenated, incomplete if any is, errors aggregated', async () => {
  const r = (res: RulesResult): RuleResolver => ({ rulesFor: async () => res });
  const union = new UnionRuleResolver([
    r({ resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: [] }], nonResourceRules: [], incomplete: false }),
    r({ resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: 'webhook authorizer does not support user rule resolution' }),
    r({ resourceRules: [{ verbs: ['list'], apiGroups: ['apps'], resources: ['deployments'], resourceNames: ['d'] }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }], incomplete: false }),
    { rulesFor: () => Promise.reject(new Error('kaput')) },
  ]);
  assert.deepEqual(await union.rulesFor(user, 'n'), {
    resourceRules: [
      { verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: [] },
      { verbs: ['list'], apiGroups: ['apps'], resources: ['deployments'], resourceNames: ['d'] },
    ],
    nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }],
    incomplete: true,
    evaluationError: '[webhook authorizer does not support user rule resolution, kaput]',
  });
  assert.deepEqual(await new UnionRuleResolver([]).rulesFor(user, ''), { resourceRules: [], nonResourceRules: [], incomplete: false });
});
