import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { UserInfo } from '../runtime/user.js';
import { resourceAttributes } from './attributes.js';
import { allow, deny, noOpinion, type Decision } from './authorizer.js';
import {
  buildAuthorizationChain,
  completeAuthorizationOptions,
  defaultAuthorizationOptions,
  parseStringSliceFlag,
  validateAuthorizationOptions,
  type AuthorizationOptions,
  type ModeAuthorizer,
} from './modes.js';

const opts = (o: Partial<AuthorizationOptions>): AuthorizationOptions => ({ ...defaultAuthorizationOptions(), ...o });

test('defaults: v1 reviews, 5m authorized and 30s unauthorized cache; no mode means AlwaysAllow', () => {
  const d = defaultAuthorizationOptions();
  assert.deepEqual(d, { modes: [], webhookConfigFile: '', webhookVersion: 'v1', webhookCacheAuthorizedTTLMs: 300_000, webhookCacheUnauthorizedTTLMs: 30_000 });
  assert.deepEqual(completeAuthorizationOptions(d).modes, ['AlwaysAllow']);
  assert.deepEqual(completeAuthorizationOptions(opts({ modes: ['RBAC'] })).modes, ['RBAC']);
  assert.deepEqual(validateAuthorizationOptions(completeAuthorizationOptions(d)), []);
});

test('validation: upstream\'s checks and wording, every error at once', () => {
  const cases: Array<[Partial<AuthorizationOptions>, string[]]> = [
    [{ modes: ['RBAC', 'Webhook'], webhookConfigFile: '/etc/hook.yaml' }, []],
    [{ modes: ['AlwaysAllow', 'AlwaysDeny', 'RBAC'] }, []],
    [{ modes: ['Node', 'RBAC'] }, []],
    [{ modes: [] }, ['at least one authorization-mode must be passed']],
    [{ modes: ['rbac'] }, ['authorization-mode "rbac" is not a valid mode']],
    [{ modes: ['ABAC'] }, ['authorization-mode "ABAC" is not a valid mode']],
    [{ modes: ['Webhook'] }, ["authorization-mode Webhook's authorization config file not passed"]],
    [{ modes: ['RBAC'], webhookConfigFile: 'x' }, ['cannot specify --authorization-webhook-config-file without mode Webhook']],
    [{ modes: ['RBAC', 'AlwaysAllow', 'RBAC'] }, ['authorization-mode ["RBAC" "AlwaysAllow" "RBAC"] has mode specified more than once']],
    [{ modes: ['Webhook', 'Webhook', 'ABAC'] }, [
      "authorization-mode Webhook's authorization config file not passed",
      "authorization-mode Webhook's authorization config file not passed",
      'authorization-mode "ABAC" is not a valid mode',
      'authorization-mode ["Webhook" "Webhook" "ABAC"] has mode specified more than once',
    ]],
    [{ modes: ['node'] }, ['authorization-mode "node" is not a valid mode']],
    [{ modes: ['RBAC'], webhookRetrySteps: 0 }, ['number of webhook retry attempts must be greater than 0, but is: 0']],
    [{ modes: [' RBAC'] }, ['authorization-mode " RBAC" is not a valid mode']],
  ];
  for (const [o, want] of cases) assert.deepEqual(validateAuthorizationOptions(opts(o)), want, JSON.stringify(o));
});

test('the flag is a string slice: CSV per occurrence, occurrences append', () => {
  const p = (...v: string[]) => parseStringSliceFlag('authorization-mode', v);
  assert.deepEqual(p('RBAC'), ['RBAC']);
  assert.deepEqual(p('Node,RBAC'), ['Node', 'RBAC']);
  assert.deepEqual(p('RBAC, Webhook'), ['RBAC', ' Webhook']);
  assert.deepEqual(p('RBAC', 'Webhook,AlwaysDeny'), ['RBAC', 'Webhook', 'AlwaysDeny']);
  assert.deepEqual(p(''), []);
  assert.deepEqual(p('RBAC,'), ['RBAC', '']);
  assert.deepEqual(p('"RBAC,Webhook",AlwaysAllow'), ['RBAC,Webhook', 'AlwaysAllow']);
  assert.deepEqual(p('"a""b"'), ['a"b']);
  assert.deepEqual(p('RBAC\nWebhook'), ['RBAC'], 'only the first record');
  assert.throws(() => p('RB"AC'), { message: 'invalid argument "RB\\"AC" for "--authorization-mode" flag: parse error on line 1, column 3: bare " in non-quoted field' });
  assert.throws(() => p('"RBAC'), /extraneous or missing " in quoted-field/);
});

const jane: UserInfo = { name: 'jane', groups: ['system:authenticated'], extra: {} };
const master: UserInfo = { name: 'root', groups: ['system:masters'], extra: {} };
const attrs = (u: UserInfo) => resourceAttributes(u, { verb: 'get', resource: 'secrets', namespace: 'n' });

function fake(d: Decision, calls: string[], name: string): ModeAuthorizer {
  return {
    async authorize() {
      calls.push(name);
      return d;
    },
  };
}

test('the chain: system:masters first, then the modes in the order given; first decision wins', async () => {
  const calls: string[] = [];
  const ctors = { RBAC: () => fake(noOpinion(''), calls, 'RBAC'), Webhook: () => fake(allow('hook says yes'), calls, 'Webhook') };
  const chain = buildAuthorizationChain(['RBAC', 'Webhook', 'AlwaysDeny'], ctors);
  assert.deepEqual(await chain.authorizer.authorize(attrs(jane)), { decision: 'allow', reason: 'hook says yes' });
  assert.deepEqual(calls, ['RBAC', 'Webhook'], 'AlwaysDeny is not reached');
  calls.length = 0;
  assert.deepEqual(await chain.authorizer.authorize(attrs(master)), { decision: 'allow', reason: '' });
  assert.deepEqual(calls, [], 'system:masters needs no mode');
  assert.deepEqual([...chain.byMode.keys()], ['RBAC', 'Webhook', 'AlwaysDeny']);

  const denying = buildAuthorizationChain(['Webhook', 'AlwaysAllow'], { Webhook: () => fake(deny('nope'), [], 'Webhook') });
  assert.deepEqual(await denying.authorizer.authorize(attrs(jane)), { decision: 'deny', reason: 'nope' });
  assert.deepEqual(await denying.authorizer.authorize(attrs(master)), { decision: 'allow', reason: '' }, 'masters even past a deny');

  const nobody = buildAuthorizationChain(['AlwaysDeny']);
  assert.deepEqual(await nobody.authorizer.authorize(attrs(jane)), { decision: 'noOpinion', reason: 'Everything is forbidden.' });
  assert.deepEqual(await buildAuthorizationChain(['AlwaysAllow']).authorizer.authorize(attrs(jane)), { decision: 'allow', reason: '' });
});

test('rule resolvers: the modes that list rules, in order; system:masters lists none', async () => {
  const chain = buildAuthorizationChain(['AlwaysDeny', 'RBAC', 'AlwaysAllow'], {
    RBAC: () => ({
      authorize: async () => noOpinion(),
      rulesFor: async () => ({ resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: [] }], nonResourceRules: [], incomplete: false }),
    }),
  });
  const rules = await chain.ruleResolver.rulesFor(master, 'n');
  assert.deepEqual(rules.resourceRules.map((r) => r.verbs[0]), ['get', '*']);
  assert.equal(rules.incomplete, false);
  const noRules = buildAuthorizationChain(['Webhook'], { Webhook: () => ({ authorize: async () => noOpinion() }) });
  assert.deepEqual(await noRules.ruleResolver.rulesFor(jane, ''), { resourceRules: [], nonResourceRules: [], incomplete: false });
});

test('a mode nothing constructs, or no mode, is refused as upstream refuses it', () => {
  assert.throws(() => buildAuthorizationChain(['RBAC']), { message: 'unknown authorization mode RBAC specified' });
  assert.throws(() => buildAuthorizationChain(['toString']), { message: 'unknown authorization mode toString specified' });
  assert.throws(() => buildAuthorizationChain([]), { message: 'at least one authorization mode must be passed' });
});
