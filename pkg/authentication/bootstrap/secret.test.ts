import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  bootstrapTokenExpiry,
  bootstrapTokenGroups,
  bootstrapTokenUsages,
  hasBootstrapTokenExpired,
  invalidBootstrapGroup,
  parseBootstrapTokenSecret,
  secretData,
  type BootstrapSecretLike,
} from './secret.js';
import { bootstrapTokenSecretName, parseBootstrapToken, tokenIdFromSecretName } from './token.js';

const type = 'bootstrap.orch.io/token';
const b64 = (s: string) => Buffer.from(s).toString('base64');
function secret(data: Record<string, string>, name = 'bootstrap-token-abcdef'): BootstrapSecretLike {
  return { metadata: { name, namespace: 'orch-system' }, type, data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])) };
}
const good = { 'token-id': 'abcdef', 'token-secret': '0123456789abcdef' };

test('tokens split into id and secret; names and ids map both ways', () => {
  assert.deepEqual(parseBootstrapToken('abcdef.0123456789abcdef'), { tokenId: 'abcdef', tokenSecret: '0123456789abcdef' });
  assert.equal(parseBootstrapToken('abcdef.0123456789ABCDEF'), undefined);
  assert.equal(bootstrapTokenSecretName('abcdef'), 'bootstrap-token-abcdef');
  assert.equal(tokenIdFromSecretName('bootstrap-token-abcdef'), 'abcdef');
  for (const bad of ['bootstrap-token-abcde', 'bootstrap-token-abcdefg', 'bootstrap-token-ABCDEF', 'token-abcdef', 'xbootstrap-token-abcdef']) {
    assert.equal(tokenIdFromSecretName(bad), undefined, bad);
  }
});

test('expiry is judged against the given clock; no expiration never expires', () => {
  const s = secret({ ...good, expiration: '2026-01-01T00:00:00Z' });
  const at = Date.UTC(2026, 0, 1);
  assert.deepEqual(bootstrapTokenExpiry(s, at - 5000), { expired: false, remainingMs: 5000 });
  assert.equal(hasBootstrapTokenExpired(s, at), true);
  assert.equal(hasBootstrapTokenExpired(s, at + 1), true);
  assert.deepEqual(bootstrapTokenExpiry(secret(good), at), { expired: false, remainingMs: 0 });
  const broken = bootstrapTokenExpiry(secret({ ...good, expiration: '2026-01-01' }), 0);
  assert.equal(broken.expired, true);
  assert.match(broken.reason!, /Treating as expired/);
});

test('groups: the default group always, extra groups validated, sorted and de-duplicated', () => {
  assert.deepEqual(bootstrapTokenGroups(secret(good)), { groups: ['system:bootstrappers'] });
  assert.deepEqual(bootstrapTokenGroups(secret({ ...good, 'auth-extra-groups': 'system:bootstrappers:z,system:bootstrappers:a,system:bootstrappers:z' })), {
    groups: ['system:bootstrappers', 'system:bootstrappers:a', 'system:bootstrappers:z'],
  });
  const bad = bootstrapTokenGroups(secret({ ...good, 'auth-extra-groups': 'system:bootstrappers:a,system:nodes' }));
  assert.deepEqual(bad, { error: 'bootstrap group "system:nodes" is invalid (must match \\Asystem:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]\\z)' });
  assert.ok(invalidBootstrapGroup('system:bootstrappers:'));
  assert.ok(invalidBootstrapGroup('system:bootstrappers:a-'));
  assert.ok(invalidBootstrapGroup(`system:bootstrappers:${'a'.repeat(257)}`));
  assert.equal(invalidBootstrapGroup(`system:bootstrappers:${'a'.repeat(256)}`), undefined);
  assert.equal(invalidBootstrapGroup('system:bootstrappers:kubeadm:default-node-token'), undefined);
});

test('usages are the usage-bootstrap-* keys set to true', () => {
  const s = secret({ ...good, 'usage-bootstrap-signing': 'true', 'usage-bootstrap-authentication': 'false', 'usage-bootstrap-extra': 'true', other: 'true' });
  assert.deepEqual(bootstrapTokenUsages(s), ['extra', 'signing']);
  assert.equal(secretData(s, 'missing'), '');
});

test('a well-formed Secret parses into its token', () => {
  const r = parseBootstrapTokenSecret(
    secret({ ...good, description: 'for node joins', expiration: '2026-01-01T00:00:00Z', 'usage-bootstrap-signing': 'true', 'auth-extra-groups': 'system:bootstrappers:n' }),
    type,
  );
  assert.deepEqual(r, {
    token: {
      tokenId: 'abcdef',
      tokenSecret: '0123456789abcdef',
      description: 'for node joins',
      expiration: Date.UTC(2026, 0, 1),
      usages: ['signing'],
      groups: ['system:bootstrappers', 'system:bootstrappers:n'],
    },
  });
  assert.ok(!('expiration' in ((parseBootstrapTokenSecret(secret(good), type) as { token: object }).token)));
});

test('a malformed Secret is refused with a reason that never holds the token secret', () => {
  const cases: [BootstrapSecretLike, RegExp][] = [
    [{ ...secret(good), type: 'Opaque' }, /expected bootstrap\.orch\.io\/token/],
    [secret(good, 'my-token'), /Invalid secret name: my-token/],
    [secret({ 'token-secret': good['token-secret'] }), /has no token-id data/],
    [secret({ ...good, 'token-id': 'ABCDEF' }, 'bootstrap-token-abcdef'), /invalid token-id/],
    [secret({ ...good, 'token-id': 'zzzzzz' }), /name is not of the form 'bootstrap-token-\(token-id\)'.*Expected: "bootstrap-token-zzzzzz"/],
    [secret({ 'token-id': 'abcdef' }), /has no token-secret data/],
    [secret({ ...good, 'token-secret': 'SHORT' }), /invalid token-secret/],
    [secret({ ...good, expiration: 'soon' }), /can't parse expiration time/],
    [secret({ ...good, 'auth-extra-groups': 'admins' }), /bootstrap group "admins" is invalid/],
  ];
  for (const [s, re] of cases) {
    const r = parseBootstrapTokenSecret(s, type);
    assert.ok('error' in r, re.source);
    assert.match(r.error, re);
    assert.ok(!r.error.includes('0123456789abcdef') && !r.error.includes('SHORT'));
  }
});
