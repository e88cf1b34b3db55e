import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Logger } from './logger.js';

/** The source line (1-based) of this test file that holds `marker`. */
function lineOf(marker: string): number {
  const source = readFileSync(fileURLToPath(import.meta.url).replace('/_output/dist/', '/').replace(/\.js$/, '.ts'), 'utf8');
  const i = source.split('\n').findIndex((l) => l.includes(marker) && !l.includes('lineOf('));
  assert.ok(i >= 0, marker);
  return i + 1;
}

function capture(verbosity = 0, fields: Record<string, unknown> = {}): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  return { logger: new Logger(verbosity, (l) => lines.push(l), fields), lines };
}

/** klog's header: severity, mmdd, hh:mm:ss.uuuuuu, the thread id in seven columns, file:line. */
const header = /^([IWE])(\d\d)(\d\d) (\d\d):(\d\d):(\d\d)\.(\d{6}) ([ \d]{7}) ([^ :]+):(\d+)\] /;

test('the header is klog\'s: local time to the microsecond, the pid in seven columns, the caller\'s .ts file and line', () => {
  const { logger, lines } = capture();
  const before = Date.now();
  logger.info('first'); // marker:first
  for (let i = 0; i < 30; i++) logger.warn('again');
  const after = Date.now();
  const m = header.exec(lines[0]!);
  assert.ok(m, lines[0]);
  assert.equal(m[1], 'I');
  assert.equal(m[8], String(process.pid).padStart(7));
  assert.equal(m[9], 'logger.test.ts');
  assert.equal(Number(m[10]), lineOf('marker:first'));
  // Local time, as klog prints it, within the moments around the call.
  const now = new Date(before);
  const at = new Date(now.getFullYear(), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]), Number(m[7]) / 1000);
  assert.ok(at.getTime() >= before - 1 && at.getTime() <= after + 1, `${lines[0]} is not between ${new Date(before).toString()} and ${new Date(after).toString()}`);
  // Real microseconds, not milliseconds padded with zeros.
  assert.ok(lines.some((l) => !/\.\d{3}000 /.test(l)), lines.join(''));
  for (const l of lines.slice(1)) assert.match(l, /^W/);
});

test('structured lines: the message and string values quoted as Go quotes them, other values as JSON, multi-line values indented', () => {
  const { logger, lines } = capture(0, { worker: 2 });
  logger.error('request "failed"', { verb: 'GET', status: 503, ok: false, none: null, skipped: undefined, err: new Error('etcd: \x00 gone'), big: 12345678901234567890n, obj: { a: [1] } });
  logger.info('stack', { err: 'Error: boom\n    at f (a.ts:1:2)' });
  logger.info('ends with a newline', { text: 'one\ntwo\n' });
  assert.equal(lines[0]!.replace(header, ''), '"request \\"failed\\"" verb="GET" status=503 ok=false none=null err="etcd: \\x00 gone" big=12345678901234567890 obj={"a":[1]} worker=2\n');
  assert.equal(lines[1]!.replace(header, ''), '"stack" err=<\n\tError: boom\n\t    at f (a.ts:1:2)\n > worker=2\n');
  assert.equal(lines[2]!.replace(header, ''), '"ends with a newline" text=<\n\tone\n\ttwo\n > worker=2\n');
});

test('text lines carry their words as they are, as klog\'s Warningf does, then the logger\'s pairs (the thread)', () => {
  const { logger, lines } = capture(0, { worker: 2 });
  logger.warnText('Failed calling webhook, failing open a.example.com: failed calling webhook "a.example.com": timeout');
  logger.errorText('with its own newline\n');
  assert.match(lines[0]!, header);
  assert.equal(lines[0]!.replace(header, ''), 'Failed calling webhook, failing open a.example.com: failed calling webhook "a.example.com": timeout worker=2\n');
  assert.equal(lines[1]!.replace(header, ''), 'with its own newline worker=2\n');
  const plain = capture();
  plain.logger.warnText('no pairs, no change');
  assert.equal(plain.lines[0]!.replace(header, ''), 'no pairs, no change\n');
});

test('v(n) lines are written only at that verbosity, and name their caller too', () => {
  const { logger, lines } = capture(2);
  logger.v(3).info('hidden');
  logger.v(3).infoText('hidden');
  logger.v(2).info('shown'); // marker:verbose
  assert.equal(lines.length, 1);
  assert.equal(header.exec(lines[0]!)![10], String(lineOf('marker:verbose')));
});

test('withCallDepth names the caller of a helper that logs on its behalf', () => {
  const { logger, lines } = capture();
  const helperLog = logger.withCallDepth(1);
  const helper = (m: string) => helperLog.warn(m);
  helper('from the helper\'s caller'); // marker:helper
  logger.warn('direct'); // marker:direct
  assert.equal(header.exec(lines[0]!)![10], String(lineOf('marker:helper')));
  assert.equal(header.exec(lines[1]!)![10], String(lineOf('marker:direct')));
});
