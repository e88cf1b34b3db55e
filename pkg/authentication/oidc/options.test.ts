import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apiDomain, defaultApiDomain } from '../../../api/domain.js';
import { parseRequiredClaims, resolveOIDCOptions } from './options.js';

const base = { issuerURL: 'https://issuer.example/path', clientID: 'orch', domain: defaultApiDomain };

test('defaults follow kube-apiserver: sub claim, issuer-prefixed usernames, RS256', () => {
  const o = resolveOIDCOptions(base);
  assert.equal(o.usernameClaim, 'sub');
  assert.equal(o.usernamePrefix, 'https://issuer.example/path#');
  assert.deepEqual(o.signingAlgs, ['RS256']);
  assert.equal(o.groupsClaim, '');
  assert.deepEqual(o.requiredClaims, []);
  assert.equal(o.ca, undefined);
  assert.equal(o.credentialIDKey, 'authentication.orch.io/credential-id');
  assert.equal(resolveOIDCOptions({ ...base, domain: apiDomain('k8s.io') }).credentialIDKey, 'authentication.kubernetes.io/credential-id');
});

test('the username prefix: email claims get none, "-" disables it, an explicit prefix wins', () => {
  assert.equal(resolveOIDCOptions({ ...base, usernameClaim: 'email' }).usernamePrefix, '');
  assert.equal(resolveOIDCOptions({ ...base, usernamePrefix: '-' }).usernamePrefix, '');
  assert.equal(resolveOIDCOptions({ ...base, usernameClaim: 'email', usernamePrefix: 'x:' }).usernamePrefix, 'x:');
  assert.equal(resolveOIDCOptions({ ...base, usernamePrefix: '' }).usernamePrefix, 'https://issuer.example/path#');
});

test('configurations upstream refuses fail at start-up', () => {
  assert.throws(() => resolveOIDCOptions({ ...base, issuerURL: 'http://issuer.example' }), /URL scheme must be https/);
  assert.throws(() => resolveOIDCOptions({ ...base, issuerURL: 'https://u:p@issuer.example' }), /must not contain a username or password/);
  assert.throws(() => resolveOIDCOptions({ ...base, issuerURL: 'https://issuer.example?a=b' }), /must not contain a query/);
  assert.throws(() => resolveOIDCOptions({ ...base, issuerURL: 'https://issuer.example#x' }), /must not contain a fragment/);
  assert.throws(() => resolveOIDCOptions({ ...base, issuerURL: 'not a url' }), /not a valid URL/);
  assert.throws(() => resolveOIDCOptions({ ...base, clientID: '' }), /should be specified together/);
  assert.throws(() => resolveOIDCOptions({ ...base, signingAlgs: ['RS256', 'none'] }), /oidc: unsupported signing alg: "none"/);
  assert.throws(() => resolveOIDCOptions({ ...base, signingAlgs: ['HS256'] }), /oidc: unsupported signing alg: "HS256"/);
  assert.throws(() => resolveOIDCOptions({ ...base, caFile: '/nonexistent/ca.crt' }), /ENOENT/);
  assert.deepEqual(resolveOIDCOptions({ ...base, signingAlgs: ['ES256', 'PS512'] }).signingAlgs, ['ES256', 'PS512']);
});

test('--oidc-required-claim values parse as upstream map flags do', () => {
  assert.deepEqual(parseRequiredClaims(['hd=example.com', ' tier = gold ', 'x=a=b', 'hd=other']), { hd: 'other', tier: 'gold', x: 'a=b' });
  assert.throws(() => parseRequiredClaims(['novalue']), /malformed pair, expect string=string/);
});
