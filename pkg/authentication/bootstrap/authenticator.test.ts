import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apiDomain, defaultApiDomain } from '../../../api/domain.js';
import { Logger } from '../../log/logger.js';
import { bootstrapTokenAuthenticator, type BootstrapTokenAuthenticatorOptions } from './authenticator.js';
import type { BootstrapSecretLike } from './secret.js';

const id = 'abcdef';
const secretPart = '0123456789abcdef';
const token = `${id}.${secretPart}`;
const b64 = (s: string) => Buffer.from(s).toString('base64');
const now = Date.UTC(2026, 0, 1);

function tokenSecret(data: Record<string, string> = {}, extra: Partial<BootstrapSecretLike> = {}): BootstrapSecretLike {
  const plain: Record<string, string> = { 'token-id': id, 'token-secret': secretPart, 'usage-bootstrap-authentication': 'true', ...data };
  for (const [k, v] of Object.entries(plain)) if (v === '<absent>') delete plain[k];
  return {
    metadata: { name: `bootstrap-token-${id}`, namespace: 'orch-system' },
    type: 'bootstrap.orch.io/token',
    data: Object.fromEntries(Object.entries(plain).map(([k, v]) => [k, b64(v)])),
    ...extra,
  };
}

function harness(secrets: Record<string, BootstrapSecretLike>, opts: Partial<BootstrapTokenAuthenticatorOptions> = {}) {
  const lines: string[] = [];
  const lookups: string[] = [];
  const authn = bootstrapTokenAuthenticator({
    domain: defaultApiDomain,
    getSecret: (ns, name) => {
      lookups.push(`${ns}/${name}`);
      return secrets[`${ns}/${name}`];
    },
    now: () => now,
    logger: new Logger(3, (l) => lines.push(l)),
    ...opts,
  });
  return { authn, lines, lookups };
}

const one = (s: BootstrapSecretLike) => ({ [`orch-system/bootstrap-token-${id}`]: s });

test('a valid token is system:bootstrap:<id> in system:bootstrappers plus its extra groups, sorted', async () => {
  const { authn, lookups } = harness(one(tokenSecret({ 'auth-extra-groups': 'system:bootstrappers:worker,system:bootstrappers:a-b' })));
  const r = await authn.authenticateToken(token, []);
  assert.equal(r.outcome, 'authenticated');
  assert.ok(r.outcome === 'authenticated');
  assert.deepEqual(r.user, {
    name: 'system:bootstrap:abcdef',
    groups: ['system:bootstrappers', 'system:bootstrappers:a-b', 'system:bootstrappers:worker'],
    extra: {},
  });
  assert.equal(r.user.uid, undefined);
  assert.deepEqual(lookups, ['orch-system/bootstrap-token-abcdef']);
});

test('tokens not of the bootstrap form are not looked up', async () => {
  const { authn, lookups } = harness(one(tokenSecret()));
  for (const t of ['', 'abcdef', 'ABCDEF.0123456789abcdef', 'abcde.0123456789abcdef', 'abcdef.0123456789abcdeff', 'abcdef:0123456789abcdef', `${token}\n`, ` ${token}`]) {
    assert.deepEqual(await authn.authenticateToken(t, []), { outcome: 'skipped' }, JSON.stringify(t));
  }
  assert.deepEqual(lookups, []);
});

test('every problem with the Secret is "not mine", as upstream', async () => {
  const cases: [string, Record<string, BootstrapSecretLike>][] = [
    ['no such secret', {}],
    ['wrong secret part', one(tokenSecret({ 'token-secret': 'ffffffffffffffff' }))],
    ['secret part of another length', one(tokenSecret({ 'token-secret': '0123456789abcde' }))],
    ['no secret part', one(tokenSecret({ 'token-secret': '<absent>' }))],
    ['token-id differs from the name', one(tokenSecret({ 'token-id': 'zzzzzz' }))],
    ['wrong type', one(tokenSecret({}, { type: 'Opaque' }))],
    ['no data', one({ ...tokenSecret(), data: undefined })],
    ['being deleted', one(tokenSecret({}, { metadata: { name: `bootstrap-token-${id}`, namespace: 'orch-system', deletionTimestamp: '2025-12-31T00:00:00Z' } }))],
    ['expired', one(tokenSecret({ expiration: '2025-12-31T23:59:59Z' }))],
    ['expires this very instant', one(tokenSecret({ expiration: '2026-01-01T00:00:00Z' }))],
    ['unparsable expiration', one(tokenSecret({ expiration: 'next tuesday' }))],
    ['not for authentication', one(tokenSecret({ 'usage-bootstrap-authentication': 'false' }))],
    ['authentication usage absent', one(tokenSecret({ 'usage-bootstrap-authentication': '<absent>' }))],
    ['usage not exactly true', one(tokenSecret({ 'usage-bootstrap-authentication': 'True' }))],
    ['extra group outside system:bootstrappers:', one(tokenSecret({ 'auth-extra-groups': 'system:bootstrappers:ok,system:masters' }))],
    ['empty extra group', one(tokenSecret({ 'auth-extra-groups': 'system:bootstrappers:ok,' }))],
  ];
  for (const [what, secrets] of cases) {
    const { authn, lines } = harness(secrets);
    assert.deepEqual(await authn.authenticateToken(token, []), { outcome: 'skipped' }, what);
    assert.ok(lines.length > 0, `${what}: the reason is logged`);
    assert.ok(lines.every((l) => !l.includes(secretPart)), `${what}: the log never holds the token secret`);
  }
});

test('an expiration still ahead, in any offset, does not stop the token', async () => {
  for (const expiration of ['2026-01-01T00:00:01Z', '2026-01-01T01:00:00+00:30']) {
    const { authn } = harness(one(tokenSecret({ expiration })));
    assert.equal((await authn.authenticateToken(token, [])).outcome, 'authenticated', expiration);
  }
});

test('the clock decides expiry', async () => {
  const secrets = one(tokenSecret({ expiration: '2026-06-01T00:00:00Z' }));
  assert.equal((await harness(secrets, { now: () => Date.UTC(2026, 4, 31) }).authn.authenticateToken(token, [])).outcome, 'authenticated');
  assert.equal((await harness(secrets, { now: () => Date.UTC(2026, 5, 2) }).authn.authenticateToken(token, [])).outcome, 'skipped');
});

test('a Secret that cannot be read fails the token, without the token in the reason', async () => {
  const { authn } = harness({}, {
    getSecret: async () => {
      throw new Error('secrets cache is not synced');
    },
  });
  const r = await authn.authenticateToken(token, []);
  assert.deepEqual(r, { outcome: 'failed', reason: 'secrets cache is not synced' });
});

test('the namespace and the secret type follow the options and the domain', async () => {
  const k8s = apiDomain('k8s.io');
  const upstreamStyle = tokenSecret({}, { type: 'bootstrap.kubernetes.io/token', metadata: { name: `bootstrap-token-${id}`, namespace: 'kube-system' } });
  const { authn, lookups } = harness({ [`kube-system/bootstrap-token-${id}`]: upstreamStyle }, { domain: k8s, namespace: 'kube-system' });
  assert.equal((await authn.authenticateToken(token, [])).outcome, 'authenticated');
  assert.deepEqual(lookups, ['kube-system/bootstrap-token-abcdef']);
  // Our domain's type is not upstream's.
  const ours = harness({ [`kube-system/bootstrap-token-${id}`]: upstreamStyle }, { namespace: 'kube-system' });
  assert.equal((await ours.authn.authenticateToken(token, [])).outcome, 'skipped');
});
