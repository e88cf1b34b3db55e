import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Secret, defaultSecret } from '../../../api/core/v1/secret.js';
import { createErrors, defaulted, has, summary, updateErrors, type KindUnderTest } from '../testing/kind-check.js';
import { defaultApiDomain } from '../../../api/domain.js';
import { secretValidation } from './secret-validation.js';

const kind: KindUnderTest<Secret> = { schema: Secret, validation: secretValidation(defaultApiDomain), defaulter: defaultSecret };
const b64 = (s: string) => Buffer.from(s).toString('base64');
const secret = (extra: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'default' }, ...extra });

test('an opaque secret is accepted and typed Opaque by default', () => {
  assert.deepEqual(createErrors(kind, secret({ data: { 'key.one': b64('v'), KEY_2: b64('w') } })), []);
  assert.equal(defaulted(kind, secret()).type, 'Opaque');
});

test('stringData is folded into data', () => {
  const s = defaulted(kind, secret({ data: { a: b64('old'), b: b64('keep') }, stringData: { a: 'new' } }));
  assert.equal(s.stringData, undefined);
  assert.deepEqual(s.data, { a: b64('new'), b: b64('keep') });
});

test('data keys must be valid config keys', () => {
  for (const key of ['a b', 'a/b', '..', '..x']) {
    const errs = createErrors(kind, secret({ data: { [key]: b64('v') } }));
    assert.ok(has(errs, 'FieldValueInvalid', `data[${key}]`), `${key}: ${summary(errs).join()}`);
  }
  assert.ok(has(createErrors(kind, secret({ stringData: { 'no spaces': 'v' } })), 'FieldValueInvalid', 'data[no spaces]'));
});

test('data may hold at most 1 MiB', () => {
  const big = Buffer.alloc(512 * 1024).toString('base64');
  assert.deepEqual(createErrors(kind, secret({ data: { a: big, b: big } })), []);
  const errs = createErrors(kind, secret({ data: { a: big, b: big, c: b64('x') } }));
  assert.deepEqual(summary(errs), ['FieldValueTooLong data']);
});

test('a TLS secret needs tls.crt and tls.key', () => {
  const errs = createErrors(kind, secret({ type: 'orch.io/tls', data: { 'tls.crt': b64('cert') } }));
  assert.deepEqual(summary(errs), ['FieldValueRequired data[tls.key]']);
  assert.deepEqual(createErrors(kind, secret({ type: 'orch.io/tls', data: { 'tls.crt': b64('c'), 'tls.key': b64('k') } })), []);
});

test('a docker config secret needs well-formed JSON under its key', () => {
  const missing = createErrors(kind, secret({ type: 'orch.io/dockerconfigjson', data: {} }));
  assert.deepEqual(summary(missing), ['FieldValueRequired data[.dockerconfigjson]']);
  const broken = createErrors(kind, secret({ type: 'orch.io/dockerconfigjson', data: { '.dockerconfigjson': b64('{nope') } }));
  assert.deepEqual(summary(broken), ['FieldValueInvalid data[.dockerconfigjson]']);
  assert.equal(broken[0]!.badValue, '<secret contents redacted>');
  assert.deepEqual(createErrors(kind, secret({ type: 'orch.io/dockerconfigjson', data: { '.dockerconfigjson': b64('{"auths":{}}') } })), []);
  assert.deepEqual(summary(createErrors(kind, secret({ type: 'orch.io/dockercfg', data: { '.dockercfg': b64('[]') } }))), ['FieldValueInvalid data[.dockercfg]']);
});

test('other typed secrets need their keys', () => {
  assert.deepEqual(summary(createErrors(kind, secret({ type: 'orch.io/basic-auth' }))), ['FieldValueRequired data[username]', 'FieldValueRequired data[password]']);
  assert.deepEqual(createErrors(kind, secret({ type: 'orch.io/basic-auth', data: { password: '' } })), []);
  assert.deepEqual(summary(createErrors(kind, secret({ type: 'orch.io/ssh-auth', data: { 'ssh-privatekey': '' } }))), ['FieldValueRequired data[ssh-privatekey]']);
  const sa = createErrors(kind, secret({ type: 'orch.io/service-account-token' }));
  assert.deepEqual(summary(sa), ['FieldValueRequired metadata.annotations[orch.io/service-account.name]']);
  const named = secret({ type: 'orch.io/service-account-token', metadata: { name: 's', namespace: 'default', annotations: { 'orch.io/service-account.name': 'builder' } } });
  assert.deepEqual(createErrors(kind, named), []);
});

test('the type never changes', () => {
  const errs = updateErrors(kind, secret({ type: 'orch.io/basic-auth', data: { username: b64('u') } }), secret());
  assert.deepEqual(summary(errs), ['FieldValueInvalid type']);
  assert.equal(errs[0]!.detail, 'field is immutable');
});

test('an immutable secret keeps its data and its flag', () => {
  const old = secret({ immutable: true, data: { a: b64('1') } });
  assert.deepEqual(updateErrors(kind, secret({ immutable: true, data: { a: b64('1') }, metadata: { name: 's', namespace: 'default', labels: { x: 'y' } } }), old), []);
  assert.deepEqual(summary(updateErrors(kind, secret({ immutable: true, data: { a: b64('2') } }), old)), ['FieldValueForbidden data']);
  assert.deepEqual(summary(updateErrors(kind, secret({ immutable: true, stringData: { b: 'x' }, data: { a: b64('1') } }), old)), ['FieldValueForbidden data']);
  assert.deepEqual(summary(updateErrors(kind, secret({ immutable: false, data: { a: b64('1') } }), old)), ['FieldValueForbidden immutable']);
  // A mutable secret may become immutable and change data in the same update.
  assert.deepEqual(updateErrors(kind, secret({ immutable: true, data: { a: b64('2') } }), secret({ data: { a: b64('1') } })), []);
});

const bootstrap = (data: Record<string, string>, name = 'bootstrap-token-abcdef') =>
  secret({
    type: 'bootstrap.orch.io/token',
    metadata: { name, namespace: 'orch-system' },
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])),
  });
const token = { 'token-id': 'abcdef', 'token-secret': '0123456789abcdef' };

test('a well-formed bootstrap token secret is accepted', () => {
  assert.deepEqual(createErrors(kind, bootstrap(token)), []);
  const full = {
    ...token,
    description: 'anything at all',
    expiration: '2026-01-02T03:04:05Z',
    'usage-bootstrap-authentication': 'true',
    'usage-bootstrap-signing': 'false',
    'auth-extra-groups': 'system:bootstrappers:worker,system:bootstrappers:kubeadm:default-node-token',
  };
  assert.deepEqual(createErrors(kind, bootstrap(full)), []);
  assert.deepEqual(createErrors(kind, bootstrap({ ...token, expiration: '2026-01-02T03:04:05.5+02:00', 'auth-extra-groups': '' })), []);
  // stringData counts as data.
  assert.deepEqual(createErrors(kind, { ...bootstrap({}), stringData: token }), []);
});

test('a bootstrap token secret needs its id and secret, each of the right shape', () => {
  assert.deepEqual(summary(createErrors(kind, bootstrap({}))), ['FieldValueRequired data[token-id]', 'FieldValueRequired data[token-secret]']);
  const bad = createErrors(kind, bootstrap({ 'token-id': 'ABCDEF', 'token-secret': 'tooshort' }));
  assert.deepEqual(summary(bad), ['FieldValueInvalid data[token-id]', 'FieldValueInvalid data[token-secret]']);
  assert.equal(bad[0]!.badValue, 'ABCDEF');
  assert.equal(bad[0]!.detail, 'must be 6 characters of [a-z0-9]');
  // The secret part never comes back in the cause.
  assert.equal(bad[1]!.badValue, '<secret contents redacted>');
  assert.equal(bad[1]!.detail, 'must be 16 characters of [a-z0-9]');
  assert.deepEqual(summary(createErrors(kind, bootstrap({ 'token-id': 'abcdefg', 'token-secret': '0123456789abcdef0' }))), [
    'FieldValueInvalid data[token-id]',
    'FieldValueInvalid data[token-secret]',
  ]);
});

test('a bootstrap token secret is named for its token id', () => {
  const errs = createErrors(kind, bootstrap(token, 'bootstrap-token-zzzzzz'));
  assert.deepEqual(summary(errs), ['FieldValueInvalid metadata.name']);
  assert.match(errs[0]!.detail, /bootstrap-token-abcdef/);
  assert.deepEqual(summary(createErrors(kind, bootstrap(token, 'my-token'))), ['FieldValueInvalid metadata.name']);
  // A bad id is reported once, on the id.
  assert.deepEqual(summary(createErrors(kind, bootstrap({ ...token, 'token-id': 'ABC' }, 'my-token'))), ['FieldValueInvalid data[token-id]']);
});

test('expiration, usages and extra groups of a bootstrap token secret', () => {
  const exp = createErrors(kind, bootstrap({ ...token, expiration: '2026-01-02 03:04:05' }));
  assert.deepEqual(summary(exp), ['FieldValueInvalid data[expiration]']);
  assert.equal(exp[0]!.badValue, '2026-01-02 03:04:05');

  const usage = createErrors(kind, bootstrap({ ...token, 'usage-bootstrap-authentication': 'yes', 'usage-bootstrap-signing': 'True', 'usage-bootstrap-magic': 'true' }));
  assert.deepEqual(summary(usage), ['FieldValueNotSupported data[usage-bootstrap-authentication]', 'FieldValueNotSupported data[usage-bootstrap-signing]', 'FieldValueInvalid data[usage-bootstrap-magic]']);
  assert.equal(usage[0]!.detail, 'supported values: "true", "false"');
  assert.equal(usage[2]!.detail, 'invalid bootstrap token usage string: magic, valid usage options: signing,authentication');

  const groups = createErrors(kind, bootstrap({ ...token, 'auth-extra-groups': 'system:bootstrappers:ok,system:masters,also-bad' }));
  assert.deepEqual(summary(groups), ['FieldValueInvalid data[auth-extra-groups]']);
  assert.match(groups[0]!.detail, /^bootstrap group "system:masters" is invalid \(must match /);
  assert.deepEqual(summary(createErrors(kind, bootstrap({ ...token, 'auth-extra-groups': 'system:bootstrappers:a,' }))), ['FieldValueInvalid data[auth-extra-groups]']);
});

test('bootstrap token rules apply on update too, and only to that type', () => {
  const errs = updateErrors(kind, bootstrap({ ...token, 'token-secret': 'x' }), bootstrap(token));
  assert.deepEqual(summary(errs), ['FieldValueInvalid data[token-secret]']);
  assert.deepEqual(createErrors(kind, secret({ data: { 'token-id': b64('ABC') } })), []);
  assert.deepEqual(createErrors(kind, secret({ type: 'bootstrap.kubernetes.io/token', data: { 'token-id': b64('ABC') } })), []);
});
