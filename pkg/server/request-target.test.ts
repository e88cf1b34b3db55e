import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classifyTarget } from './request-target.js';

test('origin-form paths are routed as sent', () => {
  assert.deepEqual(classifyTarget('GET', '/api/v1/pods?x=1#y'), { kind: 'route', url: '/api/v1/pods?x=1#y' });
});

test('absolute-form targets are routed by their path and query', () => {
  assert.deepEqual(classifyTarget('GET', 'https://h:6443/api/v1?x=1'), { kind: 'route', url: '/api/v1?x=1' });
  assert.deepEqual(classifyTarget('GET', 'https://h'), { kind: 'route', url: '/' });
  assert.deepEqual(classifyTarget('GET', 'https://h?x'), { kind: 'route', url: '/?x' });
  assert.deepEqual(classifyTarget('GET', 'https://h//x'), { kind: 'not-found' });
});

test('paths no route starts with, * and authority-form are not found; OPTIONS * is Go\'s own', () => {
  for (const t of ['//x', '//[', '/\\x', '/\\']) assert.deepEqual(classifyTarget('GET', t), { kind: 'not-found' }, t);
  assert.deepEqual(classifyTarget('GET', '*'), { kind: 'not-found' });
  assert.deepEqual(classifyTarget('OPTIONS', '*'), { kind: 'options-asterisk' });
  assert.deepEqual(classifyTarget('CONNECT', 'example.com:443'), { kind: 'not-found' });
  assert.deepEqual(classifyTarget('GET', 'example.com:443'), { kind: 'bad-request' });
});
