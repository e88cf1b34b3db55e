// Creates, gets and updates of 1 KiB ConfigMaps per second at each client count, through the server
// and, right after each, the same operation straight against etcd through the etcd3 client: the
// ratio says how much of etcd's own speed the server keeps.
import { nowMs } from './clock.js';
import type { BenchContext } from './context.js';
import type { Backend, CrudResult, Op } from './protocol.js';
import { writeFileSync } from 'node:fs';
import type { ProfileWindow } from './profile-top.js';
import { coresBetween, formatCores, type CpuSnapshot, type Roles } from './proc-stats.js';
import { fmtMs, fmtRate, fmtRatio } from './report.js';
import { quantile } from './stats.js';

interface CellResult {
  perSecond: number;
  p50: number;
  p99: number;
  cpu: Roles;
}

const opNames: Record<Op, string> = { create: 'creates', get: 'gets', update: 'updates' };

/** The measured windows of the server's cells, for BENCH_PROFILE_WINDOWS. */
const windows: ProfileWindow[] = [];

async function cell(ctx: BenchContext, backend: Backend, op: Op, clients: number, warmupMs = ctx.config.warmupMs, measureMs = ctx.config.cellSeconds * 1000): Promise<CellResult> {
  // A common start on the shared clock, so every thread's window is the same window.
  const startAt = nowMs() + 50;
  const measureFrom = startAt + warmupMs;
  const snapshotAt = (at: number) => new Promise<CpuSnapshot>((resolve) => setTimeout(() => resolve(ctx.cpu()), Math.max(0, at - nowMs())));
  const snapshots = Promise.all([snapshotAt(measureFrom), snapshotAt(measureFrom + measureMs)]);
  const results = await Promise.all(ctx.pool.split(clients).map(({ loader, share }) =>
    loader.run<CrudResult>({ kind: 'crud', backend, op, clients: share, startAt, warmupMs, measureMs })));
  const [from, to] = await snapshots;
  if (backend === 'orch' && measureMs > 1) windows.push({ label: op, fromMs: measureFrom, toMs: measureFrom + measureMs });
  const latencies = new Float64Array(results.reduce((n, r) => n + r.count, 0));
  let at = 0;
  for (const r of results) {
    latencies.set(r.latenciesMs, at);
    at += r.count;
  }
  return { perSecond: latencies.length / (measureMs / 1000), p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99), cpu: coresBetween(from, to) };
}

export async function crudFigures(ctx: BenchContext): Promise<void> {
  const { report } = ctx;
  // A fresh server runs cold code; the first cell would measure the JIT rather than the server.
  for (const op of ['create', 'get', 'update'] as const) await cell(ctx, 'orch', op, 16, ctx.config.serverWarmupMs, 1);
  report.line(`\n## create / get / update of 1 KiB ConfigMaps (${ctx.config.cellSeconds} s measured per cell after ${ctx.config.warmupMs} ms warm-up; the server was warmed by ${ctx.config.serverWarmupMs} ms each of creates, gets and updates)`);
  for (const op of ['create', 'get', 'update'] as const) {
    for (const clients of ctx.config.clients) {
      const orch = await cell(ctx, 'orch', op, clients);
      const raw = await cell(ctx, 'etcd', op, clients);
      const label = `${opNames[op]}/s, ${clients} client${clients === 1 ? '' : 's'}`;
      const show = (who: string, r: CellResult) =>
        report.line(`${label.padEnd(22)} ${who.padEnd(8)} ${fmtRate(r.perSecond).padStart(7)}/s  p50 ${fmtMs(r.p50).padStart(6)} ms  p99 ${fmtMs(r.p99).padStart(6)} ms  | ${formatCores(r.cpu)}`);
      show('orch', orch);
      show('raw etcd', raw);
      report.add({ figure: label, orch: fmtRate(orch.perSecond), etcd: fmtRate(raw.perSecond), ratio: fmtRatio(orch.perSecond / raw.perSecond), cpu: orch.cpu, etcdCpu: raw.cpu });
      report.add({ figure: `  ${op} p50 / p99 (ms), ${clients} client${clients === 1 ? '' : 's'}`, orch: `${fmtMs(orch.p50)} / ${fmtMs(orch.p99)}`, etcd: `${fmtMs(raw.p50)} / ${fmtMs(raw.p99)}`, ratio: `${fmtRatio(orch.p50 / raw.p50)} / ${fmtRatio(orch.p99 / raw.p99)}`, cpu: orch.cpu, etcdCpu: raw.cpu });
    }
  }
  if (ctx.config.profileWindows) writeFileSync(ctx.config.profileWindows, JSON.stringify(windows));
}
