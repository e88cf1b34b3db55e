import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isProxyableIP, splitSchemeNamePort } from './connect-locations.js';

test('proxy names: name, name:port, scheme:name:port; other schemes and shapes are invalid', () => {
  assert.deepEqual(splitSchemeNamePort('web'), { scheme: '', name: 'web', port: '' });
  assert.deepEqual(splitSchemeNamePort('web:8080'), { scheme: '', name: 'web', port: '8080' });
  assert.deepEqual(splitSchemeNamePort('https:web:http'), { scheme: 'https', name: 'web', port: 'http' });
  for (const bad of ['', ':80', 'ftp:web:80', 'a:b:c:d']) assert.equal(splitSchemeNamePort(bad), undefined, bad);
});

test('only global unicast addresses are proxied to', () => {
  for (const ok of ['10.0.0.5', '192.0.2.2', '8.8.8.8', 'fd00::2', '2001:db8::1']) assert.equal(isProxyableIP(ok), true, ok);
  for (const no of ['127.0.0.1', '0.0.0.0', '169.254.169.254', '224.0.0.1', '::1', '::', 'fe80::1', 'ff02::1', '::ffff:127.0.0.1', 'not-an-ip', '']) {
    assert.equal(isProxyableIP(no), false, no);
  }
});
