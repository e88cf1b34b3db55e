// Content-Type of request bodies and patches (bodyFormat, patchType in negotiation.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bodyFormat, patchType } from './negotiation.js';

const is415 = (e: { code?: number; reason?: string }) => e.code === 415 && e.reason === 'UnsupportedMediaType';

test('body Content-Types parse as Go mime.ParseMediaType parses them', () => {
  assert.equal(bodyFormat(undefined), 'json');
  assert.equal(bodyFormat(''), 'json');
  assert.equal(bodyFormat('application/json'), 'json');
  assert.equal(bodyFormat('Application/JSON ; charset=utf-8'), 'json');
  assert.equal(bodyFormat('application/json;charset="UTF-8"'), 'json');
  assert.equal(bodyFormat('application/json;'), 'json', 'one trailing semicolon is tolerated');
  assert.equal(bodyFormat('application/json; a=1; a=1'), 'json', 'a repeated parameter with the same value is tolerated');
  assert.equal(bodyFormat('application/yaml; charset=us-ascii'), 'yaml');
  assert.equal(bodyFormat('application/vnd.orch.protobuf'), 'protobuf');
});

test('malformed or unsupported body Content-Types are 415', () => {
  for (const ct of [
    'application/json;;;;', 'application/json; charset', 'application/json; charset=', '; charset=utf-8', 'text/plain',
    'application/json/x', 'application/json; a=1; a=2', 'application/json; a="unterminated', 'application/json x',
    'application/json; charset=latin9', 'application/json; charset=utf-16', 'application/', '/json', 'ä/json',
  ]) {
    assert.throws(() => bodyFormat(ct), is415, ct);
  }
});

test('patch Content-Types parse the same way', () => {
  assert.equal(patchType('application/merge-patch+json'), 'merge');
  assert.equal(patchType('application/strategic-merge-patch+json; charset=utf-8'), 'strategic');
  assert.equal(patchType('application/json-patch+json'), 'json');
  for (const ct of [undefined, '', 'application/json', 'application/merge-patch+json;;', '; charset=utf-8', 'application/merge-patch+json; charset=latin1']) {
    assert.throws(() => patchType(ct), is415, String(ct));
  }
});
