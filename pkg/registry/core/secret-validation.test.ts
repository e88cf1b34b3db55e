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
