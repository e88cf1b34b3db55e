import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigMap } from '../../../api/core/v1/config-map.js';
import { createErrors, summary, updateErrors, type KindUnderTest } from '../testing/kind-check.js';
import { configMapValidation } from './config-map-validation.js';

const kind: KindUnderTest<ConfigMap> = { schema: ConfigMap, validation: configMapValidation };
const cm = (extra: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' }, ...extra });

test('a config map with valid keys is accepted', () => {
  assert.deepEqual(createErrors(kind, cm({ data: { 'app.properties': 'x=1', '-dash_': '' }, binaryData: { 'logo.png': 'AAEC' } })), []);
});

test('keys must be valid config keys', () => {
  assert.deepEqual(summary(createErrors(kind, cm({ data: { 'a:b': 'x' } }))), ['FieldValueInvalid data[a:b]']);
  assert.deepEqual(summary(createErrors(kind, cm({ binaryData: { '.': 'AA==' } }))), ['FieldValueInvalid binaryData[.]']);
});

test('data and binaryData may not share a key', () => {
  const errs = createErrors(kind, cm({ data: { k: 'x' }, binaryData: { k: 'AA==' } }));
  assert.deepEqual(summary(errs), ['FieldValueInvalid data[k]']);
  assert.equal(errs[0]!.detail, 'duplicate of key present in binaryData');
});

test('all values together may hold at most 1 MiB', () => {
  const half = 'x'.repeat(512 * 1024);
  assert.deepEqual(createErrors(kind, cm({ data: { a: half, b: half } })), []);
  assert.deepEqual(summary(createErrors(kind, cm({ data: { a: half, b: half }, binaryData: { c: 'AA==' } }))), ['FieldValueTooLong ']);
});

test('an immutable config map keeps its data and its flag', () => {
  const old = cm({ immutable: true, data: { a: '1' } });
  assert.deepEqual(updateErrors(kind, cm({ immutable: true, data: { a: '1' } }), old), []);
  assert.deepEqual(summary(updateErrors(kind, cm({ immutable: true, data: { a: '2' } }), old)), ['FieldValueForbidden data']);
  assert.deepEqual(summary(updateErrors(kind, cm({ immutable: true, data: { a: '1' }, binaryData: { b: 'AA==' } }), old)), ['FieldValueForbidden binaryData']);
  assert.deepEqual(summary(updateErrors(kind, cm({ data: { a: '1' } }), old)), ['FieldValueForbidden immutable']);
});
