import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileGoRegexp, goRegexpProblem } from './go-regexp.js';

const matches = (pattern: string, s: string) => compileGoRegexp(pattern).test(s);

test('Go refuses what Go refuses, with Go\'s words', () => {
  const cases: [string, string][] = [
    ['+', 'missing argument to repetition operator: `+`'],
    ['a|*', 'missing argument to repetition operator: `*`'],
    ['(?i)*', 'missing argument to repetition operator: `*`'],
    ['{2}', 'missing argument to repetition operator: `{2}`'],
    ['a**', 'invalid nested repetition operator: `**`'],
    ['a*?+', 'invalid nested repetition operator: `*?+`'],
    ['a{2}{3}', 'invalid nested repetition operator: `{2}{3}`'],
    ['a{1001}', 'invalid repeat count: `{1001}`'],
    ['a{3,2}', 'invalid repeat count: `{3,2}`'],
    ['(a{100}){100}', 'invalid repeat count: `{100}`'],
    ['(abc', 'missing closing ): `(abc`'],
    ['abc)', 'unexpected ): `abc)`'],
    ['[abc', 'missing closing ]: `[abc`'],
    ['x[a-', 'missing closing ]: `[a-`'],
    ['[z-a]', 'invalid character class range: `z-a`'],
    ['[[:foo:]]', 'invalid character class range: `[:foo:]`'],
    ['\\p{Foo}', 'invalid character class range: `\\p{Foo}`'],
    ['\\q', 'invalid escape sequence: `\\q`'],
    ['(a)\\1', 'invalid escape sequence: `\\1`'],
    ['[\\b]', 'invalid escape sequence: `\\b`'],
    ['\\C', 'invalid escape sequence: `\\C`'],
    ['\\x{zz}', 'invalid escape sequence: `\\x{z`'],
    ['abc\\', 'trailing backslash at end of expression: ``'],
    ['(?=x)', 'invalid or unsupported Perl syntax: `(?=`'],
    ['(?<name', 'invalid named capture: `(?<name`'],
    ['(?P<a-b>x)', 'invalid named capture: `(?P<a-b>`'],
  ];
  for (const [pattern, why] of cases) {
    assert.equal(goRegexpProblem(pattern), `error parsing regexp: ${why}`, pattern);
  }
});

test('patterns Go accepts match as Go matches them', () => {
  assert.equal(goRegexpProblem('^[a-zA-Z0-9_]*$'), undefined);
  assert.ok(matches('^[a-zA-Z0-9_]*$', 'foo_1'));
  assert.ok(!matches('^[a-zA-Z0-9_]*$', 'foo bar'));
  // Unanchored, as MatchString searches.
  assert.ok(matches('b+', 'abbc'));
  // Literal braces and brackets where Go reads literals.
  assert.ok(matches('^a{,2}$', 'a{,2}'));
  assert.ok(matches('^x}]$', 'x}]'));
  assert.ok(matches('^[]a]+$', ']a]'));
  assert.ok(matches('^[a-]+$', '-a'));
  // Go's \s has no \v; . does not match \n but matches \r.
  assert.ok(!matches('^\\s$', '\v'));
  assert.ok(matches('^.$', '\r'));
  assert.ok(!matches('^.$', '\n'));
  assert.ok(matches('(?s)^.$', '\n'));
  // Flags for part of a pattern, and throughout.
  assert.ok(matches('^(?i:ab)c$', 'ABc'));
  assert.ok(!matches('^(?i:ab)c$', 'ABC'));
  assert.ok(matches('(?i)^[a-f0-9]{2}$', 'Ab'));
  assert.ok(matches('^a(?i)b$', 'aB'));
  assert.ok(!matches('^a(?i)b$', 'AB'));
  assert.ok(matches('(?m)^b$', 'a\nb\nc'));
  assert.ok(!matches('^b$', 'a\nb\nc'));
  assert.ok(matches('\\Aab\\z', 'ab'));
  assert.ok(matches('^\\Q.*\\E$', '.*'));
  assert.ok(!matches('^\\Q.*\\E$', 'xx'));
  assert.ok(matches('^[[:alpha:]]+[[:^alpha:]]$', 'ab1'));
  assert.ok(matches('^\\pL\\p{Greek}\\PN$', 'aαx'));
  assert.ok(matches('^\\x41\\x{1F600}\\101$', 'A😀A'));
  assert.ok(matches('^(?P<x>a)(?<y>b)$', 'ab'));
  assert.ok(matches('^a*?$', 'aaa'));
  assert.ok(matches('(?U)^a+$', 'aaa'));
  // An empty-width operator may be repeated in Go; JS needs it grouped.
  assert.equal(goRegexpProblem('^*a'), undefined);
  assert.ok(matches('^*a', 'a'));
});
