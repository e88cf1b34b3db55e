import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { AuthenticationResult } from './authenticator.js';
import { loadTokenFile, TokenFileAuthenticator } from './token-file.js';

function tokens(content: string, warnings: string[] = []): TokenFileAuthenticator {
  return new TokenFileAuthenticator(content, '/etc/tokens.csv', { warn: (m) => warnings.push(m) });
}

async function userOf(auth: TokenFileAuthenticator, token: string) {
  const r: AuthenticationResult = await auth.authenticateToken(token);
  return r.outcome === 'authenticated' ? r.user : r.outcome;
}

test('the records of upstream\'s token file test', async () => {
  const auth = tokens(`
token1,user1,uid1
token2,user2,uid2
token3,user3,uid3,"group1,group2"
token4,user4,uid4,"group2"
token5,user5,uid5,group5
token6,user6,uid6,group5,otherdata
token7,user7,uid7,"group1,group2",otherdata
`);
  assert.deepEqual(await userOf(auth, 'token1'), { name: 'user1', uid: 'uid1', groups: [], extra: {} });
  assert.deepEqual(await userOf(auth, 'token3'), { name: 'user3', uid: 'uid3', groups: ['group1', 'group2'], extra: {} });
  assert.deepEqual(await userOf(auth, 'token4'), { name: 'user4', uid: 'uid4', groups: ['group2'], extra: {} });
  assert.deepEqual(await userOf(auth, 'token6'), { name: 'user6', uid: 'uid6', groups: ['group5'], extra: {} });
  assert.deepEqual(await userOf(auth, 'token7'), { name: 'user7', uid: 'uid7', groups: ['group1', 'group2'], extra: {} });
  assert.equal(await userOf(auth, 'token8'), 'skipped', 'an unknown token is not this method\'s');
  assert.equal(await userOf(auth, 'token1 '), 'skipped');
  assert.equal(await userOf(auth, ''), 'skipped');
  assert.equal(auth.size, 7);
});

test('fewer than 3 columns is an error naming the file and the count, as upstream words it', () => {
  assert.throws(() => tokens('token1,user1,uid1\ntoken2,user2,uid2\ntoken3,user3\ntoken4\n'), {
    message: "token file '/etc/tokens.csv' must have at least 3 columns (token, user name, user uid), found 2",
  });
  assert.throws(() => tokens('token4\n'), { message: "token file '/etc/tokens.csv' must have at least 3 columns (token, user name, user uid), found 1" });
  assert.throws(() => tokens('a,b,c\n   \n'), /found 1$/, 'a line of spaces is a record, not a blank line');
});

test('an empty token is warned about with its record number and skipped; a duplicate is warned about and the later wins', async () => {
  const warnings: string[] = [];
  const auth = tokens(',user5,uid5\nt,first,1\n\nt,second,2\n', warnings);
  assert.deepEqual(warnings, [
    "empty token has been found in token file '/etc/tokens.csv', record number '1'",
    "duplicate token has been found in token file '/etc/tokens.csv', record number '3'",
  ]);
  assert.equal(auth.size, 1);
  assert.equal(await userOf(auth, ''), 'skipped');
  assert.deepEqual(await userOf(auth, 't'), { name: 'second', uid: '2', groups: [], extra: {} });
});

test('quoting, line ends and spaces follow Go\'s csv reader', async () => {
  const auth = tokens(
    [
      '"tok,en",comma,1',
      '"a""b",quote,2',
      '"multi\r\nline",newline,3,"g1,g2"',
      'crlf,crlf-user,4\r',
      '',
      '\r',
      ' spaced, user ,5, g1,g2 ',
      'groups,empty,6,',
      'noid,user7,',
      'cr\rinside,cr,8',
      'last,final,9\r',
    ].join('\n'),
  );
  assert.equal((await userOf(auth, 'tok,en') as { name: string }).name, 'comma');
  assert.equal((await userOf(auth, 'a"b') as { name: string }).name, 'quote');
  assert.deepEqual(await userOf(auth, 'multi\nline'), { name: 'newline', uid: '3', groups: ['g1', 'g2'], extra: {} });
  assert.deepEqual(await userOf(auth, 'crlf'), { name: 'crlf-user', uid: '4', groups: [], extra: {} });
  assert.deepEqual(await userOf(auth, ' spaced'), { name: ' user ', uid: '5', groups: [' g1'], extra: {} }, 'spaces are data; the 5th column is ignored');
  assert.equal(await userOf(auth, 'spaced'), 'skipped');
  assert.deepEqual(await userOf(auth, 'groups'), { name: 'empty', uid: '6', groups: [''], extra: {} }, 'an empty 4th column is one empty group, as strings.Split gives');
  assert.deepEqual(await userOf(auth, 'noid'), { name: 'user7', groups: [], extra: {} });
  assert.equal((await userOf(auth, 'cr\rinside') as { name: string }).name, 'cr');
  assert.equal((await userOf(auth, 'last') as { name: string }).name, 'final');
});

test('malformed quotes are Go\'s parse errors and never show the field', () => {
  const cases: Array<[string, RegExp]> = [
    ['ok,u,1\nse"cret,u,1\n', /^parse error on line 2: bare " in non-quoted-field$/],
    [' "secret",u,1\n', /^parse error on line 1: bare " in non-quoted-field$/],
    ['"secret"x,u,1\n', /^parse error on line 1: extraneous or missing " in quoted-field$/],
    ['ok,u,1\n"secret,u,1\n', /^parse error on line \d+: extraneous or missing " in quoted-field$/],
  ];
  for (const [content, message] of cases) {
    assert.throws(() => tokens(content), (e: Error) => {
      assert.match(e.message, message);
      assert.ok(!e.message.includes('secret'));
      return true;
    });
  }
});

test('a result is a copy: changing it does not change the table', async () => {
  const auth = tokens('t,u,1,"a,b"\n');
  const first = await userOf(auth, 't');
  (first as { groups: string[] }).groups.push('system:masters');
  assert.deepEqual((await userOf(auth, 't') as { groups: string[] }).groups, ['a', 'b']);
});

test('loadTokenFile reads the named file; a missing file is an error naming it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'token-file-test-'));
  try {
    const file = join(dir, 'tokens.csv');
    writeFileSync(file, 'abc123,alice,1001,"dev,ops"\n');
    assert.deepEqual(await userOf(loadTokenFile(file), 'abc123'), { name: 'alice', uid: '1001', groups: ['dev', 'ops'], extra: {} });
    assert.throws(() => loadTokenFile(join(dir, 'missing.csv')), { message: `open ${join(dir, 'missing.csv')}: no such file or directory` });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
