// The YAML text of gnostic's Any values: the same text upstream's YAML library writes for each
// value (recorded from it), and text that reads back to the value where we deliberately differ.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse as parseYAML } from 'yaml';
import { gnosticYAML } from './gnostic-yaml.js';
import type { JsonValue } from './types.js';

// [value, the YAML gnostic-models (yaml.v3) writes for it]
const upstream: [JsonValue, string][] = [
  ['name', 'name\n'],
  ['', '""\n'],
  ['true', '"true"\n'],
  ['1', '"1"\n'],
  [['type'], '- type\n'],
  [[{ group: '', kind: 'Pod', version: 'v1' }], '- group: ""\n  kind: Pod\n  version: v1\n'],
  [{ a: [1, 2], b: [{ c: 'd', e: 'f' }], n: { m: { k: 'v' } } }, 'a:\n    - 1\n    - 2\nb:\n    - c: d\n      e: f\nn:\n    m:\n        k: v\n'],
  [true, 'true\n'],
  [1.5, '1.5\n'],
  [null, 'null\n'],
  ['merge,retainKeys', 'merge,retainKeys\n'],
  ['a: b', "'a: b'\n"],
  ['*x', "'*x'\n"],
  ['- x', "'- x'\n"],
  ['line1\nline2', '|-\n    line1\n    line2\n'],
  ['line1\nline2\n', '|\n    line1\n    line2\n'],
  ['l1\n\nl2', '|-\n    l1\n\n    l2\n'],
  ['l1\nl2\n\n', '|+\n    l1\n    l2\n\n'],
  [' lead', "' lead'\n"],
  ["it's", "it's\n"],
  ['yes', 'yes\n'],
  ['on', 'on\n'],
  ['1e3', '"1e3"\n'],
  ['0x1F', '"0x1F"\n'],
  ['0o17', '"0o17"\n'],
  ['0b101', '"0b101"\n'],
  ['-0b101', '"-0b101"\n'],
  ['012', '"012"\n'],
  ['+1', '"+1"\n'],
  ['1_000', '"1_000"\n'],
  ['1__0', '"1__0"\n'],
  ['_1', '_1\n'],
  ['.5', '".5"\n'],
  ['0.', '"0."\n'],
  ['1e', '1e\n'],
  ['1.2.3', '1.2.3\n'],
  ['.inf', '".inf"\n'],
  ['.NaN', '".NaN"\n'],
  ['~', '"~"\n'],
  ['null', '"null"\n'],
  ['Null', '"Null"\n'],
  ['FALSE', '"FALSE"\n'],
  ['fAlse', 'fAlse\n'],
  ['2001-12-14', '"2001-12-14"\n'],
  ['2001-1-2', '"2001-1-2"\n'],
  ['2001-12-14T21:59:43.10-05:00', '"2001-12-14T21:59:43.10-05:00"\n'],
  ['12:30', '12:30\n'],
  ['<<', '<<\n'],
  ['#x', "'#x'\n"],
  ['a #b', "'a #b'\n"],
  ['a#b', 'a#b\n'],
  ['a:b', 'a:b\n'],
  ['x:', "'x:'\n"],
  [':', "':'\n"],
  ['-', "'-'\n"],
  ['--x', '--x\n'],
  ['---', "'---'\n"],
  ['...x', "'...x'\n"],
  ['?x', '?x\n'],
  ['[x', "'[x'\n"],
  ['x]', 'x]\n'],
  ['{x', "'{x'\n"],
  ['a,b', 'a,b\n'],
  ['%x', "'%x'\n"],
  ['@x', "'@x'\n"],
  ['`x', "'`x'\n"],
  ['!x', "'!x'\n"],
  ['&x', "'&x'\n"],
  ['|x', "'|x'\n"],
  ['>x', "'>x'\n"],
  ["'x", "'''x'\n"],
  ['"x', `'"x'\n`],
  ['trailing ', "'trailing '\n"],
  ['a  b', 'a  b\n'],
  ['Bearer <token>', 'Bearer <token>\n'],
  ['é ü', 'é ü\n'],
  ['\u00a0nb', '\u00a0nb\n'],
  ['tab\there', '"tab\\there"\n'],
  ['a\u0001b', '"a\\x01b"\n'],
  ['emoji 😀', '"emoji \\U0001F600"\n'],
  ['l1 \nl2', '"l1 \\nl2"\n'],
  ['trail\n ', '"trail\\n "\n'],
  [[], '[]\n'],
  [{}, '{}\n'],
  [[[1, 2], []], '- - 1\n  - 2\n- []\n'],
  [{ k: 'l1\nl2', s: ['l1\nl2', { m: 'x\ny\n' }] }, 'k: |-\n    l1\n    l2\ns:\n    - |-\n      l1\n      l2\n    - m: |\n        x\n        y\n'],
  [['l1\nl2'], '- |-\n  l1\n  l2\n'],
  [{ '': 1, 'a b': 2, true: 3, 'k:': 5 }, '"": 1\na b: 2\n"true": 3\n\'k:\': 5\n'],
  [-5, '-5\n'],
  [0, '0\n'],
  [[null, true, false], '- null\n- true\n- false\n'],
  ['x'.repeat(200), `${'x'.repeat(200)}\n`],
  [`a: ${'word '.repeat(30)}end`, `'a: ${'word '.repeat(30)}end'\n`],
];

test('values are written as upstream writes them', () => {
  for (const [value, yaml] of upstream) assert.equal(gnosticYAML(value), yaml, JSON.stringify(value));
});

test('what upstream writes reads back to the value', () => {
  for (const [value] of upstream) assert.deepEqual(parseYAML(gnosticYAML(value)), value, JSON.stringify(value));
});

test('strings upstream writes oddly (or lossily) are double-quoted and read back exactly', () => {
  const odd = [' l1\nl2', '\n', '\nlead', 'a\u0085b', '\u2028x', '\ufeffx', 'a\rb', 'x\u2029'];
  for (const s of odd) {
    const yaml = gnosticYAML(s);
    assert.match(yaml, /^".*"\n$/s, JSON.stringify(s));
    assert.equal(parseYAML(yaml), s, JSON.stringify(s));
  }
  // Keys too long for a simple key are quoted rather than written in the `? key` form.
  const long = { ['k'.repeat(130)]: 1 };
  assert.deepEqual(parseYAML(gnosticYAML(long)), long);
});
