import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseGoURL } from './go-url.js';

const ok = (raw: string) => {
  const r = parseGoURL(raw);
  assert.equal(r.error, undefined, raw);
  return r.url!;
};

test('a full URL is split into scheme, user, host, path, query and fragment', () => {
  const u = ok('HTTPS://me:secret@hook.example.com:8443/a%20b/c?x=1#frag%21');
  assert.equal(u.scheme, 'https');
  assert.deepEqual(u.user, { username: 'me', hasPassword: true });
  assert.equal(u.host, 'hook.example.com:8443');
  assert.equal(u.path, '/a b/c');
  assert.equal(u.rawQuery, 'x=1');
  assert.equal(u.fragment, 'frag!');
});

test('strings without a scheme or authority parse as Go parses them', () => {
  assert.deepEqual([ok('hook.example.com/path').scheme, ok('hook.example.com/path').host], ['', '']);
  assert.equal(ok('a:b/c').opaque, 'b/c', 'a leading letter run before a colon is a scheme');
  assert.deepEqual([ok('https:hook.example.com').opaque, ok('https:hook.example.com').host], ['hook.example.com', '']);
  assert.equal(ok('//hook.example.com/x').host, 'hook.example.com');
  assert.equal(ok('https://').host, '');
  assert.equal(ok('https://a/?').rawQuery, '', 'a lone trailing ? is no query');
  assert.equal(ok('https://a/#').fragment, '');
  assert.deepEqual(ok('https://@a/').user, { username: '', hasPassword: false });
  assert.equal(ok('https://[::1]:443/').host, '[::1]:443');
});

test('malformed URLs fail with Go\'s messages', () => {
  const cases: [string, string][] = [
    ['://x', 'parse "://x": missing protocol scheme'],
    ['https://a:b c/', 'parse "https://a:b c/": invalid port ":b c" after host'],
    ['https://a b/', 'parse "https://a b/": invalid character " " in host name'],
    ['https://a/%zz', 'parse "https://a/%zz": invalid URL escape "%zz"'],
    ['https://a/#%g', 'parse "https://a/#%g": invalid URL escape "%g"'],
    ['1a:b/c', 'parse "1a:b/c": first path segment in URL cannot contain colon'],
    ['https://a\n/', 'parse "https://a\\n/": net/url: invalid control character in URL'],
    ['https://[::1/', 'parse "https://[::1/": missing \']\' in host'],
    ['https://u{x}@a/', 'parse "https://u{x}@a/": net/url: invalid userinfo'],
  ];
  for (const [raw, message] of cases) assert.equal(parseGoURL(raw).error, message, raw);
});
