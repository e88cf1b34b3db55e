// CPU and memory of the processes under test, read from /proc so the figures are the kernel's and
// cost the measured processes nothing. The server and etcd are counted with their descendants, so
// a server that starts processes of its own would still be counted whole.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of utime/stime; 100 nearly everywhere, but asked once to be sure. */
const ticksPerSecond = (() => {
  try {
    const n = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return Number.isInteger(n) && n > 0 ? n : 100;
  } catch {
    return 100;
  }
})();

interface StatFields {
  ppid: number;
  /** utime + stime, in seconds. */
  cpu: number;
}

/** Fields of /proc/<pid>/stat, or undefined once the process is gone. */
function readStat(pid: number): StatFields | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold spaces and parentheses; every later field follows the last ')'.
  const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // rest[0] is field 3 (state): ppid is field 4, utime 14, stime 15.
  return { ppid: Number(rest[1]), cpu: (Number(rest[11]) + Number(rest[12])) / ticksPerSecond };
}

/** Every process now alive, read once, so the figures of all roles come from one pass over /proc. */
function readAll(): Map<number, StatFields> {
  const all = new Map<number, StatFields>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const s = readStat(Number(entry));
    if (s) all.set(Number(entry), s);
  }
  return all;
}

/** The pid and every descendant of it in `all`. */
function tree(all: Map<number, StatFields>, root: number): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, s] of all) {
    const list = children.get(s.ppid);
    if (list) list.push(pid);
    else children.set(s.ppid, [pid]);
  }
  const out: number[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    if (!all.has(pid)) continue;
    out.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return out;
}

/**
 * Memory of a process and its descendants, in bytes: VmRSS and VmHWM (peak RSS) from
 * /proc/<pid>/status, and PSS from /proc/<pid>/smaps_rollup. RSS counts every page a process maps,
 * so pages shared between processes (the node binary's text, the pages a forked worker shares)
 * are counted once per process; PSS splits each shared page among the processes that map it, so
 * the sum over the tree is what the processes cost the machine together.
 */
export function memory(root: number): { rss: number; hwm: number; pss: number } {
  let rss = 0;
  let hwm = 0;
  let pss = 0;
  for (const pid of tree(readAll(), root)) {
    let status: string;
    try {
      status = readFileSync(`/proc/${pid}/status`, 'latin1');
    } catch {
      continue;
    }
    rss += Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
    hwm += Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
    try {
      pss += Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'latin1'))?.[1] ?? 0) * 1024;
    } catch {
      // Gone between the two reads, or a kernel without smaps_rollup (before 4.14): no PSS from it.
    }
  }
  return { rss, hwm, pss };
}

export interface Roles {
  server: number;
  etcd: number;
  load: number;
}

export interface CpuSnapshot {
  atMs: number;
  seconds: Roles;
}

/**
 * CPU seconds used so far by each role: the server and etcd with their descendants, the load tool
 * (this process, all its threads) alone, since etcd and the server are its children.
 */
export function cpuSnapshot(pids: Roles, atMs: number): CpuSnapshot {
  const all = readAll();
  const sum = (pidList: number[]) => pidList.reduce((n, pid) => n + (all.get(pid)?.cpu ?? 0), 0);
  return { atMs, seconds: { server: sum(tree(all, pids.server)), etcd: sum(tree(all, pids.etcd)), load: all.get(pids.load)?.cpu ?? 0 } };
}

/** Cores each role kept busy between two snapshots (1.0 = one core for the whole interval). */
export function coresBetween(a: CpuSnapshot, b: CpuSnapshot): Roles {
  const wall = (b.atMs - a.atMs) / 1000;
  const cores = (k: keyof Roles) => (wall > 0 ? (b.seconds[k] - a.seconds[k]) / wall : 0);
  return { server: cores('server'), etcd: cores('etcd'), load: cores('load') };
}

/** Adds up the CPU of several measured intervals (e.g. the runs of one list figure) as one. */
export function coresOver(intervals: readonly (readonly [CpuSnapshot, CpuSnapshot])[]): Roles {
  let wall = 0;
  const used: Roles = { server: 0, etcd: 0, load: 0 };
  for (const [a, b] of intervals) {
    wall += (b.atMs - a.atMs) / 1000;
    for (const k of ['server', 'etcd', 'load'] as const) used[k] += b.seconds[k] - a.seconds[k];
  }
  return { server: wall > 0 ? used.server / wall : 0, etcd: wall > 0 ? used.etcd / wall : 0, load: wall > 0 ? used.load / wall : 0 };
}

export function formatCores(c: Roles): string {
  return `server ${c.server.toFixed(2)} cores, etcd ${c.etcd.toFixed(2)}, load ${c.load.toFixed(2)}`;
}

/**
 * Samples the server's memory on an interval, keeping the highest VmRSS and PSS seen and the
 * kernel's own high-water mark (VmHWM, which catches RSS peaks between samples; PSS has none, so
 * its peak is the highest sample).
 */
export class RssSampler {
  private timer: NodeJS.Timeout | undefined;
  peakRss = 0;
  peakHwm = 0;
  peakPss = 0;
  /** The peaks since the last `section()` call (VmHWM cannot be reset, so RSS here is sampled only). */
  private sectionRss = 0;
  private sectionPss = 0;

  constructor(private readonly pid: () => number | undefined, private readonly intervalMs: number) {}

  /** The highest sampled RSS and PSS since the last call, to tell which part of a run set the peak. */
  section(): { rss: number; pss: number } {
    this.sample();
    const peaks = { rss: this.sectionRss, pss: this.sectionPss };
    this.sectionRss = 0;
    this.sectionPss = 0;
    return peaks;
  }

  sample(): { rss: number; hwm: number; pss: number } | undefined {
    const pid = this.pid();
    if (pid === undefined) return undefined;
    const m = memory(pid);
    this.peakRss = Math.max(this.peakRss, m.rss);
    this.peakHwm = Math.max(this.peakHwm, m.hwm);
    this.peakPss = Math.max(this.peakPss, m.pss);
    this.sectionRss = Math.max(this.sectionRss, m.rss);
    this.sectionPss = Math.max(this.sectionPss, m.pss);
    return m;
  }

  start(): void {
    this.timer = setInterval(() => this.sample(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
