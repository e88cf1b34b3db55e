// A log file that rotates itself, as upstream's audit log does with lumberjack: when a write would
// take the file past its size limit the file is renamed to `<name>-<UTC timestamp>.<ext>` beside
// it and a new one started; old backups beyond the count or age limits are removed, and optionally
// gzipped. Writes are synchronous so an event is on disk (or refused) before the request goes on;
// a failing write throws for the caller to report, and never leaves the writer unusable.
//
// Several threads of one process may write one file: each has its own RotatingFile over the same
// shared memory, and they take turns (a mutex) for each write, which they make whole. The size of
// the file and how often it was started anew live in that memory, so the one whose write would
// take the file past its limit rotates it, and the others open the new file at their next turn.
import { chmodSync, closeSync, createReadStream, createWriteStream, fstatSync, mkdirSync, openSync, readdirSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { ThreadMutex } from '../util/thread-mutex.js';

export interface RotatingFileOptions {
  /** The size in bytes a write may not take the file past; upstream's default is 100 MiB. */
  maxBytes: number;
  /** Backups older than this many days are removed; 0 keeps them whatever their age. */
  maxAgeDays: number;
  /** At most this many backups are kept; 0 keeps all. */
  maxBackups: number;
  /** Gzip backups (`<backup>.gz`). */
  compress: boolean;
  /** The clock the backup names and the age limit read (tests pass their own). */
  now?: () => Date;
  /** Where failures of the background work (compression) are reported. */
  onBackgroundError?: (err: unknown) => void;
  /** With other threads writing the same file: the memory they share (sharedFileMemory()) and this thread's id. */
  shared?: { memory: SharedArrayBuffer; owner: number };
}

/**
 * The memory the writers of one file in several threads share: the mutex (bytes 0-3), how many
 * times the file was started anew by a rotation (4-7, 0 before the first write), its size (8-15).
 */
export function sharedFileMemory(): SharedArrayBuffer {
  return new SharedArrayBuffer(16);
}

interface SharedFile {
  mutex: ThreadMutex;
  generation: Int32Array;
  size: Float64Array;
}

export const MEGABYTE = 1024 * 1024;
/** lumberjack's size limit when none is given. */
export const defaultMaxMegabytes = 100;
const backupTimeFormatLength = 'YYYY-MM-DDTHH-MM-SS.mmm'.length;

/** `2006-01-02T15-04-05.000` in UTC: the timestamp of a backup's name. */
function backupTimestamp(d: Date): string {
  return d.toISOString().slice(0, backupTimeFormatLength).replace(/:/g, '-');
}

function parseBackupTimestamp(s: string): Date | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})\.(\d{3})$/.exec(s);
  if (!m) return undefined;
  const d = new Date(`${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z`);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

export class RotatingFile {
  private fd: number | undefined;
  private size = 0;
  private readonly dir: string;
  private readonly prefix: string;
  private readonly ext: string;
  private readonly compressing = new Set<string>();
  private readonly shared: SharedFile | undefined;
  /** With a shared file: the generation the file this writer has open belongs to. */
  private generation = 0;

  constructor(readonly path: string, private readonly opts: RotatingFileOptions) {
    this.dir = dirname(path);
    this.ext = extname(path);
    this.prefix = `${basename(path, this.ext)}-`;
    const shared = opts.shared;
    if (shared) {
      this.shared = { mutex: new ThreadMutex(shared.memory, shared.owner), generation: new Int32Array(shared.memory, 4, 1), size: new Float64Array(shared.memory, 8, 1) };
    }
  }

  private now(): Date {
    return this.opts.now?.() ?? new Date();
  }

  /** Appends `data` whole, rotating first when it would not fit; throws when it cannot be written. */
  write(data: string | Buffer): void {
    const buf = typeof data === 'string' ? Buffer.from(data) : data;
    const max = this.opts.maxBytes;
    if (buf.length > max) throw new Error(`write length ${buf.length} exceeds maximum file size ${max}`);
    if (!this.shared) {
      if (this.fd === undefined) this.openExistingOrNew(buf.length);
      else if (this.size + buf.length > max) this.rotate();
      this.append(buf);
      return;
    }
    const { mutex, generation, size } = this.shared;
    mutex.lock();
    try {
      if (generation[0] === 0) {
        // The file's first write in any thread: as a lone writer's first.
        this.openExistingOrNew(buf.length);
        size[0] = this.size;
        this.generation = generation[0] = 1;
      } else if (this.fd === undefined || this.generation !== generation[0]) {
        this.close();
        this.fd = openSync(this.path, 'a');
        this.generation = generation[0]!;
      }
      if (size[0]! + buf.length > max) {
        // Counted first: should this thread end halfway, the others still start on a file of the path.
        this.generation = ++generation[0]!;
        size[0] = 0;
        this.rotate();
      }
      this.size = size[0]!;
      this.append(buf);
      size[0] = this.size;
    } finally {
      mutex.unlock();
    }
  }

  private append(buf: Buffer): void {
    let off = 0;
    try {
      while (off < buf.length) off += writeSync(this.fd!, buf, off, buf.length - off);
    } finally {
      this.size += off;
    }
  }

  /** Closes the file; the next write opens it again. */
  close(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    closeSync(fd);
  }

  /** Starts a new file now, whatever the size of the current one (a lone writer's; shared files rotate in write). */
  rotate(): void {
    this.close();
    this.openNew();
    this.mill();
  }

  private openExistingOrNew(writeLen: number): void {
    this.mill();
    let size: number;
    try {
      size = statSync(this.path).size;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
        this.openNew();
        return;
      }
      throw e;
    }
    if (size + writeLen >= this.opts.maxBytes) {
      this.rotate();
      return;
    }
    this.fd = openSync(this.path, 'a');
    this.size = fstatSync(this.fd).size;
  }

  /** Moves the current file (if any) aside under its backup name and opens an empty one with the same mode. */
  private openNew(): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o755 });
    let mode = 0o600;
    try {
      mode = statSync(this.path).mode & 0o777;
      renameSync(this.path, join(this.dir, `${this.prefix}${backupTimestamp(this.now())}${this.ext}`));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    // Appending, as every writer of a shared file must: a write at this descriptor's own offset
    // would land on what another thread's descriptor appended meanwhile. (The path is free now.)
    this.fd = openSync(this.path, 'a', mode);
    chmodSync(this.path, mode);
    this.size = 0;
  }

  /** The backups beside the file, newest first. */
  backups(): { name: string; time: Date }[] {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return [];
    }
    const out: { name: string; time: Date }[] = [];
    for (const name of names) {
      if (!name.startsWith(this.prefix)) continue;
      for (const suffix of [this.ext, `${this.ext}.gz`]) {
        if (!name.endsWith(suffix)) continue;
        const time = parseBackupTimestamp(name.slice(this.prefix.length, name.length - suffix.length));
        if (time) {
          out.push({ name, time });
          break;
        }
      }
    }
    return out.sort((a, b) => b.time.getTime() - a.time.getTime());
  }

  /** Removes backups beyond the count and age limits, then compresses those left (in the background). */
  private mill(): void {
    const { maxBackups, maxAgeDays, compress } = this.opts;
    if (maxBackups === 0 && maxAgeDays === 0 && !compress) return;
    let files = this.backups();
    const remove: string[] = [];
    if (maxBackups > 0 && maxBackups < files.length) {
      // A backup and its compressed copy count once.
      const kept = new Set<string>();
      const left: typeof files = [];
      for (const f of files) {
        const key = f.name.endsWith('.gz') ? f.name.slice(0, -3) : f.name;
        kept.add(key);
        if (kept.size > maxBackups) remove.push(f.name);
        else left.push(f);
      }
      files = left;
    }
    if (maxAgeDays > 0) {
      const cutoff = this.now().getTime() - maxAgeDays * 24 * 3600 * 1000;
      const left: typeof files = [];
      for (const f of files) {
        if (f.time.getTime() < cutoff) remove.push(f.name);
        else left.push(f);
      }
      files = left;
    }
    for (const name of remove) {
      try {
        unlinkSync(join(this.dir, name));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') this.opts.onBackgroundError?.(e);
      }
    }
    if (compress) for (const f of files) if (!f.name.endsWith('.gz')) this.compress(f.name);
  }

  private compress(name: string): void {
    if (this.compressing.has(name)) return;
    this.compressing.add(name);
    const src = join(this.dir, name);
    pipeline(createReadStream(src), createGzip(), createWriteStream(`${src}.gz`, { mode: 0o600 }))
      .then(() => unlinkSync(src))
      .catch((e: unknown) => this.opts.onBackgroundError?.(e))
      .finally(() => this.compressing.delete(name));
  }
}
