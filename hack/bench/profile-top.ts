// Prints the functions that took the most CPU in a V8 .cpuprofile (from `node --cpu-prof`), by self
// time and by total time (a function counted once per sample however deep it recurses), optionally
// only for time windows of the bench: `BENCH_PROFILE_WINDOWS=<file>` makes the crud figures write
// their measured windows there, on the same monotonic clock V8 stamps its samples with.
//
//   node _output/dist/hack/bench/profile-top.js <file.cpuprofile> [--windows <file.json>] [--top 30] [--ours]
//
// With --windows, one table per label (create, get, update), each over the windows of that label.
// --ours keeps only the project's compiled code (not node internals or node_modules) in the tables.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A measured span on the monotonic clock, in milliseconds (hack/bench/clock.ts). */
export interface ProfileWindow {
  label: string;
  fromMs: number;
  toMs: number;
}

interface Row {
  name: string;
  self: number;
  total: number;
}

function frameName(f: CallFrame): string {
  const where = f.url ? `${basename(f.url)}:${f.lineNumber + 1}` : '';
  return `${f.functionName || '(anonymous)'}${where ? ` ${where}` : ''}`;
}

function isOurs(f: CallFrame): boolean {
  return f.url.includes('/_output/dist/') && !f.url.includes('/node_modules/');
}

/** Self and total microseconds per function over the samples whose time falls in one of the spans (µs). */
function tally(p: CpuProfile, spans: [number, number][] | undefined): { rows: Row[]; sampledUs: number } {
  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const n of p.nodes) {
    byId.set(n.id, n);
    for (const c of n.children ?? []) parent.set(c, n.id);
  }
  const rows = new Map<string, Row>();
  const row = (f: CallFrame) => {
    const name = frameName(f);
    let r = rows.get(name);
    if (!r) rows.set(name, (r = { name, self: 0, total: 0 }));
    return r;
  };
  let t = p.startTime;
  let sampledUs = 0;
  for (let i = 0; i < p.samples.length; i++) {
    t += p.timeDeltas[i]!;
    // A sample stands for the time until the next one.
    const dt = i + 1 < p.timeDeltas.length ? p.timeDeltas[i + 1]! : 0;
    if (spans && !spans.some(([a, b]) => t >= a && t < b)) continue;
    sampledUs += dt;
    let id: number | undefined = p.samples[i]!;
    const leaf = byId.get(id)!;
    row(leaf.callFrame).self += dt;
    const seen = new Set<string>();
    while (id !== undefined) {
      const f = byId.get(id)!.callFrame;
      const name = frameName(f);
      if (!seen.has(name)) {
        seen.add(name);
        row(f).total += dt;
      }
      id = parent.get(id);
    }
  }
  return { rows: [...rows.values()], sampledUs };
}

function table(title: string, rows: Row[], key: 'self' | 'total', top: number, sampledUs: number): string {
  const sorted = rows.filter((r) => r[key] > 0).sort((a, b) => b[key] - a[key]).slice(0, top);
  const lines = [`${title} (of ${(sampledUs / 1000).toFixed(0)} ms sampled)`, `${'self ms'.padStart(9)} ${'total ms'.padStart(9)}  function`];
  for (const r of sorted) lines.push(`${(r.self / 1000).toFixed(1).padStart(9)} ${(r.total / 1000).toFixed(1).padStart(9)}  ${r.name}`);
  return lines.join('\n');
}

export function profileTop(p: CpuProfile, opts: { windows?: ProfileWindow[]; top: number; ours: boolean }): string {
  const out: string[] = [];
  const groups = new Map<string, [number, number][] | undefined>();
  if (opts.windows) {
    for (const w of opts.windows) {
      const spans = groups.get(w.label) ?? [];
      spans.push([w.fromMs * 1000, w.toMs * 1000]);
      groups.set(w.label, spans);
    }
  } else {
    groups.set('whole profile', undefined);
  }
  const nameFrame = new Map(p.nodes.map((n) => [frameName(n.callFrame), n.callFrame]));
  for (const [label, spans] of groups) {
    const { rows, sampledUs } = tally(p, spans);
    const shown = opts.ours ? rows.filter((r) => isOurs(nameFrame.get(r.name)!)) : rows;
    out.push(`# ${label}${opts.ours ? ' (our code only)' : ''}`);
    out.push(table('by self time', shown, 'self', opts.top, sampledUs));
    out.push(table('by total time', shown, 'total', opts.top, sampledUs));
  }
  return out.join('\n\n');
}

function main(argv: string[]): void {
  let file: string | undefined;
  let windows: ProfileWindow[] | undefined;
  let top = 30;
  let ours = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--windows') windows = JSON.parse(readFileSync(argv[++i]!, 'utf8')) as ProfileWindow[];
    else if (a === '--top') top = Number(argv[++i]);
    else if (a === '--ours') ours = true;
    else file = a;
  }
  if (!file || !Number.isInteger(top) || top <= 0) {
    process.stderr.write('usage: profile-top.js <file.cpuprofile> [--windows <file.json>] [--top 30] [--ours]\n');
    process.exit(2);
  }
  process.stdout.write(`${profileTop(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, { windows, top, ours })}\n`);
}

if (process.argv[1] && import.meta.url.endsWith(basename(process.argv[1]))) main(process.argv.slice(2));
