import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { test } from 'node:test';
import { RotatingFile, sharedFileMemory, type RotatingFileOptions } from './rotating-file.js';
import { eventually } from '../util/testing/eventually.js';

function withDir(fn: (dir: string) => Promise<void> | void) {
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-rotate-'));
    try {
      await fn(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

/** A clock that moves a second on every reading, so every backup gets its own name. */
function ticking(start = Date.UTC(2024, 0, 2, 3, 4, 5, 678)): () => Date {
  let t = start;
  return () => new Date((t += 1000));
}

const opts = (o: Partial<RotatingFileOptions> = {}): RotatingFileOptions => ({ maxBytes: 100, maxAgeDays: 0, maxBackups: 0, compress: false, now: ticking(), ...o });
const line = (i: number) => `${String(i).padStart(3, '0')}${'x'.repeat(36)}\n`; // 40 bytes

test('a write that would pass maxsize moves the file aside as <name>-<UTC timestamp>.<ext> and starts a new one', withDir((dir) => {
  const path = join(dir, 'audit.log');
  const f = new RotatingFile(path, opts());
  for (let i = 0; i < 5; i++) f.write(line(i));
  f.close();
  // 40 + 40 fit in 100; the third would not: files hold lines 0-1, 2-3 and 4.
  assert.equal(readFileSync(path, 'utf8'), line(4));
  const backups = readdirSync(dir).filter((n) => n !== 'audit.log').sort();
  assert.equal(backups.length, 2);
  for (const b of backups) assert.match(b, /^audit-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}\.log$/);
  assert.equal(backups[0], 'audit-2024-01-02T03-04-06.678.log');
  assert.equal(readFileSync(join(dir, backups[0]!), 'utf8'), line(0) + line(1));
  assert.equal(readFileSync(join(dir, backups[1]!), 'utf8'), line(2) + line(3));
  assert.ok(Math.max(...[path, ...backups.map((b) => join(dir, b))].map((p) => statSync(p).size)) <= 100);
}));

test('an existing file is appended to, or rotated first when the write would not fit', withDir((dir) => {
  const path = join(dir, 'audit.log');
  writeFileSync(path, line(0));
  const f = new RotatingFile(path, opts());
  f.write(line(1));
  f.close();
  assert.equal(readFileSync(path, 'utf8'), line(0) + line(1));
  const g = new RotatingFile(path, opts());
  g.write(line(2));
  g.close();
  assert.equal(readFileSync(path, 'utf8'), line(2));
  assert.equal(readdirSync(dir).length, 2);
}));

test('a single write larger than maxsize is refused, and the writer goes on', withDir((dir) => {
  const path = join(dir, 'audit.log');
  const f = new RotatingFile(path, opts());
  assert.throws(() => f.write('y'.repeat(101)), { message: 'write length 101 exceeds maximum file size 100' });
  f.write(line(0));
  f.close();
  assert.equal(readFileSync(path, 'utf8'), line(0));
}));

test('maxbackup keeps only the newest backups', withDir((dir) => {
  const path = join(dir, 'audit.log');
  const f = new RotatingFile(path, opts({ maxBackups: 2 }));
  for (let i = 0; i < 10; i++) f.write(line(i)); // 5 files' worth: 4 backups made
  f.close();
  const backups = readdirSync(dir).filter((n) => n !== 'audit.log').sort();
  assert.equal(backups.length, 2);
  // Files held 0-1, 2-3, 4-5, 6-7 and (current) 8-9: the two oldest backups went.
  assert.equal(readFileSync(join(dir, backups[0]!), 'utf8'), line(4) + line(5));
  assert.equal(readFileSync(join(dir, backups[1]!), 'utf8'), line(6) + line(7));
  assert.equal(readFileSync(path, 'utf8'), line(8) + line(9));
}));

test('maxage removes backups older than that many days, by the timestamp in their name; other files stay', withDir((dir) => {
  const path = join(dir, 'audit.log');
  const now = Date.UTC(2024, 5, 10, 12, 0, 0, 0);
  writeFileSync(join(dir, 'audit-2024-06-01T00-00-00.000.log'), 'old\n');
  writeFileSync(join(dir, 'audit-2024-06-09T00-00-00.000.log'), 'recent\n');
  writeFileSync(join(dir, 'audit-notatime.log'), 'unrelated\n');
  writeFileSync(join(dir, 'other-2024-06-01T00-00-00.000.log'), 'unrelated\n');
  const f = new RotatingFile(path, opts({ maxAgeDays: 3, now: () => new Date(now) }));
  f.write(line(0));
  f.close();
  assert.deepEqual(readdirSync(dir).sort(), ['audit-2024-06-09T00-00-00.000.log', 'audit-notatime.log', 'audit.log', 'other-2024-06-01T00-00-00.000.log']);
}));

test('compress gzips backups beside the file', withDir(async (dir) => {
  const path = join(dir, 'audit.log');
  const f = new RotatingFile(path, opts({ compress: true }));
  for (let i = 0; i < 3; i++) f.write(line(i));
  await eventually(() => readdirSync(dir).some((n) => n.endsWith('.log.gz')) && !readdirSync(dir).some((n) => /-.*\.log$/.test(n)), 'the compressed backup', 5000);
  f.close();
  const gz = readdirSync(dir).find((n) => n.endsWith('.gz'))!;
  assert.equal(gunzipSync(readFileSync(join(dir, gz))).toString(), line(0) + line(1));
}));

test('a file without an extension gets <name>-<timestamp> backups; the directory is made when missing', withDir((dir) => {
  const path = join(dir, 'sub', 'audit');
  const f = new RotatingFile(path, opts());
  for (let i = 0; i < 3; i++) f.write(line(i));
  f.close();
  assert.ok(existsSync(path));
  assert.ok(readdirSync(join(dir, 'sub')).some((n) => /^audit-\d{4}-.*\.\d{3}$/.test(n)));
}));

test('writers in several threads share one file: each line whole, in one file, rotated once when the shared size says so', withDir((dir) => {
  const path = join(dir, 'audit.log');
  const memory = sharedFileMemory();
  const clock = ticking();
  // Two writers over one memory stand for two threads (their own file descriptors, their own turns).
  const writers = [1, 2].map((owner) => new RotatingFile(path, opts({ maxBytes: 400, now: clock, shared: { memory, owner } })));
  for (let i = 0; i < 55; i++) writers[i % 3 === 0 ? 1 : 0]!.write(line(i));
  for (const w of writers) w.close();
  const files = readdirSync(dir).sort();
  const lines = files.flatMap((f) => {
    const text = readFileSync(join(dir, f), 'utf8');
    assert.ok(Buffer.byteLength(text) <= 400, `${f} within maxBytes`);
    return text.split('\n').filter(Boolean);
  });
  assert.ok(lines.every((l) => l.length === 39), 'every line whole');
  assert.deepEqual(lines.map((l) => Number(l.slice(0, 3))).sort((a, b) => a - b), Array.from({ length: 55 }, (_, i) => i), 'every line once');
  // Ten lines of 40 bytes fit in 400: 55 lines make 6 files, as one writer would.
  assert.equal(files.length, 6);
}));
