import { test } from 'node:test';
import assert from 'node:assert/strict';
import { celSyntaxProblem } from './cel-syntax.js';

test('well-formed expressions pass, whatever their brackets and quotes hold', () => {
  for (const e of [
    'true',
    'object.metadata.name.startsWith("kube-")',
    "request.userInfo.groups.exists(g, g in ['system:masters', 'admins'])",
    '{"a": [1, (2 + 3)]}.size() == 1',
    '"quote \\" and ) inside"',
    "r'raw \\d+ (' == ''",
    '"""spans\nlines ) ]""" != ""',
  ]) assert.equal(celSyntaxProblem(e), undefined, e);
});

test('unbalanced brackets and unterminated strings are refused with their position', () => {
  assert.equal(celSyntaxProblem('size(x'), "compilation failed: ERROR: <input>:1:6: Syntax error: missing ')' at '<EOF>'");
  assert.equal(celSyntaxProblem('a]'), "compilation failed: ERROR: <input>:1:1: Syntax error: extraneous input ']'");
  assert.equal(celSyntaxProblem('[1, (2]'), "compilation failed: ERROR: <input>:1:6: Syntax error: extraneous input ']'");
  assert.equal(celSyntaxProblem('x == 1 &&\n"open'), 'compilation failed: ERROR: <input>:2:0: Syntax error: token recognition error: unterminated string literal');
  // In a raw string a backslash escapes nothing, so the quote after it ends the string.
  assert.ok(celSyntaxProblem("r'a \\' b'")?.includes('unterminated string literal'));
  assert.equal(celSyntaxProblem("'a\nb'"), 'compilation failed: ERROR: <input>:1:0: Syntax error: token recognition error: unterminated string literal');
});
