import assert from 'node:assert/strict';
import { test } from 'node:test';
import { escapeExtraKey, remoteUserHeaders } from './remote-headers.js';

test('extra keys keep token characters and percent-encode the rest, as upstream escapes them', () => {
  assert.equal(escapeExtraKey('scopes'), 'scopes');
  assert.equal(escapeExtraKey('example.org/foo-bar'), 'example.org%2Ffoo-bar');
  assert.equal(escapeExtraKey('100%'), '100%25');
  assert.equal(escapeExtraKey('a b'), 'a%20b');
  assert.equal(escapeExtraKey('ä'), '%C3%A4');
});

test('the user travels as X-Remote-User, one X-Remote-Group per group and X-Remote-Extra-<key> per value', () => {
  assert.deepEqual(remoteUserHeaders({ name: 'jane', groups: ['dev', 'system:authenticated'], extra: { 'example.org/team': ['a', 'b'], empty: [] } }), {
    'x-remote-user': 'jane', 'x-remote-group': ['dev', 'system:authenticated'], 'x-remote-extra-example.org%2Fteam': ['a', 'b'],
  });
  assert.deepEqual(remoteUserHeaders({ name: 'anon', groups: [], extra: {} }), { 'x-remote-user': 'anon' });
});
