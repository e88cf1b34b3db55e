import assert from 'node:assert/strict';
import { test } from 'node:test';
import { forwardedHeaders } from './upgrade-aware.js';

test('the client\'s credentials and hop-by-hop headers never reach the backend', () => {
  const out = forwardedHeaders({
    host: 'api.example', authorization: 'Bearer secret', 'impersonate-user': 'x', 'x-remote-user': 'y',
    connection: 'keep-alive, x-hop', 'x-hop': '1', 'keep-alive': 'timeout=5', 'transfer-encoding': 'chunked',
    accept: 'application/json', 'x-forwarded-for': '10.0.0.9',
  }, '10.0.0.1', 'backend:8080', false);
  assert.deepEqual(out, { accept: 'application/json', host: 'backend:8080', 'x-forwarded-for': '10.0.0.9, 10.0.0.1' });
});

test('an upgrade keeps Upgrade and asks the backend for it', () => {
  const out = forwardedHeaders({
    connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-protocol': 'v5.channel.k8s.io', authorization: 'Bearer secret',
  }, undefined, 'node:10250', true);
  assert.deepEqual(out, { upgrade: 'websocket', 'sec-websocket-protocol': 'v5.channel.k8s.io', connection: 'Upgrade', host: 'node:10250' });
});
